package check_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/specs/changroberts"
	"github.com/mcheck/mcheck/trace"
)

var bully4 = model.Config{N: 4, MaxCrashes: 1, InitialLeader: true}

// A Sometimes property with a reachable state is reachable: its shortest
// example is replayed and kept as a trace of kind example, and nothing is
// violated.
func TestSometimesGivesAShortestExample(t *testing.T) {
	rep := run(t, check.Request{Spec: builtin(t, "bully"), Config: bully4, Properties: []string{"TakeOver"}})
	v := verdict(t, rep, "TakeOver")
	assert.Equal(t, check.Reachable, v.Status)
	assert.Equal(t, cex.Example, v.Kind)
	assert.Equal(t, "after 3 steps p3 is leader while p4 (ID 4) is down", v.Summary)
	require.NotNil(t, v.File)
	assert.Equal(t, []string{"initial state", "crash p4", "detect p3", "timeout-ok p3"}, labelsOf(v.File))
	assert.False(t, rep.Violated())
	assert.False(t, rep.Failed())
	assert.Equal(t, []*trace.File{v.File}, rep.Files(), "the example is written with the counterexamples")
}

// Unreachable only after a search that proves it: exhaustive, or within
// the channel bound (said so); a sampled or unfinished search says unknown.
func TestSometimesUnreachable(t *testing.T) {
	noCrash := model.Config{N: 4, InitialLeader: true}
	rep := run(t, check.Request{Spec: builtin(t, "bully"), Config: noCrash, Properties: []string{"TakeOver"}})
	v := verdict(t, rep, "TakeOver")
	assert.Equal(t, check.Unreachable, v.Status)
	assert.Equal(t, "no reachable state satisfies it (the search was exhaustive)", v.Summary)
	assert.Nil(t, v.Trace)
	assert.True(t, rep.Failed(), "an unreachable Sometimes fails the check")
	assert.False(t, rep.Violated(), "but violates nothing")

	// Two messages in one channel: reachable with the default bound,
	// unreachable within a bound of 1, which discards steps.
	two := model.Property[changroberts.Local, changroberts.Msg]{
		Name: "TwoInAChannel", Kind: model.Sometimes,
		Holds: func(v *model.View[changroberts.Local, changroberts.Msg]) bool {
			for p := range v.N() {
				for q := range v.N() {
					if len(v.Chan(p, q)) >= 2 {
						return true
					}
				}
			}
			return false
		},
	}
	cr := changRoberts(two)
	rep = run(t, check.Request{Spec: cr, Config: model.Config{N: 3}, Properties: []string{"TwoInAChannel"}})
	assert.Equal(t, check.Reachable, verdict(t, rep, "TwoInAChannel").Status)
	rep = run(t, check.Request{Spec: cr, Config: model.Config{N: 3, MaxQueue: 1}, Properties: []string{"TwoInAChannel"}})
	require.True(t, rep.Bounded())
	v = verdict(t, rep, "TwoInAChannel")
	assert.Equal(t, check.Unreachable, v.Status)
	assert.Contains(t, v.Summary, "within the channel bound of 1 messages")
	assert.Contains(t, v.Summary, "a larger MaxQueue may reach one", "the library's words")
	rep = run(t, check.Request{Spec: cr, Config: model.Config{N: 3, MaxQueue: 1}, Properties: []string{"TwoInAChannel"}, Name: flagLike})
	assert.Contains(t, verdict(t, rep, "TwoInAChannel").Summary, "a larger --max-queue may reach one", "the caller's words")

	// Sampled: a bitstate search and a simulation never say unreachable,
	// though both find an example when they meet one.
	for _, req := range []check.Request{
		{Spec: builtin(t, "bully"), Config: noCrash, Properties: []string{"TakeOver"}, Strategy: check.Bitstate{Bytes: 1 << 20}},
		{Spec: builtin(t, "bully"), Config: noCrash, Properties: []string{"TakeOver"}, Strategy: &check.Simulate{Seed: 1, Runs: 50, Depth: 30}},
	} {
		rep = run(t, req)
		v = verdict(t, rep, "TakeOver")
		assert.Equal(t, check.Unknown, v.Status, rep.Strategy)
		assert.Contains(t, v.Summary, "a sampled search never says unreachable", rep.Strategy)
		assert.False(t, rep.Failed())

		req.Config = bully4
		rep = run(t, req)
		v = verdict(t, rep, "TakeOver")
		assert.Equal(t, check.Reachable, v.Status, rep.Strategy)
		assert.Equal(t, cex.Example, v.File.Kind)
	}

	// A search that did not finish says unknown.
	rep = run(t, check.Request{Spec: builtin(t, "bully"), Config: model.Config{N: 4}, Properties: []string{"TakeOver"}, MaxStates: 3})
	require.False(t, rep.Stats.Complete)
	assert.Equal(t, check.Unknown, verdict(t, rep, "TakeOver").Status)
}

// LeaderCrashRecovered: violated with a lasso marked where the leader's
// crash left a live process naming it; holding where Bully recovers; and
// vacuous where no leader can crash.
func TestLeaderCrashRecovered(t *testing.T) {
	rep := run(t, check.Request{Spec: builtin(t, "chang-roberts"), Config: model.Config{N: 3, MaxCrashes: 1}, Properties: []string{"LeaderCrashRecovered"}, Continue: true})
	v := verdict(t, rep, "LeaderCrashRecovered")
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, cex.FairCycle, v.Kind)
	require.NotNil(t, v.File.Premise)
	m := *v.File.Premise
	assert.Equal(t, 6, m)
	assert.Equal(t, "crash p3", v.File.Steps[m].Label(), "the premise is the leader's crash")
	assert.Equal(t, "after step 6 the leader has crashed (p1 elected the crashed 3); then ELECTED(3) of crashed p3 circulates forever; Stable (elected=2) is never reached: p1 elected=3, p2 elected=3", v.Summary)
	assert.Empty(t, v.Also)

	rep = run(t, check.Request{Spec: builtin(t, "bully"), Config: model.Config{N: 3, MaxCrashes: 1, InitialLeader: true}, Properties: []string{"LeaderCrashRecovered"}})
	v = verdict(t, rep, "LeaderCrashRecovered")
	assert.Equal(t, check.Holds, v.Status)
	assert.Empty(t, v.Vacuous)

	// Restarts break it: a stuck state, marked at the crash of the leader.
	rep = run(t, check.Request{Spec: builtin(t, "bully"), Config: model.Config{N: 3, MaxCrashes: 1, MaxRestarts: 1, InitialLeader: true}, Properties: []string{"LeaderCrashRecovered"}})
	v = verdict(t, rep, "LeaderCrashRecovered")
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, cex.Stuck, v.Kind)
	assert.Equal(t, "crash p3", v.File.Steps[*v.File.Premise].Label())

	rep = run(t, check.Request{Spec: builtin(t, "bully"), Config: model.Config{N: 3, InitialLeader: true}, Properties: []string{"LeaderCrashRecovered"}})
	v = verdict(t, rep, "LeaderCrashRecovered")
	assert.Equal(t, check.Holds, v.Status)
	assert.Equal(t, check.NeverTriggered, v.Vacuous, "no crash, no premise")
}

// A simulation checks leads-to too: its counterexamples are marked and
// replayed like the search's.
func TestLeadsToInASimulation(t *testing.T) {
	rep := run(t, check.Request{Spec: builtin(t, "bully"), Config: model.Config{N: 3, MaxCrashes: 1, MaxRestarts: 1, InitialLeader: true},
		Properties: []string{"LeaderCrashRecovered"}, Strategy: &check.Simulate{Seed: 5, Runs: 2000, Depth: 60}})
	v := verdict(t, rep, "LeaderCrashRecovered")
	require.Equal(t, check.Violated, v.Status)
	require.NotNil(t, v.File.Premise)
	assert.Contains(t, v.Summary, "the leader has crashed")
}

// Quiescent is stricter than Termination: where an election ends with no
// message in flight both hold; where messages keep going round after a
// crash, Quiescent fails on the cycle.
func TestQuiescent(t *testing.T) {
	rep := run(t, check.Request{Spec: builtin(t, "chang-roberts"), Config: model.Config{N: 3}, Properties: []string{"Termination", "Quiescent"}})
	assert.Equal(t, check.Holds, verdict(t, rep, "Termination").Status)
	q := verdict(t, rep, "Quiescent")
	assert.Equal(t, check.Holds, q.Status)
	assert.Empty(t, q.Vacuous)

	rep = run(t, check.Request{Spec: builtin(t, "chang-roberts"), Config: model.Config{N: 3, MaxCrashes: 1}, Properties: []string{"Quiescent"}, Continue: true})
	q = verdict(t, rep, "Quiescent")
	require.Equal(t, check.Violated, q.Status)
	assert.Equal(t, cex.FairCycle, q.Kind)
	assert.Equal(t, "a fair cycle of 2 steps repeats forever, so the system never falls quiet (in flight where it starts: p1→p2 ELECTION(3))", q.Summary)
}

// Every way a file can lie about a leads-to or an example is caught by
// replay.
func TestReplayChecksPremisesAndExamples(t *testing.T) {
	spec := builtin(t, "chang-roberts")
	rep := run(t, check.Request{Spec: spec, Config: model.Config{N: 3, MaxCrashes: 1}, Properties: []string{"LeaderCrashRecovered"}, Continue: true})
	f := verdict(t, rep, "LeaderCrashRecovered").File
	require.NoError(t, trace.Replay(f, specs.Builtin()))

	early := *f
	zero := 0
	early.Premise = &zero
	var div *trace.DivergenceError
	require.ErrorAs(t, trace.Replay(&early, specs.Builtin()), &div)
	assert.Equal(t, "not a counterexample: the premise of LeaderCrashRecovered does not hold at step 0", div.Error())

	none := *f
	none.Premise = nil
	assert.ErrorContains(t, trace.Replay(&none, specs.Builtin()), "is a leads-to: its counterexample gives the step where its premise holds")

	bully := builtin(t, "bully")
	rep = run(t, check.Request{Spec: bully, Config: bully4, Properties: []string{"TakeOver"}})
	ex := verdict(t, rep, "TakeOver").File
	require.NoError(t, trace.Replay(ex, specs.Builtin()))
	short := *ex
	short.Steps = ex.Steps[:3]
	require.ErrorAs(t, trace.Replay(&short, specs.Builtin()), &div)
	assert.Equal(t, "not an example: TakeOver does not hold in the last state", div.Error())
	// An example is no counterexample of an invariant, nor the reverse.
	wrong := *ex
	wrong.Property = "SingleLeader"
	assert.ErrorContains(t, trace.Replay(&wrong, specs.Builtin()), `property SingleLeader goes with kind "invariant", not "example"`)
}

// Results do not depend on the workers: the same example, the same
// leads-to counterexample.
func TestNewKindsAtAnyWorkerCount(t *testing.T) {
	var files [][]*trace.File
	for _, w := range []int{1, 3} {
		rep := run(t, check.Request{Spec: builtin(t, "chang-roberts"), Config: model.Config{N: 3, MaxCrashes: 1}, Workers: w, Continue: true,
			Properties: []string{"LeaderCrashRecovered", "Quiescent"}})
		files = append(files, rep.Files())
	}
	assert.Equal(t, files[0], files[1])
}

// The default check leaves the optional properties out, with the counts
// it had before they existed.
func TestDefaultCheckLeavesTheOptionalPropertiesOut(t *testing.T) {
	rep := run(t, check.Request{Spec: builtin(t, "chang-roberts"), Config: model.Config{N: 3, MaxCrashes: 1}, Continue: true})
	var names []string
	for _, v := range rep.Verdicts {
		names = append(names, v.Name)
	}
	assert.Equal(t, []string{"SingleLeader", "Agreement", "Termination"}, names)
	assert.EqualValues(t, 268, rep.Stats.States)
}
