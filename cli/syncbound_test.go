package cli_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
)

// The held-out configuration whose synchronous schedule stops at the bound
// in round 1, after one step of that round (docs/semantics.md section 5.5): round
// 0 initiates at all three, round 1 delivers ELECTION(6) to p7 (dropped: p7
// is a participant), then p4 would forward ELECTION(7) into chan(p4,p6),
// which still holds ELECTION(4). The latency is the last round with a
// step, 1, and both reports say where the schedule stopped.
var syncStopsAtTheBound = []string{"--algo", "chang-roberts", "--n", "3", "--ids", "7,4,6", "--crashes", "1", "--max-queue", "1", "--complexity"}

func TestSyncStoppedAtTheBoundJSON(t *testing.T) {
	code, out, errOut := run(append(syncStopsAtTheBound, "--json")...)
	require.Equal(t, cli.ExitViolation, code, errOut)
	var got struct {
		Complexity struct {
			Sync struct {
				Latency       any    `json:"latency"`
				Messages      int    `json:"messages"`
				Stopped       bool   `json:"stopped_at_bound"`
				StoppedIn     *int   `json:"stopped_in_round"`
				StoppedBefore string `json:"stopped_before"`
				Rounds        int    `json:"rounds"`
				PerRound      []int  `json:"messages_per_round"`
			} `json:"sync"`
		} `json:"complexity"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	s := got.Complexity.Sync
	assert.Equal(t, 1.0, s.Latency)
	assert.Equal(t, 3, s.Messages)
	assert.True(t, s.Stopped)
	require.NotNil(t, s.StoppedIn)
	assert.Equal(t, 1, *s.StoppedIn)
	assert.Equal(t, "deliver p7→p4 ELECTION(7)", s.StoppedBefore)
	assert.Equal(t, 2, s.Rounds)
	assert.Equal(t, []int{3, 0}, s.PerRound)
}

func TestSyncStoppedAtTheBoundText(t *testing.T) {
	code, out, errOut := run(append(syncStopsAtTheBound, "--witness", "sync")...)
	require.Equal(t, cli.ExitViolation, code, errOut)
	for _, want := range []string{
		"  synchronous  latency 1 round after round 0 before the channel bound stopped the schedule, 3 messages (ELECTION 3), 0 lost\n",
		"    stopped at the channel bound in round 1, before deliver p7→p4 ELECTION(7) (more than --max-queue 1 message in a channel)",
		"    round 0    3 steps  3 messages (ELECTION 3), 0 lost  running total 3\n",
		"    round 1    1 step   0 messages, 0 lost  running total 3\n",
		"messages.sync witness run, 4 steps:",
		"(the synchronous schedule stopped at the channel bound in round 1, before deliver p7→p4 ELECTION(7))",
	} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "unknown")
}
