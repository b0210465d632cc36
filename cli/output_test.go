package cli

import (
	"bytes"
	"crypto/rand"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/internal/slow"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// A check that violates Termination (a lasso and a stuck state) in a few
// milliseconds.
var violating = []string{"--algo", "chang-roberts", "--n", "4", "--crashes", "1", "--quiet", "--continue"}

// A check where every property holds, in a few milliseconds.
var passing = []string{"--algo", "bully", "--n", "3", "--crash-any", "--quiet"}

func mainOut(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Main(args, specs.Builtin(), &out, &errb)
	return code, out.String(), errb.String()
}

// randomFile writes n random bytes to path and returns them.
func randomFile(t *testing.T, path string, n int) []byte {
	t.Helper()
	data := make([]byte, n)
	_, _ = rand.Read(data)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return data
}

// names lists a directory.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// A write that fails (here every file may hold 2 KiB, as on a disk that
// fills up) leaves the file that was there whole, for every output: the
// trace, the chart and the JUnit file. Each failure is one line, the
// report stands and the exit status is the verdict's.
func TestFailedWriteKeepsTheFileThatWasThere(t *testing.T) {
	slow.Test(t) // builds and runs the mcheck command
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("needs sh for ulimit -f")
	}
	bin := buildMcheck(t)
	dir := t.TempDir()
	outputs := map[string]string{"--trace-out": "t.trace.json", "--msc": "chart.svg", "--junit": "junit.xml"}
	args := append([]string{"-c", `ulimit -f 2 && exec "$0" "$@"`, bin}, violating...)
	old := map[string][]byte{}
	for flag, name := range outputs {
		path := filepath.Join(dir, name)
		old[name] = randomFile(t, path, 8192) // more than 2 KiB
		args = append(args, flag, path)
	}
	cmd := exec.Command("sh", args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "exit: %v\n%s", err, stderr.String())
	assert.Equal(t, ExitViolation, exit.ExitCode(), stderr.String())
	assert.Contains(t, stdout.String(), "Termination   VIOLATED")
	for flag, name := range outputs {
		data, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.Equal(t, old[name], data, "%s %s is not the file that was there", flag, name)
		assert.Contains(t, stderr.String(), "mcheck: "+flag+": writing "+filepath.Join(dir, name)+": file too large (the report above stands; exit status 1)\n")
	}
	assert.Equal(t, len(outputs), strings.Count(stderr.String(), "\n"), stderr.String())
	assert.ElementsMatch(t, []string{"t.trace.json", "chart.svg", "junit.xml"}, names(t, dir), "no temporary file left")
}

// writeOutput replaces a file only once the new one is written in full:
// a render that fails halfway leaves the old file and no temporary file;
// one that succeeds keeps the old file's mode, and through a symbolic link
// replaces the file linked to, not the link.
func TestWriteOutputReplacesOnlyWhatItWroteInFull(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.xml")
	require.NoError(t, os.WriteFile(path, []byte("the good file\n"), 0o600))
	broke := errors.New("disk full")
	err := writeOutput(path, func(w io.Writer) error {
		_, _ = io.WriteString(w, strings.Repeat("half of it ", 10000))
		return broke
	})
	require.ErrorIs(t, err, broke)
	assert.Equal(t, "writing "+path+": disk full", err.Error())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "the good file\n", string(data))
	assert.Equal(t, []string{"out.xml"}, names(t, dir))

	link := filepath.Join(dir, "link.xml")
	require.NoError(t, os.Symlink("out.xml", link))
	require.NoError(t, writeOutput(link, func(w io.Writer) error {
		_, err := io.WriteString(w, "the new file\n")
		return err
	}))
	data, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "the new file\n", string(data))
	info, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, info.Mode().Type(), "the link stays a link")
	info, err = os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the replaced file keeps its mode")
}

// A report that cannot be written to stdout is an error: exit status 2
// and one line on stderr, for the text report and for --json, whatever the
// verdict.
func TestFailedWriteToStdoutExitsIncomplete(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("needs /dev/full, a device that is always full")
	}
	for _, args := range [][]string{passing, append(passing, "--json"), violating, {"--algo", "bully", "--check", "list"}, {"--version"}} {
		full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		require.NoError(t, err)
		var stderr bytes.Buffer
		code := Main(args, specs.Builtin(), full, &stderr)
		full.Close()
		assert.Equal(t, ExitIncomplete, code, args)
		assert.Equal(t, "mcheck: writing to standard output: no space left on device (the output is incomplete; exit status 2)\n", stderr.String(), args)
	}
	// A short write without an error is one too.
	var stderr bytes.Buffer
	code := Main(passing, specs.Builtin(), shortWriter{}, &stderr)
	assert.Equal(t, ExitIncomplete, code)
	assert.Equal(t, "mcheck: writing to standard output: short write (the output is incomplete; exit status 2)\n", stderr.String())
}

type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return len(p) / 2, nil }

// fifo makes a named pipe, and a goroutine that opens its other end now
// and then until the test ends, so that code that wrongly opens it (and
// would wait for a writer or a reader forever) goes on; opened says
// whether anything had it open to read.
func fifo(t *testing.T) (path string, opened func() bool) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	var reader atomic.Bool
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
			// Succeeds only while someone has it open to read.
			if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				reader.Store(true)
				w.Close()
			}
			// Lets a writer's open return.
			if r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
				r.Close()
			}
		}
	}()
	t.Cleanup(func() { close(done); <-stopped })
	return path, reader.Load
}

// Named pipes and other special files are refused before they are opened:
// as the trace file of replay and explore, as an output, and as the job
// summary. Each is one line and exit status 2, never a wait.
func TestSpecialFilesAreRefusedBeforeOpening(t *testing.T) {
	pipe, opened := fifo(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"replay", pipe}, "mcheck: replay: PIPE: a named pipe (FIFO), not a regular file: give a trace file\n"},
		{[]string{"explore", "--addr", "127.0.0.1:0", pipe}, "mcheck: explore: PIPE: a named pipe (FIFO), not a regular file: give a trace file\n"},
		{append(passing, "--junit", pipe), "mcheck: --junit: cannot write PIPE: it is a named pipe (FIFO), not a regular file: give a file name\n"},
		{append(passing, "--trace-out", pipe), "mcheck: --trace-out: cannot write PIPE: it is a named pipe (FIFO), not a regular file: give a file name\n"},
		{[]string{"replay", "--msc", pipe + ".svg", "/dev/null"}, "mcheck: replay: /dev/null: a device, not a regular file: give a trace file\n"},
	} {
		code, out, stderr := mainOut(c.args...)
		assert.Equal(t, ExitIncomplete, code, c.args)
		assert.Empty(t, out)
		assert.Equal(t, strings.ReplaceAll(c.want, "PIPE", pipe), stderr)
	}
	assert.False(t, opened(), "the pipe was opened")

	t.Setenv("GITHUB_STEP_SUMMARY", pipe)
	code, _, stderr := mainOut(passing...)
	assert.Equal(t, ExitHolds, code)
	assert.Equal(t, "mcheck: GITHUB_STEP_SUMMARY: cannot append to "+pipe+": it is a named pipe (FIFO), not a regular file (the job summary is incomplete)\n", stderr)
}

// Devices and open descriptors are where writing is meaningful: /dev/null
// takes an output, and a failed write to one (/dev/full) is said, also
// for the job summary, which is appended to.
func TestDevicesTakeOutputs(t *testing.T) {
	code, _, stderr := mainOut(append(violating, "--junit", "/dev/null", "--trace-out", "/dev/null")...)
	assert.Equal(t, ExitViolation, code)
	assert.Equal(t, "mcheck: --trace-out: 2 traces, wrote the first to /dev/null; give a directory to keep them all\n", stderr)
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("needs /dev/full, a device that is always full")
	}
	t.Setenv("GITHUB_STEP_SUMMARY", "/dev/full")
	code, _, stderr = mainOut(passing...)
	assert.Equal(t, ExitHolds, code)
	assert.Equal(t, "mcheck: GITHUB_STEP_SUMMARY: appending to /dev/full: no space left on device (the job summary is incomplete)\n", stderr)
}

// --trace-out /dev/stdout adds the trace after the report, whatever stdout
// is: with stdout redirected to a file, the report stays in it.
func TestTraceToStdoutFollowsTheReport(t *testing.T) {
	slow.Test(t) // builds and runs the mcheck command
	bin := buildMcheck(t)
	path := filepath.Join(t.TempDir(), "out.txt")
	out, err := os.Create(path)
	require.NoError(t, err)
	cmd := exec.Command(bin, append(violating, "--trace-out", "/dev/stdout")...)
	cmd.Stdout = out
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	out.Close()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "exit: %v", err)
	assert.Equal(t, ExitViolation, exit.ExitCode(), stderr.String())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	report, trace, ok := strings.Cut(string(data), "{\n")
	require.True(t, ok, "no trace after the report:\n%s", data)
	assert.Contains(t, report, "Termination   VIOLATED")
	assert.Contains(t, trace, `"format": "mcheck-trace/2"`)
}

// A run whose search is exhaustive and writes no trace where an earlier
// run left one removes that trace (a CI job would archive it as this
// run's); a file that is no trace is never removed, and a search that did
// not finish keeps the trace. Stderr says what happened each time.
func TestStaleTraceFileIsRemoved(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.trace.json")
	code, _, stderr := mainOut(append(violating, "--trace-out", path)...)
	require.Equal(t, ExitViolation, code, stderr)
	require.FileExists(t, path)
	cfg := configOf(t, passing) // as if passing had been fixed since
	rewriteTrace(t, path, func(f *trace.File) { f.Config = cfg })

	code, _, stderr = mainOut(append(passing, "--max-states", "10", "--trace-out", path)...)
	assert.Equal(t, ExitIncomplete, code)
	assert.Equal(t, "mcheck: --trace-out: "+path+" is a trace of an earlier run, kept: this search did not finish, so it may still be a counterexample\n", stderr)
	assert.FileExists(t, path)

	code, _, stderr = mainOut(append(passing, "--trace-out", path)...)
	assert.Equal(t, ExitHolds, code)
	assert.Equal(t, "mcheck: --trace-out: removed "+path+", a trace of an earlier run that this one did not find\n", stderr)
	assert.NoFileExists(t, path)

	notes := filepath.Join(dir, "notes.json")
	require.NoError(t, os.WriteFile(notes, []byte(`{"mine": true}`), 0o644))
	code, _, stderr = mainOut(append(passing, "--trace-out", notes)...)
	assert.Equal(t, ExitHolds, code)
	assert.Equal(t, "mcheck: --trace-out: no counterexample to write; "+notes+" is left as it was (not an mcheck trace)\n", stderr)
	assert.FileExists(t, notes)
}

// In a --trace-out directory, a trace of the same configuration that this
// run did not write is an earlier run's and is removed; traces of other
// configurations (other checks writing there) and other files stay.
func TestStaleTracesInADirectoryAreRemoved(t *testing.T) {
	dir := t.TempDir() + "/"
	code, _, stderr := mainOut(append(violating, "--trace-out", dir)...)
	require.Equal(t, ExitViolation, code, stderr)
	lasso := filepath.Join(dir, "Termination-fair-cycle.trace.json")
	data, err := os.ReadFile(lasso)
	require.NoError(t, err)
	// A counterexample of the same configuration that this run will not
	// write (as if an earlier version of the algorithm had violated
	// Agreement), one of another configuration, and a file of the user's.
	stale := filepath.Join(dir, "Agreement-invariant.trace.json")
	require.NoError(t, os.WriteFile(stale, data, 0o644))
	rewriteTrace(t, stale, func(f *trace.File) { f.Property = "Agreement" })
	other := filepath.Join(dir, "other.trace.json")
	code, _, stderr = mainOut("--algo", "chang-roberts", "--n", "5", "--crashes", "1", "--quiet", "--trace-out", other)
	require.Equal(t, ExitViolation, code, stderr)
	mine := filepath.Join(dir, "mine.trace.json")
	require.NoError(t, os.WriteFile(mine, []byte("my notes"), 0o644))

	code, _, stderr = mainOut(append(violating, "--trace-out", dir)...)
	assert.Equal(t, ExitViolation, code)
	assert.Equal(t, "mcheck: --trace-out: removed "+stale+", a trace of an earlier run that this one did not find\n", stderr)
	assert.ElementsMatch(t, []string{"Termination-fair-cycle.trace.json", "Termination-stuck.trace.json", "other.trace.json", "mine.trace.json"}, names(t, dir))
}
