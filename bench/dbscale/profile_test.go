package dbscale

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestEachChildProfilesToAFileOfItsOwn checks BENCH_PROFILE's files: one
// per implementation on the process transport, each a CPU profile
// (pprof's gzip-compressed protocol buffer) once its child stops.
func TestEachChildProfilesToAFileOfItsOwn(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, name := range implNames[transportProcess] {
		stop, err := profileCPU(dir, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		stop()
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != len(files)+1 {
			t.Fatalf("%s: %d files after %d implementations, want one more", name, len(entries), len(files))
		}
		for _, e := range entries {
			if !slices.Contains(files, e.Name()) {
				files = append(files, e.Name())
			}
		}
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Ext(f) != ".pprof" || !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
			t.Errorf("%s: not a .pprof file holding a compressed profile (% x…)", f, b[:min(len(b), 4)])
		}
	}
	if !slices.Contains(files, "service.pprof") {
		t.Errorf("files %v, want service.pprof among them", files)
	}
}
