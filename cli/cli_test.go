package cli_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/specs"
)

func run(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = cli.Main(args, specs.Builtin(), &out, &errb)
	return code, out.String(), errb.String()
}

func TestHeadlineCommandHolds(t *testing.T) {
	code, out, stderr := run("--algo", "bully", "--n", "4", "--crash-any")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "search       complete")
	assert.Contains(t, out, "states       27,390 distinct")
	assert.Contains(t, out, "transitions  130,758")
	assert.Contains(t, out, "depth        41")
	assert.Regexp(t, `SingleLeader\s+holds`, out)
	assert.Regexp(t, `Agreement\s+holds`, out)
	assert.Regexp(t, `Termination\s+holds \(for the bounded model only`, out)
	assert.Contains(t, out, "exhaustive up to 8 messages per channel; 666 successors beyond that were not explored")
	assert.Empty(t, stderr, "no progress when stderr is not a terminal")
}

func TestViolationExitsOneWithTrace(t *testing.T) {
	code, out, _ := run("--algo", "bully", "--n", "3", "--crashes", "1", "--restarts", "1", "--check", "safety")
	require.Equal(t, 1, code)
	assert.Regexp(t, `SingleLeader\s+VIOLATED\s+after 4 steps p2 and p3 each consider themselves leader`, out)
	assert.Regexp(t, `Termination\s+not checked`, out)
	assert.Contains(t, out, "SingleLeader counterexample, 4 steps:")
	assert.Contains(t, out, "   4  restart p3\n")
	// Stopped at the first violation: the search is incomplete and says so.
	assert.Contains(t, out, "INCOMPLETE: stopped at the first violation")
}

func TestLassoIsMarked(t *testing.T) {
	// Without --continue: a stuck state does not stop the search when
	// Termination is checked, so both ways to fail are shown, lasso first.
	code, out, _ := run("--algo", "chang-roberts", "--n", "4", "--crashes", "1", "--continue")
	require.Equal(t, 1, code)
	assert.Contains(t, out, "search       complete")
	assert.Regexp(t, `Termination\s+VIOLATED\s+ELECTION\(4\) of crashed p4 circulates forever`, out)
	assert.Regexp(t, `\n\s+also: stuck without a leader: no fair step is enabled, and p1 elected=⊥, p2 elected=⊥, p3 elected=⊥ \(Stable needs elected=3\)`, out)
	assert.Contains(t, out, "Termination counterexample (a lasso: a prefix, then a cycle repeated forever), 8 steps:")
	assert.Contains(t, out, "   5  crash p4\n")
	assert.Contains(t, out, "   6  deliver p1→p2 ELECTION(4)   ◀ cycle starts here (steps 6-8 repeat forever)\n")
	assert.Contains(t, out, "   8  deliver p3→p1 ELECTION(4)   ↩ back to step 6\n")
	assert.Contains(t, out, "Termination counterexample (ends in a stuck state), 4 steps:")

	code, out, _ = run("--algo", "chang-roberts", "--n", "3", "--crash-any", "--continue")
	require.Equal(t, 1, code)
	// The bound discarded successors elsewhere, but cut no fair step of this
	// lasso: it is a counterexample without the bound too.
	assert.Contains(t, out, "exhaustive up to 6 messages per channel; 644 successors beyond that were not explored")
	assert.Regexp(t, `Termination\s+VIOLATED \(also without the bound: it cut no step of this run\)\s+ELECTION\(3\) of crashed p3 circulates forever`, out)

	// Here the bound cuts a fair step of the cycle: said so.
	code, out, _ = run("--algo", "bully", "--n", "3", "--detector", "unreliable", "--check", "termination", "--max-queue", "2", "--continue")
	require.Equal(t, 1, code)
	assert.Regexp(t, `Termination\s+VIOLATED \(for the bounded model only: the bound cut a step of this run\)\s+elections repeat forever: suspect p1`, out)
}

func TestJSONSummary(t *testing.T) {
	code, out, _ := run("--algo", "ring", "--n", "3", "--json")
	require.Equal(t, 0, code)
	var rep map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	for _, key := range []string{"algo", "n", "ids", "states", "transitions", "depth", "discarded", "complete", "seconds", "properties"} {
		assert.Contains(t, rep, key)
	}
	assert.Equal(t, "ring", rep["algo"])
	assert.EqualValues(t, 106, rep["states"])
	assert.EqualValues(t, 185, rep["transitions"])
	assert.EqualValues(t, 22, rep["depth"])
	assert.Equal(t, true, rep["complete"])
	props := rep["properties"].([]any)
	require.Len(t, props, 3)
	for _, p := range props {
		assert.Equal(t, "holds", p.(map[string]any)["status"])
	}
}

// The time line and --json say what the fair-cycle check after the search
// took, and only when one ran: a Termination check can spend a second there
// that the search's time leaves out.
func TestTimeOfTheFairCycleCheck(t *testing.T) {
	for _, c := range []struct {
		check     string
		withCheck bool
	}{{"all", true}, {"safety", false}} {
		code, out, _ := run("--algo", "ring", "--n", "3", "--check", c.check)
		require.Equal(t, 0, code)
		line := regexp.MustCompile(`(?m)^time .*$`).FindString(out)
		if c.withCheck {
			assert.Regexp(t, `^time         \d+\.\d\d s: search \d+\.\d\d s \([\d,]+ states/s\), fair-cycle check \d+\.\d\d s; `, line)
		} else {
			assert.Regexp(t, `^time         \d+\.\d\d s, [\d,]+ states/s, `, line)
		}

		code, out, _ = run("--algo", "ring", "--n", "3", "--check", c.check, "--json")
		require.Equal(t, 0, code)
		var rep map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &rep))
		secs, ok := rep["fair_cycle_seconds"].(float64)
		assert.Equal(t, c.withCheck, ok, "fair_cycle_seconds with --check %s", c.check)
		if c.withCheck {
			assert.Greater(t, secs, 0.0)
		}
	}
}

func TestJSONTrace(t *testing.T) {
	code, out, _ := run("--algo", "bully", "--n", "3", "--crashes", "1", "--restarts", "1", "--check", "SingleLeader", "--json")
	require.Equal(t, 1, code)
	var rep struct {
		Complete   bool
		Properties []struct {
			Name, Status string
			Trace        []struct {
				Action string
				State  map[string]string
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.False(t, rep.Complete)
	sl := rep.Properties[0]
	assert.Equal(t, "SingleLeader", sl.Name)
	assert.Equal(t, "violated", sl.Status)
	require.Len(t, sl.Trace, 5)
	assert.Equal(t, "initial state", sl.Trace[0].Action)
	assert.Equal(t, "restart p3", sl.Trace[4].Action)
	assert.Equal(t, "2", sl.Trace[4].State["p2.elected"])
	assert.Equal(t, "3", sl.Trace[4].State["p3.elected"])
	assert.Equal(t, "unchecked", rep.Properties[1].Status)
}

func TestIncompleteSearchNeverHolds(t *testing.T) {
	code, out, _ := run("--algo", "ring", "--n", "4", "--max-states", "100")
	require.Equal(t, 2, code)
	assert.Contains(t, out, "INCOMPLETE: --max-states 100 reached")
	assert.NotRegexp(t, `\bholds\b`, out)
	assert.Regexp(t, `SingleLeader\s+unknown`, out)
	assert.Contains(t, out, "no property can be said to hold")

	code, out, _ = run("--algo", "ring", "--n", "4", "--memory", "1KiB", "--json")
	require.Equal(t, 2, code)
	assert.Contains(t, out, `"complete": false`)
	assert.Contains(t, out, `memory budget of 1.0 KiB reached`)
	assert.NotContains(t, out, `"holds"`)
}

func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--algo", "paxos"}, `--algo: unknown algorithm "paxos": use one of bully, chang-roberts, hirschberg-sinclair, lelann, ring, ring-timeout`},
		{[]string{}, "no algorithm: give --algo"},
		{[]string{"--algo", "ring", "--n", "1"}, "--n 1 is out of range: use 2 to 16 processes"},
		{[]string{"--algo", "ring", "--n", "17"}, "--n 17 is out of range"},
		{[]string{"--algo", "ring", "--n", "x"}, `--n: "x" is not a number`},
		{[]string{"--algo", "ring", "--ids", "3,x,4"}, `--ids: "x" is not a number`},
		{[]string{"--algo", "ring", "--ids", "3,3,4"}, "--ids: ID 3 appears twice"},
		{[]string{"--algo", "ring", "--ids", "0,1,2"}, "--ids: 0 is not positive"},
		{[]string{"--algo", "ring", "--n", "4", "--ids", "1,2,3"}, "--ids has 3 IDs but --n is 4"},
		{[]string{"--algo", "ring", "--initiators", "7"}, "--initiators: 7 is not the ID of a process (the IDs are 1,2,3)"},
		{[]string{"--algo", "ring", "--down", "1,2,3"}, "--down names every process"},
		{[]string{"--algo", "ring", "--max-queue", "-1"}, "--max-queue -1 is negative"},
		{[]string{"--algo", "ring", "--max-queue", "0"}, "--max-queue 0 would allow no message"},
		{[]string{"--algo", "ring", "--crashes", "-2"}, "--crashes -2 is negative"},
		{[]string{"--algo", "ring", "--restarts", "-1"}, "--restarts -1 is negative"},
		{[]string{"--algo", "ring", "--detector", "flaky"}, `--detector: "flaky" is unknown: use perfect, incomplete, unreliable, eventual or heartbeat`},
		{[]string{"--algo", "ring", "--check", "fast"}, `--check: unknown property "fast"`},
		{[]string{"--algo", "ring", "--bogus"}, "unknown flag --bogus"},
		{[]string{"--algo", "ring", "extra"}, `unexpected argument "extra"`},
		{[]string{"--algo", "ring", "--crash-any", "--crashes", "1"}, "--crash-any means --crashes 2 for --n 3"},
		{[]string{"--algo", "ring", "--memory", "lots"}, `--memory: "lots" is not a size`},
		{[]string{"--algo", "ring", "--initial-leader=maybe"}, `--initial-leader: "maybe" is not true or false: give the flag alone for true, or =false`},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, stderr := run(c.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
			assert.True(t, strings.HasPrefix(stderr, "mcheck: "), stderr)
			assert.Contains(t, stderr, c.want)
			assert.NotContains(t, stderr, "goroutine")
		})
	}
}

func TestInitialLeaderDefaults(t *testing.T) {
	_, out, _ := run("--algo", "bully", "--n", "3")
	assert.Contains(t, out, "initial leader")
	_, out, _ = run("--algo", "bully", "--n", "3", "--initial-leader=false")
	assert.NotContains(t, out, "initial leader")
	assert.Contains(t, out, "states       862 distinct")
	_, out, _ = run("--algo", "ring", "--n", "3")
	assert.NotContains(t, out, "initial leader")
	_, out, _ = run("--algo", "ring", "--n", "3", "--initial-leader")
	assert.Contains(t, out, "initial leader")
}

func TestHelp(t *testing.T) {
	code, out, _ := run("--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "--crash-any")
	assert.Contains(t, out, "bully, chang-roberts, hirschberg-sinclair, lelann, ring, ring-timeout")
}

func TestBitstateNeverHolds(t *testing.T) {
	code, out, _ := run("--algo", "chang-roberts", "--n", "3", "--crash-any", "--check", "safety", "--bitstate", "4KiB")
	require.Equal(t, 3, code, "not exhaustive: nothing can be said to hold (3: a sampled search without a violation)")
	// Which states the bit array takes for visited depends on the
	// fingerprints (model/fingerprint.go), so the counts are not pinned:
	// fewer than the 4,141 of the full search, and said to be a bound.
	m := regexp.MustCompile(`states       4,(\d{3}) distinct`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	assert.Less(t, m[1], "141", "a 4 KiB bit array misses some of the 4,141 states")
	assert.Regexp(t, `bitstate     4\.0 KiB bit array, 3 bits a state, 3\d\.\d% set: .* expected coverage at least 3\d\.\d{4}% \(not exhaustive\)`, out)
	assert.Regexp(t, `SingleLeader\s+unknown\s+no violation in a bitstate search, which may miss states`, out)
	assert.NotRegexp(t, `\bholds\b`, out)

	code, out, _ = run("--algo", "bully", "--n", "3", "--crashes", "1", "--restarts", "1", "--check", "safety", "--bitstate", "1MiB")
	require.Equal(t, 1, code, "a violation found by a bitstate search is a violation")
	assert.Regexp(t, `SingleLeader\s+VIOLATED\s+after 4 steps p2 and p3 each consider themselves leader`, out)

	code, _, stderr := run("--algo", "ring", "--bitstate", "lots")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `--bitstate: "lots" is not a size`)
}

// A safety-only check reduces by default; --por=false counts every state;
// the verdicts agree; with Termination there is no reduction.
func TestPartialOrderReduction(t *testing.T) {
	code, out, _ := run("--algo", "ring", "--n", "5", "--check", "safety", "--quiet")
	require.Equal(t, 0, code, out)
	require.Contains(t, out, "states       464 distinct, with partial-order reduction (371 states followed a stubborn set, 23 were expanded in full by the cycle proviso)")
	require.Contains(t, out, "SingleLeader  holds")

	code, out, _ = run("--algo", "ring", "--n", "5", "--check", "safety", "--quiet", "--por=false")
	require.Equal(t, 0, code, out)
	require.Contains(t, out, "states       2,295 distinct\n")

	code, out, _ = run("--algo", "ring", "--n", "5", "--quiet")
	require.Equal(t, 0, code, out)
	require.Contains(t, out, "states       2,295 distinct\n", "no reduction with Termination")

	code, out, _ = run("--algo", "ring", "--n", "5", "--check", "safety", "--quiet", "--json")
	require.Equal(t, 0, code, out)
	var rep struct {
		States  int64 `json:"states"`
		Reduced bool  `json:"partial_order_reduction"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.Equal(t, int64(464), rep.States)
	require.True(t, rep.Reduced)

	// Bully declares no ring neighbours: nothing to reduce, nothing said.
	code, out, _ = run("--algo", "bully", "--n", "3", "--initial-leader=false", "--check", "safety", "--quiet")
	require.Equal(t, 0, code, out)
	require.Contains(t, out, "states       862 distinct\n")
}

// A violation found under reduction is reported from a full search, so the
// counterexample is a shortest one: the same as with --por=false.
func TestReductionReportsShortestCounterexample(t *testing.T) {
	args := []string{"--algo", "lelann", "--n", "4", "--crashes", "1", "--check", "safety", "--quiet", "--continue"}
	code, reduced, _ := run(args...)
	require.Equal(t, 1, code, reduced)
	require.Contains(t, reduced, "the reduced search found a violation; what follows is the full search")
	code, full, _ := run(append(args, "--por=false")...)
	require.Equal(t, 1, code, full)
	strip := func(s string) string {
		s = strings.Replace(s, "note         the reduced search found a violation; what follows is the full search, for a shortest counterexample\n", "", 1)
		return regexp.MustCompile(`time .*\n`).ReplaceAllString(s, "")
	}
	require.Equal(t, strip(full), strip(reduced))
}
