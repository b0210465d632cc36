package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/itf"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

const replayUsage = "mcheck replay [--full-states] [--quiet] [--msc FILE.svg|FILE.md] FILE (.trace.json or .itf.json)"

// replayMain is `mcheck replay FILE`.
func replayMain(args []string, reg *specs.Registry, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcheck replay", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	full := fs.Bool("full-states", false, "")
	quiet := fs.Bool("quiet", false, "")
	chart := fs.String("msc", "", "")
	if err := fs.Parse(args); err != nil {
		return badInput(stderr, fmt.Errorf("replay: %s (usage: %s)", flagError(err), replayUsage))
	}
	if fs.NArg() != 1 {
		return badInput(stderr, fmt.Errorf("replay: give exactly one trace file (usage: %s)", replayUsage))
	}
	if err := checkMSCPath(*chart); err != nil {
		return badInput(stderr, fmt.Errorf("replay: %w", err))
	}
	path := fs.Arg(0)
	f, err := readTraceFile(path)
	if err != nil {
		return badInput(stderr, fmt.Errorf("replay: %s: %v", path, err))
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
	fmt.Fprintf(stdout, "%s: a genuine counterexample: %s is violated (%s, %d steps; every step replays)\n", path, f.Property, f.Kind, len(f.Steps)-1)
	if *chart != "" {
		if err := writeMSCFile(*chart, f); err != nil {
			return badInput(stderr, fmt.Errorf("replay: --msc: %w", err))
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
func writeTraceFiles(path string, rep *check.Report, stderr io.Writer) error {
	files := rep.Files()
	info, statErr := os.Stat(path)
	dir := strings.HasSuffix(path, "/") || (statErr == nil && info.IsDir())
	if !dir {
		if len(files) == 0 {
			return nil
		}
		if len(files) > 1 {
			fmt.Fprintf(stderr, "mcheck: --trace-out: %d counterexamples, wrote the first to %s; give a directory to keep them all\n", len(files), path)
		}
		return writeTraceFile(path, files[0])
	}
	if err := os.MkdirAll(path, 0o755); err != nil {
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
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return out.Close()
}
