package cli_test

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/examples/lease"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// runLease runs mcheck with the lease of examples/lease registered (its
// parameters H and L).
func runLease(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	reg := specs.Builtin()
	require.NoError(t, reg.Register(specs.Spec{Name: "lease", InitialLeader: true, Build: specs.Builder(lease.Algorithm{})}))
	var out, errb bytes.Buffer
	code = cli.Main(args, reg, &out, &errb)
	return code, out.String(), errb.String()
}

// --param sets the algorithm's parameters: the heading shows them, a lease
// of H + D is caught and one tick more holds.
func TestParamFlag(t *testing.T) {
	code, out, stderr := runLease(t, "--algo", "lease", "--n", "2", "--timing", "sync", "--param", "H=2", "--param", "L=3")
	require.Equal(t, 1, code, stderr)
	assert.Contains(t, out, "mcheck lease, N=2, ids 1,2, no crashes, perfect detector, initial leader, timing sync, delay 1, timeout 3, timeout-coord 8, params H=2,L=3, max-queue 4\n")
	assert.Contains(t, out, "  SingleLeader  VIOLATED  after 5 steps p1 and p2 each consider themselves leader\n")

	code, out, stderr = runLease(t, "--algo", "lease", "--n", "2", "--timing", "sync", "--param", "H=2,L=4")
	require.Equal(t, 0, code, stderr+out)
	assert.Contains(t, out, ", params H=2,L=4, ")
}

// An unknown parameter or a value out of range: one line, exit 2, with
// the algorithm's parameters.
func TestParamFlagBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--algo", "lease", "--timing", "sync", "--param", "X=1"},
			"mcheck: --param X=1: the algorithm has no parameter X; its parameters are H (1 to 20, default 2: the heartbeat period, in ticks), L (1 to 40, default 6: the lease, in ticks)\n"},
		{[]string{"--algo", "lease", "--timing", "sync", "--param", "L=41"},
			"mcheck: --param L=41 is out of range: give L from 1 to 40; its parameters are H (1 to 20, default 2: the heartbeat period, in ticks), L (1 to 40, default 6: the lease, in ticks)\n"},
		{[]string{"--algo", "lease", "--timing", "sync", "--param", "X=auto"},
			"mcheck: --param X=auto: the algorithm has no parameter X; its parameters are H (1 to 20, default 2: the heartbeat period, in ticks), L (1 to 40, default 6: the lease, in ticks)\n"},
		{[]string{"--algo", "ring", "--param", "L=1"},
			"mcheck: --param L=1: the algorithm has no parameter L; the algorithm declares no parameters\n"},
		{[]string{"--algo", "bully", "--timing", "sync", "--param", "T=4", "--timeout", "5"},
			"mcheck: --param T=4 and --timeout 5 set the same timeout: give only one of them\n"},
		{[]string{"--algo", "lease", "--timing", "sync", "--param", "L=auto", "--complexity"},
			"mcheck: --complexity with --param L=auto: measures need one fixed value, give --param L=V\n"},
	} {
		code, out, stderr := runLease(t, tc.args...)
		assert.Equal(t, 2, code, "%v", tc.args)
		assert.Equal(t, "", out)
		assert.Equal(t, tc.want, stderr, "%v", tc.args)
	}
}

// Bully's T is a parameter: --param T=5 is --timeout 5, T=auto is
// --timeout auto.
func TestBullyTimeoutIsAParam(t *testing.T) {
	_, byParam, _ := run("--algo", "bully", "--n", "3", "--timing", "sync", "--crashes", "1", "--param", "T=2", "--quiet")
	_, byFlag, _ := run("--algo", "bully", "--n", "3", "--timing", "sync", "--crashes", "1", "--timeout", "2", "--quiet")
	assert.Contains(t, byFlag, "timeout 2, timeout-coord 6")
	noTime := regexp.MustCompile(`\ntime .*\n`)
	assert.Equal(t, noTime.ReplaceAllString(byFlag, ""), noTime.ReplaceAllString(byParam, ""))
	code, out, stderr := run("--algo", "bully", "--n", "3", "--timing", "sync", "--param", "T=auto", "--quiet")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "\ntimeout search (--timeout auto at delay 1, ")
}

// --param L=auto checks L = 1, 2, ... and says which parameter it searched,
// the smallest value and the counterexample of the largest that fails.
func TestParamAuto(t *testing.T) {
	code, out, stderr := runLease(t, "--algo", "lease", "--n", "2", "--timing", "sync", "--param", "H=2", "--param", "L=auto")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, ", params H=2,L=4, ", "the report is that of the value found")
	assert.Contains(t, out, "\nparameter search: L (--param L=auto, from 1; no time limit; ")
	assert.Regexp(t, `\n  L 1 +3 states .* fails: SingleLeader, Agreement\n  L 2 .*\n  L 3 .*\n  L 4 +9 states .* every property holds\n`, out)
	assert.Contains(t, out, "\n  verdict: SingleLeader and Agreement need L >= 4: at L = 3, SingleLeader: after 5 steps p1 and p2 each consider themselves leader; ")
	assert.Contains(t, out, "\nat L = 3, the largest L that fails:\n\nSingleLeader counterexample, 5 steps:\n")

	code, out, stderr = runLease(t, "--algo", "lease", "--n", "2", "--timing", "sync", "--param", "L=auto", "--json")
	require.Equal(t, 0, code, stderr)
	var rep struct {
		ParamSearch struct {
			Param   string
			Value   int
			Found   bool
			Verdict string
			Runs    []struct{ Value int }
			Failure struct{ Value int }
		} `json:"param_search"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	assert.Equal(t, "L", rep.ParamSearch.Param)
	assert.True(t, rep.ParamSearch.Found)
	assert.Equal(t, 4, rep.ParamSearch.Value, "at H = 2 (its default)")
	assert.Len(t, rep.ParamSearch.Runs, 4)
	assert.Equal(t, 3, rep.ParamSearch.Failure.Value)
	assert.Contains(t, rep.ParamSearch.Verdict, "SingleLeader and Agreement need L >= 4")

	// The whole range fails: exit 1.
	code, out, _ = runLease(t, "--algo", "lease", "--n", "2", "--timing", "sync", "--param", "L=1", "--param", "H=auto")
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "\n  H 20 ")
	assert.Contains(t, out, "\n  verdict: no H from 1 to 20 (its whole range) makes every property hold; at H = 20, SingleLeader: ")
}

// A trace keeps the parameters it was found with, and replays with them.
func TestTraceReplaysWithItsParams(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.json")
	code, _, stderr := runLease(t, "--algo", "lease", "--n", "2", "--timing", "sync", "--param", "L=3", "--check", "SingleLeader", "--trace-out", path)
	require.Equal(t, 1, code, stderr)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	f, err := trace.Read(bytes.NewReader(data))
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"H": 2, "L": 3}, f.Config.Params)
	code, out, stderr := runLease(t, "replay", path)
	require.Equal(t, cli.ExitHolds, code, stderr)
	assert.Contains(t, out, "a genuine counterexample: SingleLeader is violated")

	// Without them the lease runs its default 6 ticks: the trace's
	// timeout at tick 3 does not replay.
	noParams := regexp.MustCompile(`,\s*"params": \{[^}]*\}`)
	require.Regexp(t, noParams, string(data))
	require.NoError(t, os.WriteFile(path, noParams.ReplaceAll(data, nil), 0o644))
	code, out, stderr = runLease(t, "replay", path)
	assert.NotEqual(t, cli.ExitHolds, code, out)
	assert.NotContains(t, out, "a genuine counterexample", stderr)
}

// The explorer's URL keeps the parameters: param=H=2,L=3.
func TestParamsInTheExplorerURL(t *testing.T) {
	reg := specs.Builtin()
	require.NoError(t, reg.Register(specs.Spec{Name: "lease", InitialLeader: true, Build: specs.Builder(lease.Algorithm{})}))
	parse, query := cli.ExploreModels(reg)
	m, err := parse(url.Values{"algo": {"lease"}, "n": {"2"}, "timing": {"sync"}, "param": {"L=3"}})
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"H": 2, "L": 3}, m.Config.Params)
	q := query(m)
	assert.Equal(t, "H=2,L=3", q.Get("param"))
	back, err := parse(q)
	require.NoError(t, err)
	assert.Equal(t, m.Config, back.Config)

	_, err = parse(url.Values{"algo": {"lease"}, "timing": {"sync"}, "param": {"L=auto"}})
	assert.EqualError(t, err, "param=L=auto searches a parameter over several checks, and the page walks one model: give a value, like param=L=3")
	_, err = parse(url.Values{"algo": {"lease"}, "timing": {"sync"}, "param": {"Q=1"}})
	assert.ErrorContains(t, err, "--param Q=1: the algorithm has no parameter Q; its parameters are H ")
}
