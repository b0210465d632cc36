package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/internal/flagval"
	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/itf"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

const replayUsage = "mcheck replay [--full-states] [--quiet] [--msc FILE.svg|FILE.md] FILE (.trace.json or .itf.json)"

const replayHelp = `Replay a trace file that mcheck wrote (--trace-out): rebuild the model from
the file's configuration, take every step through the transition function and
re-check the property at the end (for a lasso, the weak fairness of its cycle).

Usage:
  ` + replayUsage + `

  --full-states         print whole states, not only what each step changed
  --quiet               print only the verdict line, not the trace
  --msc FILE.svg|.md    also draw the trace as a message-sequence chart

An example (the run of a Sometimes property, kind "example") replays the same
way: it is genuine when it ends in a state where its property holds.

Exit status: 0 a genuine counterexample (or example), 1 not one (the first
step that diverges is named), 2 a malformed file or bad input.
`

// replayMain is `mcheck replay FILE`.
func replayMain(args []string, reg *specs.Registry, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcheck replay", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	full := flagval.Bool(fs, "full-states", false)
	quiet := flagval.Bool(fs, "quiet", false)
	chart := flagval.String(fs, "msc", "")
	if err := flagval.Parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, replayHelp)
			return ExitHolds
		}
		return badInput(stderr, fmt.Errorf("replay: %w (usage: %s)", err, replayUsage))
	}
	if err := checkReplayArgs(fs, *chart); err != nil {
		return badInput(stderr, err)
	}
	path := fs.Arg(0)
	f, err := readTraceFile(path)
	if err != nil {
		return badInput(stderr, fmt.Errorf("replay: %s: %v", path, err))
	}
	spec, err := reg.Lookup(f.Config.Algo)
	if err != nil {
		return badInput(stderr, fmt.Errorf("replay: %s is a trace of %q, which this mcheck does not have (it has %s): replay it with the mcheck program that registers %q, such as your course's own (go run ./mcheck replay %s)",
			path, f.Config.Algo, strings.Join(reg.Names(), ", "), f.Config.Algo, path))
	}
	// What is shown is the run as the model renders it, not the file's
	// text: replay compares steps and states as data.
	shown, err := trace.Replayed(f, reg)
	var div *trace.DivergenceError
	switch {
	case errors.As(err, &div):
		// The reason quotes the file (a step that is not enabled).
		fmt.Fprintf(stdout, "%s: %s\n", oneLine(path), oneLine(err.Error()))
		return ExitViolation
	case err != nil:
		return badInput(stderr, fmt.Errorf("replay: %s: %v", path, err))
	}
	// The summary too, which the file may make up.
	if shown.Summary, err = check.Summary(spec, shown); err != nil {
		return badInput(stderr, fmt.Errorf("replay: %s: %v", path, err))
	}
	writeReplayVerdict(stdout, path, shown)
	if *chart != "" {
		if err := writeMSCFile(*chart, shown); err != nil {
			fmt.Fprintf(stderr, "mcheck: replay: --msc: %v (the verdict above stands; exit status %d)\n", oneLine(err.Error()), ExitHolds)
		}
	}
	if !*quiet {
		fmt.Fprintln(stdout)
		trace.WriteText(stdout, shown, *full)
	}
	return ExitHolds
}

// checkReplayArgs checks replay's file argument and --msc.
func checkReplayArgs(fs *flag.FlagSet, chart string) error {
	if fs.NArg() != 1 {
		return fmt.Errorf("replay: give exactly one trace file (usage: %s)", replayUsage)
	}
	if err := checkMSCPath(chart); err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	if chart != "" {
		if err := checkOutputFile(chart); err != nil {
			return fmt.Errorf("replay: --msc: %w", err)
		}
	}
	return nil
}

// writeReplayVerdict is replay's one line on a trace that replays.
func writeReplayVerdict(stdout io.Writer, path string, shown *trace.File) {
	name := oneLine(path)
	switch {
	case !shown.ClaimsProperty():
		fmt.Fprintf(stdout, "%s: a genuine run: the %s of %s (%s; every step replays)\n", name, shown.Kind, oneLine(shown.Property), plural.Count(len(shown.Steps)-1, "step"))
	case shown.Kind == cex.Example:
		fmt.Fprintf(stdout, "%s: a genuine example: %s is reachable (%s; every step replays, and %s holds in the last state)\n",
			name, shown.Property, plural.Count(len(shown.Steps)-1, "step"), shown.Property)
	default:
		fmt.Fprintf(stdout, "%s: a genuine counterexample: %s is violated (%s, %s; every step replays)\n", name, shown.Property, shown.Kind, plural.Count(len(shown.Steps)-1, "step"))
	}
}

// readTraceFile reads an mcheck trace file or an ITF trace written by
// mcheck, told apart by their content.
func readTraceFile(path string) (*trace.File, error) {
	fh, err := openInput(path)
	if err != nil {
		return nil, unwrapPath(err)
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, maxTraceBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxTraceBytes {
		return nil, &trace.MalformedError{Reason: fmt.Sprintf("larger than %d MiB", maxTraceBytes>>20)}
	}
	if itf.Detect(data) {
		return itf.Read(data)
	}
	f, err := trace.Read(bytes.NewReader(data))
	if me := (*trace.MalformedError)(nil); errors.As(err, &me) && me.Old {
		return nil, &trace.MalformedError{Old: true, Reason: fmt.Sprintf("%s is the old format, which this mcheck no longer reads: run the check again with --trace-out to write it as %s", trace.FormatV1, trace.Format)}
	}
	return f, err
}

// maxTraceBytes bounds what replay reads: no counterexample comes near it.
const maxTraceBytes = 64 << 20

// isITF reports whether a --trace-out path asks for the Informal Trace
// Format.
func isITF(path string) bool { return strings.HasSuffix(strings.ToLower(path), ".itf.json") }

// writeTraceFiles writes the report's counterexamples: to path itself, or
// when path is a directory (or ends in /) one file per counterexample.
// A trace an earlier run left there that this run does not rewrite (the
// file at path, or in a directory the trace files) is removed or kept by
// staleTraces.clean, which says which; the result is what it did.
func writeTraceFiles(path string, files []*trace.File, rep *check.Report, stderr io.Writer) (staleTraces, error) {
	var stale staleTraces
	info, statErr := os.Stat(path)
	dir := strings.HasSuffix(path, "/") || (statErr == nil && info.IsDir())
	if !dir {
		if len(files) == 0 {
			if statErr == nil && info.Mode().IsRegular() && !isDescriptorPath(path) {
				stale.clean(path, rep, false, stderr)
			}
			return stale, nil
		}
		if err := writeTraceFile(path, files[0]); err != nil {
			return stale, err
		}
		if len(files) > 1 {
			fmt.Fprintf(stderr, "mcheck: --trace-out: %d traces, wrote the first to %s; give a directory to keep them all\n", len(files), path)
		}
		return stale, nil
	}
	// Only the directory asked for is created: its parent was checked
	// before the search.
	if err := os.Mkdir(path, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return stale, err
	}
	written := map[string]bool{}
	for _, f := range files {
		name := traceName(f)
		if err := writeTraceFile(filepath.Join(path, name), f); err != nil {
			return stale, err
		}
		written[name] = true
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return stale, err
	}
	for _, e := range entries {
		if written[e.Name()] || !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".trace.json") {
			continue
		}
		stale.clean(filepath.Join(path, e.Name()), rep, true, stderr)
	}
	return stale, nil
}

// traceName is the name of a counterexample's file in a --trace-out
// directory.
func traceName(f *trace.File) string { return f.Property + "-" + f.Kind.String() + ".trace.json" }

func writeTraceFile(path string, f *trace.File) error {
	write := f.Write
	if isITF(path) {
		write = func(w io.Writer) error { return itf.Write(w, f) }
	}
	return writeOutput(path, write)
}
