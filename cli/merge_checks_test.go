package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// editMember writes to out the member's result in file with its "swarm"
// object edited (numbers kept exact: seeds are 64-bit), and returns out.
func editMember(t *testing.T, file, out string, edit func(member map[string]any)) string {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc map[string]any
	require.NoError(t, dec.Decode(&doc))
	edit(doc["swarm"].(map[string]any))
	data, err = json.Marshal(doc)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(out, data, 0o644))
	return out
}

// A member whose own settings are not those its index gives, or whose
// coverage does not fit its settings, is refused: what merge counts and
// replays is what each member's settings say it ran.
func TestMergeRefusesMembersThatContradictTheirSettings(t *testing.T) {
	dir := t.TempDir()
	sim := runSwarm(t, filepath.Join(dir, "sim"), 2, "--algo", "bully", "--n", "3", "--crashes", "1", "--restarts", "1", "--check", "safety", "--simulate", "--runs", "10", "--continue")
	bit := runSwarm(t, filepath.Join(dir, "bit"), 2, "--algo", "chang-roberts", "--n", "3", "--crashes", "1", "--bitstate", "1KiB")
	set := func(path ...string) func(any) func(map[string]any) {
		return func(v any) func(map[string]any) {
			return func(m map[string]any) {
				for _, p := range path[:len(path)-1] {
					m = m[p].(map[string]any)
				}
				m[path[len(path)-1]] = v
			}
		}
	}
	for _, c := range []struct {
		name  string
		files []string
		edit  func(map[string]any)
		want  string
	}{
		{"seed", sim, set("derived", "seed")(json.Number("12345")), `member 1 of a swarm of seed 0 has the settings {"seed":12345,"scheduler":"faults"}, but its index gives {"seed":10182144043623835685,"scheduler":"faults"}: the result was edited, or written by another mcheck; run member 1 of 2 again`},
		{"scheduler", sim, set("derived", "scheduler")("uniform"), `has the settings {"seed":10182144043623835685,"scheduler":"uniform"}, but its index gives {"seed":10182144043623835685,"scheduler":"faults"}`},
		{"runs", sim, set("coverage", "runs")(json.Number("1000000000000000000")), "member 1 of 2 covered 1000000000000000000 runs, of 10: the result was edited"},
		{"steps", sim, set("coverage", "steps")(json.Number("10001")), "member 1 of 2 covered 10001 steps in 10 runs of at most 1000"},
		{"states", sim, set("coverage", "states")(json.Number("100000")), "member 1 of 2 covered 100000 distinct states in 10 runs of"},
		{"run seed", sim, func(m map[string]any) {
			m["found"].([]any)[0].(map[string]any)["found_by"].(map[string]any)["run_seed"] = json.Number("7")
		}, "which is not that run of this member: the result was edited"},
		{"bit array", bit, set("derived", "bitstate_bytes")(json.Number("1024")), `has the settings {"seed":`},
		{"bitstate states", bit, set("coverage", "states")(json.Number("100000")), "member 1 of 2 covered 100000 states in a bit array of 4096 bits (each new state sets a bit)"},
	} {
		edited := editMember(t, c.files[1], filepath.Join(dir, c.name+".json"), c.edit)
		code, out, stderr := run("merge", c.files[0], edited)
		assert.Equal(t, 2, code, c.name)
		assert.Empty(t, out, c.name)
		assert.Contains(t, stderr, "mcheck: merge: "+edited+": ", c.name)
		assert.Contains(t, stderr, c.want, c.name)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %s", stderr)
	}
}
