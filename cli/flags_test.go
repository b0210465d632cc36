package cli_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/specs"
)

// Flags that were once accepted silently or wrongly.
func TestFlagsRejectedWithAReason(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--algo", "ring", "--n", "0"}, "--n 0 is out of range: use 2 to 16 processes"},
		{[]string{"--algo", "ring", "--n", "3", "--crashes", "5"}, "--crashes 5 can never happen with --n 3 and --restarts 0: one process always stays live, so at most 2 crashes (N-1, plus one per restart) can happen (--crash-any means --crashes 2; see docs/model.md)"},
		{[]string{"--algo", "bully", "--n", "3", "--crashes", "4", "--restarts", "1"}, "so at most 3 crashes"},
		{[]string{"--algo", "bully", "--n", "3", "--initiators", "2", "--down", "2"}, "--initiators: no initiator starts live (--down) and none can restart, so no election can ever start"},
		{[]string{"--algo", "ring", "--n", "3", "--max-queue", "300"}, "--max-queue 300 is too large: use at most 255"},
		// Sizes are strict: a finite number with a unit, at least 1 KiB, at
		// most the machine's memory. Each of these once ran, silently
		// without a budget, with the default, exhaustively, or into
		// "fatal error: runtime: out of memory".
		{[]string{"--algo", "ring", "--memory", "NaN"}, `--memory: "NaN" is not a size: write a positive number and a unit`},
		{[]string{"--algo", "ring", "--memory", "Inf"}, `--memory: "Inf" is not a size: write a positive number and a unit`},
		{[]string{"--algo", "ring", "--memory", "-InfGiB"}, `--memory: "-InfGiB" is not a size`},
		{[]string{"--algo", "ring", "--memory", "1e30"}, `--memory: "1e30" has no unit: write it like 8GiB or 512MiB`},
		{[]string{"--algo", "ring", "--memory", "99999999999999999999GiB"}, `--memory: "99999999999999999999GiB" is more memory than any machine has`},
		{[]string{"--algo", "ring", "--memory", "0.5"}, `--memory: "0.5" has no unit`},
		{[]string{"--algo", "ring", "--memory", "1"}, `--memory: "1" has no unit`},
		{[]string{"--algo", "ring", "--memory", "0GiB"}, `--memory: "0GiB" is not a size`},
		{[]string{"--algo", "ring", "--memory", "100B"}, `--memory: "100B" is less than 1 KiB`},
		{[]string{"--algo", "ring", "--bitstate", "1"}, `--bitstate: "1" has no unit`},
		{[]string{"--algo", "ring", "--bitstate", "1e30"}, `--bitstate: "1e30" has no unit`},
		{[]string{"--algo", "ring", "--bitstate", "1000TiB"}, "--bitstate 1000.0 TiB is more than the "},
		{[]string{"--algo", "ring", "--memory", "1000TiB"}, "--memory 1000.0 TiB is more than the "},
		{[]string{"--algo", "ring", "--memory", "64MiB", "--bitstate", "64MiB"}, "--bitstate 64.0 MiB does not fit in the memory budget of 64.0 MiB: give a smaller bit array, or a larger --memory"},
		{[]string{"--algo", "ring", "--check", ""}, `--check "" names no property: give names or groups, or all (the default); --check list shows them`},
		{[]string{"--algo", "ring", "--check", " "}, `--check "" names no property`},
		{[]string{"--algo", "ring", "--workers", "300000"}, "--workers 300000 is more than "},
		// --witness is checked against the runs the configuration has,
		// before the search: not after it (when exit 2 replaced the
		// verdict and no output was written), and with --json too.
		{[]string{"--algo", "ring", "--complexity", "--witness", "bogus", "--json"}, `--witness: no witness "bogus" among the measures of ring: use one of min, max, min:ELECTION, max:ELECTION, min:ELECTED, max:ELECTED, min:lost, max:lost, sync, or none`},
		{[]string{"--algo", "bully", "--crashes", "1", "--complexity", "--witness", "max:PING"}, `--witness: no witness "max:PING" among the measures of bully: use one of min, max, min:ELECTION, max:ELECTION, min:OK, max:OK, min:COORDINATOR, max:COORDINATOR, min:lost, max:lost, sync, or none`},
		// --simulate and its flags.
		{[]string{"--algo", "ring", "--simulate", "--bitstate", "1MiB"}, "--simulate takes random runs and keeps no state table: drop --bitstate"},
		{[]string{"--algo", "ring", "--simulate", "--max-queue", "auto"}, "--simulate with --max-queue auto: random runs prove no bound, give --max-queue K"},
		{[]string{"--algo", "ring", "--simulate", "--exact"}, "--exact applies to a search's state table, which --simulate does not keep: drop --exact"},
		{[]string{"--algo", "ring", "--simulate", "--max-states", "10"}, "--max-states bounds a search: --simulate is bounded by --runs and --time-limit"},
		{[]string{"--algo", "ring", "--simulate", "--complexity", "--witness", "max"}, "--witness names a run of the exhaustive measures: --simulate samples them, drop --witness"},
		{[]string{"--algo", "ring", "--simulate", "--runs", "0"}, "--runs 0 would take no run: give 1 or more (default: until --time-limit, else 10000)"},
		{[]string{"--algo", "ring", "--simulate", "--runs", "-3"}, "--runs -3 would take no run"},
		{[]string{"--algo", "ring", "--simulate", "--depth", "0"}, "--depth 0 would take no step: give 1 or more (default 1000)"},
		{[]string{"--algo", "ring", "--simulate", "--seed", "x"}, `--seed: "x" is not a seed: give a whole number from 0 to 2^64-1, like 42 or 0x2a`},
		{[]string{"--algo", "ring", "--simulate", "--seed", "-1"}, `--seed: "-1" is not a seed`},
		{[]string{"--algo", "ring", "--simulate", "--run-seed", "0xZZ"}, `--run-seed: "0xZZ" is not a seed`},
		{[]string{"--algo", "ring", "--simulate", "--scheduler", "pct"}, `--scheduler: no scheduler "pct": use faults or uniform`},
		{[]string{"--algo", "ring", "--simulate", "--seed", "1", "--run-seed", "2"}, "--run-seed replays one run, --seed is the seed of all: give only one of them"},
		{[]string{"--algo", "ring", "--simulate", "--run-seed", "2", "--runs", "5"}, "--run-seed replays one run: drop --runs"},
		{[]string{"--algo", "ring", "--runs", "5"}, "--runs is a flag of --simulate: add --simulate, or drop it"},
		{[]string{"--algo", "ring", "--seed", "5"}, "--seed is a flag of --simulate: add --simulate, or drop it"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, stderr := run(c.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.True(t, strings.HasPrefix(stderr, "mcheck: --"), stderr)
			assert.Contains(t, stderr, c.want)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
		})
	}
	// The limits themselves are accepted: N-1 crashes, more with restarts, a
	// down initiator that can restart.
	for _, args := range [][]string{
		{"--algo", "ring", "--n", "3", "--crashes", "2", "--check", "safety"},
		{"--algo", "bully", "--n", "3", "--crashes", "3", "--restarts", "1", "--check", "safety", "--continue"},
		{"--algo", "bully", "--n", "3", "--initiators", "2", "--down", "2", "--restarts", "1", "--check", "safety", "--continue"},
	} {
		code, _, stderr := run(args...)
		assert.NotEqual(t, 2, code, "%v: %s", args, stderr)
		assert.Empty(t, stderr)
	}
}

// A witness the configuration can have but the search did not give (it
// stopped before any run completed) is no error after the search: the
// report and its exit status stand, and the outputs are written.
func TestWitnessWithoutARunKeepsTheVerdict(t *testing.T) {
	junit := filepath.Join(t.TempDir(), "j.xml")
	code, out, stderr := run("--algo", "chang-roberts", "--n", "3", "--crashes", "1", "--complexity", "--witness", "min", "--max-states", "10", "--junit", junit)
	assert.Equal(t, 2, code, "incomplete")
	assert.Contains(t, out, "search       INCOMPLETE: --max-states 10 reached")
	assert.NotContains(t, stderr, "--witness")
	assert.FileExists(t, junit)
}

func TestEveryHelpExitsZero(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"replay", "--help"}, {"replay", "-h"}} {
		code, out, stderr := run(args...)
		assert.Equal(t, 0, code, "%v", args)
		assert.Empty(t, stderr, "%v", args)
		assert.Contains(t, out, "Usage:", "%v", args)
		assert.Contains(t, out, "mcheck replay [--full-states]", "%v", args)
	}
}

func TestVersion(t *testing.T) {
	code, out, stderr := run("--version")
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `^mcheck github\.com/mcheck/mcheck \S+.*, go1\.\d+`, out)
	assert.Equal(t, 1, strings.Count(out, "\n"))
}

// A trace of an algorithm that only a course's own mcheck registers: the
// stock mcheck says which program can replay it.
func TestReplayOfAnotherProgramsAlgorithm(t *testing.T) {
	course := specs.Builtin()
	ring, err := course.Lookup("ring")
	require.NoError(t, err)
	ring.Name = "myring"
	require.NoError(t, course.Register(ring))

	path := filepath.Join(t.TempDir(), "t.trace.json")
	var out, errb bytes.Buffer
	code := cli.Main([]string{"--algo", "myring", "--n", "3", "--crashes", "1", "--trace-out", path}, course, &out, &errb)
	require.Equal(t, 1, code, errb.String())
	out.Reset()
	code = cli.Main([]string{"replay", "--quiet", path}, course, &out, &errb)
	require.Equal(t, 0, code, "the course's own mcheck replays it: %s", errb.String())

	code, stdout, stderr := run("replay", path)
	assert.Equal(t, 2, code)
	assert.Empty(t, stdout)
	assert.Equal(t, "mcheck: replay: "+path+` is a trace of "myring", which this mcheck does not have (it has bully, chang-roberts, hirschberg-sinclair, lelann, ring, ring-timeout): replay it with the mcheck program that registers "myring", such as your course's own (go run ./mcheck replay `+path+")\n", stderr)
}

// Every kind of flag says what is wrong with its value and how to write
// it, on one line, with exit status 2: read from the flag as data, not
// from the flag package's English.
func TestFlagErrorsSayHowToFixThem(t *testing.T) {
	for _, c := range []struct {
		kind string
		args []string
		want string
	}{
		{"int", []string{"--n", "three"}, `mcheck: --n: "three" is not a number: give a whole number, like --n 3 (see mcheck --help)`},
		{"int64", []string{"--max-states", "1e6"}, `mcheck: --max-states: "1e6" is not a number: give a whole number, like --max-states 3 (see mcheck --help)`},
		{"duration", []string{"--time-limit", "20"}, `mcheck: --time-limit: "20" has no unit: a duration is a number and a unit, like --time-limit 20s (or m, h) (see mcheck --help)`},
		{"duration", []string{"--time-limit", "soon"}, `mcheck: --time-limit: "soon" is not a duration: write a number and a unit, like --time-limit 90s, 5m or 1h30m (see mcheck --help)`},
		{"bool", []string{"--por=maybe"}, `mcheck: --por: "maybe" is not true or false: write --por for true, or --por=false (see mcheck --help)`},
		{"optional bool", []string{"--initial-leader=2"}, `mcheck: --initial-leader: "2" is not true or false: give the flag alone for true, or =false (see mcheck --help)`},
		{"enum", []string{"--detector", "psychic"}, `mcheck: --detector: "psychic" is unknown: use perfect, incomplete, unreliable, eventual or heartbeat (docs/model.md explains them) (see mcheck --help)`},
		{"list", []string{"--initiators", "1,two"}, `mcheck: --initiators: "two" is not a number: give comma-separated positive integers like 3,9,4,8 (see mcheck --help)`},
		{"size", []string{"--memory", "8"}, `mcheck: --memory: "8" has no unit: write it like 8GiB or 512MiB (B, KiB, MiB, GiB or TiB) (see mcheck --help)`},
		{"seed", []string{"--simulate", "--seed", "x"}, `mcheck: --seed: "x" is not a seed: give a whole number from 0 to 2^64-1, like 42 or 0x2a (see mcheck --help)`},
		{"unknown", []string{"--time-limt", "20s"}, `mcheck: unknown flag --time-limt: did you mean --time-limit? (see mcheck --help)`},
		{"no value", []string{"--time-limit"}, `mcheck: --time-limit needs a value (see mcheck --help)`},
		{"syntax", []string{"---n", "3"}, `mcheck: "---n" is not a flag: write flags as --name or --name=value (see mcheck --help)`},
		{"newline", []string{"--n", "3\nx"}, `mcheck: --n: "3\nx" is not a number: give a whole number, like --n 3 (see mcheck --help)`},
	} {
		t.Run(c.kind+" "+strings.Join(c.args, " "), func(t *testing.T) {
			code, out, stderr := run(append([]string{"--algo", "ring"}, c.args...)...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Equal(t, c.want+"\n", stderr)
		})
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"replay", "--full-states=no", "f"}, `mcheck: replay: --full-states: "no" is not true or false: write --full-states for true, or --full-states=false (usage: `},
		{[]string{"merge", "--json-out"}, `mcheck: merge: --json-out needs a value (usage: `},
		{[]string{"explore", "--workers", "many"}, `mcheck: explore: --workers: "many" is not a number: give a whole number, like --workers 3 (usage: `},
	} {
		code, out, stderr := run(c.args...)
		assert.Equal(t, 2, code, "%v", c.args)
		assert.Empty(t, out)
		assert.True(t, strings.HasPrefix(stderr, c.want), "%v: %s", c.args, stderr)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
	}
}
