package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/specs"
)

func mustRegistry(t *testing.T) *specs.Registry {
	reg, err := registry()
	require.NoError(t, err)
	return reg
}

func run(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	reg, err := registry()
	if err != nil {
		return -1, "", err.Error()
	}
	code := cli.Main(args, reg, &out, &errb)
	return code, out.String(), errb.String()
}

func TestRegistered(t *testing.T) {
	assert.Equal(t, []string{"bully", "bully-no-ok", "chang-roberts", "cr-no-marks", "hirschberg-sinclair", "lelann", "lelann-notes-order", "maxring",
		"ring", "ring-detect", "ring-fixed", "ring-no-check", "ring-timeout"}, mustRegistry(t).Names())
}

func TestCommandLine(t *testing.T) {
	code, out, errs := run("--algo", "ring-fixed", "--n", "3", "--crash-any")
	assert.Equal(t, cli.ExitHolds, code, errs)
	assert.Contains(t, out, "mcheck ring-fixed, N=3, ids 1,2,3, crash-any (up to 2 crashes), perfect detector, max-queue 6\n")
	assert.Contains(t, out, "states       11,689 distinct\n")
	assert.Contains(t, out, "  Termination   holds\n")

	code, out, _ = run("--algo", "ring-detect", "--n", "3", "--crash-any", "--continue")
	assert.Equal(t, cli.ExitViolation, code)
	assert.Contains(t, out, "Termination   VIOLATED (also without the bound: it cut no step of this run)  ELECTED(3) of crashed p3 circulates forever")

	code, out, _ = run("--algo", "maxring", "--ids", "3,9,4,8")
	assert.Equal(t, cli.ExitHolds, code)
	assert.Contains(t, out, "states       76 distinct\n")

	code, _, errs = run("--algo", "nosuch")
	assert.Equal(t, cli.ExitIncomplete, code)
	assert.Contains(t, errs, "cr-no-marks")
}

// The worked example "Bully without OK" in mcheck's docs/model.md, and
// LeLann in the notes' send order in README.md and docs/differences.md, show this
// program's output: every line shown after a "$ go run ./cmd/mycheck ..."
// must be in the real output, in order ("..." stands for lines left out).
func TestWorkedExampleOutput(t *testing.T) {
	for page, want := range map[string]int{"../../../../docs/model.md": 2, "../../../../README.md": 1, "../../../../docs/differences.md": 1} {
		text, err := os.ReadFile(page)
		require.NoError(t, err)
		runs := 0
		for _, block := range regexp.MustCompile("(?s)```\n(\\$ .*?)```").FindAllStringSubmatch(string(text), -1) {
			for _, seg := range strings.Split("\n"+block[1], "\n$ ")[1:] {
				cmd, shown, _ := strings.Cut(seg, "\n")
				args, ok := strings.CutPrefix(cmd, "go run ./cmd/mycheck ")
				if !ok {
					continue
				}
				args, _, _ = strings.Cut(args, "#")
				_, out, _ := run(strings.Fields(args)...)
				real := strings.Split(out, "\n")
				next := 0
				for _, want := range strings.Split(strings.TrimRight(shown, "\n"), "\n") {
					if want == "..." {
						continue
					}
					for next < len(real) && real[next] != want {
						next++
					}
					require.Less(t, next, len(real), "%s: %s: the line %q is not in the output (in order):\n%s", page, args, want, out)
					next++
				}
				runs++
			}
		}
		assert.Equal(t, want, runs, "%s: the runs of mycheck shown", page)
	}
}
