package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/internal/golden"
	"github.com/mcheck/mcheck/specs"
)

// traceKinds are runs whose trace files are kept under testdata/golden
// besides the seed examples', so that together they hold a trace of every
// kind the command line writes: the step property's, an anonymous
// configuration's, --ids perm's, and the witnesses of --complexity (a run,
// the synchronous schedule, an unbounded lasso), a timed run (ages,
// timers, gst: docs/semantics.md section 6), each also as ITF. `go
// test ./cli -update` rewrites them.
var traceKinds = []struct {
	name string
	args []string
	exit int
}{
	{"kind-anonymous", []string{"--algo", "ring", "--ids", "1,2,2", "--anonymous", "--continue"}, 1},
	{"kind-step", []string{"--algo", "bully", "--n", "3", "--detector", "unreliable", "--check", "LeaderNotDemoted"}, 1},
	{"kind-perm", []string{"--algo", "chang-roberts", "--n", "3", "--ids", "perm", "--crashes", "1", "--continue"}, 1},
	{"kind-witness", []string{"--algo", "chang-roberts", "--n", "3", "--complexity"}, 0},
	{"kind-sync", []string{"--algo", "chang-roberts", "--n", "3", "--complexity", "--witness", "sync"}, 0},
	{"kind-unbounded", []string{"--algo", "chang-roberts", "--n", "2", "--detector", "unreliable", "--complexity", "--check", "safety"}, 0},
	{"kind-timed", []string{"--algo", "bully", "--n", "3", "--crashes", "2", "--timing", "partial", "--timeout", "2", "--check", "SingleLeader"}, 1},
}

func TestGoldenTraceKinds(t *testing.T) {
	dir := filepath.Join("..", "testdata", "golden")
	for _, ex := range traceKinds {
		t.Run(ex.name, func(t *testing.T) {
			_, files := traceFiles(t, append(ex.args, "--quiet"), ex.exit)
			require.NotEmpty(t, files)
			for _, f := range files {
				data, err := os.ReadFile(f)
				require.NoError(t, err)
				golden.Check(t, filepath.Join(dir, ex.name+"."+filepath.Base(f)), data)
			}
			// The first trace again, as ITF.
			itf := filepath.Join(t.TempDir(), "t.itf.json")
			var out, errb bytes.Buffer
			code := cli.Main(append(ex.args, "--trace-out", itf, "--quiet"), specs.Builtin(), &out, &errb)
			require.Equal(t, ex.exit, code, errb.String())
			data, err := os.ReadFile(itf)
			require.NoError(t, err)
			golden.Check(t, filepath.Join(dir, ex.name+".itf.json"), data)
		})
	}
}
