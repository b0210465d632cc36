package trace_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// timedFile is the SingleLeader counterexample of Bully with a timeout too
// short for the delay (docs/semantics.md section 6), as a trace file.
func timedFile(t *testing.T, timing model.Timing) *trace.File {
	t.Helper()
	spec, err := specs.Builtin().Lookup("bully")
	require.NoError(t, err)
	rep, err := check.Run(check.Request{Spec: spec, Config: model.Config{N: 3, MaxCrashes: 2, InitialLeader: true, Timing: timing, Timeout: 2},
		Properties: []string{"SingleLeader"}})
	require.NoError(t, err)
	f := rep.Files()
	require.Len(t, f, 1)
	return f[0]
}

// A timed trace file carries the timing, ages, timers and gst, and replay
// compares each of them.
func TestTimedTraceReplaysAndChecksTime(t *testing.T) {
	for _, timing := range []model.Timing{model.Sync, model.Partial} {
		f := timedFile(t, timing)
		var buf bytes.Buffer
		require.NoError(t, f.Write(&buf))
		assert.Contains(t, buf.String(), `"timing": "`+timing.String()+`",
    "delay": 1,
    "timeout": 2,
    "timeout_coord": 6`)
		assert.Contains(t, buf.String(), `"ages": [`)
		assert.Contains(t, buf.String(), `"timer": "off"`)
		data := slices.Clone(buf.Bytes())
		back, err := trace.Read(&buf)
		require.NoError(t, err)
		require.NoError(t, trace.Replay(back, specs.Builtin()))

		// The first tick: a message on its way, and p1's timer running.
		at := slices.IndexFunc(f.Steps, func(s trace.Step) bool { return s.Label() == "tick" })
		require.Positive(t, at)
		require.Equal(t, "p1→p2 [ELECTION(1)@1]", f.Steps[at].State.Channels[0].Ends()+" "+f.Steps[at].State.Channels[0].Contents(), timing)
		for _, c := range []struct {
			name   string
			edit   func(s *model.Snapshot)
			reason string
		}{
			{"age", func(s *model.Snapshot) { s.Channels[0].Ages[0]++ }, "ages p1→p2 is [1], the trace says [2]"},
			{"timer", func(s *model.Snapshot) { v := model.Int(7); s.Processes[0].Timer = &v }, "p1.timer is 1, the trace says 7"},
			{"no timer", func(s *model.Snapshot) { s.Processes[0].Timer = nil }, "p1.timer is 1, the trace does not have it"},
		} {
			g, err := trace.Read(bytes.NewReader(data))
			require.NoError(t, err)
			c.edit(&g.Steps[at].State)
			err = trace.Replay(g, specs.Builtin())
			var div *trace.DivergenceError
			require.ErrorAs(t, err, &div, c.name)
			assert.Equal(t, at, div.Step, c.name)
			assert.Contains(t, div.Reason, c.reason, c.name)
		}
		if timing == model.Partial {
			g := *f
			g.Steps = append([]trace.Step(nil), f.Steps...)
			gst := true
			g.Steps[0].State.GST = &gst
			var div *trace.DivergenceError
			require.ErrorAs(t, trace.Replay(&g, specs.Builtin()), &div)
			assert.Equal(t, "the initial state differs: gst is false, the trace says true", div.Reason)
		}
	}
}

// In a timed mode a channel's messages and ages change as one: the diff
// shows the channel once, each message with its age.
func TestTimedDiffShowsAgesWithTheMessages(t *testing.T) {
	ok, el := model.Msg("OK", model.Int(3)), model.Msg("ELECTION", model.Int(1))
	off, two := model.Str("off"), model.Int(2)
	f := false
	a := model.Snapshot{
		Processes: []model.ProcessSnapshot{{ID: 1, Alive: true, Timer: &two}},
		Channels:  []model.ChannelSnapshot{{From: 3, To: 1, Messages: []model.Value{ok}, Ages: []int{0}}, {From: 1, To: 2, Messages: []model.Value{el}, Ages: []int{1}}},
		GST:       &f,
	}
	b := model.Snapshot{
		Processes: []model.ProcessSnapshot{{ID: 1, Alive: true, Timer: &off}},
		Channels:  []model.ChannelSnapshot{{From: 3, To: 1, Messages: []model.Value{ok}, Ages: []int{1}}, {From: 2, To: 1, Messages: []model.Value{ok}, Ages: []int{0}}},
		GST:       &f,
	}
	assert.Equal(t, []trace.Change{
		{Name: "p1.timer", Old: "2", New: "off"},
		{Name: "chan p3→p1", Old: "[OK(3)@0]", New: "[OK(3)@1]"},
		{Name: "chan p2→p1", Old: "[]", New: "[OK(3)@0]"},
		{Name: "chan p1→p2", Old: "[ELECTION(1)@1]", New: "[]"},
	}, trace.Diff(a, b))
	assert.Equal(t, "p1{timer=2} | p3→p1 [OK(3)@0] | p1→p2 [ELECTION(1)@1] | gst=false", a.String())
}

func TestTimedTextSaysHowToReadIt(t *testing.T) {
	var buf bytes.Buffer
	f := timedFile(t, model.Sync)
	trace.WriteText(&buf, f, false)
	lines := strings.Split(buf.String(), "\n")
	assert.Equal(t, "      (timed: a tick advances the clock; a message shows its age in ticks after @, marked (due) at the delay D: delivered before the next tick, or (late) at D before gst: it may wait any number of ticks; a timer shows its ticks left)", lines[1])
	assert.Contains(t, f.Config.Describe(), "timing sync, delay 1, timeout 2, timeout-coord 6")
}
