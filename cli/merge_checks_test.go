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
		{"seed", sim, set("derived", "seed")(json.Number("12345")), `member 1 of a swarm of seed 0 has the settings {"seed":12345,"scheduler":"uniform"}, but its index gives {"seed":10182144043623835685,"scheduler":"uniform"}: the result was edited, or written by another mcheck; run member 1 of 2 again`},
		{"scheduler", sim, set("derived", "scheduler")("faults"), `has the settings {"seed":10182144043623835685,"scheduler":"faults"}, but its index gives {"seed":10182144043623835685,"scheduler":"uniform"}`},
		{"runs", sim, set("coverage", "runs")(json.Number("1000000000000000000")), "member 1 of 2 covered 1000000000000000000 runs, of 10: the result was edited"},
		{"steps", sim, set("coverage", "steps")(json.Number("10001")), "member 1 of 2 covered 10001 steps in 10 runs of at most 1000"},
		{"states", sim, set("coverage", "states")(json.Number("100000")), "member 1 of 2 covered 100000 distinct states in 10 runs of"},
		// Member 0 (the faults scheduler) is the one that found the violation.
		{"run seed", []string{sim[1], sim[0]}, func(m map[string]any) {
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

// interrupt makes a member's result that of the member stopped by a
// signal after its first runs, as it writes it then.
func interrupt(member map[string]any) {
	c := member["coverage"].(map[string]any)
	c["complete"], c["unfinished"], c["stopped"] = false, true, "interrupted: SIGTERM"
}

// A swarm whose members were all interrupted is incomplete, as each of
// them is: it says so, leaves every property unknown, and exits 2, not 3.
func TestMergeOfInterruptedMembersIsIncomplete(t *testing.T) {
	dir := t.TempDir()
	files := runSwarm(t, dir, 2, "--algo", "chang-roberts", "--n", "3", "--simulate", "--runs", "10")
	code, _, stderr := run(append([]string{"merge"}, files...)...)
	require.Equal(t, 3, code, stderr)

	stopped := []string{
		editMember(t, files[0], filepath.Join(dir, "stopped-0.json"), interrupt),
		editMember(t, files[1], filepath.Join(dir, "stopped-1.json"), interrupt),
	}
	code, out, stderr := run(append([]string{"merge"}, stopped...)...)
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, out, "; interrupted: SIGTERM\n")
	assert.Contains(t, out, "\nincomplete   none of the 2 members finished: interrupted: SIGTERM\n")
	assert.Contains(t, out, "  SingleLeader  unknown  no violation in 20 random runs of 2 members, none of the 2 members finished; a swarm samples runs, so this is not a proof\n")
	assert.NotRegexp(t, `\bholds\b`, out)

	code, js, _ := run(append([]string{"merge", "--json"}, files[0], stopped[1])...)
	assert.Equal(t, 2, code)
	var merged struct {
		Complete   bool  `json:"complete"`
		Unfinished []int `json:"unfinished_members"`
		Properties []mergedProperty
	}
	require.NoError(t, json.Unmarshal([]byte(js), &merged))
	assert.False(t, merged.Complete)
	assert.Equal(t, []int{1}, merged.Unfinished)
	assert.Equal(t, "no violation in 20 random runs of 2 members, 1 member of 2 did not finish (1); a swarm samples runs, so this is not a proof", merged.Properties[0].Summary)
}

// The missing members of a large swarm are named in a few ranges, on one
// short line.
func TestMergeNamesMissingMembersCompactly(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := run("--algo", "bully", "--n", "3", "--simulate", "--runs", "2", "--quiet", "--shard", "5/100000", "--json-out", dir+"/")
	require.Equal(t, 3, code, stderr)
	code, out, stderr := run("merge", filepath.Join(dir, "member-5-of-100000.json"))
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Equal(t, "mcheck: merge: members 0-4, 6-99999 of 100000 missing (1 given): give every member's result, or run the missing ones again (I/100000 for member I)\n", stderr)
}

// --json-out that names one of the members' results (or a link to it) is
// refused before anything is read or written: the result stays.
func TestMergeRefusesToOverwriteItsInput(t *testing.T) {
	dir := t.TempDir()
	files := runSwarm(t, dir, 2, "--algo", "chang-roberts", "--n", "3", "--simulate", "--runs", "10")
	before, err := os.ReadFile(files[1])
	require.NoError(t, err)
	link := filepath.Join(dir, "link.json")
	require.NoError(t, os.Symlink(files[1], link))
	hard := filepath.Join(dir, "hard.json")
	require.NoError(t, os.Link(files[1], hard))
	for _, out := range []string{files[1], link, hard, filepath.Join(dir, ".", "member-1-of-2.json")} {
		for _, args := range [][]string{
			{"merge", "--json-out", out, files[0], files[1]},
			{"merge", files[0], files[1], "--json-out", out},
		} {
			code, stdout, stderr := run(args...)
			assert.Equal(t, 2, code, args)
			assert.Empty(t, stdout, args)
			assert.Equal(t, "mcheck: merge: --json-out "+out+" is the member's result "+files[1]+", which the merge would overwrite: give another file\n", stderr, args)
		}
	}
	after, err := os.ReadFile(files[1])
	require.NoError(t, err)
	assert.Equal(t, before, after)
}

// Flags may follow the files; "--" ends the flags.
func TestMergeTakesFlagsAfterTheFiles(t *testing.T) {
	dir := t.TempDir()
	files := runSwarm(t, dir, 2, "--algo", "chang-roberts", "--n", "3", "--simulate", "--runs", "10")
	out := filepath.Join(dir, "merged.json")
	code, text, stderr := run("merge", files[0], "--json-out", out, files[1])
	require.Equal(t, 3, code, stderr)
	assert.Contains(t, text, "mcheck merge: 2 members of a simulation swarm of chang-roberts")
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	var merged struct {
		Members int `json:"members"`
	}
	require.NoError(t, json.Unmarshal(data, &merged))
	assert.Equal(t, 2, merged.Members)

	code, js, stderr := run("merge", files[0], files[1], "--json")
	require.Equal(t, 3, code, stderr)
	assert.True(t, json.Valid([]byte(js)), js)

	code, text, stderr = run("merge", "--", files[0], files[1])
	assert.Equal(t, 3, code, stderr)
	assert.Contains(t, text, "mcheck merge: 2 members")

	code, _, stderr = run("merge", files[0], files[1], "--jsn")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "mcheck: merge: ")
	assert.Contains(t, stderr, "jsn")
	assert.Equal(t, 1, strings.Count(stderr, "\n"), stderr)

	// After "--", a name like a flag is a file.
	code, _, stderr = run("merge", "--", files[0], "--json")
	assert.Equal(t, 2, code)
	assert.Equal(t, "mcheck: merge: --json: no such file or directory\n", stderr)
}
