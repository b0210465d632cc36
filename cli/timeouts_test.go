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

	"github.com/mcheck/mcheck/trace"
)

var timedBully = []string{"--algo", "bully", "--n", "3", "--crash-any", "--timing", "sync"}

// --timeout auto at D = 1 and D = 2: the smallest T is 2D+1, the
// counterexample is the check at T = 2D, and it replays from --trace-out.
func TestTimeoutAuto(t *testing.T) {
	report, files := traceFiles(t, append(timedBully, "--timeout", "auto"), 0)
	out := string(report)
	assert.Contains(t, out, "mcheck bully, N=3, ids 1,2,3, crash-any (up to 2 crashes), perfect detector, initial leader, timing sync, delay 1, timeout 3, timeout-coord 1, max-queue 6\n")
	assert.Regexp(t, `\ntimeout search \(--timeout auto at delay 1, no time limit; the memory budget and --max-states apply to each search\), [0-9.]+ s in all
  T 1   T2 4   +53 states +[0-9.]+ s  fails: SingleLeader, Agreement
  T 2   T2 6   +82 states +[0-9.]+ s  fails: SingleLeader, Agreement
  T 3   T2 8   +124 states +[0-9.]+ s  every property holds
  T 3   T2 1   +110 states +[0-9.]+ s  every property holds
  verdict: SingleLeader and Agreement need T >= 3 at D = 1 \(T2 at its default 2T\+2D\): at T = 2, SingleLeader: after 8 steps p1 and p2 each consider themselves leader; at T = 3 every property holds already with T2 = 1
`, out)
	assert.Contains(t, out, "\nat T = 2, the largest T that fails (delay 1, timeout 2, timeout-coord 6):\n\nSingleLeader counterexample, 8 steps:\n")
	require.Len(t, files, 2, "the failure's SingleLeader and Agreement")
	for _, f := range files {
		code, replayed, stderr := run("replay", f)
		require.Equal(t, 0, code, "%s: %s", filepath.Base(f), stderr)
		assert.Contains(t, replayed, "a genuine counterexample", filepath.Base(f))
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		file, err := trace.Read(bytes.NewReader(data))
		require.NoError(t, err)
		assert.Equal(t, []int{2, 6}, []int{file.Config.Timeout, file.Config.TimeoutCoord}, "the configuration of the failure: %s", filepath.Base(f))
	}

	code, out, stderr := run(append(timedBully, "--delay", "2", "--timeout", "auto")...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "verdict: SingleLeader and Agreement need T >= 5 at D = 2 (T2 at its default 2T+2D): at T = 4, SingleLeader: after 10 steps p1 and p2 each consider themselves leader; at T = 5 every property holds already with T2 = 1\n")
}

// --json mirrors --max-queue auto's deepening: a timeouts object with
// every search, the values found, and the failure with its trace.
func TestTimeoutAutoJSON(t *testing.T) {
	code, out, stderr := run(append(timedBully, "--timeout", "auto", "--json")...)
	require.Equal(t, 0, code, stderr)
	var rep struct {
		Timeout      int `json:"timeout"`
		TimeoutCoord int `json:"timeout_coord"`
		States       int `json:"states"`
		Timeouts     struct {
			Delay        int    `json:"delay"`
			Timeout      int    `json:"timeout"`
			TimeoutCoord int    `json:"timeout_coord"`
			Found        bool   `json:"found"`
			Verdict      string `json:"verdict"`
			Runs         []struct {
				Timeout      int      `json:"timeout"`
				TimeoutCoord int      `json:"timeout_coord"`
				Coord        bool     `json:"coord_search"`
				Outcome      string   `json:"outcome"`
				Failed       []string `json:"failed"`
				States       int      `json:"states"`
				Complete     bool     `json:"complete"`
			} `json:"runs"`
			Failure *struct {
				Timeout    int `json:"timeout"`
				Properties []struct {
					Name   string            `json:"name"`
					Status string            `json:"status"`
					Trace  []json.RawMessage `json:"trace"`
				} `json:"properties"`
			} `json:"failure"`
			CoordFailure *json.RawMessage `json:"coord_failure"`
		} `json:"timeouts"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, []int{3, 1, 110}, []int{rep.Timeout, rep.TimeoutCoord, rep.States}, "the report is the check at the values found")
	d := rep.Timeouts
	assert.Equal(t, []any{1, 3, 1, true}, []any{d.Delay, d.Timeout, d.TimeoutCoord, d.Found})
	require.Len(t, d.Runs, 4)
	assert.Equal(t, []any{2, 6, false, "fails", []string{"SingleLeader", "Agreement"}, 82, false}, []any{d.Runs[1].Timeout, d.Runs[1].TimeoutCoord, d.Runs[1].Coord, d.Runs[1].Outcome, d.Runs[1].Failed, d.Runs[1].States, d.Runs[1].Complete})
	assert.Equal(t, []any{3, 1, true, "holds", 110, true}, []any{d.Runs[3].Timeout, d.Runs[3].TimeoutCoord, d.Runs[3].Coord, d.Runs[3].Outcome, d.Runs[3].States, d.Runs[3].Complete})
	assert.True(t, strings.HasPrefix(d.Verdict, "SingleLeader and Agreement need T >= 3 at D = 1"), d.Verdict)
	require.NotNil(t, d.Failure)
	assert.Equal(t, 2, d.Failure.Timeout)
	assert.Equal(t, "SingleLeader", d.Failure.Properties[0].Name)
	assert.Equal(t, "violated", d.Failure.Properties[0].Status)
	assert.Len(t, d.Failure.Properties[0].Trace, 9, "8 steps")
	assert.Nil(t, d.CoordFailure)
}

// A timeout search that did not finish says so and exits 2; one in which
// every T fails exits 1.
func TestTimeoutAutoIncompleteOrNoneHolds(t *testing.T) {
	code, out, _ := run(append(timedBully, "--timeout", "auto", "--max-states", "100")...)
	require.Equal(t, 2, code)
	assert.Regexp(t, `  T 3   T2 8   +100 states +[0-9.]+ s  stopped: --max-states 100 reached\n`, out)
	assert.Contains(t, out, "verdict: every T from 1 to 2 fails at D = 1, but the timeout search did not finish, so no T can be said to be the smallest that holds: T = 3 stopped: --max-states 100 reached\n")
	assert.Regexp(t, `SingleLeader\s+unknown`, out)
	assert.NotRegexp(t, `\bholds\b`, strings.Split(out, "timeout search")[0], "nothing is said to hold")

	code, out, _ = run("--algo", "bully", "--n", "2", "--crashes", "1", "--detector", "incomplete", "--timing", "sync", "--timeout", "auto")
	require.Equal(t, 1, code)
	assert.Contains(t, out, "verdict: no T from 1 to 126 makes every property hold at D = 1 (T = 127 gives a timer too long for the state encoding); at T = 126, Termination: stuck with the wrong leader: no fair step is enabled, and p1 elected=2 (Stable needs elected=1)")
	assert.Contains(t, out, "timeout 126, timeout-coord 254, max-queue 4\n", "the report is the check at T = 126")
	assert.Equal(t, 1, strings.Count(out, "Termination counterexample"), "the failure is the report: its counterexample once")
}

func TestTimeoutAutoBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--algo", "bully", "--timeout", "auto"}, "mcheck: --timeout auto needs --timing sync or partial: the asynchronous model (--timing async, the default) has no clocks\n"},
		{[]string{"--algo", "bully", "--timing", "async", "--timeout", "auto"}, "mcheck: --timeout auto needs --timing sync or partial: the asynchronous model (--timing async, the default) has no clocks\n"},
		{[]string{"--algo", "chang-roberts", "--timing", "sync", "--timeout", "auto"}, "mcheck: --timeout: this algorithm has no timers, so there is no timeout to set: leave --timeout out\n"},
		{[]string{"--algo", "bully", "--timing", "sync", "--timeout", "soon"}, `mcheck: --timeout: "soon" is not a number: use 1 tick or more, or auto to search for the smallest T at which every property holds (see mcheck --help)` + "\n"},
		{[]string{"--algo", "bully", "--timing", "sync", "--timeout", "auto", "--max-queue", "auto"}, "mcheck: --timeout auto with --max-queue auto: the timeout search needs one fixed bound, give --max-queue K\n"},
		{[]string{"--algo", "bully", "--timing", "sync", "--timeout", "auto", "--complexity"}, "mcheck: --complexity with --timeout auto: measures need one fixed T, give --timeout T\n"},
		{[]string{"--algo", "bully", "--timing", "sync", "--timeout", "auto", "--simulate"}, "mcheck: --simulate with --timeout auto: random runs prove no T holds, give --timeout T\n"},
		{[]string{"--algo", "bully", "--timing", "sync", "--timeout", "auto", "--bitstate", "1MiB"}, "mcheck: --bitstate with --timeout auto: a bitstate search proves no T holds, give --timeout T\n"},
	} {
		code, out, stderr := run(c.args...)
		assert.Equal(t, 2, code, c.args)
		assert.Empty(t, out, c.args)
		assert.Equal(t, c.want, stderr, c.args)
	}
	code, _, stderr := run("explore", "--algo", "bully", "--timing", "sync", "--timeout", "auto")
	assert.Equal(t, 2, code)
	assert.True(t, strings.HasPrefix(stderr, "mcheck: explore: --timeout auto searches the timeouts of a check, the explorer needs one: give --timeout T (usage: "), stderr)
}

// Once T is found, a T2 that the channel bound leaves undecided does not
// take the answer away: the command exits 0 with the values found and says
// which smaller T2 the bound left undecided.
func TestTimeoutAutoGivesTheAnswerWhenTheBoundLeavesT2Undecided(t *testing.T) {
	code, out, stderr := run("--algo", "bully", "--n", "4", "--crashes", "1", "--timing", "sync", "--delay", "2", "--max-queue", "2", "--timeout", "auto")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "mcheck bully, N=4, ids 1,2,3,4, up to 1 crash, perfect detector, initial leader, timing sync, delay 2, timeout 5, timeout-coord 2, max-queue 2\n")
	assert.Regexp(t, `  T 5   T2 1   +134,315 states +[0-9.]+ s  violated only where the channel bound cut a fair step\n  T 5   T2 2   +36,041 states +[0-9.]+ s  every property holds\n`, out)
	assert.Contains(t, out, "  verdict: SingleLeader and Agreement need T >= 5 at D = 2 (T2 at its default 2T+2D): at T = 4, SingleLeader: after 10 steps p2 and p3 each consider themselves leader; "+
		"at T = 5 every property holds with T2 = 2, but T2 = 1 is violated only where the channel bound of 2 messages cut a fair step, so a smaller T2 may hold: a larger --max-queue decides\n")
}

// Where nothing happens, every T holds because no timer ever runs: the
// verdict line says it holds vacuously, and why, not only the properties'
// lines.
func TestTimeoutAutoVerdictSaysVacuous(t *testing.T) {
	code, out, stderr := run("--algo", "bully", "--n", "2", "--down", "1", "--timing", "sync", "--timeout", "auto")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "  verdict: every property holds vacuously from T = 1 at D = 1 (T2 at its default 2T+2D); at T = 1 every property holds already with T2 = 1; "+
		"vacuous: no step is enabled in the initial state, so every property holds of the initial state alone; to change that, try --initial-leader=false (start with an election), or --crash-any or --crashes K (let processes fail)\n")

	code, out, stderr = run("--algo", "bully", "--n", "2", "--down", "1", "--timing", "sync", "--timeout", "auto", "--json")
	require.Equal(t, 0, code, stderr)
	var rep struct {
		Timeouts struct {
			Verdict string `json:"verdict"`
		} `json:"timeouts"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Contains(t, rep.Timeouts.Verdict, "every property holds vacuously from T = 1 at D = 1")
}
