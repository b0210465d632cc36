package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMaxQueueAutoViolationAtBoundOne(t *testing.T) {
	code, out, _ := run("--algo", "chang-roberts", "--n", "3", "--crash-any", "--max-queue", "auto", "--continue")
	require.Equal(t, 1, code)
	assert.Contains(t, out, "mcheck chang-roberts, N=3, ids 1,2,3, crash-any (up to 2 crashes), perfect detector, max-queue 1\n")
	assert.Regexp(t, `max-queue 1 +231 states +66 discarded +[0-9.]+ s  VIOLATION\n`, out)
	assert.NotContains(t, out, "max-queue 2 ")
	assert.Contains(t, out, "verdict: a property is violated with at most 1 message per channel")
	assert.Contains(t, out, "Termination counterexample (a lasso: a prefix, then a cycle repeated forever), 5 steps:")
}

func TestMaxQueueAutoExhaustive(t *testing.T) {
	code, out, _ := run("--algo", "chang-roberts", "--n", "3", "--crash-any", "--check", "safety", "--max-queue", "auto")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "states       7,918 distinct")
	assert.Regexp(t, `max-queue 10 +7,900 states +9 discarded +[0-9.]+ s  complete\n`, out)
	assert.Regexp(t, `max-queue 11 +7,918 states +0 discarded +[0-9.]+ s  complete\n`, out)
	assert.Contains(t, out, "verdict: bound 11 discarded nothing: no run ever has more than 11 messages in a channel, so the verdicts are for the unbounded model")
}

func TestMaxQueueAutoStopsAtTheBudget(t *testing.T) {
	code, out, _ := run("--algo", "bully", "--n", "4", "--crash-any", "--max-queue", "auto", "--max-states", "10000", "--json")
	require.Equal(t, 0, code, "bound 3 finished and every property holds there")
	var rep struct {
		MaxQueue   int  `json:"max_queue"`
		States     int  `json:"states"`
		Complete   bool `json:"complete"`
		Properties []struct{ Name, Status string }
		Deepening  struct {
			VerdictBound int    `json:"verdict_bound"`
			Exhaustive   bool   `json:"exhaustive"`
			Verdict      string `json:"verdict"`
			Bounds       []struct {
				MaxQueue int    `json:"max_queue"`
				Complete bool   `json:"complete"`
				States   int    `json:"states"`
				Stopped  string `json:"stopped"`
			} `json:"bounds"`
		} `json:"deepening"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, 3, rep.MaxQueue)
	assert.Equal(t, 9721, rep.States)
	assert.True(t, rep.Complete)
	for _, p := range rep.Properties {
		assert.Equal(t, "holds", p.Status, p.Name)
	}
	d := rep.Deepening
	assert.Equal(t, 3, d.VerdictBound)
	assert.False(t, d.Exhaustive)
	require.Len(t, d.Bounds, 4)
	assert.Equal(t, 10000, d.Bounds[3].States)
	assert.False(t, d.Bounds[3].Complete)
	assert.Equal(t, "--max-states 10000 reached", d.Bounds[3].Stopped)
	assert.Regexp(t, `^the verdicts are for every run with at most 3 messages per channel; a run that needs more was not explored, so a violation that needs one is not ruled out; bound 4 stopped at [0-9.]+ s with 10,000 states \(--max-states 10000 reached\)$`, d.Verdict)
}

// Bound 1 of bully --n 5 --crash-any has 110,807 states: far more than
// a millisecond's work, so the time limit stops it.
func TestTimeLimit(t *testing.T) {
	code, out, _ := run("--algo", "bully", "--n", "5", "--crash-any", "--check", "safety", "--max-queue", "auto", "--time-limit", "1ms")
	require.Equal(t, 2, code)
	assert.Contains(t, out, "search       INCOMPLETE: interrupted: time limit of 1ms reached")
	assert.Regexp(t, `max-queue 1 +[0-9,]+ states +[0-9,]+ discarded +[0-9.]+ s  stopped: interrupted: time limit of 1ms reached\n`, out)
	assert.Contains(t, out, "verdict: not even the search at bound 1 finished, so no property can be said to hold")
	assert.Regexp(t, `SingleLeader\s+unknown`, out)

	// Without auto, the one search stops the same way.
	code, out, _ = run("--algo", "bully", "--n", "5", "--crash-any", "--check", "safety", "--time-limit", "1ms")
	require.Equal(t, 2, code)
	assert.Contains(t, out, "search       INCOMPLETE: interrupted: time limit of 1ms reached")
	assert.NotContains(t, out, "bound deepening")
}

func TestMaxQueueAutoBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-queue", "often"}, `mcheck: --max-queue: "often" is not a number: use 1 or more, or auto to deepen the bound within --time-limit and --memory (see mcheck --help)` + "\n"},
		{[]string{"--time-limit", "-5s"}, "mcheck: --time-limit -5s is negative: give a duration like 60s or 5m\n"},
		{[]string{"--max-queue", "auto", "--complexity"}, "mcheck: --complexity with --max-queue auto: measures need one fixed bound, give --max-queue K\n"},
		{[]string{"--max-queue", "auto", "--bitstate", "1MiB"}, "mcheck: --bitstate with --max-queue auto: a bitstate search proves no bound, give --max-queue K\n"},
		{[]string{"explore", "--max-queue", "auto", "--addr", "nonsense"}, "mcheck: explore: --max-queue auto deepens the bound of a check, the explorer needs one: give --max-queue K (usage: "},
	} {
		args := append([]string{"--algo", "ring"}, c.args...)
		if c.args[0] == "explore" {
			args = append([]string{"explore", "--algo", "ring"}, c.args[1:]...)
		}
		code, out, stderr := run(args...)
		assert.Equal(t, 2, code, c.args)
		assert.Empty(t, out)
		if c.args[0] == "explore" {
			assert.True(t, strings.HasPrefix(stderr, c.want), stderr)
			continue
		}
		assert.Equal(t, c.want, stderr, c.args)
	}
}
