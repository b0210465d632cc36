package mchecktest_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
)

// Algorithms that misbehave the ways a student's can: a handler that
// panics, one that loops forever, a local state that grows without bound,
// a timer's Duration that panics. Each fails its test with what happened,
// and the test binary goes on.

// tally counts the hops of a token around the ring (a runaway model,
// explored without a Codec) and misbehaves on the hop of its kind.
type tally struct{}

type tallyLocal struct {
	Hops int
	Log  string
}

type tallyMsg struct{ Hops int }

func (tally) Init() tallyLocal          { return tallyLocal{} }
func (tally) Elected(l *tallyLocal) int { return 0 }
func (tally) CanInitiate(_ *model.Ctx[tallyMsg], l *tallyLocal, suspects bool) bool {
	return l.Hops == 0 && suspects
}
func (tally) Initiate(c *model.Ctx[tallyMsg], l *tallyLocal) {
	l.Hops = 1
	c.SendNext(model.CW, tallyMsg{Hops: 1})
}
func (tally) FormatMsg(m tallyMsg) string { return "TOKEN" }

// panicky keeps the hops it saw in an array too short for them.
type panicky struct{ tally }

func (panicky) Receive(c *model.Ctx[tallyMsg], l *tallyLocal, _ int, m tallyMsg) {
	seen := [3]bool{}
	seen[m.Hops] = true // out of range at the third hop
	l.Hops = m.Hops + 1
	c.SendNext(model.CW, tallyMsg{Hops: m.Hops + 1})
}

// A panicking handler fails the test (a t.Fatalf, not a panic of the
// test binary) with the algorithm, the value, the handler, the state where
// it panicked and the steps to it.
func TestAHandlerThatPanicsFailsTheTest(t *testing.T) {
	ft := &fakeTB{TB: t}
	rep := mchecktest.Check(ft, panicky{}, mchecktest.Config{N: 2, MaxTime: 10 * time.Second})
	assert.Nil(t, rep)
	assert.Empty(t, ft.errors)
	require.Len(t, ft.fatals, 1)
	head, stack, ok := strings.Cut(ft.fatals[0], "\n\nstack at the panic:\n")
	require.True(t, ok, ft.fatals[0])
	assert.Regexp(t, `^mchecktest: mchecktest_test.panicky panicked: runtime error: index out of range \[3\] with length 3
in mchecktest_test.panicky.Receive \(misbehave_test.go:\d+\)
in a step from the state p1\{hops=3 log=\} p2\{hops=2 log=\} \| p1→p2 \[TOKEN\]
reached by initiate p1; deliver p1→p2 TOKEN; deliver p2→p1 TOKEN$`, head)
	assert.Regexp(t, `^github.com/mcheck/mcheck/mchecktest_test.panicky.Receive\(`, stack, "the stack starts at the panic")

	_, err := mchecktest.Run(panicky{}, mchecktest.Config{N: 2, MaxTime: 10 * time.Second})
	var pe *mchecktest.PanicError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "mchecktest_test.panicky", pe.Algo)
}

// looper waits for a hop count that never comes; release lets the
// abandoned goroutine go when the test ends, so that it does not spin on
// a CPU the other tests need.
type looper struct{ tally }

var release atomic.Bool

func (looper) Receive(c *model.Ctx[tallyMsg], l *tallyLocal, _ int, m tallyMsg) {
	for m.Hops > 2 && !release.Load() {
		l.Hops++
	}
	l.Hops = m.Hops + 1
	c.SendNext(model.CW, tallyMsg{Hops: m.Hops + 1})
}

// MaxTime is a hard cap: a handler that never returns fails the test soon
// after it, naming where the algorithm was.
func TestAHandlerThatLoopsFailsWithinMaxTime(t *testing.T) {
	t.Cleanup(func() { release.Store(true) })
	ft := &fakeTB{TB: t}
	start := time.Now()
	rep := mchecktest.Check(ft, looper{}, mchecktest.Config{N: 2, MaxTime: time.Second})
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Nil(t, rep)
	require.Len(t, ft.fatals, 1)
	assert.Regexp(t, `^mchecktest: the search did not finish within MaxTime \(1s; Config.MaxTime, default 5m0s; -1: no cap\) and did not stop when asked: a handler may loop forever; the algorithm was running mchecktest_test.looper.Receive \(misbehave_test.go:\d+\) \(its goroutine is left running\)$`, ft.fatals[0])
}

// grower logs every hop in its local state, a long line each time.
type grower struct{ tally }

func (grower) Receive(c *model.Ctx[tallyMsg], l *tallyLocal, _ int, m tallyMsg) {
	l.Log += strings.Repeat("hop ", 1<<14)
	l.Hops = m.Hops + 1
	c.SendNext(model.CW, tallyMsg{Hops: m.Hops + 1})
}

// A local state that grows without bound stops at the memory cap (in the
// determinism probe before the search, which the search's own budget
// does not see) and fails the test as an incomplete search.
func TestALocalStateThatGrowsStopsAtTheMemoryCap(t *testing.T) {
	ft := &fakeTB{TB: t}
	rep := mchecktest.Check(ft, grower{}, mchecktest.Config{N: 3, MaxMemory: 48 << 20, MaxTime: 20 * time.Second, MaxStates: -1})
	require.Empty(t, ft.fatals)
	require.NotNil(t, rep)
	assert.False(t, rep.Stats.Complete)
	require.Len(t, ft.errors, 1)
	assert.Regexp(t, `\nthe search did not finish: stopped by the memory cap of 48.0 MiB after \d+ states \(Config.MaxMemory, default 4.0 GiB; -1: no cap\), so no property can be said to hold`, ft.errors[0])
}

// badTimer reads its Duration from a table with a row per delay, and has
// no row for the delay it is checked with.
type badTimer struct{ echo }

func (badTimer) Timers() []model.Timer[echoLocal, echoMsg] {
	ts := echo{}.Timers()
	ts[0].Duration = func(t model.Times) int { return []int{0, 3, 5}[t.Delay] }
	return ts
}

// A timer's Duration that panics fails the test like a handler.
func TestATimerDurationThatPanicsFailsTheTest(t *testing.T) {
	ft := &fakeTB{TB: t}
	rep := mchecktest.Check(ft, badTimer{}, mchecktest.Config{N: 2, Timing: model.Sync, Delay: 3})
	assert.Nil(t, rep)
	require.Len(t, ft.fatals, 1)
	assert.Regexp(t, `^mchecktest: mchecktest_test.badTimer panicked: runtime error: index out of range \[3\] with length 3
in the Duration of the timer timeout, mchecktest_test.badTimer.Timers.func1 \(misbehave_test.go:\d+\)

stack at the panic:
github.com/mcheck/mcheck/mchecktest_test.badTimer.Timers.func1\(`, ft.fatals[0])
}
