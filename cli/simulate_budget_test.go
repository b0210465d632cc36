package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A simulation stopped by the memory budget (its table of distinct states
// alone is 1 MiB, so the first run committed reaches it) reports what it
// found, says that it did not finish, and writes every output an
// interrupted run writes. Run 0 of seed 29 ends in a stuck state, so the
// trace is there and the exit status is a violation's.
func TestSimulationStoppedByTheMemoryBudgetReports(t *testing.T) {
	dir := t.TempDir()
	jsonOut, junit, trace := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml"), filepath.Join(dir, "t.json")
	code, out, stderr := run("--algo", "chang-roberts", "--n", "5", "--crashes", "1", "--simulate", "--continue",
		"--seed", "29", "--workers", "2", "--memory", "1MiB",
		"--json-out", jsonOut, "--junit", junit, "--trace-out", trace)
	require.Equal(t, 1, code, out+stderr)
	for _, want := range []string{
		"search       simulation: 1 random run of at most 1000 steps, faults scheduler, seed 29\n",
		"stopped      memory budget of 1.0 MiB reached by the table of the distinct states seen\n",
		"  SingleLeader  unknown  the search did not finish: memory budget of 1.0 MiB reached",
		"  Termination   VIOLATED  stuck without a leader",
		"found        Termination (stuck) by run 0 in 8 steps",
	} {
		assert.Contains(t, out, want)
	}
	assert.NotRegexp(t, `\bholds\b`, out)

	js, err := os.ReadFile(jsonOut)
	require.NoError(t, err)
	var rep struct {
		Complete *bool  `json:"complete"`
		Stopped  string `json:"stopped"`
	}
	require.NoError(t, json.Unmarshal(js, &rep))
	require.NotNil(t, rep.Complete)
	assert.False(t, *rep.Complete)
	assert.Equal(t, "memory budget of 1.0 MiB reached by the table of the distinct states seen", rep.Stopped)
	x, err := os.ReadFile(junit)
	require.NoError(t, err)
	assert.Contains(t, string(x), `<property name="complete" value="false">`)
	assert.FileExists(t, trace)
}

// Without a violation, the budget's stop is an incomplete run: exit 2, as
// for an exhaustive search that reaches --memory, with the JSON written.
func TestSimulationStoppedByTheMemoryBudgetWithoutViolation(t *testing.T) {
	dir := t.TempDir()
	jsonOut := filepath.Join(dir, "r.json")
	code, out, stderr := run("--algo", "chang-roberts", "--n", "5", "--crashes", "1", "--simulate",
		"--workers", "2", "--memory", "1MiB", "--json-out", jsonOut)
	require.Equal(t, 2, code, out+stderr)
	assert.Contains(t, out, "stopped      memory budget of 1.0 MiB reached")
	assert.Contains(t, out, "note: the search did not finish")
	assert.FileExists(t, jsonOut)

	code, out, stderr = run("--algo", "chang-roberts", "--n", "5", "--crashes", "1", "--memory", "1MiB")
	require.Equal(t, 2, code, out+stderr)
	assert.Contains(t, out, "search       INCOMPLETE: memory budget of 1.0 MiB reached")
}
