package cli_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/msc"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// The tests of this package run checks through Main: a job summary of the
// machine running them (GitHub Actions sets GITHUB_STEP_SUMMARY) must not
// receive them. The tests that want one set it themselves.
func TestMain(m *testing.M) {
	os.Unsetenv("GITHUB_STEP_SUMMARY")
	os.Exit(m.Run())
}

// --continue: the lasso needs the whole graph; without it the first stuck
// state stops the search.
var circulating = []string{"--algo", "chang-roberts", "--n", "4", "--crashes", "1", "--continue"}

func wellFormed(t *testing.T, data []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	for {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return
		}
		require.NoError(t, err)
	}
}

func TestMSCSVG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chart.svg")
	code, out, stderr := run(append(circulating, "--msc", path)...)
	require.Equal(t, 1, code, stderr)
	assert.Contains(t, out, "Termination   VIOLATED")
	// Two counterexamples (the lasso and the stuck state): the first is drawn.
	assert.Equal(t, "mcheck: --msc: 2 counterexamples, drew the first in "+path+"; keep them all with --trace-out DIR/ and draw one with mcheck replay --msc\n", stderr)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	wellFormed(t, data)
	svg := string(data)
	assert.True(t, strings.HasPrefix(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""))
	assert.Contains(t, svg, "Termination violated: a lasso")
	assert.Contains(t, svg, "steps 6-8 repeat forever")
	assert.Equal(t, 6, strings.Count(svg, `<g class="delivered">`))
}

func TestMSCMarkdown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chart.md")
	code, _, stderr := run("--algo", "bully", "--n", "3", "--crashes", "1", "--restarts", "1", "--check", "safety", "--msc", path)
	require.Equal(t, 1, code, stderr)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	md := string(data)
	assert.True(t, strings.HasPrefix(md, "# SingleLeader violated: the last state breaks the invariant, 4 steps\n\n"), md)
	assert.Contains(t, md, "after 4 steps p2 and p3 each consider themselves leader\n")
	assert.Contains(t, md, "\n```mermaid\nsequenceDiagram\n    participant p1\n    participant p2\n    participant p3\n")
	assert.Contains(t, md, "    Note over p3: 4: restart, elected := 3\n")
	assert.True(t, strings.HasSuffix(md, "```\n"))
}

func TestMSCWantsSVGOrMarkdown(t *testing.T) {
	for _, p := range []string{"chart.png", "chart", "chart.svg.txt"} {
		code, out, stderr := run(append(circulating, "--msc", p)...)
		assert.Equal(t, 2, code)
		assert.Empty(t, out, "the check does not run")
		assert.Equal(t, "mcheck: --msc: want a file ending in .svg or .md\n", stderr)
	}
	code, _, stderr := run("replay", "--msc", "chart.png", "whatever.json")
	assert.Equal(t, 2, code)
	assert.Equal(t, "mcheck: replay: --msc: want a file ending in .svg or .md\n", stderr)
}

func TestMSCWithoutCounterexample(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chart.svg")
	code, _, stderr := run("--algo", "chang-roberts", "--n", "3", "--msc", path)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "mcheck: --msc: no counterexample to draw; "+path+" not written\n", stderr)
	assert.NoFileExists(t, path)
}

func TestMSCUnwritable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "chart.svg")
	code, _, stderr := run(append(circulating, "--msc", path)...)
	assert.Equal(t, 2, code)
	assert.Equal(t, "mcheck: --msc: cannot write "+path+": the directory "+filepath.Dir(path)+" does not exist (create it first)\n", stderr)
}

func TestReplayMSC(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := run(append(circulating, "--trace-out", dir+"/")...)
	require.Equal(t, 1, code, stderr)
	tracePath := filepath.Join(dir, "Termination-stuck.trace.json")
	for _, ext := range []string{".svg", ".md"} {
		chart := filepath.Join(dir, "stuck"+ext)
		code, out, stderr := run("replay", "--quiet", "--msc", chart, tracePath)
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, out, "a genuine counterexample")

		fh, err := os.Open(tracePath)
		require.NoError(t, err)
		f, err := trace.Read(fh)
		fh.Close()
		require.NoError(t, err)
		// Drawn as the model renders the run, which replay does.
		summary := f.Summary
		f, err = trace.Replayed(f, specs.Builtin())
		require.NoError(t, err)
		f.Summary = summary
		var want bytes.Buffer
		if ext == ".svg" {
			require.NoError(t, msc.SVG(&want, f))
		} else {
			require.NoError(t, msc.Markdown(&want, f, 1))
		}
		got, err := os.ReadFile(chart)
		require.NoError(t, err)
		assert.Equal(t, want.String(), string(got), "replay --msc draws the trace file")
	}
	// A trace that does not replay is not drawn.
	data, err := os.ReadFile(tracePath)
	require.NoError(t, err)
	bad := filepath.Join(dir, "bad.trace.json")
	f, err := trace.Read(bytes.NewReader(data))
	require.NoError(t, err)
	crashes := 0
	for _, s := range f.Steps {
		if s.Step != nil && s.Step.Kind == model.KindCrash && s.Step.Process == 4 {
			s.Step.Process = 3 // crash p3 instead of p4
			crashes++
			break
		}
	}
	require.Equal(t, 1, crashes)
	var edited bytes.Buffer
	require.NoError(t, f.Write(&edited))
	require.NoError(t, os.WriteFile(bad, edited.Bytes(), 0o644))
	chart := filepath.Join(dir, "bad.svg")
	code, _, _ = run("replay", "--msc", chart, bad)
	assert.Equal(t, 1, code)
	assert.NoFileExists(t, chart)
}

func TestStepSummary(t *testing.T) {
	summary := filepath.Join(t.TempDir(), "summary.md")
	require.NoError(t, os.WriteFile(summary, []byte("earlier step\n"), 0o644))
	t.Setenv("GITHUB_STEP_SUMMARY", summary)

	code, _, stderr := run(circulating...)
	require.Equal(t, 1, code, stderr)
	assert.Empty(t, stderr)
	data, err := os.ReadFile(summary)
	require.NoError(t, err)
	md := string(data)
	assert.True(t, strings.HasPrefix(md, "earlier step\n## mcheck chang-roberts, N=4, ids 1,2,3,4, up to 1 crash, perfect detector, max-queue 8\n\n"), "appended, not overwritten:\n%s", md)
	assert.Contains(t, md, "Search complete: 994 states, 2,700 transitions, depth 33.\n")
	assert.Contains(t, md, "| property | status | summary |\n|---|---|---|\n| SingleLeader | holds |  |\n| Agreement | holds |  |\n")
	assert.Contains(t, md, "| Termination | **VIOLATED** | ELECTION(4) of crashed p4 circulates forever; Stable (elected=3) is never reached: p1 elected=⊥, p2 elected=⊥, p3 elected=⊥ |\n")
	assert.Contains(t, md, "| | also | stuck without a leader: ")
	// Both counterexamples, each as a Mermaid chart under a heading.
	assert.Equal(t, 2, strings.Count(md, "```mermaid\nsequenceDiagram\n"))
	assert.Contains(t, md, "### Termination violated: a lasso (a prefix, then a cycle repeated forever), 8 steps\n")
	assert.Contains(t, md, "### Termination violated: ends in a stuck state, 4 steps\n")
	assert.Contains(t, md, "    loop steps 6-8 repeat forever, then back to step 6\n")

	// A second check appends another section; one that fails on its
	// flags never ran and adds nothing.
	code, _, _ = run("--algo", "chang-roberts", "--n", "3")
	require.Equal(t, 0, code)
	code, _, _ = run("--algo", "chang-roberts", "--n", "1")
	require.Equal(t, 2, code)
	data, err = os.ReadFile(summary)
	require.NoError(t, err)
	md = string(data)
	assert.Equal(t, 2, strings.Count(md, "## mcheck "))
	assert.True(t, strings.HasSuffix(md, "| Termination | holds |  |\n\n"), md[len(md)-200:])
}

func TestStepSummaryIncomplete(t *testing.T) {
	summary := filepath.Join(t.TempDir(), "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	code, _, _ := run("--algo", "bully", "--n", "3", "--crashes", "1", "--restarts", "1", "--check", "safety")
	require.Equal(t, 1, code)
	data, err := os.ReadFile(summary)
	require.NoError(t, err)
	md := string(data)
	assert.Contains(t, md, "Search **incomplete** (stopped at the first violation):")
	assert.Contains(t, md, "| Termination | not checked |  |\n")
	assert.Equal(t, 2, strings.Count(md, "```mermaid\n"), "SingleLeader's and Agreement's counterexamples")
}

func TestStepSummaryUnwritableOnlyWarns(t *testing.T) {
	t.Setenv("GITHUB_STEP_SUMMARY", filepath.Join(t.TempDir(), "no", "such", "summary.md"))
	code, out, stderr := run("--algo", "chang-roberts", "--n", "3")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "Termination   holds")
	assert.Contains(t, stderr, "mcheck: GITHUB_STEP_SUMMARY: open ")
}

func TestHelpMentionsMSC(t *testing.T) {
	_, out, _ := run("--help")
	assert.Contains(t, out, "  --msc FILE.svg|.md    draw the counterexample")
	assert.Contains(t, out, "GITHUB_STEP_SUMMARY")
	assert.Contains(t, out, "mcheck replay [--full-states] [--quiet] [--msc FILE.svg|FILE.md] FILE")
}
