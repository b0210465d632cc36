package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

const replayUsage = "mcheck replay [--full-states] [--quiet] [--msc FILE.svg|FILE.md] FILE"

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
	fh, err := os.Open(path)
	if err != nil {
		return badInput(stderr, fmt.Errorf("replay: %v", err))
	}
	defer fh.Close()
	f, err := trace.Read(fh)
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
	if err := f.Write(out); err != nil {
		out.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return out.Close()
}
