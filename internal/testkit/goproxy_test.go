package testkit

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestModuleProxyServesAnAddedVersion adds a small module to a proxy and
// resolves it with go mod download through the proxy's environment, from a
// module of its own: the version, its go.mod and its files come from the
// proxy, into the test's own module cache; a module the machine's module
// cache holds (golang.org/x/mod, which this module requires) resolves too,
// and a version nobody has is not found.
func TestModuleProxyServesAnAddedVersion(t *testing.T) {
	const modPath = "example.com/tiny"
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "go.mod"), []byte("module "+modPath+"\n\ngo 1.22\n"))
	writeFile(t, filepath.Join(src, "tiny.go"), []byte("// Package tiny says hello.\npackage tiny\n\n// Hello is a greeting.\nconst Hello = \"hello\"\n"))

	p := NewModuleProxy(t)
	p.Add(t, modPath, "v1.0.0", src)
	p.Add(t, modPath, "v1.1.0", src)

	user := t.TempDir()
	writeFile(t, filepath.Join(user, "go.mod"), []byte("module example.com/user\n\ngo 1.22\n"))
	out := Go(t, user, p.Env(), "mod", "download", "-json", modPath+"@v1.0.0")
	var got struct {
		Path, Version, Error, Dir, GoMod string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("go mod download -json printed %q: %v", out, err)
	}
	if got.Path != modPath || got.Version != "v1.0.0" || got.Error != "" {
		t.Fatalf("go mod download -json = %+v, want %s@v1.0.0", got, modPath)
	}
	if data, err := os.ReadFile(filepath.Join(got.Dir, "tiny.go")); err != nil || len(data) == 0 {
		t.Errorf("the downloaded module lacks tiny.go: %v", err)
	}
	if rel, err := filepath.Rel(p.modCache, got.Dir); err != nil || !filepath.IsLocal(rel) {
		t.Errorf("the module was extracted to %s, not into the test's own module cache %s", got.Dir, p.modCache)
	}

	out = Go(t, user, p.Env(), "mod", "download", "-json", "golang.org/x/mod@v0.41.0")
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Version != "v0.41.0" || got.Error != "" {
		t.Errorf("go mod download -json golang.org/x/mod@v0.41.0 = %+v (%v)", got, err)
	}
	cmd := exec.Command(LookPath(t, "install Go", "go"), "mod", "download", modPath+"@v1.2.0")
	cmd.Dir, cmd.Env = user, append(os.Environ(), p.Env()...)
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Errorf("go mod download %s@v1.2.0, a version the proxy lacks, succeeded:\n%s", modPath, out)
	}

	out = Go(t, user, p.Env(), "list", "-m", "-versions", modPath)
	if want := modPath + " v1.0.0 v1.1.0\n"; out != want {
		t.Errorf("go list -m -versions = %q, want %q", out, want)
	}
	// A module that imports it builds after go get, which reads its go.mod.
	writeFile(t, filepath.Join(user, "user.go"), []byte("package user\n\nimport \"example.com/tiny\"\n\nvar _ = tiny.Hello\n"))
	Go(t, user, p.Env(), "get", modPath+"@v1.1.0")
	Go(t, user, p.Env(), "build", "./...")
}
