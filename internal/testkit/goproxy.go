package testkit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// ModuleProxy is a file-system GOPROXY a test builds: module versions made
// from folders of this repository (or copies of them a test changed), served
// to the go commands the test runs, together with every module the module
// cache already holds. Nothing is fetched from the network, and nothing the
// test publishes reaches the machine's module cache: the go commands run
// with a module cache of the test's own, so a version made for a test never
// stands in for a real release of the same name.
type ModuleProxy struct {
	dir      string // the proxy's root: <escaped path>/@v/<escaped version>.{info,mod,zip}
	modCache string // the module cache the go commands use
	download string // the machine's module cache's download directory, a proxy too
	goflags  string // GOFLAGS as the environment had it
}

// NewModuleProxy returns an empty proxy in a temporary directory of t.
func NewModuleProxy(t testing.TB) *ModuleProxy {
	t.Helper()
	env := strings.Split(Go(t, t.TempDir(), nil, "env", "GOMODCACHE", "GOFLAGS"), "\n")
	if len(env) < 2 || env[0] == "" {
		t.Fatalf("testkit: go env GOMODCACHE GOFLAGS printed %q", env)
	}
	return &ModuleProxy{
		dir:      t.TempDir(),
		modCache: t.TempDir(),
		download: filepath.Join(env[0], "cache", "download"),
		goflags:  env[1],
	}
}

// Add zips dir, a module root with a go.mod naming modPath, as
// modPath@version and adds it to the proxy: the version joins @v/list, and
// its .info, .mod and .zip are written. Files a module zip leaves out
// (nested modules, vendor directories, version control) are left out here.
func (p *ModuleProxy) Add(t testing.TB, modPath, version, dir string) {
	t.Helper()
	mv := module.Version{Path: modPath, Version: version}
	if err := module.Check(modPath, version); err != nil {
		t.Fatalf("testkit: proxy: %v", err)
	}
	goMod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatalf("testkit: proxy: %s is no module root: %v", dir, err)
	}
	if got := modfile.ModulePath(goMod); got != modPath {
		t.Fatalf("testkit: proxy: %s/go.mod names %q, not %q", dir, got, modPath)
	}
	escPath, err := module.EscapePath(modPath)
	if err != nil {
		t.Fatalf("testkit: proxy: %v", err)
	}
	escVersion, err := module.EscapeVersion(version)
	if err != nil {
		t.Fatalf("testkit: proxy: %v", err)
	}
	vdir := filepath.Join(p.dir, filepath.FromSlash(escPath), "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		t.Fatalf("testkit: proxy: %v", err)
	}
	base := filepath.Join(vdir, escVersion)

	zf, err := os.Create(base + ".zip")
	if err != nil {
		t.Fatalf("testkit: proxy: %v", err)
	}
	if err := zip.CreateFromDir(zf, mv, dir); err != nil {
		zf.Close()
		t.Fatalf("testkit: proxy: zip %s as %s: %v", dir, mv, err)
	}
	if err := zf.Close(); err != nil {
		t.Fatalf("testkit: proxy: %v", err)
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, time.Now().UTC().Truncate(time.Second)})
	if err != nil {
		t.Fatalf("testkit: proxy: %v", err)
	}
	writeFile(t, base+".info", info)
	writeFile(t, base+".mod", goMod)

	list := filepath.Join(vdir, "list")
	data, err := os.ReadFile(list)
	if err != nil && !os.IsNotExist(err) {
		t.Fatalf("testkit: proxy: %v", err)
	}
	versions := strings.Fields(string(data))
	if !slices.Contains(versions, version) {
		versions = append(versions, version)
	}
	writeFile(t, list, []byte(strings.Join(versions, "\n")+"\n"))
}

// Env returns the environment a go command runs with to resolve modules
// through the proxy, appended after os.Environ(): first this proxy, then
// the machine's module cache's download directory (itself a valid proxy,
// so modules already downloaded resolve and nothing leaves the machine);
// no checksum database; a module cache of the test's own, writable so
// that t's temporary directory can be removed; -mod=mod, so go.mod and
// go.sum are updated as needed; and -trimpath, so the build cache's
// compiled dependencies are shared with every other such test although
// the module cache, whose path builds otherwise record, is not.
func (p *ModuleProxy) Env() []string {
	goflags := strings.TrimSpace(p.goflags + " -mod=mod -modcacherw -trimpath")
	return []string{
		"GOPROXY=" + fileURL(p.dir) + "," + fileURL(p.download),
		"GOSUMDB=off",
		"GOPRIVATE=",
		"GONOPROXY=",
		"GONOSUMDB=",
		"GOWORK=off",
		"GOTOOLCHAIN=local",
		"GOMODCACHE=" + p.modCache,
		"GOFLAGS=" + goflags,
	}
}

// fileURL is the file:// URL of an absolute path.
func fileURL(path string) string {
	return "file://" + filepath.ToSlash(path)
}

// writeFile writes data to path, failing t on error.
func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatalf("testkit: %v", err)
	}
}
