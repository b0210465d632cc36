package crnomarks_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"example.com/coursework/crnomarks"
	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/specs/changroberts"
	"github.com/mcheck/mcheck/trace"
)

// Without the marks a process may start elections as often as it likes, so
// the number of messages, and of states, has no bound. The channel bound
// makes the search finite; we use a small one (2 messages per channel).
var noFaults = mchecktest.Config{N: 3, MaxQueue: 2}

func actions(f *trace.File) []string {
	var out []string
	for _, s := range f.Steps {
		out = append(out, s.Label())
	}
	return out
}

// The counterexample: Termination fails without any crash. P3 wins, but
// while its ELECTED(3) is on the ring p2 (whose elected is still ⊥) starts a
// second election, which Chang-Roberts forbids to a participant. ELECTION(2)
// reaches p3, which answers with a new ELECTION(3) (a participant would
// have dropped it), and that resets every elected to ⊥ again: round and
// round forever.
//
// The search is bounded (--max-queue 2 discards successors elsewhere), but
// this lasso is a real run of the unbounded model too, and the report says
// so: the bound cut no fair step of any state on its cycle (v.Bounded is
// false), so every step is a step of that model and the cycle stays weakly
// fair there.
func TestTerminationFailsWithoutCrashes(t *testing.T) {
	rep, err := mchecktest.Run(crnomarks.Algorithm{}, noFaults)
	require.NoError(t, err)
	t.Log(mchecktest.Failure(rep, false))

	assert.Equal(t, check.Holds, mchecktest.Status(rep, "SingleLeader"))
	assert.Equal(t, check.Holds, mchecktest.Status(rep, "Agreement"))
	v := mchecktest.Verdict(rep, "Termination")
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, cex.FairCycle, v.Kind)
	assert.False(t, v.Bounded, "a counterexample without the bound too")
	assert.Equal(t, "a fair cycle of 8 steps repeats forever without reaching Stable (p1 elected=⊥, p2 elected=⊥; Stable needs elected=3)", v.Summary)
	assert.Equal(t, []string{
		"initial state",
		"initiate p3",
		"deliver p3→p1 ELECTION(3)",
		"deliver p1→p2 ELECTION(3)",
		"deliver p2→p3 ELECTION(3)", // ◀ p3 has won: ELECTED(3) goes round
		"deliver p3→p1 ELECTED(3)",
		"initiate p2", // p2 still has elected=⊥ and starts again
		"deliver p1→p2 ELECTED(3)",
		"deliver p2→p3 ELECTION(2)", // p3 replaces it by ELECTION(3)
		"deliver p2→p3 ELECTED(3)",
		"deliver p3→p1 ELECTION(3)", // which resets p1...
		"deliver p1→p2 ELECTION(3)", // ...and p2
		"deliver p2→p3 ELECTION(3)", // ↩ p3 wins again
	}, actions(v.File))
	assert.Equal(t, 4, *v.File.CycleStart)

	// The second counterexample, a stuck state, is the channel bound's
	// doing: every process has started two elections, every channel is
	// full, and every delivery would send a third message into a full one.
	require.Len(t, v.Also, 1)
	stuck := v.Also[0].File
	assert.Equal(t, cex.Stuck, stuck.Kind)
	last := stuck.Steps[len(stuck.Steps)-1].State
	require.Len(t, last.Channels, 3)
	for _, ch := range last.Channels {
		assert.Len(t, ch.Messages, noFaults.MaxQueue, "chan %s→%s", ch.From, ch.To)
	}
}

// The extra messages: the most ELECTION messages in flight at once, over
// every reachable state. Chang-Roberts never has more than N=3, whatever
// the channel bound; without the marks every bound is filled (N per unit
// of bound: all three channels full of ELECTIONs), and the state space
// grows with it.
func TestExtraMessages(t *testing.T) {
	for _, tc := range []struct {
		maxQueue int
		// without marks
		states, transitions, discarded int64
		inFlight                       int
		// Chang-Roberts
		crStates, crDiscarded int64
		crInFlight            int
	}{
		{1, 50, 73, 117, 3, 21, 4, 3},
		{2, 1_046, 2_054, 2_513, 6, 25, 0, 3},
		{3, 16_650, 35_908, 40_774, 9, 25, 0, 3},
	} {
		cfg := mchecktest.Config{N: 3, MaxQueue: tc.maxQueue}
		rep, err := mchecktest.Run(crnomarks.Algorithm{}, cfg)
		require.NoError(t, err)
		assert.Equal(t, tc.states, rep.Stats.States, "max-queue %d", tc.maxQueue)
		assert.Equal(t, tc.transitions, rep.Stats.Transitions, "max-queue %d", tc.maxQueue)
		assert.Equal(t, tc.discarded, rep.Stats.Discarded, "max-queue %d", tc.maxQueue)
		assert.Equal(t, tc.inFlight, maxElectionsInFlight(t, crnomarks.Algorithm{}, cfg), "max-queue %d", tc.maxQueue)

		cr := mchecktest.Check(t, changroberts.Algorithm{}, cfg) // holds: the marks work
		require.NotNil(t, cr)
		assert.Equal(t, tc.crStates, cr.Stats.States, "max-queue %d", tc.maxQueue)
		assert.Equal(t, tc.crDiscarded, cr.Stats.Discarded, "max-queue %d", tc.maxQueue)
		assert.Equal(t, tc.crInFlight, maxElectionsInFlight(t, changroberts.Algorithm{}, cfg), "max-queue %d", tc.maxQueue)
	}
}

// maxElectionsInFlight walks every reachable state of alg under cfg with
// the kernel's own successor function (breadth-first, like the checker)
// and returns the largest number of ELECTION messages in the channels of
// one state. This is how to measure something the three properties do not.
func maxElectionsInFlight[L, M any](t *testing.T, alg model.Algorithm[L, M], cfg mchecktest.Config) int {
	t.Helper()
	sys, err := specs.Builder(alg).System(model.Config{N: cfg.N, MaxQueue: cfg.MaxQueue}, nil)
	require.NoError(t, err)
	exp, err := model.ExpanderOf(sys)
	require.NoError(t, err)
	var b model.Batch
	exp.Initial(&b)
	first := string(b.State(0))
	seen, queue, most := map[string]bool{first: true}, []string{first}, 0
	for len(queue) > 0 {
		s := []byte(queue[0])
		queue = queue[1:]
		n := 0
		for _, ch := range exp.Snapshot(s).Channels {
			for _, m := range ch.Messages {
				if m.Type() == "ELECTION" {
					n++
				}
			}
		}
		most = max(most, n)
		exp.Expand(s, &b)
		for i := range b.Succs {
			if next := string(b.State(i)); !seen[next] {
				seen[next] = true
				queue = append(queue, next)
			}
		}
	}
	return most
}

// TestShowFailure checks what a student sees when the check fails: the
// violated property with its one-line explanation, then the report with the
// counterexample. To see it as a failing test, run
//
//	MCHECK_SHOW_FAILURE=1 go test ./crnomarks -run ShowFailure
func TestShowFailure(t *testing.T) {
	rep, err := mchecktest.Run(crnomarks.Algorithm{}, noFaults)
	require.NoError(t, err)
	msg := mchecktest.Failure(rep, false)
	require.True(t, strings.HasPrefix(msg, "Termination VIOLATED: a fair cycle of 8 steps repeats forever without reaching Stable"), msg)
	require.Contains(t, msg, "counterexample")
	if os.Getenv("MCHECK_SHOW_FAILURE") != "" {
		t.Error(msg)
	}
}
