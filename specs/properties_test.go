package specs_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// The algorithms' own properties (and LeaderNotDemoted): exact verdicts,
// exact counts and shortest counterexamples that replay.

func checkOne(t *testing.T, algo string, cfg model.Config, property string, workers int) (*check.Report, check.Verdict) {
	t.Helper()
	rep, err := check.Run(check.Request{Spec: lookup(t, algo), Config: cfg, Properties: []string{property}, Continue: true, Workers: workers, MaxStates: 2_000_000, Reduce: true})
	require.NoError(t, err)
	require.True(t, rep.Stats.Complete)
	for _, v := range rep.Verdicts {
		if v.Name == property {
			return rep, v
		}
	}
	t.Fatalf("no verdict for %s", property)
	return nil, check.Verdict{}
}

func TestOwnPropertiesWhereTheNotesSayTheyHold(t *testing.T) {
	for _, c := range []struct {
		algo, property string
		cfg            model.Config
		states         int64
	}{
		{"ring", "BusyElectsNobody", model.Config{N: 4}, 503},
		{"ring", "BusyElectsNobody", model.Config{N: 3, MaxCrashes: 2}, 577_370},
		{"chang-roberts", "NonParticipantForwardsNoElection", model.Config{N: 4}, 63},
		{"chang-roberts", "NonParticipantForwardsNoElection", model.Config{N: 3, MaxCrashes: 2}, 4_141},
		{"chang-roberts", "NonParticipantForwardsNoElection", model.Config{N: 3, MaxCrashes: 1, Detector: model.Unreliable}, 126_030},
		{"lelann", "DecidedKnowsAllLive", model.Config{N: 4}, 152},
		{"bully", "WaitingAfterOK", model.Config{N: 3, MaxCrashes: 2, MaxRestarts: 1, InitialLeader: true}, 1_875},
		{"bully", "WaitingAfterOK", model.Config{N: 3, MaxCrashes: 2}, 16_927},
		{"hirschberg-sinclair", "LogPhases", model.Config{N: 4}, 1_955},
		{"hirschberg-sinclair", "LogPhases", model.Config{N: 3, MaxCrashes: 1, Detector: model.Unreliable}, 14_332},
	} {
		t.Run(c.algo+"/"+c.property, func(t *testing.T) {
			rep, v := checkOne(t, c.algo, c.cfg, c.property, 0)
			assert.Equal(t, check.Holds, v.Status, v.Summary)
			assert.Equal(t, c.states, rep.Stats.States)
			// Algorithm-defined properties may read any part of the state:
			// the reduction switches itself off and says so.
			assert.False(t, rep.Stats.Reduced)
		})
	}
}

// LeLann's "a decided process knows every live ID" needs every ID to go
// round: a crash loses the ELECT messages on their way to the crashed
// process, so a process can decide without having seen a live one.
func TestLeLannDecidesWithoutAnIDLostInACrash(t *testing.T) {
	_, v := checkOne(t, "lelann", model.Config{N: 3, MaxCrashes: 2}, "DecidedKnowsAllLive", 0)
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, cex.Invariant, v.Kind)
	assert.Equal(t, "after 5 steps p1 has decided (elected=1) without seeing the ID of live p2", v.Summary)
	var labels []string
	for _, s := range v.Trace.Steps[1:] {
		labels = append(labels, s.Label)
	}
	assert.Equal(t, []string{"initiate p1", "initiate p2", "crash p3", "deliver p1→p2 ELECT(1)", "deliver p2→p1 ELECT(1)"}, labels)
	require.NotNil(t, v.File) // replayed by check.Run
}

// A live Bully coordinator that hears an ELECTION from a smaller process
// starts an election of its own and gives up its leadership: the step
// property's shortest counterexample ends in that delivery.
func TestLeaderNotDemotedShortestTraceEndsInTheStep(t *testing.T) {
	cfg := model.Config{N: 3, MaxCrashes: 1, MaxRestarts: 1, InitialLeader: true}
	var first *check.Verdict
	for _, workers := range []int{1, 2} {
		rep, v := checkOne(t, "bully", cfg, "LeaderNotDemoted", workers)
		require.Equal(t, check.Violated, v.Status)
		assert.Equal(t, cex.Step, v.Kind)
		assert.Equal(t, "step 5, deliver p1→p2 ELECTION(1), demotes the live leader p2 (now elected=⊥)", v.Summary)
		steps := v.Trace.Steps
		require.Len(t, steps, 6)
		assert.Equal(t, "deliver p1→p2 ELECTION(1)", steps[5].Label)
		// Shortest: no earlier step violates it (bit 0 is the one property).
		for i, s := range steps[:5] {
			assert.NotZero(t, s.Props&1, "step %d", i)
		}
		assert.Zero(t, steps[5].Props&1)
		require.NotNil(t, v.File)
		require.NoError(t, trace.Replay(v.File, specs.Builtin()))
		// Without its last step the trace is a run, but not a counterexample.
		cut := *v.File
		cut.Steps = cut.Steps[:len(cut.Steps)-1]
		var div *trace.DivergenceError
		require.ErrorAs(t, trace.Replay(&cut, specs.Builtin()), &div)
		assert.Equal(t, "LeaderNotDemoted holds of the last step", div.Reason)
		assert.Empty(t, rep.ReductionOff, "bully never reduces, so there is nothing to switch off")
		if first == nil {
			first = &v
		} else {
			assert.Equal(t, first.Trace, v.Trace, "the same trace at any worker count")
		}
	}
	// Without restarts or crashes nobody is demoted in this configuration.
	_, v := checkOne(t, "bully", model.Config{N: 3, InitialLeader: true}, "LeaderNotDemoted", 0)
	assert.Equal(t, check.Holds, v.Status)
}

func TestReductionOnlyForPropertiesOverElectedValues(t *testing.T) {
	spec := lookup(t, "chang-roberts")
	cfg := model.Config{N: 4}
	run := func(props ...string) *check.Report {
		rep, err := check.Run(check.Request{Spec: spec, Config: cfg, Properties: props, Continue: true, Reduce: true})
		require.NoError(t, err)
		return rep
	}
	safety := run("SingleLeader", "Agreement")
	assert.True(t, safety.Stats.Reduced)
	assert.Empty(t, safety.ReductionOff)
	own := run("SingleLeader", "NonParticipantForwardsNoElection")
	assert.False(t, own.Stats.Reduced)
	assert.Equal(t, int64(63), own.Stats.States)
	assert.Equal(t, "the step property NonParticipantForwardsNoElection needs every step", own.ReductionOff)
}

func TestEveryAlgorithmListsItsOwnProperties(t *testing.T) {
	reg := specs.Builtin()
	own := map[string][]string{
		"ring": {"BusyElectsNobody", "MessageBound"}, "chang-roberts": {"NonParticipantForwardsNoElection", "NoEarlyAnnounce", "MessageBound"},
		"lelann": {"DecidedKnowsAllLive", "MessageBound"}, "hirschberg-sinclair": {"LogPhases", "WinnersPerPhase", "MessageBound"},
		"bully": {"WaitingAfterOK", "TakeOver", "MessageBound"}, "ring-timeout": nil,
	}
	for _, name := range reg.Names() {
		sp, err := reg.Lookup(name)
		require.NoError(t, err)
		var names []string
		for _, p := range sp.Build.Properties() {
			names = append(names, p.Name)
			assert.NotEmpty(t, p.Doc, p.Name)
		}
		assert.Equal(t, append([]string{"SingleLeader", "Agreement", "Termination", "LeaderNotDemoted", "LeaderCrashRecovered", "Quiescent"}, own[name]...), names, name)
	}
}
