package cli_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mergedProperty is a property of mcheck merge --json.
type mergedProperty struct {
	Name    string `json:"name"`
	Status  string `json:"status"`
	Proof   string `json:"proof"`
	Caveat  string `json:"caveat"`
	Summary string `json:"summary"`
}

// mergeJSON merges files with --json and returns its exit status and
// properties.
func mergeJSON(t *testing.T, files ...string) (int, []mergedProperty) {
	t.Helper()
	code, js, stderr := run(append([]string{"merge", "--json"}, files...)...)
	var merged struct {
		Properties []mergedProperty `json:"properties"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &merged), stderr)
	return code, merged.Properties
}

// An example of a Sometimes that members found is merged as they judged
// it, reachable, with exit status 0 as each member's: not a violation.
func TestMergeKeepsAReachedSometimesReachable(t *testing.T) {
	files := runSwarm(t, t.TempDir(), 2, "--algo", "bully", "--n", "4", "--crashes", "1", "--check", "TakeOver", "--simulate", "--runs", "100", "--quiet")
	code, out, stderr := run(append([]string{"merge"}, files...)...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "\n  TakeOver      reachable  after 3 steps p3 is leader while p4 (ID 4) is down  (found by members 0, 1; the shortest is member 0's, run 1 (--run-seed 0x766600b02de5e828 with that member's --scheduler faults))\n")
	assert.Contains(t, out, "\nTakeOver example (a shortest run to a state where it holds; not a violation), 3 steps:\n")
	assert.NotContains(t, out, "VIOLATED")
	assert.Contains(t, out, "proof        none: random runs are a sample, so a property without a violation is not shown to hold\n", "no violation is replayed below, so the proof line does not say so")

	code, props := mergeJSON(t, files...)
	assert.Equal(t, 0, code)
	require.Len(t, props, 1)
	assert.Equal(t, "reachable", props[0].Status)

	// With a property left unknown, nothing is proven: exit status 3.
	files = runSwarm(t, t.TempDir(), 2, "--algo", "bully", "--n", "4", "--crashes", "1", "--check", "TakeOver,SingleLeader", "--simulate", "--runs", "100", "--quiet")
	code, out, stderr = run(append([]string{"merge"}, files...)...)
	require.Equal(t, 3, code, stderr)
	assert.Contains(t, out, "  SingleLeader  unknown  no violation in 200 random runs of 2 members")
	assert.Contains(t, out, "  TakeOver      reachable  after 3 steps")
}

// A stuck state that only the channel bound made is a violation of the
// bounded model only: the merge keeps the members' caveat, in its text and
// its JSON.
func TestMergeKeepsTheBoundedOnlyCaveat(t *testing.T) {
	files := runSwarm(t, t.TempDir(), 2, "--algo", "lelann", "--n", "4", "--max-queue", "1", "--simulate", "--runs", "50", "--check", "Termination", "--quiet")
	code, out, stderr := run(append([]string{"merge"}, files...)...)
	require.Equal(t, 1, code, stderr)
	assert.Contains(t, out, "is not shown to hold (a violation is real: replayed below)\n")
	assert.Contains(t, out, "\n  Termination   VIOLATED (for the bounded model only: the bound cut a step of this run)  stuck without a leader: no fair step is enabled, and p1 elected=⊥, p2 elected=⊥, p3 elected=⊥, p4 elected=⊥ (Stable needs elected=4)  (found by members 0, 1; the shortest is member 0's")

	// Each member stopped at its first violation: stopped by what it
	// found, not unfinished.
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		assert.True(t, strings.Contains(string(data), `"stopped": "stopped at the first violation"`), f)
		assert.False(t, strings.Contains(string(data), `"unfinished"`), "%s: unfinished", f)
	}

	code, props := mergeJSON(t, files...)
	assert.Equal(t, 1, code)
	assert.Equal(t, []mergedProperty{{Name: "Termination", Status: "violated", Proof: "sampled", Caveat: "for the bounded model only: the bound cut a step of this run",
		Summary: "stuck without a leader: no fair step is enabled, and p1 elected=⊥, p2 elected=⊥, p3 elected=⊥, p4 elected=⊥ (Stable needs elected=4)"}}, props)
}
