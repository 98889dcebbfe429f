package apigate

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// releaseTags matches the platform's release tags, platform/vX.Y.Z.
const releaseTags = "platform/v*"

// baseCommit returns the commit whose platform/ the gate compares with, and
// where it comes from. The base is override (a git ref, API_BASE) when set,
// else the newest release tag that HEAD contains, else the default branch
// (origin/HEAD, origin/main or main). When that is HEAD itself (main in a
// clean clone with no release yet), it is HEAD's first parent: the change
// that HEAD made. It returns "" and the reason when there is nothing to
// compare with; an override that names no commit fails t.
func baseCommit(t testing.TB, root, override string) (commit, from string) {
	t.Helper()
	head, err := revParse(root, "HEAD")
	if err != nil {
		return "", "no git history (" + err.Error() + "): nothing to compare with"
	}
	ref, from := override, "API_BASE="+override
	if ref == "" {
		ref = defaultBase(root)
		from = ref
	}
	if ref == "" {
		return "", "no " + releaseTags + " tag and no default branch: nothing to compare with"
	}
	commit, err = revParse(root, ref)
	if err != nil {
		t.Fatalf("%s names no commit: %v", from, err)
	}
	if commit != head {
		return commit, from
	}
	parent, err := revParse(root, "HEAD^1")
	if err != nil {
		return "", from + " is HEAD, which has no parent: nothing to compare with"
	}
	return parent, "HEAD's first parent (" + from + " is HEAD)"
}

// defaultBase is the newest release tag HEAD contains, else the default
// branch, else "".
func defaultBase(root string) string {
	tags, err := testkit.Git(root, "tag", "--merged", "HEAD", "--list", releaseTags, "--sort=-v:refname")
	if err == nil {
		if newest, _, _ := strings.Cut(string(tags), "\n"); strings.TrimSpace(newest) != "" {
			return strings.TrimSpace(newest)
		}
	}
	for _, ref := range []string{"origin/HEAD", "origin/main", "main"} {
		if _, err := revParse(root, ref); err == nil {
			return ref
		}
	}
	return ""
}

// revParse returns the commit that ref names in the repository at root.
func revParse(root, ref string) (string, error) {
	out, err := testkit.Git(root, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("git rev-parse %s: %w", ref, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// extractPlatform writes the platform/ tree of commit into a temporary
// directory of t and returns the module's directory; "" when the commit
// has no platform module.
func extractPlatform(t testing.TB, root, commit string) string {
	t.Helper()
	if _, err := testkit.Git(root, "cat-file", "-e", commit+":platform/go.mod"); err != nil {
		return ""
	}
	archive, err := testkit.Git(root, "archive", "--format=tar", commit, "platform")
	if err != nil {
		t.Fatalf("git archive %.12s platform: %v", commit, err)
	}
	dir := t.TempDir()
	if err := untar(bytes.NewReader(archive), dir); err != nil {
		t.Fatalf("extract platform/ of %.12s: %v", commit, err)
	}
	return filepath.Join(dir, "platform")
}

// untar writes the directories and regular files of a tar stream below
// dir; git archive writes nothing else that a build reads.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(name, dir+string(filepath.Separator)) {
			return fmt.Errorf("%s: outside the archive's directory", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(name, 0o755)
		case tar.TypeReg:
			err = writeFile(name, tr, h.FileInfo().Mode().Perm())
		}
		if err != nil {
			return fmt.Errorf("%s: %w", h.Name, err)
		}
	}
}

// writeFile writes r to a new file name with mode perm.
func writeFile(name string, r io.Reader, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	return errors.Join(err, f.Close())
}
