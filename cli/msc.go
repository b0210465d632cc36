package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcheck/mcheck/msc"
	"github.com/mcheck/mcheck/report"
	"github.com/mcheck/mcheck/trace"
)

// Message-sequence charts (--msc) and the GitHub job summary
// (GITHUB_STEP_SUMMARY).

// errMSCPath is the one-line complaint about an --msc path.
var errMSCPath = errors.New("--msc: want a file ending in .svg or .md")

// checkMSCPath accepts "" (no chart) or a path ending in .svg or .md.
func checkMSCPath(path string) error {
	if path == "" {
		return nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg", ".md":
		return nil
	}
	return errMSCPath
}

// writeMSCFile draws f into path: an SVG chart, or for .md a Markdown
// document with a heading and the Mermaid chart in a fenced block.
func writeMSCFile(path string, f *trace.File) error {
	if err := checkMSCPath(path); err != nil {
		return err
	}
	return writeOutput(path, func(w io.Writer) error {
		if strings.EqualFold(filepath.Ext(path), ".svg") {
			return msc.SVG(w, f)
		}
		return msc.Markdown(w, f, 1)
	})
}

// writeCharts follows a check: --msc draws the first counterexample, and
// when GITHUB_STEP_SUMMARY names a file the verdicts and every
// counterexample's chart are appended to it. With no counterexample to
// draw, the chart an earlier run drew follows the traces it left
// (stale): removed when they were all removed, kept when one was kept.
// Only a failure to write the --msc file is an error; the job summary only
// warns.
func writeCharts(path string, res *report.Result, stale staleTraces, stderr io.Writer) error {
	var mscErr error
	if path != "" {
		files := counterexampleFiles(res.Report)
		switch {
		case len(files) == 0:
			staleChart(path, stale, stderr)
		default:
			if err := writeMSCFile(path, files[0]); err != nil {
				mscErr = fmt.Errorf("--msc: %w", err)
			} else if len(files) > 1 {
				fmt.Fprintf(stderr, "mcheck: --msc: %d counterexamples, drew the first in %s; keep them all with --trace-out DIR/ and draw one with mcheck replay --msc\n", len(files), path)
			}
		}
	}
	if summary := os.Getenv("GITHUB_STEP_SUMMARY"); summary != "" {
		if err := appendStepSummary(summary, res); err != nil {
			fmt.Fprintf(stderr, "mcheck: GITHUB_STEP_SUMMARY: %v (the job summary is incomplete)\n", err)
		}
	}
	return mscErr
}

// staleChart decides the chart at path when this run draws none: it was
// drawn beside the traces an earlier run left, so it goes exactly when
// they went (every one of them removed), and stays when one stayed.
func staleChart(path string, stale staleTraces, stderr io.Writer) {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() || isDescriptorPath(path) {
		fmt.Fprintf(stderr, "mcheck: --msc: no counterexample to draw; %s not written\n", path)
		return
	}
	switch {
	case stale.kept > 0:
		fmt.Fprintf(stderr, "mcheck: --msc: no counterexample to draw; %s is kept, as the trace of the earlier run is\n", path)
	case stale.removed > 0:
		if err := os.Remove(path); err != nil {
			fmt.Fprintf(stderr, "mcheck: --msc: %s is the chart of a trace removed above, and it cannot be removed: %v\n", path, unwrapPath(err))
			return
		}
		fmt.Fprintf(stderr, "mcheck: --msc: removed %s, the chart of a trace removed above\n", path)
	default:
		fmt.Fprintf(stderr, "mcheck: --msc: no counterexample to draw; %s not written\n", path)
	}
}

func appendStepSummary(path string, res *report.Result) error {
	var b bytes.Buffer
	if err := report.StepSummary(&b, res); err != nil {
		return err
	}
	return appendOutput(path, b.Bytes())
}
