package explore_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/ts"
)

// The explorer on a tiny hand-written system: a counter v modulo k.
//
// model.Batch can only be filled inside package model, so the system is
// written as a one-process algorithm and composed by model.New: process p1
// holds v; p2 is down for good (no restarts), so no message, crash or
// restart ever happens. The steps of a state are exactly
//
//	inc p1        v := (v + add) mod k   weakly fair; disabled when v = noAdd
//	early-dbl p1  v := (v * mul) mod k   unfair (an unjustified timeout)
//
// in that order. Predicates see v as p1's "elected" value minus 100 (an ID
// of no process, so the unreliable detector never adds a suspect step).

type cLocal struct{ V int }

type cMsg struct{}

type counter struct {
	k, add, mul int
	noAdd       int // v where inc is disabled, or -1
	init        int
}

func (c counter) Init() cLocal                                           { return cLocal{c.init} }
func (counter) Elected(l *cLocal) int                                    { return 100 + l.V }
func (c counter) CanInitiate(_ *model.Ctx[cMsg], l *cLocal, _ bool) bool { return l.V != c.noAdd }
func (c counter) Initiate(_ *model.Ctx[cMsg], l *cLocal)                 { l.V = (l.V + c.add) % c.k }
func (counter) Receive(*model.Ctx[cMsg], *cLocal, int, cMsg)             {}
func (counter) FormatMsg(cMsg) string                                    { return "" }
func (counter) InitiateName() string                                     { return "inc" }

// A Codec keeps the larger counters fast.
func (counter) AppendLocal(b []byte, l *cLocal) []byte { return binary.AppendUvarint(b, uint64(l.V)) }
func (counter) DecodeLocal(b []byte, l *cLocal) ([]byte, error) {
	v, n := binary.Uvarint(b)
	if n <= 0 {
		return nil, errors.New("short")
	}
	l.V = int(v)
	return b[n:], nil
}
func (counter) AppendMsg(b []byte, _ *cMsg) []byte          { return b }
func (counter) DecodeMsg(b []byte, _ *cMsg) ([]byte, error) { return b, nil }

func (c counter) Timers() []model.Timer[cLocal, cMsg] {
	return []model.Timer[cLocal, cMsg]{{
		Name:      "dbl",
		Armed:     func(*cLocal) bool { return true },
		Justified: func(*model.GuardCtx[cMsg], *cLocal) bool { return false },
		Fire:      func(_ *model.Ctx[cMsg], l *cLocal) { l.V = l.V * c.mul % c.k },
	}}
}

// Predicate indices.
const (
	notTwo = iota
	notFour
	even
	zero
	nonZero
)

func v(p *model.Procs) int { return p.Elected[0] - 100 }

type cView = model.View[cLocal, cMsg]

func vv(x *cView) int { return x.Local(0).V }

var counterPreds = []model.Property[cLocal, cMsg]{
	notTwo:  {Name: "v≠2", Holds: func(x *cView) bool { return vv(x) != 2 }},
	notFour: {Name: "v≠4", Holds: func(x *cView) bool { return vv(x) != 4 }},
	even:    {Name: "even", Holds: func(x *cView) bool { return vv(x)%2 == 0 }},
	zero:    {Name: "zero", Holds: func(x *cView) bool { return vv(x) == 0 }},
	nonZero: {Name: "nonzero", Holds: func(x *cView) bool { return vv(x) != 0 }},
}

func newCounter(t *testing.T, c counter) model.System {
	t.Helper()
	k, err := model.New[cLocal, cMsg](c, model.Config{N: 2, Down: []int{2}, Detector: model.Unreliable}, counterPreds)
	require.NoError(t, err)
	return k
}

// mod5 is 0 → 1 → 2 → 3 → 4 → 0 by inc, and v → 2v mod 5 by dbl.
var mod5 = counter{k: 5, add: 1, mul: 2, noAdd: -1}

// run explores sys. (A search that does not end is caught by go test's
// -timeout, not by a clock here.)
func run(t *testing.T, sys model.System, opt explore.Options) *explore.Result {
	t.Helper()
	res, err := explore.Run(sys, opt)
	require.NoError(t, err)
	return res
}

// values reads v along a trace.
func values(sys model.System, tr explore.Trace) []int {
	x := sys.NewExpander().(model.Viewer)
	var out []int
	for _, s := range tr.Steps {
		p := x.View(s.State)
		out = append(out, v(&p))
	}
	return out
}

func labels(tr explore.Trace) []string {
	var out []string
	for _, s := range tr.Steps {
		out = append(out, s.Label)
	}
	return out
}

// requireReplays checks a trace against the transition function: it starts
// in the initial state and every step is a successor of the one before under
// its action, with the right label and predicates.
func requireReplays(t *testing.T, sys model.System, tr explore.Trace) {
	t.Helper()
	x := sys.NewExpander()
	var b model.Batch
	x.Initial(&b)
	require.NotEmpty(t, tr.Steps)
	require.Equal(t, b.State(0), tr.Steps[0].State, "the trace does not start in the initial state")
	require.Equal(t, b.Succs[0].Props, tr.Steps[0].Props)
	require.Empty(t, tr.Steps[0].Label)
	for i := 0; i+1 < len(tr.Steps); i++ {
		cur, next := tr.Steps[i], tr.Steps[i+1]
		x.Expand(cur.State, &b)
		ok := false
		for j, s := range b.Succs {
			if s.Action == next.Action && bytes.Equal(b.State(j), next.State) {
				ok = true
				assert.Equal(t, s.Props, next.Props, "step %d", i+1)
			}
		}
		require.True(t, ok, "step %d (%s) is not a successor of step %d", i+1, next.Label, i)
		assert.Equal(t, x.Label(cur.State, next.Action), next.Label)
	}
	if tr.CycleStart >= 0 {
		require.Less(t, tr.CycleStart, len(tr.Steps)-1)
		require.Equal(t, tr.Steps[tr.CycleStart].State, tr.Final().State, "the lasso does not close")
	}
}

func TestExactCountsOfACounter(t *testing.T) {
	for _, tc := range []struct {
		c                   counter
		states, transitions int64
		depth               int
	}{
		// 0 | 1 | 2 | 3 4: every state has both steps (0 →dbl→ 0 is a self-loop).
		{mod5, 5, 10, 3},
		// 0 | 1 | 2 | 3 4 | 5.
		{counter{k: 6, add: 1, mul: 2, noAdd: -1}, 6, 12, 4},
		// Counting down from 3 with a self-loop everywhere; 0 has only the self-loop.
		{counter{k: 4, init: 3, add: 3, mul: 1, noAdd: 0}, 4, 7, 3},
		// A single state with two self-loops (a parallel edge counts twice).
		{counter{k: 1, add: 1, mul: 1, noAdd: -1}, 1, 2, 0},
	} {
		for _, exact := range []bool{false, true} {
			res := run(t, newCounter(t, tc.c), explore.Options{Exact: exact})
			// TLC's estimate, generated successors including the initial state.
			odds := float64(tc.states) * float64(tc.transitions+1-tc.states) / (1 << 64)
			if exact {
				odds = 0
			}
			assert.Equal(t, explore.Stats{
				States: tc.states, Transitions: tc.transitions, Depth: tc.depth, Complete: true,
				Elapsed: res.Elapsed, MemBytes: res.MemBytes, Exact: exact, CollisionProbability: odds,
			}, res.Stats, "%+v", tc.c)
		}
		res := run(t, newCounter(t, tc.c), explore.Options{})
		assert.Empty(t, res.Violations)
		assert.Positive(t, res.MemBytes)
	}
}

func TestShortestCounterexampleOfAnInvariant(t *testing.T) {
	sys := newCounter(t, mod5)
	res := run(t, sys, explore.Options{Targets: explore.Targets{Invariants: []int{notFour}}})
	require.Len(t, res.Violations, 1)
	viol := res.Violated(cex.Invariant, notFour)
	require.NotNil(t, viol)
	assert.Equal(t, cex.Invariant, viol.Kind)
	assert.Equal(t, notFour, viol.Predicate)
	// Breadth first: 0 →inc 1 →inc 2 →dbl 4, not the longer 0 → 1 → 2 → 3 → 4.
	assert.Equal(t, []int{0, 1, 2, 4}, values(sys, viol.Trace))
	assert.Equal(t, []string{"", "inc p1", "inc p1", "early-dbl p1"}, labels(viol.Trace))
	assert.Equal(t, -1, viol.Trace.CycleStart)
	for i, s := range viol.Trace.Steps {
		assert.Equal(t, i == 3, s.Props&(1<<notFour) == 0, "step %d", i)
	}
	requireReplays(t, sys, viol.Trace)

	// It stopped there: levels 0-2 expanded, all five states stored.
	assert.False(t, res.Complete)
	assert.Equal(t, "stopped at the first violation", res.Stopped)
	assert.Equal(t, int64(5), res.States)
	assert.Equal(t, int64(6), res.Transitions)
	assert.Equal(t, 2, res.Depth)
	assert.Nil(t, res.Violated(cex.Stuck, notFour))
}

func TestContinueVersusStopAtFirst(t *testing.T) {
	sys := newCounter(t, mod5)
	first := run(t, sys, explore.Options{Targets: explore.Targets{Invariants: []int{notTwo, notFour}}})
	require.Len(t, first.Violations, 1)
	require.NotNil(t, first.Violated(cex.Invariant, notTwo))
	assert.Nil(t, first.Violated(cex.Invariant, notFour))
	assert.Equal(t, []int{0, 1, 2}, values(sys, first.Violated(cex.Invariant, notTwo).Trace))
	assert.False(t, first.Complete)
	assert.Equal(t, "stopped at the first violation", first.Stopped)
	assert.Equal(t, int64(3), first.States)
	assert.Equal(t, int64(4), first.Transitions)

	all := run(t, sys, explore.Options{Targets: explore.Targets{Invariants: []int{notTwo, notFour}}, Continue: true})
	assert.True(t, all.Complete)
	assert.Empty(t, all.Stopped)
	assert.Equal(t, int64(5), all.States)
	assert.Equal(t, int64(10), all.Transitions)
	assert.Equal(t, 3, all.Depth)
	require.Len(t, all.Violations, 2)
	assert.Equal(t, notTwo, all.Violations[0].Predicate)
	assert.Equal(t, notFour, all.Violations[1].Predicate)
	assert.Equal(t, []int{0, 1, 2}, values(sys, all.Violations[0].Trace))
	assert.Equal(t, []int{0, 1, 2, 4}, values(sys, all.Violations[1].Trace))
	for _, viol := range all.Violations {
		requireReplays(t, sys, viol.Trace)
	}

	// "even" fails in 1 (depth 1) and 3 (depth 3): the shallowest is kept.
	odd := run(t, sys, explore.Options{Targets: explore.Targets{Invariants: []int{even}}, Continue: true})
	require.Len(t, odd.Violations, 1)
	assert.Equal(t, []int{0, 1}, values(sys, odd.Violations[0].Trace))
}

func TestInvariantViolatedInTheInitialState(t *testing.T) {
	sys := newCounter(t, mod5)
	res := run(t, sys, explore.Options{Targets: explore.Targets{Invariants: []int{nonZero}}})
	viol := res.Violated(cex.Invariant, nonZero)
	require.NotNil(t, viol)
	require.Len(t, viol.Trace.Steps, 1)
	requireReplays(t, sys, viol.Trace)
	assert.False(t, res.Complete)
	assert.Equal(t, "stopped at the first violation", res.Stopped)
	assert.Equal(t, int64(1), res.States)
	assert.Equal(t, int64(0), res.Transitions)

	res = run(t, sys, explore.Options{Targets: explore.Targets{Invariants: []int{nonZero}}, Continue: true})
	assert.True(t, res.Complete)
	assert.Equal(t, int64(5), res.States)
	assert.Len(t, res.Violated(cex.Invariant, nonZero).Trace.Steps, 1)
}

func TestMaxStatesStopsIncompleteWithoutClaims(t *testing.T) {
	sys := newCounter(t, mod5)
	res := run(t, sys, explore.Options{Targets: explore.Targets{Invariants: []int{notFour}, Goal: explore.GoalOf(zero)}, Liveness: true, MaxStates: 3})
	assert.False(t, res.Complete)
	assert.Equal(t, "MaxStates 3 reached", res.Stopped)
	assert.Equal(t, int64(3), res.States)
	assert.Equal(t, 1, res.Depth)
	// v = 4 was not reached and fair cycles were not looked for: nothing
	// is reported, and nothing may be said to hold.
	assert.Empty(t, res.Violations)
	assert.Equal(t, "the search did not finish", res.LivenessSkipped)

	// A limit above the state count changes nothing.
	res = run(t, sys, explore.Options{MaxStates: 6})
	assert.True(t, res.Complete)
	assert.Empty(t, res.Stopped)
	assert.Equal(t, int64(5), res.States)
}

// End to end: a search cut short by --max-states says no property holds.
func TestMaxStatesMakesNoHoldsClaim(t *testing.T) {
	spec, err := specs.Builtin().Lookup("ring")
	require.NoError(t, err)
	full, err := check.Run(check.Request{Spec: spec, Config: model.Config{N: 3}})
	require.NoError(t, err)
	require.True(t, full.Stats.Complete)
	require.Equal(t, check.Holds, full.Verdicts[0].Status) // SingleLeader
	require.Equal(t, check.Holds, full.Verdicts[1].Status) // Agreement

	cut, err := check.Run(check.Request{Spec: spec, Config: model.Config{N: 3}, MaxStates: 20})
	require.NoError(t, err)
	assert.False(t, cut.Stats.Complete)
	assert.Equal(t, "MaxStates 20 reached", cut.Stats.Stopped)
	require.Len(t, cut.Verdicts, 3)
	for _, v := range cut.Verdicts {
		assert.Equal(t, check.Unknown, v.Status, v.Name)
		assert.Contains(t, v.Summary, "MaxStates 20 reached", v.Name)
	}
}

func TestMaxStatesIsACap(t *testing.T) {
	res := run(t, newCounter(t, mod5), explore.Options{MaxStates: 4})
	assert.False(t, res.Complete)
	assert.Equal(t, int64(4), res.States, "a cap, not a hint")
	res = run(t, newCounter(t, counter{k: 20011, add: 1, mul: 2, noAdd: -1}), explore.Options{MaxStates: 1000})
	assert.False(t, res.Complete)
	assert.Equal(t, int64(1000), res.States, "a cap, not a hint")
}

func TestCancelledContextGivesAnIncompleteResult(t *testing.T) {
	sys := newCounter(t, mod5)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := run(t, sys, explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(zero)}, Liveness: true, Context: ctx})
	assert.False(t, res.Complete)
	assert.Equal(t, "interrupted: context canceled", res.Stopped)
	assert.Equal(t, int64(1), res.States)
	assert.Equal(t, int64(0), res.Transitions)
	assert.Empty(t, res.Violations)
	assert.Equal(t, "the search did not finish", res.LivenessSkipped)

	cctx, ccancel := context.WithCancelCause(context.Background())
	ccancel(errors.New("Ctrl-C"))
	res = run(t, sys, explore.Options{Context: cctx})
	assert.Equal(t, "interrupted: Ctrl-C", res.Stopped)
	assert.False(t, res.Complete)
}

func TestContextCancelledDuringTheSearch(t *testing.T) {
	// A chain 0 → 1 → ... → 2999, one state per level.
	const k = 3000
	sys := newCounter(t, counter{k: k, add: 1, mul: 1, noAdd: k - 1})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seen []explore.Progress
	cancelledAt := -1
	res := run(t, sys, explore.Options{Context: ctx, ProgressEvery: 1, Progress: func(p explore.Progress) {
		seen = append(seen, p)
		if p.Depth >= 4 && cancelledAt < 0 {
			cancelledAt = p.Depth
			cancel()
		}
	}})
	require.GreaterOrEqual(t, cancelledAt, 4)
	assert.False(t, res.Complete)
	assert.Equal(t, "interrupted: context canceled", res.Stopped)
	// The level where it was cancelled is finished; the next one is not started.
	assert.Equal(t, int64(cancelledAt+2), res.States)
	assert.Equal(t, cancelledAt+1, res.Depth)
	for i, p := range seen {
		assert.Equal(t, int64(p.Depth+1), p.States, "progress %d", i)
		assert.Equal(t, int64(2*p.Depth), p.Transitions, "progress %d", i)
		assert.Equal(t, 1, p.Queue, "progress %d", i)
		assert.Positive(t, p.MemBytes)
	}
}

func TestStuckState(t *testing.T) {
	// inc is disabled at 3, which is odd: from 3 only the unfair dbl is
	// enabled, so a fair run may stop there for good outside "even".
	stuck := counter{k: 5, add: 1, mul: 2, noAdd: 3}
	sys := newCounter(t, stuck)
	res := run(t, sys, explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(even)}})
	require.Len(t, res.Violations, 1)
	viol := res.Violated(cex.Stuck, even)
	require.NotNil(t, viol)
	assert.Equal(t, []int{0, 1, 2, 3}, values(sys, viol.Trace))
	assert.Equal(t, []string{"", "inc p1", "inc p1", "inc p1"}, labels(viol.Trace))
	assert.Equal(t, -1, viol.Trace.CycleStart)
	requireReplays(t, sys, viol.Trace)
	assert.False(t, res.Complete)
	assert.Equal(t, "stopped at the first violation", res.Stopped)

	res = run(t, sys, explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(even)}, Continue: true})
	assert.True(t, res.Complete)
	require.Len(t, res.Violations, 1)
	assert.Equal(t, []int{0, 1, 2, 3}, values(sys, res.Violations[0].Trace))

	// With liveness on the stuck state still stops the search, before
	// any fair cycle is looked for.
	res = run(t, sys, explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(even)}, Liveness: true})
	assert.False(t, res.Complete)
	assert.Equal(t, explore.StopFirstViolation, res.Stop)
	require.Len(t, res.Violations, 1)
	assert.Equal(t, []int{0, 1, 2, 3}, values(sys, res.Violated(cex.Stuck, even).Trace))

	// With Continue too, the search goes on to the end and also finds the
	// fair cycle 1 → 2 → 3 → 1 (inc is disabled at 3, so dbl may close it).
	res = run(t, sys, explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(even)}, Liveness: true, Continue: true})
	assert.True(t, res.Complete)
	require.NotNil(t, res.Violated(cex.Stuck, even))
	cyc := res.Violated(cex.FairCycle, even)
	require.NotNil(t, cyc)
	requireReplays(t, sys, cyc.Trace)

	// No stuck state without a goal, or when the goal holds where it stops.
	res = run(t, sys, explore.Options{})
	assert.Empty(t, res.Violations)
	assert.True(t, res.Complete)
	res = run(t, newCounter(t, counter{k: 5, add: 1, mul: 2, noAdd: 4}), explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(even)}})
	assert.Empty(t, res.Violations)
	assert.True(t, res.Complete)
}

func TestFairCycleLasso(t *testing.T) {
	sys := newCounter(t, mod5)
	res := run(t, sys, explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(zero)}, Liveness: true})
	assert.True(t, res.Complete)
	require.Len(t, res.Violations, 1)
	viol := res.Violated(cex.FairCycle, zero)
	require.NotNil(t, viol)
	requireReplays(t, sys, viol.Trace)
	// The shallowest bad state is 1; the shortest fair cycle through it
	// takes inc (enabled everywhere): 1 → 2 → 3 → 1.
	assert.Equal(t, 1, viol.Trace.CycleStart)
	assert.Equal(t, []int{0, 1, 2, 3, 1}, values(sys, viol.Trace))
	assert.Equal(t, []string{"", "inc p1", "inc p1", "inc p1", "early-dbl p1"}, labels(viol.Trace))
	bad := false
	for _, s := range viol.Trace.Steps[viol.Trace.CycleStart:] {
		bad = bad || s.Props&(1<<zero) == 0
	}
	assert.True(t, bad)
}

func TestNoLivenessViolationWhenEveryFairRunReachesTheGoal(t *testing.T) {
	// Counting down to 0; the unfair self-loops cannot keep it from 0 forever.
	sys := newCounter(t, counter{k: 4, init: 3, add: 3, mul: 1, noAdd: 0})
	res := run(t, sys, explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(zero)}, Liveness: true})
	assert.True(t, res.Complete)
	assert.Empty(t, res.Violations)
	assert.Empty(t, res.LivenessSkipped)
	assert.Equal(t, int64(4), res.States)
	assert.Equal(t, int64(7), res.Transitions)
}

// bfsDepths is an independent BFS over the counter's values.
func bfsDepths(c counter) map[int]int {
	depth := map[int]int{c.init: 0}
	level := []int{c.init}
	for d := 1; len(level) > 0; d++ {
		var next []int
		for _, x := range level {
			succ := []int{x * c.mul % c.k}
			if x != c.noAdd {
				succ = append(succ, (x+c.add)%c.k)
			}
			for _, y := range succ {
				if _, ok := depth[y]; !ok {
					depth[y] = d
					next = append(next, y)
				}
			}
		}
		level = next
	}
	return depth
}

func TestWideLevelsAndWorkers(t *testing.T) {
	// Levels of thousands of states, so that a level spans many chunks.
	c := counter{k: 20011, add: 1, mul: 2, noAdd: -1}
	sys := newCounter(t, c)
	depths := bfsDepths(c)
	maxDepth := 0
	for _, d := range depths {
		maxDepth = max(maxDepth, d)
	}
	require.Len(t, depths, c.k)

	var first *explore.Result
	for _, workers := range []int{1, 4} {
		res := run(t, sys, explore.Options{Targets: explore.Targets{Invariants: []int{notTwo, notFour, even}, Goal: explore.GoalOf(zero)}, Liveness: true, Continue: true, Workers: workers})
		assert.True(t, res.Complete)
		assert.Equal(t, int64(c.k), res.States)
		assert.Equal(t, int64(2*c.k), res.Transitions)
		assert.Equal(t, maxDepth, res.Depth)
		require.Len(t, res.Violations, 4)
		assert.Equal(t, []int{0, 1, 2}, values(sys, res.Violated(cex.Invariant, notTwo).Trace))
		assert.Equal(t, []int{0, 1, 2, 4}, values(sys, res.Violated(cex.Invariant, notFour).Trace))
		assert.Equal(t, []int{0, 1}, values(sys, res.Violated(cex.Invariant, even).Trace))
		cyc := res.Violated(cex.FairCycle, zero)
		require.NotNil(t, cyc)
		for _, viol := range res.Violations {
			requireReplays(t, sys, viol.Trace)
		}
		if first == nil {
			first = res
			continue
		}
		// The same answer whatever the number of workers.
		assert.Equal(t, first.Violations, res.Violations)
	}
}

func TestMemoryBudget(t *testing.T) {
	sys := newCounter(t, mod5)
	res := run(t, sys, explore.Options{MemoryBudget: 1})
	assert.False(t, res.Complete)
	assert.Equal(t, "memory budget of 1 B reached", res.Stopped)

	res = run(t, sys, explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(zero)}, Liveness: true, MemoryBudget: 1})
	assert.False(t, res.Complete)
	assert.Equal(t, "memory budget of 1 B reached", res.Stopped)
	assert.Equal(t, "the state graph outgrew the memory budget of 1 B at 1 states", res.LivenessSkipped)
}

func TestRunRejectsBadOptions(t *testing.T) {
	sys := newCounter(t, mod5)
	_, err := explore.Run(sys, explore.Options{Targets: explore.Targets{Invariants: []int{5}}})
	assert.Error(t, err)
	_, err = explore.Run(sys, explore.Options{Targets: explore.Targets{Invariants: []int{-1}}})
	assert.Error(t, err)
	_, err = explore.Run(sys, explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(5)}})
	assert.Error(t, err)
	_, err = explore.Run(sys, explore.Options{Liveness: true})
	assert.Error(t, err)
}

func TestFormatBytes(t *testing.T) {
	for b, want := range map[int64]string{
		0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB",
		5 << 20: "5.0 MiB", 3 << 30: "3.0 GiB", 1 << 40: "1.0 TiB",
	} {
		assert.Equal(t, want, explore.FormatBytes(b))
	}
}

// Reduction is for invariants on an exhaustive search only.
func TestReductionRefusesWhatItCannotKeep(t *testing.T) {
	spec, err := specs.Builtin().Lookup("ring")
	require.NoError(t, err)
	sys, err := spec.Build.System(model.Config{N: 3}, []string{"SingleLeader", "Agreement", "Termination"})
	require.NoError(t, err)
	for _, opt := range []explore.Options{
		{Reduce: true, Targets: explore.Targets{Goal: explore.GoalOf(2)}},
		{Reduce: true, Targets: explore.Targets{Goal: explore.GoalOf(2)}, Liveness: true},
		{Reduce: true, Bitstate: 1 << 20},
	} {
		_, err := explore.Run(sys, opt)
		require.Error(t, err)
	}
}

// A step predicate is checked on every step, also into states seen before,
// and its violation is the shortest trace that ends in the offending step.
func TestStepPredicateGivesShortestTraceEndingInTheStep(t *testing.T) {
	noDblFromThree := model.Property[cLocal, cMsg]{
		Name: "no dbl from 3", Kind: model.StepProperty,
		Step: func(before *cView, a model.Action, after *cView) bool {
			return !(vv(before) == 3 && a.Kind() == model.KindEarlyTimeout)
		},
	}
	sys, err := model.New[cLocal, cMsg](mod5, model.Config{N: 2, Down: []int{2}, Detector: model.Unreliable},
		[]model.Property[cLocal, cMsg]{counterPreds[notFour], noDblFromThree})
	require.NoError(t, err)
	for _, cont := range []bool{false, true} {
		res := run(t, sys, explore.Options{Targets: explore.Targets{Steps: []int{1}}, Continue: cont})
		v := res.Violated(cex.Step, 1)
		require.NotNil(t, v, "continue=%v", cont)
		assert.Equal(t, []int{0, 1, 2, 3, 1}, values(sys, v.Trace))
		assert.Equal(t, "early-dbl p1", v.Trace.Final().Label)
		if !cont {
			assert.Equal(t, explore.StopFirstViolation, res.Stop)
		}
	}
	_, err = explore.Run(sys, explore.Options{Targets: explore.Targets{Steps: []int{1}}, Reduce: true})
	assert.ErrorContains(t, err, "no goal, liveness or step predicate with it")
}

// Several goals in one search: each gets the violations it gets alone.
func TestGoalsAreCheckedEachOnItsOwn(t *testing.T) {
	sys := newCounter(t, mod5)
	both := run(t, sys, explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(zero, notFour)}, Liveness: true})
	for _, g := range []int{zero, notFour} {
		alone := run(t, sys, explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(g)}, Liveness: true})
		require.NotEmpty(t, alone.Violations)
		for _, v := range alone.Violations {
			w := both.Violated(v.Kind, g)
			require.NotNil(t, w, "goal %d kind %d", g, v.Kind)
			assert.Equal(t, labels(v.Trace), labels(w.Trace))
			assert.Equal(t, v.Trace.CycleStart, w.Trace.CycleStart)
		}
	}
	assert.Equal(t, both.States, run(t, sys, explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(zero)}, Liveness: true}).States)
	_, err := explore.Run(sys, explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(64)}})
	assert.ErrorContains(t, err, "out of range")
}

// Workers meet a batch's chunks in any order, so the first reach of a new
// state in time need not be the first in BFS order; the search keeps the
// first in BFS order as the state's parent all the same. One worker taking
// the chunks from the last to the first is such an order without the
// timing: every trace is the one of the search in order. The targets are
// states of wide levels, many chunks from the first.
func TestChunksInAnyOrderKeepTheFirstParent(t *testing.T) {
	t.Parallel()
	c := counter{k: 20011, add: 1, mul: 2, noAdd: -1}
	var props []model.Property[cLocal, cMsg]
	var invs []int
	for i, target := range []int{10007, 12345, 15000, 17777, 19999, 20000} {
		props = append(props, model.Property[cLocal, cMsg]{Name: fmt.Sprintf("v≠%d", target), Holds: func(x *cView) bool { return vv(x) != target }})
		invs = append(invs, i)
	}
	sys, err := model.New[cLocal, cMsg](c, model.Config{N: 2, Down: []int{2}, Detector: model.Unreliable}, props)
	require.NoError(t, err)
	opt := explore.Options{Targets: explore.Targets{Invariants: invs}, Continue: true, Workers: 1}
	want := run(t, sys, opt)
	require.Len(t, want.Violations, len(invs))
	got := run(t, sys, explore.InReverse(opt))
	for _, r := range []*explore.Result{want, got} {
		r.Elapsed, r.MemBytes = 0, 0
	}
	require.Equal(t, want.Stats, got.Stats)
	for i, v := range want.Violations {
		requireReplays(t, sys, got.Violations[i].Trace)
		require.Equal(t, values(sys, v.Trace), values(sys, got.Violations[i].Trace), "%s", props[v.Predicate].Name)
	}
}

// The expanders' shared tables are the search's memory too: a kernel numbers
// every distinct local state it meets (20,011 here), with a Codec or
// without, and the search counts what they hold, against its budget.
func TestSharedTablesCountAgainstTheBudget(t *testing.T) {
	c := counter{k: 20011, add: 1, mul: 2, noAdd: -1}
	for _, generic := range []bool{false, true} {
		var opts []model.Option
		if generic {
			opts = append(opts, model.WithGenericHashing())
		}
		sys, err := model.New[cLocal, cMsg](c, model.Config{N: 2, Down: []int{2}, Detector: model.Unreliable}, counterPreds, opts...)
		require.NoError(t, err)
		var shared ts.SharedMemory = sys
		before := shared.SharedBytes()
		res := run(t, sys, explore.Options{})
		require.True(t, res.Complete)
		// At least an entry in an index and its published copy per value;
		// without a Codec, in the table of values and in the numbering of
		// their encodings.
		tables := int64(1)
		if generic {
			tables = 2
		}
		require.GreaterOrEqual(t, shared.SharedBytes()-before, int64(c.k-1)*tables*2*64, "generic=%v", generic)
		require.GreaterOrEqual(t, res.MemBytes, shared.SharedBytes(), "generic=%v", generic)
	}
	// Tables that hold a terabyte are over any budget at once.
	res := run(t, hugeTables{newCounter(t, c)}, explore.Options{MemoryBudget: 1 << 30})
	require.Equal(t, explore.StopMemory, res.Stop)
	require.False(t, res.Complete)
}

type hugeTables struct{ ts.System }

func (hugeTables) SharedBytes() int64 { return 1 << 40 }
