package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// change is what a command does to the files of a repository, planned in
// full before any is touched: files to write and files to delete. apply
// makes it all or nothing, as far as a file system allows: every new
// content is written to a temporary file beside its target first, and
// only once all are written are they renamed into place, the old files
// kept aside until the command succeeds. A command that fails after apply
// (its contract does not generate, say) undoes it, and the tree is as it
// was. Temporary files start with a dot, so a command killed midway
// leaves none that go build reads.
type change struct {
	// writes are the files to write, by slash path from the root.
	writes []file
	// removes are the files to delete, by slash path from the root.
	removes []string
}

// applied is a change in place, its old files kept aside until keep drops
// them or undo puts them back.
type applied struct {
	root string
	// staged are the temporary files of new contents not yet in place.
	staged map[string]string
	// placed are the targets that hold a new content now.
	placed []string
	// aside maps a target to the temporary name its old file was moved to.
	aside map[string]string
	// dirs are the directories apply created, parents first.
	dirs []string
	// saved are the contents of guarded files as they were, nil for a
	// file that did not exist.
	saved map[string][]byte
	// missing are the directories of guarded files that did not exist,
	// children first.
	missing []string
}

// apply makes c in the repository at root, or nothing when it fails.
func (c change) apply(root string) (_ *applied, err error) {
	a := &applied{root: root, staged: map[string]string{}, aside: map[string]string{}, saved: map[string][]byte{}}
	defer func() {
		if err != nil {
			err = errors.Join(err, a.undo())
		}
	}()
	for _, f := range c.writes {
		if err := a.stage(f); err != nil {
			return nil, err
		}
	}
	for _, f := range c.writes {
		if err := a.place(f.path); err != nil {
			return nil, err
		}
	}
	for _, p := range c.removes {
		if err := a.putAside(p); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// stage writes f's content to a temporary file beside its target, with
// the target's mode (0644 for a new file), creating the directories it
// needs.
func (a *applied) stage(f file) error {
	target := a.abs(f.path)
	if err := a.mkdirAll(filepath.Dir(target)); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".starter-new-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	a.staged[f.path] = tmp.Name()
	mode := fs.FileMode(0o644)
	if info, err := os.Stat(target); err == nil {
		// A script keeps its execute bits.
		mode = info.Mode().Perm()
	}
	_, err = tmp.Write(f.data)
	err = errors.Join(err, tmp.Chmod(mode), tmp.Close())
	if err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	return nil
}

// place moves the old file at p aside, if there is one, and the staged
// content of p into its place.
func (a *applied) place(p string) error {
	if err := a.putAside(p); err != nil {
		return err
	}
	if err := os.Rename(a.staged[p], a.abs(p)); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	delete(a.staged, p)
	a.placed = append(a.placed, p)
	return nil
}

// putAside renames the file at p to a temporary name beside it; a missing
// file is left missing.
func (a *applied) putAside(p string) error {
	target := a.abs(p)
	if _, err := os.Lstat(target); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".starter-old-*")
	if err != nil {
		return fmt.Errorf("move %s aside: %w", p, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("move %s aside: %w", p, err)
	}
	if err := os.Rename(target, tmp.Name()); err != nil {
		return errors.Join(fmt.Errorf("move %s aside: %w", p, err), os.Remove(tmp.Name()))
	}
	a.aside[p] = tmp.Name()
	return nil
}

// mkdirAll creates dir and its missing parents, remembering each for undo.
func (a *applied) mkdirAll(dir string) error {
	var missing []string
	for d := dir; !exists(d); d = filepath.Dir(d) {
		missing = append(missing, d)
	}
	for _, d := range slices.Backward(missing) {
		if err := os.Mkdir(d, 0o755); err != nil {
			return fmt.Errorf("create %s: %w", d, err)
		}
		a.dirs = append(a.dirs, d)
	}
	return nil
}

// guard remembers the files at paths as they are, for undo to put back:
// files a later step of the command writes itself, such as the contract.
// A file the change wrote or removed is put back by undo already, as it
// was before the change.
func (a *applied) guard(paths ...string) error {
	for _, p := range paths {
		if _, aside := a.aside[p]; aside || slices.Contains(a.placed, p) {
			continue
		}
		data, err := os.ReadFile(a.abs(p))
		if errors.Is(err, fs.ErrNotExist) {
			a.saved[p] = nil
			for d := filepath.Dir(a.abs(p)); !exists(d) && !slices.Contains(a.missing, d); d = filepath.Dir(d) {
				a.missing = append(a.missing, d)
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		a.saved[p] = data
	}
	return nil
}

// keep makes the change final: it deletes the old files kept aside.
func (a *applied) keep() error {
	var errs []error
	for p, old := range a.aside {
		if err := os.Remove(old); err != nil {
			errs = append(errs, fmt.Errorf("delete the old %s: %w", p, err))
		}
	}
	a.aside = map[string]string{}
	return errors.Join(errs...)
}

// undo puts the tree back as it was before apply: it deletes the new
// files and the temporary ones, moves the old ones back, deletes the
// directories apply created and writes the guarded files back.
func (a *applied) undo() error {
	var errs []error
	for _, tmp := range a.staged {
		errs = append(errs, os.Remove(tmp))
	}
	for _, p := range a.placed {
		if err := os.Remove(a.abs(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	for p, old := range a.aside {
		errs = append(errs, os.Rename(old, a.abs(p)))
	}
	for p, data := range a.saved {
		if data == nil {
			if err := os.Remove(a.abs(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
			continue
		}
		errs = append(errs, os.WriteFile(a.abs(p), data, 0o644))
	}
	for _, d := range slices.Backward(a.dirs) {
		errs = append(errs, os.Remove(d))
	}
	// The step that wrote a guarded file may have written others beside
	// it: a directory it made that is not empty now stays.
	slices.SortFunc(a.missing, func(x, y string) int { return len(y) - len(x) })
	for _, d := range a.missing {
		_ = os.Remove(d)
	}
	a.staged, a.placed, a.aside, a.saved, a.dirs, a.missing = map[string]string{}, nil, map[string]string{}, map[string][]byte{}, nil, nil
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("put the files back: %w", err)
	}
	return nil
}

// exists reports whether there is a file or directory at p; the root of
// the file system always is.
func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil || p == filepath.Dir(p)
}

// abs is the path of p, a slash path from the root.
func (a *applied) abs(p string) string { return filepath.Join(a.root, filepath.FromSlash(p)) }
