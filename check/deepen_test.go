package check_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

func deepen(t *testing.T, algo string, cfg model.Config, sel []string, maxStates int64) *check.Report {
	t.Helper()
	return deepenReq(t, algo, check.Request{Config: cfg, Properties: sel, MaxStates: maxStates})
}

func deepenReq(t *testing.T, algo string, req check.Request) *check.Report {
	t.Helper()
	spec, err := specs.Builtin().Lookup(algo)
	require.NoError(t, err)
	req.Spec = spec
	rep, err := check.Deepen(req, 0)
	require.NoError(t, err)
	require.NotNil(t, rep.Deepening)
	return rep
}

type bound struct {
	k         int
	complete  bool
	states    int64
	discarded int64
}

func bounds(d *check.Deepening) []bound {
	var out []bound
	for _, b := range d.Bounds {
		out = append(out, bound{b.MaxQueue, b.Complete, b.States, b.Discarded})
	}
	return out
}

var safety = []string{"SingleLeader", "Agreement"}

// verdict is rep's verdict on the property named name.
func verdict(t *testing.T, rep *check.Report, name string) check.Verdict {
	t.Helper()
	for _, v := range rep.Verdicts {
		if v.Name == name {
			return v
		}
	}
	t.Fatalf("no verdict on %s", name)
	return check.Verdict{}
}

// Each bound's counts are those of a fixed --max-queue k, and deepening
// stops at the first bound that discards nothing: the unbounded model.
func TestDeepenStopsWhereNothingIsDiscarded(t *testing.T) {
	rep := deepen(t, "chang-roberts", model.Config{N: 3, MaxCrashes: 2}, safety, 0)
	d := rep.Deepening
	assert.Equal(t, []bound{
		{1, true, 231, 66}, {2, true, 554, 116}, {3, true, 1027, 228}, {4, true, 1762, 425},
		{5, true, 2731, 578}, {6, true, 4141, 644}, {7, true, 5767, 498}, {8, true, 7066, 248},
		{9, true, 7721, 72}, {10, true, 7900, 9}, {11, true, 7918, 0},
	}, bounds(d))
	assert.Equal(t, 11, d.Verdicts)
	assert.True(t, d.Exhaustive)
	assert.False(t, d.Violation)
	assert.Nil(t, d.Stopped())
	assert.Equal(t, 11, rep.Config.MaxQueue)
	assert.False(t, rep.Bounded())
	for _, name := range safety {
		assert.Equal(t, check.Holds, verdict(t, rep, name).Status, name)
	}
	// The default bound 2N = 6 is the same search as bound 6 here.
	spec, _ := specs.Builtin().Lookup("chang-roberts")
	fixed, err := check.Run(check.Request{Spec: spec, Config: model.Config{N: 3, MaxCrashes: 2}, Properties: safety})
	require.NoError(t, err)
	assert.Equal(t, int64(4141), fixed.Stats.States)
}

// A violation that is a run without the bound too stops deepening at the
// bound where it is found, and is reported with its trace.
func TestDeepenReportsViolationAtBoundOne(t *testing.T) {
	// The first definite answer, a stuck state the bound did not make,
	// stops bound 1's search and the deepening.
	rep := deepen(t, "chang-roberts", model.Config{N: 3, MaxCrashes: 2}, nil, 0)
	d := rep.Deepening
	require.Len(t, d.Bounds, 1)
	assert.False(t, d.Bounds[0].Finished())
	assert.True(t, d.Violation)
	v := verdict(t, rep, "Termination")
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, cex.Stuck, v.Kind)
	assert.False(t, v.Bounded)
	require.NotNil(t, v.File, "the trace was replayed")
	assert.Nil(t, d.Stopped(), "a violation is an answer, not a bound that did not finish")

	// Continue: bound 1 in full, with its lasso.
	rep = deepenReq(t, "chang-roberts", check.Request{Config: model.Config{N: 3, MaxCrashes: 2}, Continue: true})
	d = rep.Deepening
	assert.Equal(t, []bound{{1, true, 231, 66}}, bounds(d))
	assert.True(t, d.Violation)
	assert.Equal(t, 1, d.Verdicts)
	v = verdict(t, rep, "Termination")
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, cex.FairCycle, v.Kind)
	assert.False(t, v.Bounded)
	require.NotNil(t, v.File, "the trace was replayed")
	assert.Len(t, v.Trace.Steps, 6)
}

// A stuck state that only the bound creates does not stop deepening; at
// bound 3 the ring discards nothing and Termination holds.
func TestDeepenGoesPastViolationsOfTheBoundOnly(t *testing.T) {
	rep := deepen(t, "ring", model.Config{N: 3}, nil, 0)
	d := rep.Deepening
	assert.Equal(t, []bound{{1, true, 33, 17}, {2, true, 91, 15}, {3, true, 106, 0}}, bounds(d))
	assert.True(t, d.Bounds[0].BoundedOnly)
	assert.False(t, d.Bounds[1].BoundedOnly)
	assert.True(t, d.Exhaustive)
	assert.False(t, d.Violation)
	assert.False(t, rep.Violated())
	assert.Equal(t, check.Holds, verdict(t, rep, "Termination").Status)
}

// A bound that does not finish (here: the per-bound state cap) ends
// deepening; the verdicts are those of the largest bound that finished.
func TestDeepenKeepsTheLargestFinishedBound(t *testing.T) {
	rep := deepen(t, "bully", model.Config{N: 4, MaxCrashes: 3, InitialLeader: true}, nil, 10_000)
	d := rep.Deepening
	assert.Equal(t, []bound{{1, true, 932, 529}, {2, true, 3973, 1159}, {3, true, 9721, 1750}, {4, false, 10_000, 312}}, bounds(d))
	assert.Equal(t, 3, d.Verdicts)
	assert.False(t, d.Exhaustive)
	require.NotNil(t, d.Stopped())
	assert.Equal(t, 4, d.Stopped().MaxQueue)
	assert.Equal(t, "MaxStates 10000 reached", d.Stopped().Stopped)
	assert.True(t, rep.Stats.Complete)
	assert.Equal(t, 3, rep.Config.MaxQueue)
	assert.Equal(t, int64(9721), rep.Stats.States)
	for _, v := range rep.Verdicts {
		assert.Equal(t, check.Holds, v.Status, v.Name)
	}
}

// When not even bound 1 finishes, the report is that search, incomplete,
// and nothing holds.
func TestDeepenWithNoFinishedBound(t *testing.T) {
	spec, _ := specs.Builtin().Lookup("bully")
	ctx, cancel := check.WithTimeLimit(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	rep, err := check.Deepen(check.Request{Spec: spec, Config: model.Config{N: 3, InitialLeader: true}, Properties: nil, Context: ctx}, 0)
	require.NoError(t, err)
	d := rep.Deepening
	assert.Equal(t, []bound{{1, false, 1, 0}}, bounds(d))
	assert.Equal(t, "interrupted: time limit of 1ns reached", d.Bounds[0].Stopped)
	assert.Equal(t, 0, d.Verdicts)
	assert.False(t, rep.Stats.Complete)
	for _, v := range rep.Verdicts {
		assert.Equal(t, check.Unknown, v.Status, v.Name)
	}
}

// deadlineOnly has a deadline that never fires: the search at bound 1 runs
// to the end, and then no time is left.
type deadlineOnly struct {
	context.Context
	at time.Time
}

func (c deadlineOnly) Deadline() (time.Time, bool) { return c.at, true }

// A bound is not started when less time is left than the previous bound
// took: it has all of that bound's states and more.
func TestDeepenDoesNotStartAHopelessBound(t *testing.T) {
	spec, _ := specs.Builtin().Lookup("chang-roberts")
	ctx := deadlineOnly{context.Background(), time.Now()}
	rep, err := check.Deepen(check.Request{Spec: spec, Config: model.Config{N: 3, MaxCrashes: 2}, Properties: safety, Context: ctx}, 0)
	require.NoError(t, err)
	d := rep.Deepening
	assert.Equal(t, []bound{{1, true, 231, 66}, {2, false, 0, 0}}, bounds(d))
	require.NotNil(t, d.Stopped())
	assert.True(t, d.Stopped().NotStarted)
	assert.Equal(t, time.Duration(0), d.Stopped().Left)
	assert.Equal(t, 1, d.Verdicts)
	assert.Equal(t, 1, rep.Config.MaxQueue)
	assert.Equal(t, check.Holds, verdict(t, rep, "SingleLeader").Status)
}

// A bound whose search finished but left a property unknown (the state
// graph outgrew the memory budget, so no fair-cycle check) counts as not
// finished: the verdicts are those of the bound before, all decided.
func TestDeepenStopsWhereAPropertyStaysUnknown(t *testing.T) {
	spec, _ := specs.Builtin().Lookup("bully")
	rep, err := check.Deepen(check.Request{Spec: spec, Config: model.Config{N: 4, MaxCrashes: 3, InitialLeader: true}, MemoryBudget: 8 << 20, Workers: 1}, 0)
	require.NoError(t, err)
	d := rep.Deepening
	// Which bound's graph outgrows 8 MiB depends on how the search counts
	// its memory (batch sizes, block sizes), not on the model: the counts of
	// every bound searched are exact, and the last one is the stopped one.
	all := []bound{{1, true, 932, 529}, {2, true, 3973, 1159}, {3, true, 9721, 1750}, {4, true, 15961, 1984},
		{5, true, 19694, 1802}, {6, true, 22661, 1550}, {7, true, 25333, 1121}}
	got := bounds(d)
	require.GreaterOrEqual(t, len(got), 2, "bound 1 fits in 8 MiB")
	require.LessOrEqual(t, len(got), len(all), "the graph at bound %d should outgrow 8 MiB", len(all))
	assert.Equal(t, all[:len(got)], got)
	last := len(got)
	assert.Equal(t, last-1, d.Verdicts)
	require.NotNil(t, d.Stopped())
	assert.Equal(t, last, d.Stopped().MaxQueue)
	assert.Contains(t, d.Stopped().Undecided, "Termination: no stuck state, but fair cycles were not checked: the state graph outgrew the memory budget of 8.0 MiB")
	assert.Equal(t, check.Holds, verdict(t, rep, "Termination").Status)
	assert.Equal(t, last-1, rep.Config.MaxQueue)
}

// cancelAtLastLevel is a Context and a Progress callback that cancel the
// Context (with cause) as the last level of the search at bound k starts
// (depth is that level, from a run at bound k): the search at bound k
// completes, and the fair-cycle check after it is interrupted.
func cancelAtLastLevel(k, depth int, cause error) (context.Context, *check.Request, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	bound := 0
	req := &check.Request{Context: ctx, ProgressEvery: 1,
		Sweeping: func(c model.Config) { bound = c.MaxQueue },
		Progress: func(p explore.Progress) {
			if bound == k && p.Depth == depth {
				cancel(cause)
			}
		}}
	return ctx, req, func() { cancel(nil) }
}

// A bound whose fair-cycle check was interrupted is not finished: the
// verdicts are those of the bound before, and the bound says why.
func TestDeepenStopsWhereTheFairCycleCheckIsInterrupted(t *testing.T) {
	spec, _ := specs.Builtin().Lookup("bully")
	cfg := model.Config{N: 4, MaxCrashes: 3, InitialLeader: true}
	at2 := cfg
	at2.MaxQueue = 2
	full, err := check.Run(check.Request{Spec: spec, Config: at2})
	require.NoError(t, err)
	require.Equal(t, check.Holds, verdict(t, full, "Termination").Status)

	ctx, req, release := cancelAtLastLevel(2, full.Stats.Depth, errors.New("SIGINT (Ctrl-C)"))
	defer release()
	var started []int
	count := req.Sweeping
	req.Sweeping = func(c model.Config) { started = append(started, c.MaxQueue); count(c) }
	req.Spec, req.Config = spec, cfg
	rep, err := check.Deepen(*req, 0)
	require.NoError(t, err)
	require.Error(t, ctx.Err(), "the context was cancelled")
	d := rep.Deepening
	assert.Equal(t, []int{1, 2}, started)
	assert.Equal(t, []bound{{1, true, 932, 529}, {2, true, 3973, 1159}}, bounds(d))
	assert.Equal(t, 1, d.Verdicts)
	assert.Equal(t, 1, rep.Config.MaxQueue)
	require.NotNil(t, d.Stopped())
	assert.False(t, d.Stopped().Finished())
	assert.Equal(t, "Termination: no stuck state, but fair cycles were not checked: the fair-cycle check was interrupted: SIGINT (Ctrl-C)",
		d.Stopped().Undecided)
	// What held at bound 1 is not what was asked (the bound past which
	// nothing is discarded): unknown, as the command says it.
	assert.Equal(t, check.Unknown, verdict(t, rep, "Termination").Status)
	assert.Equal(t, "no violation with at most 1 message per channel (bound 1), but the check was interrupted at bound 2", verdict(t, rep, "Termination").Summary)
	assert.False(t, rep.Stats.Complete)
}

// Without deepening, the interrupted fair-cycle check leaves Termination
// unknown; the safety properties, decided by the finished search, hold.
func TestInterruptedFairCycleCheckLeavesTerminationUnknown(t *testing.T) {
	spec, _ := specs.Builtin().Lookup("bully")
	cfg := model.Config{N: 4, MaxCrashes: 3, InitialLeader: true, MaxQueue: 2}
	full, err := check.Run(check.Request{Spec: spec, Config: cfg})
	require.NoError(t, err)
	_, req, release := cancelAtLastLevel(0, full.Stats.Depth, errors.New("time limit of 1m0s reached"))
	defer release()
	req.Spec, req.Config = spec, cfg
	rep, err := check.Run(*req)
	require.NoError(t, err)
	assert.True(t, rep.Stats.Complete)
	assert.Equal(t, full.Stats.States, rep.Stats.States)
	term := verdict(t, rep, "Termination")
	assert.Equal(t, check.Unknown, term.Status)
	assert.Equal(t, "no stuck state, but fair cycles were not checked: the fair-cycle check was interrupted: time limit of 1m0s reached", term.Summary)
	for _, name := range safety {
		assert.Equal(t, check.Holds, verdict(t, rep, name).Status, name)
	}
}

// Before any bound is tried, none has stopped.
func TestNoBoundTriedNoneStopped(t *testing.T) {
	assert.Nil(t, (&check.Deepening{}).Stopped())
}

// chatter's first process may always send to the second, which ignores
// what it gets: its channel fills up to any bound, and every bound
// discards that send.
type chatter struct{}

type chatterLocal struct{}

type chatterMsg struct{}

func (chatter) Init() chatterLocal        { return chatterLocal{} }
func (chatter) Elected(*chatterLocal) int { return 0 }
func (chatter) CanInitiate(c *model.Ctx[chatterMsg], _ *chatterLocal, _ bool) bool {
	return c.Self() == 0
}
func (chatter) Initiate(c *model.Ctx[chatterMsg], _ *chatterLocal) {
	c.SendNext(model.CW, chatterMsg{})
}
func (chatter) Receive(*model.Ctx[chatterMsg], *chatterLocal, int, chatterMsg) {}
func (chatter) FormatMsg(chatterMsg) string                                    { return "HELLO" }

// Deepening goes up to MaxBound, the largest bound a configuration can
// have, and says that it could go no further.
func TestDeepenStopsAtMaxBound(t *testing.T) {
	spec := specs.Spec{Name: "chatter", Build: specs.Builder[chatterLocal, chatterMsg](chatter{})}
	rep, err := check.Deepen(check.Request{Spec: spec, Config: model.Config{N: 2}, Properties: []string{"SingleLeader"}, Workers: 1}, 0)
	require.NoError(t, err)
	d := rep.Deepening
	require.Len(t, d.Bounds, check.MaxBound)
	for i, b := range d.Bounds {
		require.Equal(t, bound{i + 1, true, int64(i + 2), 1}, bound{b.MaxQueue, b.Complete, b.States, b.Discarded}, "bound %d: 0..k messages in the channel", i+1)
	}
	assert.True(t, d.AtMaxBound)
	assert.False(t, d.Exhaustive)
	assert.Equal(t, check.MaxBound, d.Verdicts)
	assert.Equal(t, check.MaxBound, rep.Config.MaxQueue)
	assert.Nil(t, d.Stopped())
	assert.Equal(t, check.Holds, verdict(t, rep, "SingleLeader").Status)
}

// WithTimeLimit takes a nil context as the background one, and its cause
// says which limit was reached.
func TestWithTimeLimitOfNoContext(t *testing.T) {
	ctx, cancel := check.WithTimeLimit(nil, time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	assert.EqualError(t, context.Cause(ctx), "time limit of 1ns reached")
}

// A library caller of Deepen gets the verdicts the command prints: a
// Context stopped while bound 2 runs leaves bound 1's report incomplete,
// with nothing holding and every verdict's proof Incomplete.
func TestDeepenInterruptedByItsContextHoldsNothing(t *testing.T) {
	spec, err := specs.Builtin().Lookup("bully")
	require.NoError(t, err)
	ctx, stop := context.WithCancelCause(context.Background())
	defer stop(nil)
	req := check.Request{Spec: spec, Config: model.Config{N: 3, MaxCrashes: 2, InitialLeader: true}, Context: ctx,
		Sweeping: func(c model.Config) {
			if c.MaxQueue == 2 {
				stop(errors.New("SIGTERM"))
			}
		}}
	rep, err := check.Deepen(req, 0)
	require.NoError(t, err)
	assert.False(t, rep.Stats.Complete)
	assert.Equal(t, "interrupted: SIGTERM at bound 2; the counts are those of bound 1, which finished", rep.Stats.Stopped)
	for _, v := range rep.Verdicts {
		if v.Status == check.Unchecked {
			continue
		}
		assert.Equal(t, check.Unknown, v.Status, v.Name)
		assert.Equal(t, check.Incomplete, v.Proof, v.Name)
	}
	assert.Equal(t, "no violation with at most 1 message per channel (bound 1), but the check was interrupted at bound 2", verdict(t, rep, "SingleLeader").Summary)
}
