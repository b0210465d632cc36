package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/swarm"
)

// A swarm of 4 members of a simulation of bully with a crash and a restart,
// 20 runs each: what each found and covered, fixed by the seed (each
// member runs at 1 or 2 workers: the same), and the merge of them.
var swarmCheck = []string{"--algo", "bully", "--n", "3", "--crashes", "1", "--restarts", "1", "--check", "all,LeaderNotDemoted", "--simulate", "--runs", "20", "--continue"}

type memberWant struct {
	found         map[string]int // property: steps
	steps, states int64
}

var swarmWant = []memberWant{
	{map[string]int{"SingleLeader": 5, "Agreement": 5, "LeaderNotDemoted": 5}, 150, 58},
	{map[string]int{}, 169, 63},
	{map[string]int{"LeaderNotDemoted": 5}, 158, 47},
	{map[string]int{"SingleLeader": 4, "Agreement": 4, "LeaderNotDemoted": 5}, 159, 63},
}

// runSwarm runs the members of a swarm of k into dir, as the local script
// does, and returns their result files.
func runSwarm(t *testing.T, dir string, k int, args ...string) []string {
	t.Helper()
	var files []string
	for i := range k {
		member := append(args[:len(args):len(args)], "--shard", fmt.Sprintf("%d/%d", i, k), "--json-out", dir+"/", "--workers", strconv.Itoa(1+i%2))
		code, out, stderr := run(member...)
		require.Contains(t, []int{0, 1, 3}, code, "member %d: %s", i, stderr)
		assert.Contains(t, out, fmt.Sprintf("swarm        member %d of %d; its result for mcheck merge is %s", i, k, filepath.Join(dir, fmt.Sprintf("member-%d-of-%d.json", i, k))))
		files = append(files, filepath.Join(dir, fmt.Sprintf("member-%d-of-%d.json", i, k)))
	}
	return files
}

// Four members run one after another and merged: each found what its seed
// finds, and the merge reports exactly the union (each property's
// shortest counterexample, replayed), the totals, and nothing proven.
func TestSwarmOfFourMergesTheUnion(t *testing.T) {
	dir := t.TempDir()
	files := runSwarm(t, dir, 4, swarmCheck...)
	union := map[string]int{}
	var steps, sum, most int64
	for i, file := range files {
		fh, err := os.Open(file)
		require.NoError(t, err)
		r, err := swarm.Decode(fh)
		fh.Close()
		require.NoError(t, err)
		assert.Equal(t, i, r.Member)
		assert.Equal(t, []string{"faults", "uniform"}[i%2], r.Derived.Scheduler, "the schedulers in turn")
		got := map[string]int{}
		for _, f := range r.Found {
			got[f.Trace.Property] = len(f.Trace.Steps) - 1
			if s, ok := union[f.Trace.Property]; !ok || got[f.Trace.Property] < s {
				union[f.Trace.Property] = got[f.Trace.Property]
			}
		}
		assert.Equal(t, swarmWant[i].found, got, "member %d", i)
		assert.Equal(t, swarmWant[i].steps, r.Coverage.Steps, "member %d", i)
		assert.Equal(t, swarmWant[i].states, r.Coverage.States, "member %d", i)
		steps, sum, most = steps+r.Coverage.Steps, sum+r.Coverage.States, max(most, r.Coverage.States)
	}
	assert.Equal(t, map[string]int{"SingleLeader": 4, "Agreement": 4, "LeaderNotDemoted": 5}, union)

	code, out, stderr := run(append([]string{"merge"}, files...)...)
	require.Equal(t, 1, code, stderr)
	for _, want := range []string{
		"mcheck merge: 4 members of a simulation swarm of bully, N=3, ids 1,2,3, up to 1 crash, up to 1 restart, perfect detector, initial leader, max-queue 6\n",
		"swarm        20 runs each of at most 1000 steps, the schedulers in turn; each member's seed derived from seed 0\n",
		"proof        none: random runs are a sample",
		"member 2     seed 15290129919425843198, faults scheduler: 20 runs, 158 steps, 47 distinct states (",
		"total        80 runs, 636 steps\n",
		"states       about 107 distinct together (the members' merged sketches, about 1.6% off); 63 for the member that saw the most, 231 summed over the members",
		"  SingleLeader      VIOLATED  after 4 steps p2 and p3 each consider themselves leader  (found by members 0, 3; the shortest is member 3's, run 0 (--run-seed 0xd421b5dcc1098c1e with that member's --scheduler uniform))\n",
		"  Termination       unknown  no violation in 80 random runs of 4 members; a swarm samples runs, so this is not a proof\n",
		"  LeaderNotDemoted  VIOLATED  step 5, deliver p1→p2 ELECTION(1), demotes the live leader p2 (now elected=⊥)  (found by members 0, 2, 3; the shortest is member 0's, run 8 (--run-seed 0x83a09388170c7ac4 with that member's --scheduler faults))\n",
		"\nSingleLeader counterexample, 4 steps:\n",
		"\nLeaderNotDemoted counterexample (ends in the step that breaks it), 5 steps:\n",
	} {
		assert.Contains(t, out, want)
	}
	assert.NotRegexp(t, `\bholds\b`, out)

	code, js, _ := run(append([]string{"merge", "--json"}, files...)...)
	require.Equal(t, 1, code)
	var merged struct {
		Members int    `json:"members"`
		Proof   string `json:"proof"`
		Runs    int64  `json:"runs"`
		Steps   int64  `json:"steps"`
		States  struct {
			Estimate float64 `json:"union_estimate"`
			Most     int64   `json:"most_of_one_member"`
			Sum      int64   `json:"sum_over_members"`
		} `json:"states"`
		Properties []struct {
			Name    string `json:"name"`
			Status  string `json:"status"`
			Member  *int   `json:"trace_member"`
			FoundBy []struct {
				Member int `json:"member"`
				Steps  int `json:"steps"`
			} `json:"found_by"`
			Trace *struct {
				Steps []json.RawMessage `json:"steps"`
			} `json:"trace"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &merged))
	assert.Equal(t, 4, merged.Members)
	assert.Equal(t, "sampled", merged.Proof)
	assert.Equal(t, int64(80), merged.Runs)
	assert.Equal(t, steps, merged.Steps)
	assert.Equal(t, int64(636), merged.Steps)
	assert.Equal(t, most, merged.States.Most)
	assert.Equal(t, sum, merged.States.Sum)
	assert.InDelta(t, 107.4, merged.States.Estimate, 0.5)
	violated := map[string]int{}
	for _, p := range merged.Properties {
		if p.Status == "unknown" {
			assert.Nil(t, p.Trace)
			continue
		}
		require.Equal(t, "violated", p.Status)
		require.NotNil(t, p.Trace)
		violated[p.Name] = len(p.Trace.Steps) - 1
		// The shortest (the lowest member among equals): member 3's
		// 4-step invariant violations, member 0's LeaderNotDemoted.
		assert.Equal(t, map[string]int{"SingleLeader": 3, "Agreement": 3, "LeaderNotDemoted": 0}[p.Name], *p.Member, p.Name)
	}
	assert.Equal(t, union, violated, "exactly the union of what the members found, each the shortest")
}

// A swarm of bitstate searches: each member with its own hash seed and bit
// array; together they explored more states than any one, which the
// merged sketches count, and the sum overcounts.
func TestBitstateSwarm(t *testing.T) {
	dir := t.TempDir()
	files := runSwarm(t, dir, 4, "--algo", "chang-roberts", "--n", "4", "--crashes", "1", "--bitstate", "2KiB", "--continue")
	code, out, stderr := run(append([]string{"merge"}, files...)...)
	require.Equal(t, 1, code, stderr)
	for _, want := range []string{
		"mcheck merge: 4 members of a bitstate swarm of chang-roberts, N=4, ids 1,2,3,4, up to 1 crash, perfect detector, max-queue 8\n",
		"member 0     hash seed 0x120ef7ec25851a3a, 2.0 KiB bit array (16.4% set): 979 states, 2,659 transitions, depth 33, expected coverage at least 86.3549%; found Termination (stuck, 4 steps)\n",
		"member 3     hash seed 0x9d07322ba03bd364, 256 B bit array (72.9% set): 756 states,",
		"total        9,972 transitions\n",
		// The exhaustive search has 994 states.
		"states       about 992 distinct together (the members' merged sketches, about 1.6% off); 979 for the member that saw the most, 3,650 summed over the members",
		"  SingleLeader  unknown  no violation in 4 bitstate searches, which may miss states; not a proof\n",
		"  Termination   VIOLATED  stuck without a leader: no fair step is enabled",
	} {
		assert.Contains(t, out, want)
	}
}

// --shard /K takes the member's index from the cluster scheduler, and a
// member is the same whichever way its index came.
func TestShardIndexFromTheEnvironment(t *testing.T) {
	member := func(args ...string) map[string]any {
		code, js, stderr := run(append([]string{"--algo", "bully", "--n", "3", "--simulate", "--runs", "5", "--json"}, args...)...)
		require.Equal(t, 3, code, stderr)
		var rep struct {
			Swarm map[string]any `json:"swarm"`
		}
		require.NoError(t, json.Unmarshal([]byte(js), &rep))
		require.NotNil(t, rep.Swarm)
		return rep.Swarm
	}
	given := member("--shard", "1/4")
	assert.Equal(t, "given", given["index_from"])

	t.Setenv("JOB_COMPLETION_INDEX", "1")
	k8s := member("--shard", "/4")
	assert.Equal(t, "JOB_COMPLETION_INDEX", k8s["index_from"])
	assert.Equal(t, given["derived"], k8s["derived"])
	assert.Equal(t, given["coverage"].(map[string]any)["steps"], k8s["coverage"].(map[string]any)["steps"])

	// Slurm's --array=1-4: task 2 is the second.
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_ID", "2")
	t.Setenv("SLURM_ARRAY_TASK_MIN", "1")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "4")
	slurm := member("--shard", "/4")
	assert.Equal(t, "SLURM_ARRAY_TASK_ID", slurm["index_from"])
	assert.EqualValues(t, 1, slurm["member"])
	assert.Equal(t, given["derived"], slurm["derived"])
}

func TestShardRefusals(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--shard", "0/4"}, "--shard splits a sampled search among members: add --simulate or --bitstate SIZE (an exhaustive search is one search: run it whole, or with --workers)"},
		{[]string{"--simulate", "--shard", "4/4"}, `--shard: "4/4": member 4 of 4 is outside 0..3 (members are numbered from 0)`},
		{[]string{"--simulate", "--shard", "/4"}, "--shard: no member index: give it as I/4, or run in a Kubernetes Indexed Job"},
		{[]string{"--simulate", "--run-seed", "5", "--shard", "0/2"}, "--run-seed replays one run alone: drop --shard"},
		{[]string{"--simulate", "--json-out", dir}, "--json-out: " + dir + " is a directory: give a file name (a directory takes a --shard member's result, as member-I-of-K.json)"},
		{[]string{"--simulate", "--shard", "0/2", "--json-out", filepath.Join(dir, "no", "such") + "/"}, "--json-out: cannot write " + filepath.Join(dir, "no", "such") + "/: the directory " + filepath.Join(dir, "no") + " does not exist"},
		{[]string{"--bitstate", "1MiB", "--seed", "3"}, "--seed is a flag of --simulate"},
	} {
		code, _, stderr := run(append([]string{"--algo", "bully", "--n", "3"}, c.args...)...)
		assert.Equal(t, 2, code, c.args)
		assert.Contains(t, stderr, c.want, c.args)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %s", stderr)
	}
}

// Files that are not the members of one swarm, each once, are refused
// with exit status 2 and the reason; so is a counterexample that does not
// replay.
func TestMergeRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--algo", "bully", "--n", "3", "--crashes", "1", "--restarts", "1", "--check", "safety", "--simulate", "--runs", "10"}
	files := runSwarm(t, dir, 2, args...)
	other := runSwarm(t, filepath.Join(dir, "other"), 3, args...)
	plain := filepath.Join(dir, "plain.json")
	code, js, _ := run(append(args, "--json")...)
	require.Equal(t, 1, code)
	require.NoError(t, os.WriteFile(plain, []byte(js), 0o644))
	text := filepath.Join(dir, "text.json")
	require.NoError(t, os.WriteFile(text, []byte("mcheck bully\n"), 0o644))

	// A counterexample cut short: its last state no longer violates.
	cut := editMember(t, files[0], filepath.Join(dir, "cut.json"), func(member map[string]any) {
		found := member["found"].([]any)
		require.NotEmpty(t, found)
		tr := found[0].(map[string]any)["trace"].(map[string]any)
		steps := tr["steps"].([]any)
		tr["steps"] = steps[:len(steps)-1]
	})

	for _, c := range []struct {
		files []string
		want  string
	}{
		{nil, "mcheck: merge: give the members' result files (usage: mcheck merge [--json] [--json-out FILE] [--full-states] FILE...)"},
		{[]string{plain, files[1]}, "mcheck: merge: " + plain + ": not the result of a swarm member: no \"swarm\" object (a member writes its result with --shard I/K and --json-out DIR/ or --json)"},
		{[]string{text}, "mcheck: merge: " + text + ": not a JSON report: "},
		{[]string{filepath.Join(dir, "none.json")}, "mcheck: merge: " + filepath.Join(dir, "none.json") + ": no such file or directory"},
		{[]string{files[0]}, "mcheck: merge: member 1 of 2 missing (1 given): give every member's result, or run the missing ones again (I/2 for member I)"},
		{[]string{files[0], files[1], files[1]}, "are both member 1 of 2: give each member once"},
		{[]string{files[0], other[1]}, "is member 1 of 3, " + files[0] + " member 0 of 2: members of different swarms"},
		{[]string{cut, files[1]}, "mcheck: merge: " + cut + ": the invariant counterexample of SingleLeader does not replay: not a counterexample: SingleLeader holds in the last state"},
	} {
		code, out, stderr := run(append([]string{"merge"}, c.files...)...)
		assert.Equal(t, 2, code, c.files)
		assert.Empty(t, out)
		assert.Contains(t, stderr, c.want, c.files)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %s", stderr)
	}

	// Another configuration of the same swarm size.
	seeded := runSwarm(t, filepath.Join(dir, "seeded"), 2, append(args, "--seed", "9")...)
	code, _, stderr := run("merge", files[0], seeded[1])
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "are members of different swarms: seed 0 vs 9")

	code, out, _ := run("merge", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "Exit status: 1 a member found a violation")
}

// Slurm's numbers at the ends of the int range are no member -1, and a
// step of 0 is no step of 1: a one-line error.
func TestShardRefusesSlurmNumbersOfNoArray(t *testing.T) {
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "")
	for _, c := range []struct {
		id, min, step, want string
	}{
		{"9223372036854775807", "-9223372036854775808", "", "mcheck: --shard: SLURM_ARRAY_TASK_ID=9223372036854775807 is not one of 4 tasks numbered from SLURM_ARRAY_TASK_MIN=-9223372036854775808 in steps of 1: submit the array as a range, --array=0-3\n"},
		{"2", "0", "0", "mcheck: --shard: SLURM_ARRAY_TASK_STEP=0 is not a step of an array (1 or more): submit the array as a range, --array=0-3\n"},
	} {
		t.Setenv("SLURM_ARRAY_TASK_ID", c.id)
		t.Setenv("SLURM_ARRAY_TASK_MIN", c.min)
		t.Setenv("SLURM_ARRAY_TASK_STEP", c.step)
		code, out, stderr := run("--algo", "bully", "--n", "3", "--simulate", "--runs", "5", "--shard", "/4")
		assert.Equal(t, 2, code, c.id)
		assert.Empty(t, out)
		assert.Equal(t, c.want, stderr)
	}
}
