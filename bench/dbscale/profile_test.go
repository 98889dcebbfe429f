package dbscale

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestEachChildProfilesToAFileOfItsOwn checks BENCH_PROFILE's files: one
// per implementation on the process transport, each a CPU profile
// (pprof's gzip-compressed protocol buffer) once its child stops.
func TestEachChildProfilesToAFileOfItsOwn(t *testing.T) {
	dir := t.TempDir()
	for _, name := range implNames[transportProcess] {
		stop, err := profileCPU(dir, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		stop()
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Two implementations given one file name would leave fewer files.
	if len(entries) != implCount {
		t.Fatalf("%d files for %d implementations", len(entries), implCount)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Ext(e.Name()) != ".pprof" || !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
			t.Errorf("%s: not a .pprof file holding a compressed profile (% x…)", e.Name(), b[:min(len(b), 4)])
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "service.pprof")); err != nil {
		t.Errorf("no service.pprof: %v", err)
	}
}
