package testkit

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Git runs git with args in dir and returns its standard output; the error
// is git's own message from standard error.
func Git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, errors.New(msg)
	}
	return out, nil
}

// GitRefs returns the files where git keeps the tags and branches of the
// repository at dir, those of them that exist; none outside a git work
// tree. A test that compares with a tag or a branch passes them to Inputs,
// so that a moved tag or branch runs it again instead of replaying its
// result.
func GitRefs(dir string) []string {
	out, err := Git(dir, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return nil
	}
	common := strings.TrimSpace(string(out))
	var refs []string
	for _, name := range []string{"HEAD", "packed-refs", "refs"} {
		if _, err := os.Stat(filepath.Join(common, name)); err == nil {
			refs = append(refs, filepath.Join(common, name))
		}
	}
	return refs
}
