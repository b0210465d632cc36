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

	"github.com/mcheck/mcheck/cex"
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
		{"action not enabled", func(f *trace.File) {
			m := model.Msg("ELECTION", model.Int(9))
			f.Steps[3].Step = &model.StepInfo{Kind: model.KindDeliver, Action: "deliver", Process: 2, Peer: 1, Msg: &m}
		}, 3, `"deliver p1→p2 ELECTION(9)" is not enabled`},
		{"different state", func(f *trace.File) { f.Steps[2].State.Processes[2].Fields[1].Value = model.Int(7) }, 2, "p3.elected is ⊥, the trace says 7"},
		{"different initial state", func(f *trace.File) { f.Steps[0].State.Crashes = 1 }, 0, "crashes is 0, the trace says 1"},
		{"cycle does not close", func(f *trace.File) { f.Steps = f.Steps[:len(f.Steps)-1] }, -1, "the last state is not the state of step 5"},
		{"not stuck", func(f *trace.File) { f.Steps = f.Steps[:6]; f.CycleStart = nil; f.Kind = cex.Stuck }, -1, `the last state is not stuck: "deliver p1→p2 ELECTION(4)" is enabled and fair`},
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
		{"wrong format", edit(func(m map[string]any) { m["format"] = "mcheck-trace/3" }), `format is "mcheck-trace/3"`},
		{"unknown field", edit(func(m map[string]any) { m["colour"] = "red" }), "unknown field"},
		{"no steps", edit(func(m map[string]any) { m["steps"] = []any{} }), "no steps"},
		{"unknown kind", edit(func(m map[string]any) { m["kind"] = "sometimes" }), `kind "sometimes" is none of`},
		{"cycle without kind", edit(func(m map[string]any) { m["cycle_start"] = 1 }), "cycle_start must be given exactly"},
		{"bad detector", edit(func(m map[string]any) { m["config"].(map[string]any)["detector"] = "psychic" }), "config.detector"},
		{"no algo", edit(func(m map[string]any) { m["config"].(map[string]any)["algo"] = "" }), "config.algo is missing"},
		{"a later step without its action", edit(func(m map[string]any) { m["steps"].([]any)[2].(map[string]any)["step"] = nil }), "step 2 has no action"},
		{"an action before the initial state", edit(func(m map[string]any) {
			steps := m["steps"].([]any)
			steps[0].(map[string]any)["step"] = steps[1].(map[string]any)["step"]
		}), "the first step is the initial state: its step must be null"},
		{"no property", edit(func(m map[string]any) { m["property"] = "" }), "property is missing"},
		{"a step property with no step", edit(func(m map[string]any) { m["kind"] = "step"; m["steps"] = m["steps"].([]any)[:1] }), `a "step" counterexample needs a step after the initial state`},
		{"a lasso without its cycle", edit(func(m map[string]any) { m["kind"] = "fair-cycle" }), "cycle_start must be given exactly"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := trace.Read(strings.NewReader(c.input))
			var mal *trace.MalformedError
			require.ErrorAs(t, err, &mal)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	// Well-formed but about a model that cannot be built, or a property the
	// algorithm does not have (properties belong to algorithms, so only
	// Replay knows them): malformed, not a panic.
	for _, c := range []struct{ name, input, want string }{
		{"unknown property", edit(func(m map[string]any) { m["property"] = "Liveliness" }), `unknown property "Liveliness"`},
		{"kind mismatch", edit(func(m map[string]any) { m["kind"] = "stuck" }), "goes with kind"},
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
		Processes: []model.ProcessSnapshot{{ID: 1, Alive: true, Fields: []model.Field{{Name: "elected", Value: model.None()}}}},
		Channels:  []model.ChannelSnapshot{{From: 1, To: 1, Messages: []model.Value{model.Msg("ELECTION", model.Int(1))}}},
	}
	b := model.Snapshot{
		Processes: []model.ProcessSnapshot{{ID: 1, Alive: true, Fields: []model.Field{{Name: "elected", Value: model.ID(1)}}}},
		Channels:  []model.ChannelSnapshot{{From: 1, To: 2, Messages: []model.Value{model.Msg("ELECTED", model.Int(1))}}},
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

// Steps match as data: a delivery of another message over the same channel
// is not the recorded step, though kind, process and peer agree.
func TestReplayMatchesTheMessage(t *testing.T) {
	f := goldenFile(t, "circulating-election.Termination-fair-cycle.trace.json")
	s := f.Steps[2].Step
	require.Equal(t, model.KindDeliver, s.Kind)
	m := model.Msg(s.Msg.Type(), model.Int(9))
	s.Msg = &m
	var div *trace.DivergenceError
	require.ErrorAs(t, trace.Replay(f, specs.Builtin()), &div)
	assert.Equal(t, 2, div.Step)
	assert.Equal(t, `"deliver p2→p3 ELECTION(9)" is not enabled`, div.Reason)
}

func TestVersion1IsRefused(t *testing.T) {
	v1 := `{"format": "mcheck-trace/1", "config": {"algo": "ring"}, "property": "SingleLeader", "kind": "invariant",
		"steps": [{"action": "initial state", "state": {"processes": [], "channels": [], "crashes": 0, "restarts": 0}}]}`
	_, err := trace.Read(strings.NewReader(v1))
	var mal *trace.MalformedError
	require.ErrorAs(t, err, &mal)
	assert.True(t, mal.Old, "the front end can say how to write it again")
	assert.Equal(t, "malformed trace file: mcheck-trace/1 is the old format, which this mcheck no longer reads: run the check again to write it as mcheck-trace/2", err.Error())
}

// The file is JSON a browser can read: steps and values in their plain forms.
func TestFileJSONShape(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "golden", "circulating-election.Termination-fair-cycle.trace.json"))
	require.NoError(t, err)
	var f struct {
		Steps []struct {
			Step  map[string]any `json:"step"`
			State struct {
				Processes []struct {
					ID     int
					Fields []struct {
						Name  string
						Value any
					}
				}
				Channels []struct {
					From, To int
					Messages []struct {
						Type string
						Args []int
					}
				}
			}
		}
	}
	require.NoError(t, json.Unmarshal(data, &f))
	assert.Nil(t, f.Steps[0].Step)
	assert.Equal(t, map[string]any{"kind": "deliver", "action": "deliver", "process": 3.0, "peer": 2.0,
		"msg": map[string]any{"type": "ELECTION", "args": []any{2.0}, "text": "ELECTION(2)"}}, f.Steps[2].Step)
	assert.Nil(t, f.Steps[2].State.Processes[2].Fields[1].Value, "⊥ is null")
	assert.Equal(t, false, f.Steps[2].State.Processes[0].Fields[0].Value)
	ch := f.Steps[2].State.Channels[0]
	assert.Equal(t, 3, ch.From)
	assert.Equal(t, "ELECTION", ch.Messages[0].Type)
	assert.Equal(t, []int{3}, ch.Messages[0].Args)
}

// Path follows the steps as Verify does: the index of each among the steps
// enabled before it, whether or not the end violates the property.
func TestPath(t *testing.T) {
	f := goldenFile(t, "circulating-election.Termination-fair-cycle.trace.json")
	spec, err := specs.Builtin().Lookup(f.Config.Algo)
	require.NoError(t, err)
	cfg, err := f.Config.Model()
	require.NoError(t, err)
	sys, err := spec.Build.System(cfg, []string{f.Property})
	require.NoError(t, err)
	path, err := trace.Path(sys, f)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 0, 0, 0, 4, 0, 0, 0}, path)

	f.Steps = f.Steps[:4] // no violation: Verify refuses it, Path follows it
	var mal *trace.MalformedError
	require.ErrorAs(t, trace.Verify(sys, f), &mal, "the cycle starts after the end: an error, not a panic")
	f.Kind, f.CycleStart = cex.Stuck, nil
	var div *trace.DivergenceError
	require.ErrorAs(t, trace.Verify(sys, f), &div)
	assert.Equal(t, -1, div.Step)
	path, err = trace.Path(sys, f)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 0, 0}, path)

	m := model.Msg("ELECTION", model.Int(9))
	f.Steps[3].Step.Msg = &m
	_, err = trace.Path(sys, f)
	require.ErrorAs(t, err, &div)
	assert.Equal(t, 3, div.Step)
}
