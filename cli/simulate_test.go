package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A simulation that finds a violation exits 1, prints the run seed that
// replays it, and --run-seed replays that run to the same counterexample.
func TestSimulateFindsAndReplays(t *testing.T) {
	args := []string{"--algo", "chang-roberts", "--n", "5", "--crashes", "1", "--simulate", "--seed", "3", "--runs", "1000", "--depth", "200", "--workers", "2"}
	code, out, _ := run(args...)
	require.Equal(t, 1, code, out)
	assert.Contains(t, out, "search       simulation: ")
	assert.Contains(t, out, "proof        none: random runs are a sample, so a property without a violation is not shown to hold (a violation is real: replayed below)\n")
	m := regexp.MustCompile(`found        Termination \((stuck|fair-cycle)\) by run (\d+) in \d+ steps, shortened to (\d+) in [\d,]+ replays; --run-seed (0x[0-9a-f]+) replays that run alone`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	_, cx, _ := strings.Cut(out, "\nTermination counterexample")
	require.NotEmpty(t, cx)

	code, again, _ := run("--algo", "chang-roberts", "--n", "5", "--crashes", "1", "--simulate", "--run-seed", m[4], "--depth", "200")
	require.Equal(t, 1, code, again)
	assert.Contains(t, again, "search       simulation: 1 random run of at most 200 steps, faults scheduler, run seed "+m[4])
	_, cx2, _ := strings.Cut(again, "\nTermination counterexample")
	assert.Equal(t, cx, cx2, "the same counterexample")
}

// Nothing found: exit 3, the statistics, a JSON object for merging, JUnit
// skipped (not an error), and nothing said to hold.
func TestSimulateWithoutViolation(t *testing.T) {
	dir := t.TempDir()
	junit := filepath.Join(dir, "out.xml")
	code, out, _ := run("--algo", "bully", "--n", "3", "--crash-any", "--simulate", "--runs", "500", "--scheduler", "faults", "--complexity", "--junit", junit)
	require.Equal(t, 3, code, out)
	for _, want := range []string{
		"search       simulation: 500 random runs of at most 1000 steps, faults scheduler, seed 0\n",
		// The count first, and no "stuck" (a violation's word elsewhere).
		"runs ended   0 at the step limit (--depth 1000), 500 quiescent, 0 blocked by the channel bound (--max-queue 6), 0 on a fair cycle inside the goal, 0 at a violation\n",
		// Nothing is replayed below, so the proof line does not say so.
		"proof        none: random runs are a sample, so a property without a violation is not shown to hold\nstates",
		// Only kinds this configuration can take are named: no restart,
		// suspect or tick here.
		"actions      deliver 437, initiate 503, timeout 470, crash 1,000\n",
		"messages     sampled over ",
		"(samples, not bounds)",
		"SingleLeader  unknown  no violation in 500 random runs; a simulation samples runs, so this is not a proof",
	} {
		assert.Contains(t, out, want)
	}
	assert.NotRegexp(t, `\bholds\b`, out)
	x, err := os.ReadFile(junit)
	require.NoError(t, err)
	assert.Contains(t, string(x), `skipped="3"`)
	assert.Contains(t, string(x), `errors="0"`)

	code, js, _ := run("--algo", "bully", "--n", "3", "--crash-any", "--simulate", "--runs", "500", "--scheduler", "faults", "--json")
	require.Equal(t, 3, code)
	var rep struct {
		Strategy   string `json:"strategy"`
		Proof      string `json:"proof"`
		Simulation struct {
			Seed           uint64           `json:"seed"`
			Runs           int64            `json:"runs"`
			DistinctStates int64            `json:"distinct_states"`
			Ends           map[string]int64 `json:"ends"`
			Actions        []struct {
				Kind  string `json:"kind"`
				Taken int64  `json:"taken"`
			} `json:"actions"`
		} `json:"simulation"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &rep))
	assert.Equal(t, "simulation", rep.Strategy)
	assert.Equal(t, "sampled", rep.Proof)
	assert.Equal(t, int64(500), rep.Simulation.Runs)
	assert.Equal(t, int64(500), rep.Simulation.Ends["quiescent"])
	assert.Positive(t, rep.Simulation.DistinctStates)
	assert.Equal(t, "deliver", rep.Simulation.Actions[0].Kind)
}
