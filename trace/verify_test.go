package trace_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// move picks a step among those enabled, as data: its kind, the ID of the
// process that takes it and, for a delivery, the ID of the sender.
type move struct {
	kind          model.Kind
	process, peer int
}

func deliver(from, to int) move { return move{model.KindDeliver, to, from} }
func initiate(p int) move       { return move{kind: model.KindInitiate, process: p} }
func crash(p int) move          { return move{kind: model.KindCrash, process: p} }
func restart(p int) move        { return move{kind: model.KindRestart, process: p} }

// run is a walk through a model: its system and the file of the walk.
type run struct {
	sys  model.System
	file *trace.File
}

// walk takes moves from the first initial state of algo under cfg and
// returns the walk as a trace file of property and kind, whose cycle (for
// a lasso kind) starts at step cycleStart.
func walk(t *testing.T, algo string, cfg model.Config, property string, kind cex.Kind, cycleStart int, moves ...move) run {
	t.Helper()
	spec, err := specs.Builtin().Lookup(algo)
	require.NoError(t, err)
	var check []string
	if kind != cex.Witness && kind != cex.Lasso {
		check = []string{property}
	}
	sys, err := spec.Build.System(cfg, check)
	require.NoError(t, err)
	exp, err := model.ExpanderOf(sys)
	require.NoError(t, err)
	var b model.Batch
	exp.Initial(&b)
	tr := explore.Trace{CycleStart: cycleStart, Steps: []explore.Step{{Action: b.Succs[0].Action, State: bytes.Clone(b.State(0))}}}
	for i, m := range moves {
		prev := tr.Final().State
		exp.Expand(prev, &b)
		j := -1
		for k, s := range b.Succs {
			st := exp.Step(prev, s.Action)
			if st.Kind == m.kind && st.Process == m.process && st.Peer == m.peer {
				j = k
				break
			}
		}
		require.GreaterOrEqual(t, j, 0, "move %d (%v of p%d) is not enabled", i+1, m.kind, m.process)
		tr.Steps = append(tr.Steps, explore.Step{Action: b.Succs[j].Action, State: bytes.Clone(b.State(j))})
	}
	return run{sys, trace.New(algo, cfg, property, kind, "", &tr, exp)}
}

// roundTrip writes f and reads it back, as replay reads a file.
func roundTrip(t *testing.T, f *trace.File) (*trace.File, error) {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, f.Write(&buf))
	return trace.Read(&buf)
}

// unfairCycle is chang-roberts, N=4: p4 initiates three times, crashing
// and restarting in between, so that three ELECTION(4) wait in chan
// p4→p1 after its last crash. Two of them are delivered, and then the
// cycle goes round p1→p2→p3→p1 with the third still waiting: delivering
// it is enabled in every state of the cycle and never taken, so the cycle
// is not fair. The step into the cycle's first state is a delivery over
// p4→p1 itself, before the cycle: it does not make the cycle fair.
func unfairCycle(t *testing.T) run {
	cfg := model.Config{N: 4, MaxCrashes: 3, MaxRestarts: 2, MaxQueue: 8}
	return walk(t, "chang-roberts", cfg, "Termination", cex.FairCycle, 12,
		initiate(4), crash(4), restart(4), initiate(4), crash(4), restart(4), initiate(4), crash(4),
		deliver(4, 1), deliver(1, 2), deliver(2, 3), deliver(4, 1), // 12: the cycle starts
		deliver(1, 2), deliver(2, 3), deliver(3, 1)) // back to the state of step 12
}

// A cycle that leaves a fair step enabled throughout and never takes it is
// not a fair run: replay refuses it as a counterexample of Termination.
func TestReplayRejectsUnfairCycle(t *testing.T) {
	r := unfairCycle(t)
	f := r.file
	require.Empty(t, trace.Diff(f.Steps[12].State, f.Steps[15].State), "the cycle closes")
	read, err := roundTrip(t, f)
	require.NoError(t, err, "the file is well formed")
	for _, err := range []error{trace.Verify(r.sys, f), trace.Replay(read, specs.Builtin())} {
		var div *trace.DivergenceError
		require.ErrorAs(t, err, &div)
		assert.Equal(t, -1, div.Step)
		assert.Equal(t, "the cycle is not fair: deliver p4→p1 is enabled in all of its states but never taken", div.Reason)
	}
	// Delivered before the cycle, the waiting messages join the others
	// round the ring, and the cycle is fair.
	cfg := model.Config{N: 4, MaxCrashes: 3, MaxRestarts: 2, MaxQueue: 8}
	fair := walk(t, "chang-roberts", cfg, "Termination", cex.FairCycle, 14,
		initiate(4), crash(4), restart(4), initiate(4), crash(4), restart(4), initiate(4), crash(4),
		deliver(4, 1), deliver(4, 1), deliver(4, 1), deliver(1, 2), deliver(2, 3), deliver(3, 1), // 14: the cycle starts
		deliver(1, 2), deliver(2, 3), deliver(3, 1))
	require.Empty(t, trace.Diff(fair.file.Steps[14].State, fair.file.Steps[17].State), "the fair cycle closes")
	assert.NoError(t, trace.Verify(fair.sys, fair.file))
}

// A lasso whose cycle starts at the initial state is a lasso like any
// other: read, replayed, written as text. Bully with the unreliable
// detector: p1 suspects the leader for no reason, and the election that
// follows ends where the run began.
func TestCycleFromTheInitialState(t *testing.T) {
	f := goldenFile(t, "bully-unreliable-termination.Termination-fair-cycle.trace.json")
	require.Equal(t, 1, *f.CycleStart)
	// Its steps 1..11 lead from the initial state back to it.
	f.Steps = f.Steps[:12]
	require.Empty(t, trace.Diff(f.Steps[0].State, f.Steps[11].State))
	zero := 0
	f.CycleStart = &zero
	read, err := roundTrip(t, f)
	require.NoError(t, err)
	require.Equal(t, 0, *read.CycleStart)
	require.NoError(t, trace.Replay(read, specs.Builtin()))

	var buf bytes.Buffer
	trace.WriteText(&buf, read, false)
	assert.Contains(t, buf.String(), "   1  suspect p1   ◀ cycle starts here (steps 1-11 repeat forever)\n")
	assert.Contains(t, buf.String(), "  11  deliver p3→p2 COORDINATOR(3)   ↩ back to step 1\n")

	// A cycle must close: cut after step 10, the last state is not the first.
	f.Steps = f.Steps[:11]
	var div *trace.DivergenceError
	require.ErrorAs(t, trace.Replay(f, specs.Builtin()), &div)
	assert.Equal(t, "the last state is not the state of step 0, where the cycle starts", div.Reason)
}

// The cycle of a lasso lies inside the steps: it starts at a step before
// the last (the last returns to it). Read refuses a file whose cycle
// starts elsewhere, and Verify a File built in code.
func TestCycleStartInsideTheSteps(t *testing.T) {
	f := goldenFile(t, "circulating-election.Termination-fair-cycle.trace.json")
	last := len(f.Steps) - 1
	for _, cs := range []int{-1, last, last + 1} {
		t.Run(fmt.Sprint(cs), func(t *testing.T) {
			g := *f
			g.CycleStart = &cs
			_, err := roundTrip(t, &g)
			var mal *trace.MalformedError
			require.ErrorAs(t, err, &mal)
			assert.Equal(t, fmt.Sprintf("malformed trace file: cycle_start %d is outside the steps 0..%d", cs, last-1), err.Error())
			require.ErrorAs(t, trace.Replay(&g, specs.Builtin()), &mal, "Replay does not rely on Read")
			assert.Equal(t, fmt.Sprintf("malformed trace file: cycle_start %d is outside the steps 0..%d", cs, last-1), mal.Error())
		})
	}
}

// Each kind of counterexample must be one at its end: replay refuses an
// honest run that is claimed to violate a property it does not. Here
// chang-roberts, N=2, elects p2; its optional step property holds of
// every step.
func TestReplayRefusesARunThatViolatesNothing(t *testing.T) {
	cfg := model.Config{N: 2, MaxQueue: 4}
	elect := []move{initiate(1), initiate(2), deliver(2, 1), deliver(1, 2), deliver(1, 2), deliver(2, 1), deliver(1, 2)}
	for _, c := range []struct {
		property string
		kind     cex.Kind
		moves    []move
		reason   string
	}{
		{"SingleLeader", cex.Invariant, elect, "SingleLeader holds in the last state"},
		{"NonParticipantForwardsNoElection", cex.Step, elect[:1], "NonParticipantForwardsNoElection holds of the last step"},
		{"Termination", cex.Stuck, elect, "the last state satisfies the goal of Termination"},
		{"Termination", cex.Stuck, elect[:1], `the last state is not stuck: "deliver p1→p2 ELECTION(1)" is enabled and fair`},
	} {
		t.Run(c.property+"/"+c.kind.String()+"/"+fmt.Sprint(len(c.moves)), func(t *testing.T) {
			r := walk(t, "chang-roberts", cfg, c.property, c.kind, -1, c.moves...)
			var div *trace.DivergenceError
			require.ErrorAs(t, trace.Verify(r.sys, r.file), &div)
			assert.Equal(t, -1, div.Step)
			assert.Equal(t, c.reason, div.Reason)
			assert.Equal(t, "not a counterexample: "+c.reason, div.Error())
			// Well formed all the same (one step is enough for a step
			// property): Read takes it, and replay refuses it for the same
			// reason.
			read, err := roundTrip(t, r.file)
			require.NoError(t, err)
			require.ErrorAs(t, trace.Replay(read, specs.Builtin()), &div)
			assert.Equal(t, c.reason, div.Reason)
		})
	}
}

// A cycle that never leaves the goal is no counterexample of <>[]Stable.
// LeLann, N=3, with the unreliable detector: p2 suspects the live leader,
// sends ELECT(2) and crashes; p1 and p3, decided on p3, relay the orphan
// round and round, and every state of that cycle is Stable.
func TestReplayRefusesACycleInsideTheGoal(t *testing.T) {
	cfg := model.Config{N: 3, MaxCrashes: 1, Detector: model.Unreliable, InitialLeader: true, MaxQueue: 6}
	r := walk(t, "lelann", cfg, "Termination", cex.FairCycle, 3,
		move{kind: model.KindSuspect, process: 2}, crash(2), deliver(2, 3), deliver(3, 1), deliver(1, 3))
	require.Empty(t, trace.Diff(r.file.Steps[3].State, r.file.Steps[5].State), "the cycle closes")
	var div *trace.DivergenceError
	require.ErrorAs(t, trace.Verify(r.sys, r.file), &div)
	assert.Equal(t, -1, div.Step)
	assert.Equal(t, "every state of the cycle satisfies the goal of Termination", div.Reason)
}

// Read refuses a file larger than 64 MiB before it decodes anything, and
// takes one of exactly 64 MiB.
func TestReadSizeLimit(t *testing.T) {
	valid, err := os.ReadFile(filepath.Join("..", "testdata", "golden", "bully-restart.SingleLeader-invariant.trace.json"))
	require.NoError(t, err)
	const limit = 64 << 20
	pad := func(n int) *strings.Reader {
		return strings.NewReader(string(valid) + strings.Repeat(" ", n-len(valid)))
	}
	f, err := trace.Read(pad(limit))
	require.NoError(t, err, "exactly 64 MiB")
	assert.Equal(t, "SingleLeader", f.Property)
	_, err = trace.Read(pad(limit + 1))
	var mal *trace.MalformedError
	require.ErrorAs(t, err, &mal)
	assert.Equal(t, "malformed trace file: larger than 64 MiB", err.Error())
}

// The processes of the initial state stand at the positions of their IDs:
// a file that lists them in another order (the same fields, the same
// values) is another arrangement of the ring, not this configuration's.
func TestReplayChecksTheArrangement(t *testing.T) {
	f := goldenFile(t, "circulating-election.Termination-fair-cycle.trace.json")
	ps := f.Steps[0].State.Processes
	ps[0], ps[1] = ps[1], ps[0]
	var div *trace.DivergenceError
	require.ErrorAs(t, trace.Replay(f, specs.Builtin()), &div)
	assert.Equal(t, 0, div.Step)
	assert.Equal(t, "the initial state differs: the IDs are arranged otherwise", div.Reason)
	assert.Equal(t, "not a counterexample: step 0: the initial state differs: the IDs are arranged otherwise", div.Error())
}

// Weak fairness asks only for the steps enabled in every state of a cycle.
// Chang-Roberts, N=4: p4's ELECTED(4) and, after a restart, its
// ELECTION(4) both outlive it and chase each other round p1→p2→p3.
// Whoever last saw ELECTED(4) is not a participant and suspects the
// crashed p4, so it could initiate, until ELECTION(4) reaches it: every
// initiation is enabled in some states of the cycle and none in all, so
// the cycle is fair without taking any.
func TestFairCycleNeedNotTakeWhatComesAndGoes(t *testing.T) {
	cfg := model.Config{N: 4, MaxCrashes: 2, MaxRestarts: 1, MaxQueue: 8}
	r := walk(t, "chang-roberts", cfg, "Termination", cex.FairCycle, 13,
		initiate(4), deliver(4, 1), deliver(1, 2), deliver(2, 3), deliver(3, 4), // p4 is elected
		deliver(4, 1), crash(4), restart(4), initiate(4), crash(4), deliver(4, 1), // ELECTED(4), ELECTION(4) in p1→p2
		deliver(1, 2), deliver(2, 3), // 13: the cycle starts
		deliver(1, 2), deliver(3, 1), deliver(2, 3), deliver(1, 2), deliver(3, 1), deliver(2, 3))
	f := r.file
	require.Empty(t, trace.Diff(f.Steps[13].State, f.Steps[19].State), "the cycle closes")
	for i := 14; i <= 19; i++ {
		require.Equal(t, model.KindDeliver, f.Steps[i].Step.Kind, "step %d", i)
	}
	require.NoError(t, trace.Verify(r.sys, f))
}

// WriteText marks no cycle in a run that has none, says "step" for one,
// and "(no change)" for a step that changes nothing.
func TestWriteTextWithoutACycle(t *testing.T) {
	f := goldenFile(t, "bully-restart.SingleLeader-invariant.trace.json")
	var buf bytes.Buffer
	trace.WriteText(&buf, f, false)
	out := buf.String()
	assert.True(t, strings.HasPrefix(out, "SingleLeader counterexample, 4 steps:\n   0  initial state\n"), out)
	assert.NotContains(t, out, "cycle")
	assert.NotContains(t, out, "back to step")
	assert.Contains(t, out, "\n   4  restart p3\n")

	f.Steps = f.Steps[:2]
	buf.Reset()
	trace.WriteText(&buf, f, false)
	assert.True(t, strings.HasPrefix(buf.String(), "SingleLeader counterexample, 1 step:\n"), buf.String())

	// A self-loop: the last step returns to the state before it.
	g := goldenFile(t, "circulating-election.Termination-fair-cycle.trace.json")
	last := len(g.Steps) - 1
	g.Steps[last].State = g.Steps[last-1].State
	cs := last - 1
	g.CycleStart = &cs
	buf.Reset()
	trace.WriteText(&buf, g, false)
	assert.Contains(t, buf.String(), fmt.Sprintf("%4d  deliver p3→p1 ELECTION(4)   ◀ cycle: this step repeats forever\n      (no change)\n", last))
}

// New keeps a cycle that starts at the initial state: step 0.
func TestNewKeepsACycleAtStepZero(t *testing.T) {
	cfg := model.Config{N: 3, Detector: model.Unreliable, InitialLeader: true, MaxQueue: 3}
	r := walk(t, "bully", cfg, "Termination", cex.FairCycle, 0,
		move{kind: model.KindSuspect, process: 1}, deliver(1, 2), deliver(1, 3), deliver(2, 1), deliver(2, 3),
		deliver(3, 1), deliver(3, 1), deliver(3, 1), deliver(3, 2), deliver(3, 2), deliver(3, 2))
	require.NotNil(t, r.file.CycleStart)
	assert.Equal(t, 0, *r.file.CycleStart)
	golden := goldenFile(t, "bully-unreliable-termination.Termination-fair-cycle.trace.json")
	for i, s := range r.file.Steps {
		assert.Empty(t, trace.Diff(golden.Steps[i].State, s.State), "step %d", i)
		assert.Equal(t, golden.Steps[i].Label(), s.Label(), "step %d", i)
	}
	require.NoError(t, trace.Verify(r.sys, r.file))
	r = walk(t, "bully", cfg, "SingleLeader", cex.Invariant, -1)
	assert.Nil(t, r.file.CycleStart, "no cycle")
}

// The configuration in one line, as reports and charts head it.
func TestDescribe(t *testing.T) {
	for _, c := range []struct {
		cfg  model.Config
		want string
	}{
		{model.Config{N: 4, IDs: []int{1, 2, 3, 4}, MaxCrashes: 1, MaxQueue: 8},
			"chang-roberts, N=4, ids 1,2,3,4, up to 1 crash, perfect detector, max-queue 8"},
		{model.Config{N: 3, IDs: []int{3, 9, 4}, MaxCrashes: 2, MaxRestarts: 1, Detector: model.Unreliable, InitialLeader: true, MaxQueue: 2},
			"chang-roberts, N=3, ids 3,9,4, crash-any (up to 2 crashes), up to 1 restart, unreliable detector, initial leader, max-queue 2"},
		{model.Config{N: 4, IDs: []int{1, 2, 3, 4}, MaxCrashes: 2, MaxRestarts: 3, Initiators: []int{2, 4}, Down: []int{1}, MaxQueue: 6},
			"chang-roberts, N=4, ids 1,2,3,4, up to 2 crashes, up to 3 restarts, perfect detector, initiators 2,4, down 1, max-queue 6"},
		{model.Config{N: 3, IDs: []int{1, 1, 2}, Anonymous: true, MaxQueue: 6},
			"chang-roberts, N=3, ids 1,1,2, no crashes, perfect detector, anonymous, max-queue 6"},
		{model.Config{N: 3, IDs: []int{1, 2, 3}, Perm: true, MaxQueue: 6},
			"chang-roberts, N=3, ids: every arrangement of 1..3, no crashes, perfect detector, max-queue 6"},
	} {
		assert.Equal(t, c.want, trace.ConfigOf("chang-roberts", c.cfg).Describe())
	}
}
