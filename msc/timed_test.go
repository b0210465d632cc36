package msc

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

const (
	race    = "../testdata/msc/bully-race.SingleLeader-invariant.trace.json"
	partial = "../testdata/msc/bully-partial-restart.Termination-stuck.trace.json"
	crLasso = "../testdata/msc/chang-roberts-partial.Termination-fair-cycle.trace.json"
)

// walk is the run of Bully under cfg that takes the steps labelled
// labels, one after another, as a trace file (of no property).
func walk(t *testing.T, cfg model.Config, labels ...string) *trace.File {
	t.Helper()
	spec, err := specs.Builtin().Lookup("bully")
	require.NoError(t, err)
	sys, err := spec.Build.System(cfg, nil)
	require.NoError(t, err)
	exp, err := model.ExpanderOf(sys)
	require.NoError(t, err)
	var b model.Batch
	exp.Initial(&b)
	run := &explore.Trace{CycleStart: -1, Steps: []explore.Step{{State: slices.Clone(b.State(0))}}}
	for _, want := range labels {
		cur := run.Steps[len(run.Steps)-1].State
		exp.Expand(cur, &b)
		i := slices.IndexFunc(b.Succs, func(s model.Succ) bool { return exp.Step(cur, s.Action).String() == want })
		require.GreaterOrEqual(t, i, 0, "no step %q enabled", want)
		run.Steps = append(run.Steps, explore.Step{Action: b.Succs[i].Action, State: slices.Clone(b.State(i))})
	}
	return trace.New("bully", cfg.WithDefaults(), "", 0, "", run, exp)
}

// Bully's timeout race on the time axis: ELECTION(2) is sent at t=0 and
// delivered at t=1, aged 1; the OK it answers is still on its way to p2,
// aged 1, when p2's timer, set to 2 at step 2, fires at t=2.
func TestTimeAxisOfTheRace(t *testing.T) {
	c := loadChart(t, race)
	require.True(t, c.timed)
	var times []int
	var ticks []int
	for i, r := range c.rows {
		times = append(times, r.time)
		if r.tick {
			ticks = append(ticks, i)
		}
		assert.False(t, r.gst)
	}
	assert.Equal(t, []int{0, 0, 0, 0, 1, 1, 2, 2, 2}, times)
	assert.Equal(t, []int{4, 6}, ticks)
	election := c.msgs[slices.IndexFunc(c.msgs, func(m message) bool { return m.text == "ELECTION(2)" })]
	assert.Equal(t, message{from: 1, to: 2, text: "ELECTION(2)", sent: 2, end: 5, fate: delivered, age: 1, mark: trace.MarkDue}, election)
	ok := c.msgs[slices.IndexFunc(c.msgs, func(m message) bool { return m.text == "OK(3)" })]
	assert.Equal(t, message{from: 2, to: 1, text: "OK(3)", sent: 5, end: 8, fate: inFlight, age: 1, mark: trace.MarkDue}, ok)
	assert.Equal(t, "OK(3)@1(due)", c.endText(ok), "due: the next tick waits for it")
	assert.Equal(t, []timerSpan{{lane: 1, from: 2, to: 7, set: 2, end: timerFired}, {lane: 2, from: 3, to: 8, set: 2, end: timerFired}}, c.timers)
	var timerNotes []note
	for _, n := range c.notes {
		if n.timer {
			timerNotes = append(timerNotes, n)
		}
	}
	assert.Equal(t, []note{{row: 2, lane: 1, text: "timer := 2", timer: true}, {row: 3, lane: 2, text: "timer := 2", timer: true}}, timerNotes,
		"a note where a step sets a timer; none for the ticks' countdown or the timeouts that stop them")
	for _, m := range c.marks {
		assert.NotContains(t, []int{4, 6}, m.row, "a tick is no process's mark")
	}
}

// Before gst a message may be late: COORDINATOR(3) to p2 spans three ticks
// and arrives aged 1 (its age stops at D); gst is a row of its own.
func TestLateMessageAndGST(t *testing.T) {
	c := loadChart(t, partial)
	late := c.msgs[slices.IndexFunc(c.msgs, func(m message) bool { return m.text == "COORDINATOR(3)" && m.to == 1 })]
	assert.Equal(t, message{from: 2, to: 1, text: "COORDINATOR(3)", sent: 3, end: 9, fate: delivered, age: 1, mark: trace.MarkLate}, late)
	assert.Equal(t, "COORDINATOR(3)@1(late)", c.endText(late), "late: before gst it waits past D")
	assert.Equal(t, 3, c.rows[late.end].time-c.rows[late.sent].time)
	assert.True(t, c.rows[12].gst)
	assert.False(t, c.rows[12].tick)
	assert.Equal(t, 4, c.rows[12].time)
	assert.Equal(t, "gst, t=4", c.timeText(c.rows[12]))
}

// A timer's span ends where its timeout fires, where a step sets it anew
// or off, where its process crashes, or runs past the last step.
func TestTimerSpans(t *testing.T) {
	cfg := model.Config{N: 3, MaxCrashes: 2, InitialLeader: true, Timing: model.Sync, Delay: 1, Timeout: 3}
	f := walk(t, cfg, "crash p3", "detect p1", "detect p2", "tick", "deliver p1→p2 ELECTION(1)", "tick",
		"deliver p2→p1 OK(2)", "tick", "timeout-ok p2", "tick", "deliver p2→p1 COORDINATOR(2)")
	c, err := analyze(f)
	require.NoError(t, err)
	assert.Equal(t, []timerSpan{
		{lane: 0, from: 2, to: 7, set: 3, end: timerReset}, // the OK: waiting for T2
		{lane: 1, from: 3, to: 9, set: 3, end: timerFired},
		{lane: 0, from: 7, to: 11, set: 8, end: timerStopped}, // the COORDINATOR
	}, c.timers)
	var texts []string
	for _, n := range c.notes {
		if n.timer {
			texts = append(texts, c.lanes[n.lane]+" "+n.text)
		}
	}
	assert.Equal(t, []string{"p1 timer := 3", "p2 timer := 3", "p1 timer := 8", "p1 timer := off"}, texts)

	f = walk(t, cfg, "crash p3", "detect p1", "detect p2", "crash p1")
	c, err = analyze(f)
	require.NoError(t, err)
	assert.Equal(t, []timerSpan{
		{lane: 0, from: 2, to: 4, set: 3, end: timerCrashed},
		{lane: 1, from: 3, to: 4, set: 3, end: timerRunning},
	}, c.timers)
}

// An untimed run has no time axis.
func TestUntimedChartHasNoTime(t *testing.T) {
	c := loadChart(t, bully)
	assert.False(t, c.timed)
	assert.Empty(t, c.timers)
	for _, r := range c.rows {
		assert.Equal(t, r.action, c.timeText(r))
	}
	l := pickLayout(c)
	assert.Empty(t, l.ruleLabels)
}
