package model_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/ts"
)

// Section 6 of docs/semantics.md (time) step by step: the kernel's timed steps
// on Bully and on small algorithms of timers, seen through the expander's
// data (steps, snapshots), as a trace shows them.

// timedWalk is a run being followed through an expander by the labels of its
// steps.
type timedWalk struct {
	t     *testing.T
	x     model.Expander
	state []byte
	b     model.Batch
}

func newTimedWalk(t *testing.T, algo string, cfg model.Config) *timedWalk {
	t.Helper()
	spec, err := specs.Builtin().Lookup(algo)
	require.NoError(t, err)
	sys, err := spec.Build.System(cfg, nil)
	require.NoError(t, err)
	return newTimedWalkOf(t, sys)
}

func newTimedWalkOf(t *testing.T, sys model.System) *timedWalk {
	t.Helper()
	x, err := model.ExpanderOf(sys)
	require.NoError(t, err)
	w := &timedWalk{t: t, x: x}
	x.Initial(&w.b)
	w.state = slices.Clone(w.b.State(0))
	return w
}

// enabled lists the labels of the steps enabled now.
func (w *timedWalk) enabled() []string {
	w.x.Expand(w.state, &w.b)
	var out []string
	for _, s := range w.b.Succs {
		out = append(out, w.x.Label(w.state, s.Action))
	}
	return out
}

// take takes the step labelled label and returns its fairness class name.
func (w *timedWalk) take(label string) model.Succ {
	w.t.Helper()
	labels := w.enabled()
	i := slices.Index(labels, label)
	require.GreaterOrEqual(w.t, i, 0, "%q is not enabled in %s; enabled: %q", label, w.x.Describe(w.state), labels)
	s := w.b.Succs[i]
	w.state = slices.Clone(w.b.State(i))
	return s
}

func (w *timedWalk) snap() model.Snapshot { return w.x.Snapshot(w.state) }

// timer is process i's timer as shown.
func (w *timedWalk) timer(i int) string { return w.snap().Processes[i].Timer.String() }

func TestTimedBullyStepByStep(t *testing.T) {
	w := newTimedWalk(t, "bully", model.Config{N: 2, Timing: model.Sync, Delay: 2, Timeout: 3, TimeoutCoord: 2})
	assert.Equal(t, "p1{status=idle elected=⊥ timer=off} p2{status=idle elected=⊥ timer=off}", w.x.Describe(w.state))
	// Nothing in flight and no timer running: no tick.
	assert.Equal(t, []string{"detect p1", "detect p2"}, w.enabled())

	w.take("detect p1")
	assert.Equal(t, "p1{status=electing elected=⊥ timer=3} p2{status=idle elected=⊥ timer=off} | p1→p2 [ELECTION(1)@0]", w.x.Describe(w.state),
		"setting status electing sets the timer to T; a message is sent with age 0")
	assert.Equal(t, []string{"detect p2", "tick"}, w.enabled(), "a message of age 0 is not delivered")

	w.take("tick")
	assert.Equal(t, "p1{status=electing elected=⊥ timer=2} p2{status=idle elected=⊥ timer=off} | p1→p2 [ELECTION(1)@1]", w.x.Describe(w.state))
	assert.Equal(t, []string{"deliver p1→p2 ELECTION(1)", "detect p2", "tick"}, w.enabled(), "age 1 of D 2: delivered or not yet")
	w.take("tick")
	assert.Equal(t, []string{"deliver p1→p2 ELECTION(1)", "detect p2"}, w.enabled(), "a message of age D stops the clock")

	w.take("deliver p1→p2 ELECTION(1)")
	assert.Equal(t, "p1{status=electing elected=⊥ timer=1} p2{status=idle elected=2 timer=off} | p2→p1 [OK(2)@0 COORDINATOR(2)@0]", w.x.Describe(w.state),
		"p2 has no higher process: it is coordinator at once, idle, timer off")
	w.take("tick")
	assert.Equal(t, "0", w.timer(0))
	assert.Equal(t, []string{"deliver p2→p1 OK(2)", "timeout-ok p1"}, w.enabled(), "a timer at 0 stops the clock; the OK races the timeout")

	w.take("deliver p2→p1 OK(2)")
	assert.Equal(t, "p1{status=waiting elected=⊥ timer=2} p2{status=idle elected=2 timer=off} | p2→p1 [COORDINATOR(2)@1]", w.x.Describe(w.state),
		"setting status waiting sets the timer to T2 (here shorter than T)")
	w.take("tick")
	assert.Equal(t, "p1{status=waiting elected=⊥ timer=1} p2{status=idle elected=2 timer=off} | p2→p1 [COORDINATOR(2)@2]", w.x.Describe(w.state))
	w.take("deliver p2→p1 COORDINATOR(2)")
	assert.Equal(t, "p1{status=idle elected=2 timer=off} p2{status=idle elected=2 timer=off}", w.x.Describe(w.state),
		"setting status idle turns the timer off")
	assert.Empty(t, w.enabled(), "quiescent: nothing in flight, no timer running, no detection")
}

// A second OK while waiting does not restart the timer (nothing but a
// status set touches it), and an expired timeout is taken in the same
// instant as the messages of age D, in any order.
func TestTimedBullySecondOKLeavesTheTimer(t *testing.T) {
	w := newTimedWalk(t, "bully", model.Config{N: 3, Timing: model.Sync, Delay: 2, Timeout: 5, TimeoutCoord: 4})
	w.take("detect p1")
	w.take("tick")
	w.take("deliver p1→p2 ELECTION(1)")
	w.take("deliver p1→p3 ELECTION(1)")
	w.take("tick")
	w.take("deliver p2→p1 OK(2)")
	assert.Equal(t, "4", w.timer(0), "T2")
	w.take("tick")
	assert.Equal(t, "3", w.timer(0))
	assert.Contains(t, w.x.Describe(w.state), "p3→p1 [OK(3)@2 COORDINATOR(3)@2]")
	w.take("deliver p3→p1 OK(3)")
	assert.Equal(t, "3", w.timer(0), "the second OK leaves the timer")
	assert.Equal(t, "waiting", w.snap().Processes[0].Fields[0].Value.String())
}

// With partial timing the clock runs past late messages until gst, which
// is enabled once; a tick with nothing to age and no timer is a self-loop.
func TestTimedPartialLateMessagesUntilGST(t *testing.T) {
	w := newTimedWalk(t, "ring", model.Config{N: 2, Timing: model.Partial})
	assert.Equal(t, []string{"initiate p1", "initiate p2", "gst"}, w.enabled())
	w.take("initiate p1")
	w.take("tick")
	before := slices.Clone(w.state)
	assert.Equal(t, []string{"deliver p1→p2 ELECTION(1)", "initiate p2", "tick", "gst"}, w.enabled(), "before gst a message of age D may wait")
	w.take("tick")
	assert.Equal(t, before, w.state, "a tick with every message late and no timer is a self-loop")
	assert.Equal(t, "p1{busy=true elected=⊥} p2{busy=false elected=⊥} | p1→p2 [ELECTION(1)@1] | gst=false", w.x.Describe(w.state),
		"an algorithm without timers shows none")
	fair := w.take("gst")
	assert.Equal(t, "gst", fairName(t, w, fair))
	assert.Equal(t, []string{"deliver p1→p2 ELECTION(1)", "initiate p2"}, w.enabled(), "after gst a message of age D stops the clock again")
	assert.True(t, *w.snap().GST)
}

func fairName(t *testing.T, w *timedWalk, s model.Succ) string {
	t.Helper()
	return sysOf(t, w).FairClass(s.Fair)
}

func sysOf(t *testing.T, w *timedWalk) model.System {
	t.Helper()
	spec, err := specs.Builtin().Lookup("ring")
	require.NoError(t, err)
	sys, err := spec.Build.System(model.Config{N: 2, Timing: model.Partial}, nil)
	require.NoError(t, err)
	return sys
}

// The fairness classes of the timed modes: tick, gst, and each process's
// timeouts fair whatever the detector would say; no early timeouts.
func TestTimedFairnessAndNoEarlyTimeouts(t *testing.T) {
	spec, err := specs.Builtin().Lookup("bully")
	require.NoError(t, err)
	sys, err := spec.Build.System(model.Config{N: 2, Timing: model.Partial, Detector: model.Unreliable, Timeout: 1}, nil)
	require.NoError(t, err)
	w := newTimedWalkOf(t, sys)
	w.take("detect p1")
	tick := w.take("tick")
	assert.Equal(t, "tick", sys.FairClass(tick.Fair))
	labels := w.enabled()
	assert.Equal(t, []string{"deliver p1→p2 ELECTION(1)", "timeout-ok p1", "detect p2", "gst"}, labels, "no early-timeout-ok, no tick with a timer at 0")
	to := w.take("timeout-ok p1")
	assert.Equal(t, "timeout-ok p1", sys.FairClass(to.Fair), "fair although p2 is live (the perfect detector's guard is not used)")
}

// tock is an algorithm of two timers with durations of its own: initiate
// arms "beat" (D+1 ticks), whose timeout counts a beat and leaves it armed
// (a periodic timer); a NOTE arms "both" too when Greedy.
type tock struct{ Greedy bool }

type tockLocal struct {
	On, Other bool
	Beats     int
	Elected   int
}

type tockMsg struct{ J int }

func (tock) Init() tockLocal          { return tockLocal{} }
func (tock) Elected(l *tockLocal) int { return l.Elected }
func (tock) CanInitiate(_ *model.Ctx[tockMsg], l *tockLocal, _ bool) bool {
	return !l.On
}
func (a tock) Initiate(c *model.Ctx[tockMsg], l *tockLocal) {
	l.On = true
	l.Other = a.Greedy
}
func (tock) Receive(*model.Ctx[tockMsg], *tockLocal, int, tockMsg) {}
func (tock) FormatMsg(m tockMsg) string                            { return "NOTE" }
func (tock) Timers() []model.Timer[tockLocal, tockMsg] {
	return []model.Timer[tockLocal, tockMsg]{
		{
			Name: "beat", Armed: func(l *tockLocal) bool { return l.On },
			Justified: func(*model.GuardCtx[tockMsg], *tockLocal) bool { return true },
			Fire:      func(_ *model.Ctx[tockMsg], l *tockLocal) { l.Beats = (l.Beats + 1) % 2 },
			Duration:  func(t model.Times) int { return t.Delay + 1 },
		},
		{
			Name: "other", Armed: func(l *tockLocal) bool { return l.Other },
			Justified: func(*model.GuardCtx[tockMsg], *tockLocal) bool { return true },
			Fire:      func(_ *model.Ctx[tockMsg], l *tockLocal) { l.Other = false },
			Duration:  func(model.Times) int { return 1 },
		},
	}
}

func TestTimedPeriodicTimerOfItsOwn(t *testing.T) {
	k, err := model.New[tockLocal, tockMsg](tock{}, model.Config{N: 2, Timing: model.Sync, Initiators: []int{1}}, nil)
	require.NoError(t, err)
	w := newTimedWalkOf(t, k)
	w.take("initiate p1")
	assert.Equal(t, "2", w.timer(0), "Duration D+1")
	w.take("tick")
	w.take("tick")
	assert.Equal(t, []string{"beat p1"}, w.enabled())
	w.take("beat p1")
	assert.Equal(t, "2", w.timer(0), "a timeout that leaves its timer armed starts it again")
	assert.Equal(t, "p1{on=true other=false beats=1 elected=0 timer=2} p2{on=false other=false beats=0 elected=0 timer=off}", w.x.Describe(w.state))
}

func TestTimedTwoTimersArmedIsTheAlgorithmsError(t *testing.T) {
	k, err := model.New[tockLocal, tockMsg](tock{Greedy: true}, model.Config{N: 2, Timing: model.Sync}, nil)
	require.NoError(t, err)
	x := k.NewExpander()
	var b ts.Batch
	x.Initial(&b)
	state := slices.Clone(b.State(0))
	defer func() {
		v := recover()
		require.NotNil(t, v, "two timers armed at once")
		tc, ok := v.(*model.TimerConflictError)
		require.True(t, ok, "%T %v", v, v)
		assert.Equal(t, "the algorithm arms two timers of p1 at once (beat and other, in local state {On:true Other:true Beats:0 Elected:0}): in a timed mode a process has one timer, so disarm one before arming the other", tc.Error())
	}()
	x.Expand(state, &b)
	t.Fatal("Expand took a step that armed two timers")
}

func TestTimedConfigurationsRefused(t *testing.T) {
	bare := func(timers ...model.Timer[tockLocal, tockMsg]) model.Algorithm[tockLocal, tockMsg] {
		return timersOnly{timers: timers}
	}
	noDuration := model.Timer[tockLocal, tockMsg]{Name: "beat", Armed: func(l *tockLocal) bool { return l.On },
		Justified: func(*model.GuardCtx[tockMsg], *tockLocal) bool { return true }, Fire: func(*model.Ctx[tockMsg], *tockLocal) {}}
	zero := noDuration
	zero.Duration = func(t model.Times) int { return t.Delay - 1 }
	long := noDuration
	long.Duration = func(t model.Times) int { return 3 * t.Timeout }
	for _, c := range []struct {
		alg  model.Algorithm[tockLocal, tockMsg]
		cfg  model.Config
		want string
	}{
		{bare(), model.Config{N: 2, Timing: model.Sync, Timeout: 4}, "Timeout: this algorithm has no timers, so there is no timeout to set: leave Timeout out"},
		{bare(), model.Config{N: 2, Timing: model.Sync}.WithDefaults(), ""}, // the defaults are given by no one
		{bare(), model.Config{N: 2, TimeoutCoord: 3}, "TimeoutCoord needs Timing sync or partial: the asynchronous model (Timing async, the default) has no clocks"},
		{bare(noDuration), model.Config{N: 2, Timing: model.Partial}, "Timing partial: the algorithm's timer beat has no Duration, so it cannot count ticks: give its model.Timer a Duration, such as func(t model.Times) int { return t.Timeout }"},
		{bare(zero), model.Config{N: 2, Timing: model.Sync}, "Timing sync: the algorithm's timer beat would run 0 ticks (Duration with delay 1, timeout 3, timeout-coord 8): a timer runs 1 tick or more"},
		{bare(long), model.Config{N: 2, Timing: model.Sync, Timeout: 100}, "a timer of 300 ticks does not fit the state encoding: at most 254"},
		{bare(long), model.Config{N: 2, Timing: model.Sync, Delay: 255, Timeout: 1}, ""},
		{tock{}, model.Config{N: 2, Timing: model.Sync, Delay: 255, Timeout: 1}, "a timer of 256 ticks does not fit the state encoding: at most 254"},
		{tock{}, model.Config{N: 2, Timing: model.Sync, Delay: 256, Timeout: 1}, "a delay of 256 ticks does not fit the state encoding: a message's age is at most 255"},
		{armedAtStart{}, model.Config{N: 2, Timing: model.Sync}, ""}, // its timer runs from the start (section 6.4)
	} {
		_, err := model.New(c.alg, c.cfg, nil)
		if c.want == "" {
			assert.NoError(t, err, "%+v", c.cfg)
			continue
		}
		assert.EqualError(t, err, c.want, "%+v", c.cfg)
	}
	// A front end asks before the defaults: any timeout given is a mistake.
	err := model.ValidateTimers(bare(), model.Config{N: 2, Timing: model.Sync, Timeout: 3}, nil)
	assert.EqualError(t, err, "Timeout: this algorithm has no timers, so there is no timeout to set: leave Timeout out")
	k, err := model.New(bare(), model.Config{N: 2, Timing: model.Sync}.WithDefaults(), nil)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 0, 0}, []int{k.Config().Delay, k.Config().Timeout, k.Config().TimeoutCoord}, "a kernel without timers has no timeouts")
	// The async model does not need durations.
	_, err = model.New[tockLocal, tockMsg](bare(noDuration), model.Config{N: 2}, nil)
	assert.NoError(t, err)
}

// timersOnly is tock with the timers given.
type timersOnly struct {
	tock
	timers []model.Timer[tockLocal, tockMsg]
}

func (a timersOnly) Timers() []model.Timer[tockLocal, tockMsg] { return a.timers }

// armedAtStart starts with its beat armed.
type armedAtStart struct{ tock }

func (armedAtStart) Init() tockLocal { return tockLocal{On: true} }

// The eventual detector (section 6.5): a false suspicion before gst, within
// its budget, counted in the state and forgotten at gst; none after gst.
func TestTimedEventualDetectorBeforeGSTOnly(t *testing.T) {
	w := newTimedWalk(t, "bully", model.Config{N: 3, Timing: model.Partial, Detector: model.Eventual, InitialLeader: true})
	assert.Equal(t, "p1{status=idle elected=3 timer=off} p2{status=idle elected=3 timer=off} p3{status=idle elected=3 timer=off} | gst=false false-suspicions=0", w.x.Describe(w.state))
	assert.Equal(t, []string{"suspect p1", "suspect p2", "gst"}, w.enabled(), "p3 leads: it suspects no one")
	w.take("suspect p2")
	assert.Equal(t, 1, *w.snap().FalseSuspicions)
	assert.Equal(t, []string{"tick", "gst"}, w.enabled(), "the budget of one is spent: p1 no longer suspects")
	w.take("gst")
	assert.Equal(t, 0, *w.snap().FalseSuspicions, "gst forgets the count")
	assert.Equal(t, []string{"tick"}, w.enabled(), "after gst, no false suspicion")

	w = newTimedWalk(t, "bully", model.Config{N: 3, Timing: model.Partial, Detector: model.Eventual, InitialLeader: true, FalseSuspicions: 2})
	w.take("suspect p2")
	assert.Equal(t, []string{"suspect p1", "tick", "gst"}, w.enabled(), "a second one within a budget of two")
	w.take("suspect p1")
	assert.Equal(t, "p1{status=electing elected=⊥ timer=3} p2{status=electing elected=⊥ timer=3} p3{status=idle elected=3 timer=off} | p1→p2 [ELECTION(1)@0] | p1→p3 [ELECTION(1)@0] | p2→p3 [ELECTION(2)@0] | gst=false false-suspicions=2", w.x.Describe(w.state))

	w = newTimedWalk(t, "bully", model.Config{N: 3, Timing: model.Partial, Detector: model.Eventual, InitialLeader: true})
	w.take("gst")
	assert.Equal(t, []string{}, append([]string{}, w.enabled()...), "gst first: the perfect detector, nothing to do")
}
