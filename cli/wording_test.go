package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
)

// A bitstate search that stopped early knows nothing of the coverage of
// the states it never reached: the text says so instead of "coverage at
// least 100%", and --json leaves the estimate out.
func TestInterruptedBitstateClaimsNoCoverage(t *testing.T) {
	args := []string{"--algo", "ring", "--n", "4", "--bitstate", "1MiB", "--max-states", "100"}
	code, out, _ := run(args...)
	require.Equal(t, cli.ExitIncomplete, code, out)
	assert.Contains(t, out, "search       INCOMPLETE")
	assert.Contains(t, out, "the search did not finish, so how much of the state space it covered is unknown (not exhaustive)")
	assert.NotContains(t, out, "coverage at least")

	code, out, _ = run(append(args, "--json")...)
	require.Equal(t, cli.ExitIncomplete, code, out)
	var got struct {
		Bitstate map[string]any `json:"bitstate"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.NotNil(t, got.Bitstate)
	assert.NotContains(t, got.Bitstate, "expected_coverage_at_least")

	// A finished bitstate search keeps its estimate.
	code, out, _ = run("--algo", "ring", "--n", "3", "--bitstate", "1MiB", "--json")
	require.Equal(t, cli.ExitSampled, code, out) // nothing holds after a bitstate search
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Contains(t, got.Bitstate, "expected_coverage_at_least")
}

// A witness of --complexity breaks nothing: its chart is titled as the text
// report heads it, "messages.max witness ...", never "violated".
func TestWitnessChartTitles(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		head string
	}{
		{[]string{"--algo", "chang-roberts", "--n", "3", "--initiators", "1", "--complexity"}, "messages.max witness run, 9 steps"},
		{[]string{"--algo", "chang-roberts", "--n", "2", "--detector", "unreliable", "--check", "safety", "--complexity"},
			"messages.max witness: a lasso (a prefix, then a cycle that sends and can be repeated at will)"},
		{[]string{"--algo", "chang-roberts", "--n", "3", "--ids", "7,4,6", "--crashes", "1", "--max-queue", "1", "--complexity", "--witness", "sync"},
			"messages.sync witness run, 4 steps"},
	} {
		for _, ext := range []string{".svg", ".md"} {
			path := filepath.Join(dir, "w"+ext)
			code, out, errOut := run(append(c.args, "--msc", path)...)
			require.NotEqual(t, cli.ExitIncomplete, code, out+errOut)
			chart, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Contains(t, string(chart), c.head, c.args)
			assert.NotContains(t, string(chart), "violated", c.args)
		}
	}
}

// A count of one is singular wherever a report writes a count: "1
// message", not "1 messages".
func TestCountsOfOneAreSingular(t *testing.T) {
	_, out, _ := run("--algo", "bully", "--n", "2", "--max-queue", "1", "--crash-any")
	assert.Contains(t, out, "crash-any (up to 1 crash)")
	assert.Contains(t, out, "discarded    0 (no channel ever needed more than 1 message)\n")
	_, out, _ = run("--algo", "ring", "--n", "2", "--max-queue", "1", "--crash-any")
	assert.Contains(t, out, "note: exhaustive up to 1 message per channel;")
	_, out, _ = run("--algo", "ring", "--simulate", "--runs", "1", "--depth", "1")
	assert.Contains(t, out, "search       simulation: 1 random run of at most 1 step,")
	assert.NotRegexp(t, `\b1 (message|step|run|crash)s\b`, out)
}
