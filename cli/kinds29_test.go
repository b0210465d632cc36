package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Sometimes property's example, "p3 is leader after p4 crashed", is
// printed as a shortest example, never as a violation, exit 0; written,
// charted and replayed as a genuine example.
func TestSometimesExampleOnTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	tracePath, chart := filepath.Join(dir, "ex.trace.json"), filepath.Join(dir, "ex.md")
	code, out, stderr := run("--algo", "bully", "--n", "4", "--crashes", "1", "--check", "TakeOver", "--trace-out", tracePath, "--msc", chart)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "  TakeOver      reachable  after 3 steps p3 is leader while p4 (ID 4) is down\n")
	assert.Contains(t, out, "TakeOver example (a shortest run to a state where it holds; not a violation), 3 steps:\n"+
		"   0  initial state\n")
	assert.Contains(t, out, "   3  timeout-ok p3\n")
	assert.NotContains(t, out, "VIOLATED")
	assert.NotContains(t, out, "counterexample")
	md, err := os.ReadFile(chart)
	require.NoError(t, err)
	assert.Contains(t, string(md), "TakeOver is reachable: an example")

	code, out, stderr = run("replay", "--quiet", tracePath)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, tracePath+": a genuine example: TakeOver is reachable (3 steps; every step replays, and TakeOver holds in the last state)\n", out)

	// ITF too.
	itfPath := filepath.Join(dir, "ex.itf.json")
	code, _, stderr = run("--algo", "bully", "--n", "4", "--crashes", "1", "--check", "TakeOver", "--trace-out", itfPath)
	require.Equal(t, 0, code, stderr)
	code, out, stderr = run("replay", "--quiet", itfPath)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "a genuine example: TakeOver is reachable")
}

// An unreachable Sometimes exits 1 (an example that should exist does
// not); JSON and JUnit say so: a failure, never a pass.
func TestUnreachableSometimesFails(t *testing.T) {
	junit := filepath.Join(t.TempDir(), "j.xml")
	code, out, stderr := run("--algo", "bully", "--n", "4", "--check", "TakeOver,SingleLeader", "--junit", junit)
	require.Equal(t, 1, code, stderr)
	assert.Contains(t, out, "  TakeOver      UNREACHABLE  no reachable state satisfies it (the search was exhaustive)\n")
	data, err := os.ReadFile(junit)
	require.NoError(t, err)
	root := parseXML(t, data)
	validateJUnit(t, root)
	c := cases(root)["TakeOver"]
	require.Len(t, c.children, 1)
	assert.Equal(t, "failure", c.children[0].name)
	assert.Equal(t, "unreachable", c.children[0].attrs["type"])

	code, out, stderr = run("--algo", "bully", "--n", "4", "--check", "TakeOver", "--json", "--quiet")
	require.Equal(t, 1, code, stderr)
	var rep struct {
		Properties []struct{ Name, Status, Summary string }
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.Len(t, rep.Properties, 4)
	assert.Equal(t, "unreachable", rep.Properties[3].Status)
}

// In JUnit a reachable Sometimes passes, with its example in system-out.
func TestJUnitExampleIsAPass(t *testing.T) {
	junit := filepath.Join(t.TempDir(), "j.xml")
	code, _, stderr := run("--algo", "bully", "--n", "4", "--crashes", "1", "--check", "TakeOver", "--junit", junit)
	require.Equal(t, 0, code, stderr)
	data, err := os.ReadFile(junit)
	require.NoError(t, err)
	root := parseXML(t, data)
	validateJUnit(t, root)
	c := cases(root)["TakeOver"]
	require.Len(t, c.children, 1)
	assert.Equal(t, "system-out", c.children[0].name)
	assert.True(t, strings.HasPrefix(c.children[0].text, "after 3 steps p3 is leader while p4 (ID 4) is down\n\nTakeOver example"), c.children[0].text)
	assert.Equal(t, "0", root.attrs["failures"])
}

// A leads-to's counterexample marks where its premise held: in the text,
// the JSON (premise), the trace file, and the chart; replay checks it.
func TestLeadsToCounterexampleMarksThePremise(t *testing.T) {
	dir := t.TempDir()
	tracePath, chart := filepath.Join(dir, "lcr.trace.json"), filepath.Join(dir, "lcr.svg")
	args := []string{"--algo", "bully", "--n", "3", "--crashes", "1", "--restarts", "1", "--check", "LeaderCrashRecovered"}
	code, out, stderr := run(append(args, "--trace-out", tracePath, "--msc", chart)...)
	require.Equal(t, 1, code, stderr)
	assert.Contains(t, out, "LeaderCrashRecovered  VIOLATED  after step 1 the leader has crashed (p1, p2 elected the crashed 3); then stuck")
	assert.Contains(t, out, "   1  crash p3   ◀ premise holds here; its goal never does from here on\n")
	svg, err := os.ReadFile(chart)
	require.NoError(t, err)
	assert.Contains(t, string(svg), "crash p3  ◀ premise")

	code, out, stderr = run("replay", "--quiet", tracePath)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "a genuine counterexample: LeaderCrashRecovered is violated (stuck, ")

	code, out, stderr = run(append(args, "--json", "--quiet")...)
	require.Equal(t, 1, code, stderr)
	var rep struct {
		Properties []struct {
			Name    string
			Status  string
			Kind    string
			Premise *int
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	lcr := rep.Properties[len(rep.Properties)-1]
	assert.Equal(t, "LeaderCrashRecovered", lcr.Name)
	require.NotNil(t, lcr.Premise)
	assert.Equal(t, 1, *lcr.Premise)
}

// --check list names the new kinds and says what the new properties mean.
func TestCheckListShowsTheNewKinds(t *testing.T) {
	code, out, stderr := run("--algo", "bully", "--check", "list")
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `\n    LeaderCrashRecovered  leads-to           LeaderCrashed ~> Stable under weak fairness: from every state where a live process's elected leader has crashed`, out)
	assert.Regexp(t, `\n    Quiescent             eventually-always  <>\[\]Quiet under weak fairness: eventually no message is in flight and no fair step is enabled, for good`, out)
	assert.Regexp(t, `\n    TakeOver              sometimes          the largest ID is down and the next largest is a live leader`, out)
}

// A check of Sometimes properties alone stops once each has its example
// (the configuration has hundreds of millions of states): exit 0,
// and the report says that the counts are partial; --continue explores
// every state.
func TestSometimesAloneStopsAtItsExamples(t *testing.T) {
	code, out, stderr := run("--algo", "bully", "--n", "4", "--crashes", "2", "--restarts", "1", "--check", "TakeOver")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "search       stopped once every example was found, so the counts are partial (--continue explores every state)\n")
	assert.Contains(t, out, "  TakeOver      reachable  after 3 steps p3 is leader while p4 (ID 4) is down\n")
	assert.NotContains(t, out, "no property can be said to hold")

	code, out, stderr = run("--algo", "bully", "--n", "4", "--crashes", "1", "--check", "TakeOver", "--continue")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "search       complete\n")
	assert.Contains(t, out, "states       1,765 distinct\n")
}

// Bound deepening stops at the bound where every example was found: the
// examples are runs of the unbounded model too.
func TestDeepeningStopsAtTheExamples(t *testing.T) {
	code, out, stderr := run("--algo", "bully", "--n", "4", "--crashes", "1", "--check", "TakeOver", "--max-queue", "auto")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "  max-queue 1             15 states             0 discarded")
	assert.Contains(t, out, "every example found\n")
	assert.Contains(t, out, "  verdict: every property has its example with at most 1 message per channel, each a run of the model (unbounded too)\n")
}
