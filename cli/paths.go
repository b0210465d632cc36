package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Output paths are checked before the search, so that a path that cannot
// be written costs a second, not the whole search. The checks create
// nothing that stays: a probe file is made and removed in the directory
// that will receive the output, and a trace directory that does not exist
// yet is only created after the search, inside a parent that must exist.

// isDirPath says whether --trace-out names a directory: it ends in / or is
// an existing directory.
func isDirPath(path string) bool {
	if strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(filepath.Separator)) {
		return true
	}
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// checkOutputFile says whether a file can be written at path: its
// directory exists and takes new files, and path itself is not a
// directory. An existing file is opened for writing (not truncated).
func checkOutputFile(path string) error {
	info, err := os.Stat(path)
	switch {
	case err == nil && info.IsDir():
		return fmt.Errorf("%s is a directory: give a file name", path)
	case err == nil:
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
		}
		return f.Close()
	case errors.Is(err, fs.ErrNotExist):
		return checkOutputDir(filepath.Dir(path), path)
	}
	// Not a file, not missing: say what is wrong with the directory, if
	// that is it.
	if dirErr := checkOutputDir(filepath.Dir(path), path); dirErr != nil {
		return dirErr
	}
	return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
}

// checkOutputDir says whether dir exists and takes new files (for the
// output path asked for).
func checkOutputDir(dir, asked string) error {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot write %s: the directory %s does not exist (create it first)", asked, dir)
	case err != nil:
		return fmt.Errorf("cannot write %s: %w", asked, unwrapPath(err))
	case !info.IsDir():
		return fmt.Errorf("cannot write %s: %s is not a directory", asked, dir)
	}
	probe, err := os.CreateTemp(dir, ".mcheck-write-test-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: the directory %s does not take new files: %w", asked, dir, unwrapPath(err))
	}
	name := probe.Name()
	probe.Close()
	return os.Remove(name)
}

// checkTraceOut checks --trace-out: a file, or a directory (existing, or
// ending in /, then its parent must exist).
func checkTraceOut(path string) error {
	if path == "" {
		return nil
	}
	if !isDirPath(path) {
		return checkOutputFile(path)
	}
	clean := filepath.Clean(path)
	info, err := os.Stat(clean)
	switch {
	case err == nil && !info.IsDir():
		return fmt.Errorf("%s is a file, not a directory: drop the trailing / to write one trace to it", clean)
	case err == nil:
		return checkOutputDir(clean, path)
	case errors.Is(err, fs.ErrNotExist):
		// Created after the search; only this last directory, so its parent
		// must exist.
		return checkOutputDir(filepath.Dir(clean), path)
	}
	return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
}

// unwrapPath drops the *PathError's own operation and path, which the
// messages above already say.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkOutputs checks every output path of a check before the search.
func checkOutputs(o *options) error {
	if err := checkTraceOut(o.traceOut); err != nil {
		return fmt.Errorf("--trace-out: %w", err)
	}
	for _, f := range []struct{ flag, path string }{{"--msc", o.msc}, {"--junit", o.junit}} {
		if f.path == "" {
			continue
		}
		if err := checkOutputFile(f.path); err != nil {
			return fmt.Errorf("%s: %w", f.flag, err)
		}
	}
	return nil
}
