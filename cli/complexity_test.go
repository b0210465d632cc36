package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
)

func TestComplexityText(t *testing.T) {
	code, out, _ := run("--algo", "chang-roberts", "--n", "5", "--ids", "5,4,3,2,1", "--complexity", "--witness", "sync")
	require.Equal(t, cli.ExitHolds, code, out)
	for _, want := range []string{
		"  messages      min 10  max 20\n",
		"  ELECTION      min 5  max 15\n",
		"  synchronous  latency 10 rounds after round 0, 20 messages (ELECTION 15, ELECTED 5), 0 lost\n",
		"running total 5\n", "running total 9\n", "running total 12\n", "running total 14\n", "running total 15\n",
		"messages.sync witness run, 25 steps:",
	} {
		assert.Contains(t, out, want)
	}
}

func TestComplexityJSON(t *testing.T) {
	code, out, _ := run("--algo", "chang-roberts", "--n", "2", "--detector", "unreliable", "--complexity", "--json", "--check", "safety")
	require.Equal(t, cli.ExitHolds, code, out)
	var got struct {
		Complexity struct {
			Messages     map[string]any            `json:"messages"`
			ByType       map[string]map[string]any `json:"by_type"`
			Lost         map[string]any            `json:"lost"`
			CompleteRuns bool                      `json:"complete_runs"`
			Sync         struct {
				Latency  any            `json:"latency"`
				Messages int            `json:"messages"`
				ByType   map[string]int `json:"by_type"`
			} `json:"sync"`
		} `json:"complexity"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	c := got.Complexity
	assert.True(t, c.CompleteRuns)
	assert.Equal(t, map[string]any{"min": 4.0, "max": "unbounded"}, c.Messages)
	assert.Equal(t, map[string]any{"min": 2.0, "max": "unbounded"}, c.ByType["ELECTED"])
	assert.Equal(t, map[string]any{"min": 0.0, "max": 0.0}, c.Lost)
	assert.Equal(t, 4.0, c.Sync.Latency)
	assert.Equal(t, 5, c.Sync.Messages)
	assert.Equal(t, map[string]int{"ELECTION": 3, "ELECTED": 2}, c.Sync.ByType)
}

func TestComplexityWitnessChart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "max.svg")
	code, out, errOut := run("--algo", "chang-roberts", "--n", "3", "--initiators", "1", "--complexity", "--msc", path)
	require.Equal(t, cli.ExitHolds, code, out+errOut)
	svg, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(svg), "<svg") || strings.Contains(string(svg), "<svg"))
	assert.Contains(t, out, "messages.max witness run, 9 steps:")
}

func TestComplexityBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--algo", "ring", "--witness", "max"}, "--witness names a run of --complexity: add --complexity"},
		{[]string{"--algo", "ring", "--complexity", "--bitstate", "1MiB"}, "--complexity needs the whole state graph: drop --bitstate"},
		{[]string{"--algo", "ring", "--complexity", "--witness", "max:FOO"}, `no witness "max:FOO"`},
	} {
		code, _, errOut := run(c.args...)
		assert.Equal(t, cli.ExitIncomplete, code, c.args)
		assert.Contains(t, errOut, c.want)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
	}
}

func TestAnonymousAndIncompleteDetectorCommands(t *testing.T) {
	code, out, _ := run("--algo", "chang-roberts", "--n", "3", "--anonymous", "--ids", "1,1,1")
	assert.Equal(t, cli.ExitViolation, code)
	assert.Contains(t, out, "SingleLeader  VIOLATED  after 3 steps p1@1 and p1@2 each consider themselves leader")
	code, _, errOut := run("--algo", "chang-roberts", "--n", "3", "--ids", "1,1,1")
	assert.Equal(t, cli.ExitIncomplete, code)
	assert.Contains(t, errOut, "ID 1 appears twice: IDs must be unique (or allow duplicates with --anonymous)")

	code, out, _ = run("--algo", "bully", "--n", "3", "--crashes", "1", "--detector", "incomplete", "--continue")
	assert.Equal(t, cli.ExitViolation, code)
	assert.Contains(t, out, "SingleLeader  holds\n")
	assert.Contains(t, out, "Agreement     holds\n")
	assert.Contains(t, out, "Termination   VIOLATED  stuck with the wrong leader: no fair step is enabled, and p1 elected=3, p2 elected=3 (Stable needs elected=2)\n")
	assert.Contains(t, out, "   1  crash p3\n")
}

// A search that did not finish measures nothing, and says so.
func TestComplexityIncompleteSearch(t *testing.T) {
	code, out, errOut := run("--algo", "ring", "--n", "4", "--complexity", "--max-states", "100", "--check", "safety")
	assert.Equal(t, cli.ExitIncomplete, code, errOut)
	assert.Contains(t, out, "  not measured: the search did not finish: --max-states 100 reached\n")
	assert.NotContains(t, out, "witness run")
}

// --trace-out keeps the measure's witness run next to the counterexamples,
// and replay accepts it as a run (it claims no violation) but not once a
// step is gone.
func TestComplexityWitnessTraceFile(t *testing.T) {
	dir := t.TempDir() + "/traces/"
	code, _, stderr := run("--algo", "chang-roberts", "--n", "5", "--ids", "5,4,3,2,1", "--complexity", "--trace-out", dir)
	require.Equal(t, 0, code, stderr)
	path := dir + "messages.max-witness.trace.json"
	code, out, stderr := run("replay", path)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "a genuine run: the witness of messages.max (24 steps; every step replays)")

	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var f map[string]any
	require.NoError(t, json.Unmarshal(data, &f))
	steps := f["steps"].([]any)
	f["steps"] = append(steps[:3:3], steps[4:]...)
	data, err = json.Marshal(f)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	code, out, _ = run("replay", path)
	assert.Equal(t, 1, code, out)
}
