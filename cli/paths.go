package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/trace"
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
// directory exists and takes new files (the output is written to a
// temporary file there and renamed into place), and path itself is a
// regular file that may be written, a device (/dev/null), an open
// descriptor (/dev/stdout), or nothing yet. Nothing is opened that could
// block: a named pipe is refused from its mode alone.
func checkOutputFile(path string) error {
	if isDescriptorPath(path) {
		if _, err := os.Stat(path); err != nil {
			return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
		}
		return nil
	}
	info, err := os.Stat(path)
	switch {
	case err == nil && info.IsDir():
		return fmt.Errorf("%s is a directory: give a file name", path)
	case err == nil && info.Mode()&fs.ModeCharDevice != 0:
		return nil
	case err == nil && !info.Mode().IsRegular():
		return fmt.Errorf("cannot write %s: it is %s, not a regular file: give a file name", path, fileKind(info.Mode()))
	case err == nil:
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
		}
		f.Close()
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
		}
		return checkOutputDir(filepath.Dir(target), path)
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

// isDescriptorPath says whether path names a file descriptor this process
// already has open (/dev/stdout, or /dev/fd/63 from a shell's <(...)):
// written in place, at its end, since the file behind it is the caller's.
func isDescriptorPath(path string) bool {
	switch path {
	case "/dev/stdout", "/dev/stderr":
		return true
	}
	return strings.HasPrefix(path, "/dev/fd/") || strings.HasPrefix(path, "/proc/self/fd/")
}

// fileKind names what a file that is not a regular file is.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// openInput opens a file to read, refusing anything but a regular file
// before opening it: a named pipe or a device would block or never end.
func openInput(path string) (*os.File, error) {
	info, err := os.Stat(path)
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		pe.Op = "open" // as os.Open says it
	}
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%s, not a regular file: give a trace file", fileKind(info.Mode()))}
	}
	return os.Open(path)
}

// writeOutput writes what render writes to path so that a failure leaves
// the file that was there whole: into a temporary file in the same
// directory, synced, then renamed over path (through a symbolic link, the
// file it points to). A device (/dev/null) or an open descriptor
// (/dev/stdout) is written in place; any other special file is refused.
func writeOutput(path string, render func(io.Writer) error) error {
	if isDescriptorPath(path) {
		return writeInPlace(path, os.O_WRONLY|os.O_APPEND, render)
	}
	// A new file gets 0644 less the umask; a file replaced keeps its mode.
	target, perm, keep := path, fs.FileMode(0o644), false
	info, err := os.Stat(path)
	switch {
	case err == nil && info.Mode()&fs.ModeCharDevice != 0:
		return writeInPlace(path, os.O_WRONLY, render)
	case err == nil && !info.Mode().IsRegular():
		return fmt.Errorf("cannot write %s: it is %s, not a regular file", path, fileKind(info.Mode()))
	case err == nil:
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
		}
		perm, keep = info.Mode().Perm(), true
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	if err := replaceFile(target, perm, keep, render); err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	return nil
}

// replaceFile writes a new file with permissions perm (less the umask,
// unless keep) and renames it to target.
func replaceFile(target string, perm fs.FileMode, keep bool, render func(io.Writer) error) error {
	dir := filepath.Dir(target)
	tmp, err := createTemp(dir, filepath.Base(target), perm)
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	w := bufio.NewWriter(tmp)
	if err := render(w); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if keep {
		if err := tmp.Chmod(perm); err != nil {
			return err
		}
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return err
	}
	done = true
	// The rename itself survives a crash once the directory is synced;
	// some file systems cannot sync a directory, and the file is in place.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// createTemp creates a new file for target in dir with the permissions
// perm less the umask, as a file created at target would have (os.CreateTemp
// makes it 0600).
func createTemp(dir, target string, perm fs.FileMode) (*os.File, error) {
	for try := 0; ; try++ {
		name := filepath.Join(dir, fmt.Sprintf(".%s.tmp-%d-%d", target, os.Getpid(), rand.Uint32()))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		return f, err
	}
}

// writeInPlace writes to a device or an open descriptor.
func writeInPlace(path string, flag int, render func(io.Writer) error) error {
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	w := bufio.NewWriter(f)
	err = render(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	return nil
}

// appendOutput appends data to path (the GitHub job summary, which other
// steps write to as well), with the checks of writeOutput.
func appendOutput(path string, data []byte) error {
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() && info.Mode()&fs.ModeCharDevice == 0 && !isDescriptorPath(path) {
		return fmt.Errorf("cannot append to %s: it is %s, not a regular file", path, fileKind(info.Mode()))
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("appending to %s: %w", path, unwrapPath(err))
	}
	return nil
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
	if err := o.swarm.checkJSONOut(); err != nil {
		return err
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

// A trace that an earlier run left where this run writes its traces would
// be archived as this run's (a counterexample fixed since), but it is a
// genuine counterexample unless this run proves that its run is gone.
// staleReason is the one rule for every place where traces are cleaned, and
// the --msc chart beside a trace follows it (staleTraces).

// staleReason says why the trace f, left by an earlier run and not
// rewritten by the run rep, must be kept; "" when rep proves it stale: rep
// is of f's configuration (algorithm, model, channel bound, timing), its
// search finished and was exhaustive (not a simulation, not a bitstate
// search), and it checked f's property and found no violation (for an
// example, no reachable state).
func staleReason(f *trace.File, rep *check.Report) string {
	if !sameConfig(f.Config, trace.ConfigOf(rep.Algo, rep.Config)) {
		return "it is of another configuration (" + f.Config.Describe() + ")"
	}
	switch {
	case rep.Simulation != nil:
		return "a simulation samples runs and proves nothing, so it may still be a counterexample"
	case rep.Bitstate != nil:
		return "a bitstate search may miss states, so it may still be a counterexample"
	case !rep.Stats.Complete:
		return "this search did not finish, so it may still be a counterexample"
	}
	for _, v := range rep.Verdicts {
		if v.Name != f.Property {
			continue
		}
		switch v.Status {
		case check.Holds, check.Unreachable:
			return ""
		case check.Unchecked:
			return "this run did not check " + f.Property
		case check.Violated:
			return "this run found " + f.Property + " violated too, so it may still be a counterexample"
		case check.Reachable:
			return "this run found " + f.Property + " reachable too, so it may still be an example"
		}
		return fmt.Sprintf("this run did not decide %s (%s)", f.Property, oneLine(v.Summary))
	}
	return "this run did not check " + f.Property
}

// sameConfig compares two recorded configurations as their files write
// them (an empty list and none are the same).
func sameConfig(a, b trace.Config) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// staleTraces counts what became of the traces earlier runs left where
// this run writes its own, for the --msc chart that follows them.
type staleTraces struct{ removed, kept int }

// clean removes the trace an earlier run left at path if staleReason
// finds it stale, else keeps it, and says which in one line. In a
// directory (inDir), files that are not traces and traces of another
// configuration belong to other checks and are passed over in silence.
func (s *staleTraces) clean(path string, rep *check.Report, inDir bool, stderr io.Writer) {
	f, err := readTraceFile(path)
	if err != nil {
		if !inDir {
			fmt.Fprintf(stderr, "mcheck: --trace-out: no counterexample to write; %s is left as it was (not an mcheck trace)\n", path)
		}
		return
	}
	if inDir && !sameConfig(f.Config, trace.ConfigOf(rep.Algo, rep.Config)) {
		return
	}
	if why := staleReason(f, rep); why != "" {
		s.kept++
		fmt.Fprintf(stderr, "mcheck: --trace-out: %s is a trace of an earlier run, kept: %s\n", path, why)
		return
	}
	if err := os.Remove(path); err != nil {
		s.kept++
		fmt.Fprintf(stderr, "mcheck: --trace-out: %s is a trace of an earlier run that this one did not find, and it cannot be removed: %v\n", path, unwrapPath(err))
		return
	}
	s.removed++
	fmt.Fprintf(stderr, "mcheck: --trace-out: removed %s, a trace of an earlier run that this one did not find\n", path)
}
