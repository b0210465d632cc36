package trace_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

func goldenFile(t *testing.T, name string) *trace.File {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "golden", name))
	require.NoError(t, err)
	f, err := trace.Read(bytes.NewReader(data))
	require.NoError(t, err)
	return f
}

func TestGoldenTracesReplay(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("..", "testdata", "golden", "*.trace.json"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(names), 6)
	for _, n := range names {
		f := goldenFile(t, filepath.Base(n))
		assert.NoError(t, trace.Replay(f, specs.Builtin()), n)
	}
}

func TestReplayDiverges(t *testing.T) {
	reg := specs.Builtin()
	for _, c := range []struct {
		name   string
		edit   func(f *trace.File)
		step   int
		reason string
	}{
		{"action not enabled", func(f *trace.File) { f.Steps[3].Action = "deliver p1→p2 ELECTION(9)" }, 3, `"deliver p1→p2 ELECTION(9)" is not enabled`},
		{"different state", func(f *trace.File) { f.Steps[2].State.Processes[2].Fields[1].Value = "7" }, 2, "p3.elected is ⊥, the trace says 7"},
		{"different initial state", func(f *trace.File) { f.Steps[0].State.Crashes = 1 }, 0, "crashes is 0, the trace says 1"},
		{"cycle does not close", func(f *trace.File) { f.Steps = f.Steps[:len(f.Steps)-1] }, -1, "the last state is not the state of step 5"},
		{"not stuck", func(f *trace.File) { f.Steps = f.Steps[:6]; f.CycleStart = nil; f.Kind = trace.KindStuck }, -1, `the last state is not stuck: "deliver p1→p2 ELECTION(4)" is enabled and fair`},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := goldenFile(t, "circulating-election.Termination-fair-cycle.trace.json")
			c.edit(f)
			err := trace.Replay(f, reg)
			var div *trace.DivergenceError
			require.ErrorAs(t, err, &div)
			assert.Equal(t, c.step, div.Step)
			assert.Contains(t, div.Reason, c.reason)
		})
	}
}

func TestReplayRejectsUnfairCycle(t *testing.T) {
	// A lone survivor forwarding to itself is fair; a "cycle" that only
	// repeats while another channel waits forever is not. Build one: in
	// chang-roberts N=3 with crash-any, take the fair lasso and check that
	// claiming the invariant kind instead fails; then check the real one.
	f := goldenFile(t, "bully-unreliable-termination.Termination-fair-cycle.trace.json")
	require.NoError(t, trace.Replay(f, specs.Builtin()))
	// Drop the last step that returns to the start: the walk no longer closes.
	f.Steps = f.Steps[:len(f.Steps)-1]
	var div *trace.DivergenceError
	require.ErrorAs(t, trace.Replay(f, specs.Builtin()), &div)
}

func TestInvariantMustBeViolatedAtTheEnd(t *testing.T) {
	f := goldenFile(t, "bully-restart.SingleLeader-invariant.trace.json")
	f.Steps = f.Steps[:3] // before the restart: one leader only
	var div *trace.DivergenceError
	require.ErrorAs(t, trace.Replay(f, specs.Builtin()), &div)
	assert.Equal(t, -1, div.Step)
	assert.Equal(t, "SingleLeader holds in the last state", div.Reason)
}

func TestReadRejectsMalformed(t *testing.T) {
	valid, err := os.ReadFile(filepath.Join("..", "testdata", "golden", "bully-restart.SingleLeader-invariant.trace.json"))
	require.NoError(t, err)
	edit := func(f func(m map[string]any)) string {
		var m map[string]any
		require.NoError(t, json.Unmarshal(valid, &m))
		f(m)
		b, err := json.Marshal(m)
		require.NoError(t, err)
		return string(b)
	}
	for _, c := range []struct{ name, input, want string }{
		{"empty", "", "not a JSON trace"},
		{"garbage", "\x00\xffnot json", "not a JSON trace"},
		{"array", "[]", "not a JSON trace"},
		{"trailing data", string(valid) + "{}", "extra data"},
		{"wrong format", edit(func(m map[string]any) { m["format"] = "mcheck-trace/2" }), `format is "mcheck-trace/2"`},
		{"unknown field", edit(func(m map[string]any) { m["colour"] = "red" }), "unknown field"},
		{"no steps", edit(func(m map[string]any) { m["steps"] = []any{} }), "no steps"},
		{"unknown property", edit(func(m map[string]any) { m["property"] = "Liveliness" }), `unknown property "Liveliness"`},
		{"kind mismatch", edit(func(m map[string]any) { m["kind"] = "stuck" }), "goes with kind"},
		{"cycle without kind", edit(func(m map[string]any) { m["cycle_start"] = 1 }), "cycle_start must be given exactly"},
		{"bad detector", edit(func(m map[string]any) { m["config"].(map[string]any)["detector"] = "psychic" }), "config.detector"},
		{"no algo", edit(func(m map[string]any) { m["config"].(map[string]any)["algo"] = "" }), "config.algo is missing"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := trace.Read(strings.NewReader(c.input))
			var mal *trace.MalformedError
			require.ErrorAs(t, err, &mal)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	// Well-formed but about a model that cannot be built: malformed, not a panic.
	for _, c := range []struct{ name, input, want string }{
		{"unknown algorithm", edit(func(m map[string]any) { m["config"].(map[string]any)["algo"] = "paxos" }), `unknown algorithm "paxos"`},
		{"ids of wrong length", edit(func(m map[string]any) { m["config"].(map[string]any)["n"] = 5 }), "IDs has 3 IDs but N is 5"},
		{"n out of range", edit(func(m map[string]any) { m["config"].(map[string]any)["n"] = 99 }), "out of range"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := trace.Read(strings.NewReader(c.input))
			require.NoError(t, err)
			err = trace.Replay(f, specs.Builtin())
			var mal *trace.MalformedError
			require.ErrorAs(t, err, &mal)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestDiff(t *testing.T) {
	a := model.Snapshot{
		Processes: []model.ProcessSnapshot{{Name: "p1", ID: 1, Alive: true, Fields: []model.Field{{Name: "elected", Value: "⊥"}}}},
		Channels:  []model.ChannelSnapshot{{From: "p1", To: "p1", Messages: []string{"ELECTION(1)"}}},
	}
	b := model.Snapshot{
		Processes: []model.ProcessSnapshot{{Name: "p1", ID: 1, Alive: true, Fields: []model.Field{{Name: "elected", Value: "1"}}}},
		Channels:  []model.ChannelSnapshot{{From: "p1", To: "p2", Messages: []string{"ELECTED(1)"}}},
	}
	assert.Equal(t, []trace.Change{
		{Name: "p1.elected", Old: "⊥", New: "1"},
		{Name: "chan p1→p2", Old: "[]", New: "[ELECTED(1)]"},
		{Name: "chan p1→p1", Old: "[ELECTION(1)]", New: "[]"},
	}, trace.Diff(a, b))
	assert.Empty(t, trace.Diff(a, a))
}

func TestWriteTextMarksTheCycle(t *testing.T) {
	f := goldenFile(t, "circulating-election.Termination-fair-cycle.trace.json")
	var buf bytes.Buffer
	trace.WriteText(&buf, f, false)
	out := buf.String()
	assert.Contains(t, out, "Termination counterexample (a lasso: a prefix, then a cycle repeated forever), 8 steps:\n")
	assert.Contains(t, out, "   5  crash p4\n      p4.alive: true → false\n")
	assert.Contains(t, out, "   6  deliver p1→p2 ELECTION(4)   ◀ cycle starts here (steps 6-8 repeat forever)\n")
	assert.Contains(t, out, "   8  deliver p3→p1 ELECTION(4)   ↩ back to step 6\n")
	buf.Reset()
	trace.WriteText(&buf, f, true)
	assert.Contains(t, buf.String(), "p4✝ | p1→p2 [ELECTION(4)] | crashes=1 restarts=0")
}
