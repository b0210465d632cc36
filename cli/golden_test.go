package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/internal/golden"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// The seed examples of the course notes, as golden reports and trace files
// under testdata/golden. `go test ./... -update` rewrites them.
var seedExamples = []struct {
	name string
	args []string
	exit int
}{
	{"circulating-election", []string{"--algo", "chang-roberts", "--n", "4", "--crashes", "1", "--continue"}, 1},
	{"bully-restart", []string{"--algo", "bully", "--n", "3", "--crashes", "1", "--restarts", "1", "--check", "safety"}, 1},
	{"bully-unreliable", []string{"--algo", "bully", "--n", "3", "--detector", "unreliable", "--check", "safety"}, 1},
	{"bully-unreliable-termination", []string{"--algo", "bully", "--n", "3", "--detector", "unreliable", "--check", "termination", "--max-queue", "3", "--continue"}, 1},
	{"clean-run", []string{"--algo", "bully", "--n", "4", "--crash-any"}, 0},
}

// timeLine is the one line of a report that changes from run to run.
var timeLine = regexp.MustCompile(`(?m)^time .*$`)

func TestGoldenSeedExamples(t *testing.T) {
	dir := filepath.Join("..", "testdata", "golden")
	for _, ex := range seedExamples {
		t.Run(ex.name, func(t *testing.T) {
			out, files := traceFiles(t, ex.args, ex.exit)
			report := timeLine.ReplaceAll(out, []byte("time         (varies)"))
			golden.Check(t, filepath.Join(dir, ex.name+".txt"), report)

			if ex.exit == 0 {
				require.Empty(t, files)
				return
			}
			require.NotEmpty(t, files)
			for _, f := range files {
				data, err := os.ReadFile(f)
				require.NoError(t, err)
				golden.Check(t, filepath.Join(dir, ex.name+"."+filepath.Base(f)), data)
				// The kept file is a genuine counterexample.
				tf, err := trace.Read(bytes.NewReader(data))
				require.NoError(t, err)
				require.NoError(t, trace.Replay(tf, specs.Builtin()))
			}
		})
	}
}

// traceFiles runs mcheck with args and --trace-out a new directory, wants
// exit status exit, and returns the report and the trace files written.
func traceFiles(t *testing.T, args []string, exit int) (report []byte, files []string) {
	t.Helper()
	traces := t.TempDir() + "/"
	var out, errb bytes.Buffer
	code := cli.Main(append(args, "--trace-out", traces), specs.Builtin(), &out, &errb)
	require.Equal(t, exit, code, errb.String())
	files, err := filepath.Glob(traces + "*.trace.json")
	require.NoError(t, err)
	return out.Bytes(), files
}
