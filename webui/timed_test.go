package webui_test

import (
	"os"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
	"github.com/mcheck/mcheck/webui"
)

// The timed traces of the charts' tests (testdata/msc): Bully's timeout
// race in the synchronous model, and a partially synchronous run that ends in gst.
const (
	raceFile    = "../testdata/msc/bully-race.SingleLeader-invariant.trace.json"
	partialFile = "../testdata/msc/bully-partial-restart.Termination-stuck.trace.json"
)

// timedServer opens the explorer on a timed trace file, as mcheck explore
// FILE does.
func timedServer(t *testing.T, path string) *webui.Server {
	t.Helper()
	fh, err := os.Open(path)
	require.NoError(t, err)
	defer fh.Close()
	f, err := trace.Read(fh)
	require.NoError(t, err)
	opt := options(t, cfg)
	opt.Start, err = webui.ModelOf(f, specs.Builtin())
	require.NoError(t, err)
	opt.Trace, opt.TraceName = f, "race.json"
	srv, err := webui.New(opt)
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	return srv
}

func counters(v webui.View) map[string]webui.Value {
	out := map[string]webui.Value{}
	for _, c := range v.Counters {
		out[c.Name] = c
	}
	return out
}

// The view of a timed state: ages next to messages, a timer per process,
// the time (ticks so far on the path) and gst among the counters, and
// tick and gst as steps of their own kind.
func TestViewOfATimedRun(t *testing.T) {
	srv := timedServer(t, raceFile)
	const race = "algo=bully&crashes=3&n=4&timeout=2&timing=sync&path=3.2.3.4.0.4.3.4&property=SingleLeader&kind=invariant"
	require.Equal(t, race, srv.Home())
	// After the second tick: p2's timer is at 0 while the OK is on its way,
	// one tick old; the timeout and the delivery race.
	v := view(t, srv, "/api/view?"+race+"&at=6")
	assert.Equal(t, "sync", v.Config.Timing)
	assert.Equal(t, []any{"time", "2", true}, []any{counters(v)["time"].Name, counters(v)["time"].Text, counters(v)["time"].Changed}, "a tick changes the time")
	assert.NotContains(t, counters(v), "gst", "gst is partial timing's")
	require.NotNil(t, v.Processes[1].Timer)
	assert.Equal(t, webui.Value{Name: "timer", Value: model.Int(0), Text: "0", Changed: true}, *v.Processes[1].Timer)
	assert.Equal(t, "off", v.Processes[0].Timer.Text)
	assert.False(t, v.Processes[0].Timer.Changed)
	require.Len(t, v.Channels, 1)
	assert.Equal(t, []string{"OK(3)@1"}, v.Channels[0].Text)
	assert.Equal(t, []int{1}, v.Channels[0].Ages)
	assert.True(t, v.Channels[0].Changed, "a tick ages the message")
	assert.Equal(t, []string{"deliver p3→p2 OK(3)", "detect p1", "crash p1", "timeout-ok p2", "crash p2", "timeout-ok p3", "crash p3"}, labels(v.Steps))
	var kinds []string
	var times []int
	for _, s := range v.History {
		kinds = append(kinds, s.Kind.String())
		require.NotNil(t, s.Time)
		times = append(times, *s.Time)
	}
	assert.Equal(t, []string{"crash", "initiate", "initiate", "tick", "deliver", "tick", "timeout", "timeout"}, kinds)
	assert.Equal(t, []int{0, 0, 0, 1, 1, 2, 2, 2}, times)
	assert.Contains(t, v.Chart, `<line class="tick"`, "the chart has the time axis")

	// The step after a tick leaves the time as it was.
	v = view(t, srv, "/api/view?"+race+"&at=7")
	assert.Equal(t, "2", counters(v)["time"].Text)
	assert.False(t, counters(v)["time"].Changed)

	// Partial timing: gst is a counter, and a step of its own kind.
	srv = timedServer(t, partialFile)
	v = view(t, srv, "/api/view?"+srv.Home()+"&at=6")
	assert.Equal(t, webui.Value{Name: "gst", Value: model.Bool(false), Text: "false"}, counters(v)["gst"])
	assert.Equal(t, []string{"deliver p3→p2 COORDINATOR(3)", "tick", "gst"}, labels(v.Steps))
	assert.Equal(t, "gst", v.Steps[2].Kind.String())
	v = view(t, srv, "/api/view?"+srv.Home())
	assert.Equal(t, []any{"true", true, "4"}, []any{counters(v)["gst"].Text, counters(v)["gst"].Changed, counters(v)["time"].Text})

	// An untimed run shows no time.
	v = view(t, newServer(t), "/api/view?"+lasso)
	assert.Equal(t, []string{"crashes", "restarts"}, []string{v.Counters[0].Name, v.Counters[1].Name})
	assert.Len(t, v.Counters, 2)
	assert.Nil(t, v.Processes[0].Timer)
	assert.Nil(t, v.History[0].Time)
	assert.Nil(t, v.Channels[0].Ages)
}

// TestBrowserTimedRun opens Bully's timeout race in a real browser: the page
// shows time as the report and the chart do.
func TestBrowserTimedRun(t *testing.T) {
	ctx, base := browser(t)
	home := timedServer(t, raceFile).Home()
	in(t, ctx, chromedp.Navigate(base+"/?"+home+"&at=6"), shown(6))
	assert.Equal(t, "("+trace.TimedWords+")", text(t, ctx, "#timed"))
	assert.Equal(t, "time 2", text(t, ctx, `#counters .counter.changed[data-counter="time"]`))
	assert.Equal(t, "timer0", text(t, ctx, `.process[data-name="p2"] tr.timer.changed[data-field="timer"]`))
	assert.Equal(t, "timeroff", text(t, ctx, `.process[data-name="p1"] tr.timer[data-field="timer"]`))
	assert.Equal(t, "p3 → p2OK(3)@1(due)", text(t, ctx, `.channel.changed[data-channel="p3→p2"]`))
	assert.Equal(t, 1, eval[int](t, ctx, `document.querySelectorAll('.channel[data-channel="p3→p2"] .msg.due').length`), "the due OK races p2's timeout")
	assert.Equal(t, []string{"timing", "sync", "delay", "1", "timeout", "2", "timeout-coord", "6"},
		eval[[]string](t, ctx, `[...document.querySelectorAll("#config dt, #config dd")].map(e => e.textContent).slice(-10, -2)`))
	// tick and gst are steps of their own kind; the path marks the time
	// after each tick, as the chart's axis does.
	assert.Equal(t, []string{"4", "6"}, eval[[]string](t, ctx, `[...document.querySelectorAll("#history li.time-step")].map(l => l.dataset.step)`))
	assert.Equal(t, "tick "+trace.TimeWords(2), text(t, ctx, `#history li[data-step="6"]`))
	assert.Equal(t, "initial state "+trace.TimeWords(0), text(t, ctx, `#history li[data-step="0"]`))
	assert.Equal(t, []string{"t=0", "t=1", "t=2"}, eval[[]string](t, ctx, `[...document.querySelectorAll("#chart svg #labels text")].map(t => t.textContent).filter(s => s.startsWith("t="))`))
	assert.Equal(t, 2, eval[int](t, ctx, `document.querySelectorAll("#chart svg line.tick").length`))
	// Back before the first tick, the tick is an enabled step of its kind.
	in(t, ctx, click(`#history li[data-step="3"] a`), shown(3))
	assert.Equal(t, "time 0", text(t, ctx, `#counters [data-counter="time"]`))
	assert.Equal(t, []string{"tick"}, eval[[]string](t, ctx, `[...document.querySelectorAll('#steps button.step.time-step[data-kind="tick"]')].map(b => b.dataset.label)`))
	in(t, ctx, click(`#steps button.step[data-kind="tick"]`), shown(4))
	assert.Equal(t, "time 1", text(t, ctx, `#counters .counter.changed[data-counter="time"]`))
	assert.Equal(t, "p2 → p3ELECTION(2)@1(due)", text(t, ctx, `.channel.changed[data-channel="p2→p3"]`))

	// Before gst a message of age D is late, not due.
	in(t, ctx, chromedp.Navigate(base+"/?"+timedServer(t, partialFile).Home()+"&at=4"), shown(4))
	assert.Equal(t, []string{"COORDINATOR(3)@1(late)", "COORDINATOR(3)@1(late)"}, eval[[]string](t, ctx, `[...document.querySelectorAll(".msg.late")].map(m => m.textContent)`))
	assert.Zero(t, eval[int](t, ctx, `document.querySelectorAll(".msg.due").length`))

	// An untimed page says nothing of time.
	in(t, ctx, chromedp.Navigate(base+"/?"+lasso), shown(8))
	assert.False(t, eval[bool](t, ctx, `!document.querySelector("#timed").hidden`))
	assert.Zero(t, eval[int](t, ctx, `document.querySelectorAll("#processes tr.timer, #history .time-mark, #counters [data-counter=time]").length`))
}
