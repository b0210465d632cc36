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

Exit status: 0 a genuine counterexample, 1 not one (the first step that
diverges is named), 2 a malformed file or bad input.
`

// replayMain is `mcheck replay FILE`.
func replayMain(args []string, reg *specs.Registry, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcheck replay", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	full := fs.Bool("full-states", false, "")
	quiet := fs.Bool("quiet", false, "")
	chart := fs.String("msc", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, replayHelp)
			return ExitHolds
		}
		return badInput(stderr, fmt.Errorf("replay: %s (usage: %s)", flagError(err), replayUsage))
	}
	if fs.NArg() != 1 {
		return badInput(stderr, fmt.Errorf("replay: give exactly one trace file (usage: %s)", replayUsage))
	}
	if err := checkMSCPath(*chart); err != nil {
		return badInput(stderr, fmt.Errorf("replay: %w", err))
	}
	if *chart != "" {
		if err := checkOutputFile(*chart); err != nil {
			return badInput(stderr, fmt.Errorf("replay: --msc: %w", err))
		}
	}
	path := fs.Arg(0)
	f, err := readTraceFile(path)
	if err != nil {
		return badInput(stderr, fmt.Errorf("replay: %s: %v", path, err))
	}
	if _, err := reg.Lookup(f.Config.Algo); err != nil {
		return badInput(stderr, fmt.Errorf("replay: %s is a trace of %q, which this mcheck does not have (it has %s): replay it with the mcheck program that registers %q, such as your course's own (go run ./mcheck replay %s)",
			path, f.Config.Algo, strings.Join(reg.Names(), ", "), f.Config.Algo, path))
	}
	err = trace.Replay(f, reg)
	var div *trace.DivergenceError
	switch {
	case errors.As(err, &div):
		fmt.Fprintf(stdout, "%s: %v\n", path, err)
		return ExitViolation
	case err != nil:
		return badInput(stderr, fmt.Errorf("replay: %s: %v", path, err))
	}
	if f.Kind == trace.KindWitness || f.Kind == trace.KindLasso {
		fmt.Fprintf(stdout, "%s: a genuine run: the %s of %s (%d steps; every step replays)\n", path, f.Kind, f.Property, len(f.Steps)-1)
	} else {
		fmt.Fprintf(stdout, "%s: a genuine counterexample: %s is violated (%s, %d steps; every step replays)\n", path, f.Property, f.Kind, len(f.Steps)-1)
	}
	if *chart != "" {
		if err := writeMSCFile(*chart, f); err != nil {
			fmt.Fprintf(stderr, "mcheck: replay: --msc: %v (the verdict above stands; exit status %d)\n", err, ExitHolds)
		}
	}
	if !*quiet {
		fmt.Fprintln(stdout)
		trace.WriteText(stdout, f, *full)
	}
	return ExitHolds
}

// readTraceFile reads an mcheck trace file or an ITF trace written by
// mcheck, told apart by their content.
func readTraceFile(path string) (*trace.File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
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
	return trace.Read(bytes.NewReader(data))
}

// maxTraceBytes bounds what replay reads: no counterexample comes near it.
const maxTraceBytes = 64 << 20

// isITF reports whether a --trace-out path asks for the Informal Trace
// Format.
func isITF(path string) bool { return strings.HasSuffix(strings.ToLower(path), ".itf.json") }

// writeTraceFiles writes the report's counterexamples: to path itself, or
// when path is a directory (or ends in /) one file per counterexample.
func writeTraceFiles(path string, files []*trace.File, stderr io.Writer) error {
	info, statErr := os.Stat(path)
	dir := strings.HasSuffix(path, "/") || (statErr == nil && info.IsDir())
	if !dir {
		if len(files) == 0 {
			return nil
		}
		if err := writeTraceFile(path, files[0]); err != nil {
			return err
		}
		if len(files) > 1 {
			fmt.Fprintf(stderr, "mcheck: --trace-out: %d traces, wrote the first to %s; give a directory to keep them all\n", len(files), path)
		}
		return nil
	}
	// Only the directory asked for is created: its parent was checked
	// before the search.
	if err := os.Mkdir(path, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	for _, f := range files {
		if err := writeTraceFile(filepath.Join(path, f.Property+"-"+f.Kind+".trace.json"), f); err != nil {
			return err
		}
	}
	return nil
}

func writeTraceFile(path string, f *trace.File) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	write := f.Write
	if isITF(path) {
		write = func(w io.Writer) error { return itf.Write(w, f) }
	}
	if err := write(out); err != nil {
		out.Close()
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	return out.Close()
}
