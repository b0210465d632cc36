package itf_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/mcheck/mcheck/internal/golden" // -update is accepted by every test binary
	"github.com/mcheck/mcheck/internal/needs"
	"github.com/mcheck/mcheck/itf"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

func goldenTraces(t *testing.T) map[string]*trace.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("..", "testdata", "golden", "*.trace.json"))
	require.NoError(t, err)
	require.NotEmpty(t, names)
	out := map[string]*trace.File{}
	for _, n := range names {
		data, err := os.ReadFile(n)
		require.NoError(t, err)
		f, err := trace.Read(bytes.NewReader(data))
		require.NoError(t, err)
		out[filepath.Base(n)] = f
	}
	return out
}

func write(t *testing.T, f *trace.File) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, itf.Write(&b, f))
	return b.Bytes()
}

var bigint = regexp.MustCompile(`^-?[0-9]+$`)

// checkValue checks one value against ADR-015: a boolean, a string, an
// array, {"#bigint": digits}, {"#set"|"#tup": [...]}, {"#map": [[k, v]...]},
// a variant {"tag", "value"}, or a record of values. JSON numbers and null
// are not ITF values.
func checkValue(t *testing.T, where string, v any) {
	t.Helper()
	switch x := v.(type) {
	case bool, string:
	case []any:
		for _, e := range x {
			checkValue(t, where, e)
		}
	case map[string]any:
		if b, ok := x["#bigint"]; ok {
			s, isStr := b.(string)
			assert.True(t, isStr && bigint.MatchString(s) && len(x) == 1, "%s: #bigint %v", where, b)
			return
		}
		for _, tag := range []string{"#set", "#tup"} {
			if e, ok := x[tag]; ok {
				arr, isArr := e.([]any)
				require.True(t, isArr && len(x) == 1, "%s: %s %v", where, tag, e)
				checkValue(t, where, arr)
				return
			}
		}
		if m, ok := x["#map"]; ok {
			for _, kv := range m.([]any) {
				pair := kv.([]any)
				require.Len(t, pair, 2, where)
				checkValue(t, where, pair)
			}
			return
		}
		for k, e := range x {
			assert.NotRegexp(t, `^#`, k, "%s: unknown tag %s", where, k)
			checkValue(t, where+"."+k, e)
		}
	default:
		t.Errorf("%s: %v (%T) is not an ITF value", where, v, v)
	}
}

// The files follow the ADR's shape, replay, and read back to the same trace.
func TestGoldenTracesAsITF(t *testing.T) {
	for name, f := range goldenTraces(t) {
		t.Run(name, func(t *testing.T) {
			data := write(t, f)
			var top map[string]any
			require.NoError(t, json.Unmarshal(data, &top))
			for k := range top {
				assert.Contains(t, []string{"#meta", "params", "vars", "states", "loop"}, k)
			}
			meta := top["#meta"].(map[string]any)
			assert.Equal(t, "ITF", meta["format"])
			var vars []string
			for _, v := range top["vars"].([]any) {
				vars = append(vars, v.(string))
			}
			assert.Contains(t, vars, "p1_elected")
			// Anonymous processes are named by ID and position: p2@1 is p2_at1.
			ps := f.Steps[0].State.Processes
			assert.Contains(t, vars, "chan_"+strings.ReplaceAll(ps[0].Name()+"_"+ps[1].Name(), "@", "_at"))
			states := top["states"].([]any)
			wantStates := len(f.Steps)
			if f.CycleStart != nil {
				wantStates-- // the last state is the state at loop again: left out
			}
			require.Len(t, states, wantStates)
			for i, s := range states {
				st := s.(map[string]any)
				assert.Len(t, st, len(vars)+1, "state %d: every variable, and #meta", i)
				sm := st["#meta"].(map[string]any)
				assert.EqualValues(t, i, sm["index"])
				assert.Equal(t, f.Steps[i].Label(), sm["action"])
				for _, v := range vars {
					require.Contains(t, st, v)
					checkValue(t, v, st[v])
				}
			}
			if f.CycleStart != nil {
				assert.EqualValues(t, *f.CycleStart, top["loop"])
			} else {
				assert.NotContains(t, top, "loop")
			}

			require.True(t, itf.Detect(data))
			back, err := itf.Read(data)
			require.NoError(t, err)
			require.NoError(t, trace.Replay(back, specs.Builtin()))
			assert.Equal(t, f.Property, back.Property)
			assert.Equal(t, f.Summary, back.Summary)
			require.Len(t, back.Steps, len(f.Steps))
			for i := range f.Steps {
				assert.Equal(t, trace.Diff(f.Steps[i].State, back.Steps[i].State), []trace.Change(nil), "step %d", i)
				assert.Equal(t, f.Steps[i].Label(), back.Steps[i].Label())
			}
		})
	}
}

func TestReadRejects(t *testing.T) {
	f := goldenTraces(t)["circulating-election.Termination-fair-cycle.trace.json"]
	good := write(t, f)
	edit := func(fn func(m map[string]any)) []byte {
		var m map[string]any
		require.NoError(t, json.Unmarshal(good, &m))
		fn(m)
		b, err := json.Marshal(m)
		require.NoError(t, err)
		return b
	}
	state := func(m map[string]any, i int) map[string]any { return m["states"].([]any)[i].(map[string]any) }
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"not mcheck's", edit(func(m map[string]any) { delete(m["#meta"].(map[string]any), "mcheck") }), "not written by mcheck"},
		{"missing variable", edit(func(m map[string]any) { delete(state(m, 2), "p1_elected") }), "state 2 has no variable p1_elected"},
		{"bad bigint", edit(func(m map[string]any) { state(m, 1)["crashes"] = map[string]any{"#bigint": "x"} }), `#bigint "x"`},
		{"json number for alive", edit(func(m map[string]any) { state(m, 1)["p1_alive"] = 1 }), "p1_alive is not a boolean"},
		{"set that is not an array", edit(func(m map[string]any) { state(m, 1)["p1_elected"] = map[string]any{"#set": 5} }), "state 1: p1_elected: #set: json: cannot unmarshal number"},
		{"loop outside", edit(func(m map[string]any) { m["loop"] = 99 }), "loop 99 is outside the states 0..7"},
		{"loop without its step", edit(func(m map[string]any) { delete(m["#meta"].(map[string]any)["mcheck"].(map[string]any), "loop_step") }), "loop_step"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := itf.Read(c.data)
			var mal *trace.MalformedError
			require.ErrorAs(t, err, &mal)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	// A state that differs is read, and replay says where.
	bad, err := itf.Read(edit(func(m map[string]any) { state(m, 2)["p3_elected"] = map[string]any{"#bigint": "7"} }))
	require.NoError(t, err)
	var div *trace.DivergenceError
	require.ErrorAs(t, trace.Replay(bad, specs.Builtin()), &div)
	assert.Equal(t, 2, div.Step)
	assert.Contains(t, div.Reason, "p3.elected is ⊥, the trace says 7")
}

// Quint's own ITF reader (ofItf in the npm package @informalsystems/quint)
// parses every file. It runs where the package is installed: set
// MCHECK_QUINT_DIR to a directory whose node_modules holds it
// (npm install @informalsystems/quint).
func TestQuintReadsITF(t *testing.T) {
	dir := os.Getenv("MCHECK_QUINT_DIR")
	if dir == "" {
		needs.Missing(t, needs.Quint, "MCHECK_QUINT_DIR is not set: Quint's ITF reader is not installed here (npm ci --prefix tools/itf-reader, then MCHECK_QUINT_DIR=$PWD/tools/itf-reader, as .ci/run does)")
	}
	node, err := exec.LookPath("node")
	require.NoError(t, err, "MCHECK_QUINT_DIR is set, so node must be installed")
	script := `
const { ofItf } = require(process.argv[1] + "/node_modules/@informalsystems/quint/dist/src/itf.js");
const fs = require("fs");
for (const f of process.argv.slice(2)) {
  const t = JSON.parse(fs.readFileSync(f, "utf8"));
  const states = ofItf(t);
  if (states.length !== t.states.length) throw new Error(f + ": " + states.length + " states");
  for (const s of states) {
    if (s.kind !== "app" || s.opcode !== "Rec") throw new Error(f + ": a state is not a record");
    if (s.args.length !== 2 * t.vars.length) throw new Error(f + ": a state has " + s.args.length / 2 + " fields, want " + t.vars.length);
  }
  console.log(f + ": " + states.length + " states");
}`
	tmp := t.TempDir()
	args := []string{"-e", script, dir}
	for name, f := range goldenTraces(t) {
		p := filepath.Join(tmp, name+".itf.json")
		require.NoError(t, os.WriteFile(p, write(t, f), 0o644))
		args = append(args, p)
	}
	out, err := exec.Command(node, args...).CombinedOutput()
	require.NoError(t, err, "%s", out)
	t.Logf("%s", out)
}
