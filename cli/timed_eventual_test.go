package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docs/time.md shows --detector eventual beside the oracle detector: the
// lines it shows are the real output's, in order; the witness written with
// --trace-out replays; the oracle detector's answer is Termination holds.
func TestTimedEventualDetectorAsTimeMDShowsIt(t *testing.T) {
	doc, err := os.ReadFile("../docs/time.md")
	require.NoError(t, err)
	m := regexp.MustCompile("(?s)\n  ```\n  \\$ mcheck (--algo bully --n 3 --crash-any --timing partial --detector eventual[^\n]*)\n(.*?)  ```").FindSubmatch(doc)
	require.NotNil(t, m, "docs/time.md shows the eventual detector's run")
	args := strings.Fields(string(m[1]))
	trace := filepath.Join(t.TempDir(), "eventual.json")
	code, out, stderr := run(append(args, "--trace-out", trace)...)
	assert.Equal(t, 1, code, stderr)
	linesInOrder(t, strings.ReplaceAll("\n"+string(m[2]), "\n  ", "\n")[1:], out)
	code, out, stderr = run("replay", trace)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "a genuine counterexample: Termination is violated (stuck, 12 steps; every step replays)")

	// The oracle (perfect) detector: Termination holds at N = 3.
	code, out, stderr = run("--algo", "bully", "--n", "3", "--crash-any", "--timing", "partial", "--check", "Termination")
	assert.Equal(t, 0, code, stderr)
	assert.Regexp(t, `(?m)^  Termination +holds`, out)
}

// linesInOrder requires every line a doc shows (but "...", which stands
// for lines left out) in out, in the order shown.
func linesInOrder(t *testing.T, shown, out string) {
	t.Helper()
	real, next := strings.Split(out, "\n"), 0
	for _, want := range strings.Split(strings.TrimRight(shown, "\n"), "\n") {
		if strings.TrimSpace(want) == "..." {
			continue
		}
		for next < len(real) && real[next] != want {
			next++
		}
		require.Less(t, next, len(real), "the line %q is not in the output (in order):\n%s", want, out)
		next++
	}
}

// docs/time.md shows the heartbeat detector's runs: a timeout of P + D - 1
// times out a live leader (exit 1), the default P + D holds (exit 0); the
// lines shown are the real output's, in order.
func TestTimedHeartbeatDetectorAsTimeMDShowsIt(t *testing.T) {
	doc, err := os.ReadFile("../docs/time.md")
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(doc), "## Failure detection by timeout: `--detector heartbeat`")
	require.True(t, ok, "docs/time.md has the heartbeat detector's section")
	section, _, _ = strings.Cut(section, "\n## ")
	blocks := regexp.MustCompile("(?s)\n```\n\\$ mcheck ([^\n]*)\n(.*?)```").FindAllStringSubmatch(section, -1)
	require.Len(t, blocks, 2)
	for i, want := range []int{1, 0} {
		code, out, stderr := run(strings.Fields(blocks[i][1])...)
		assert.Equal(t, want, code, "%s\n%s", blocks[i][1], stderr)
		linesInOrder(t, blocks[i][2], out)
	}
	// The prose's other claims, by exit status.
	for args, want := range map[string]int{
		"--algo bully --n 3 --crash-any --timing sync --detector heartbeat --heartbeat-period 2":                               0,
		"--algo bully --n 2 --timing sync --detector heartbeat --heartbeat-period 2 --heartbeat-timeout 2 --check Termination": 1,
		"--algo bully --n 2 --timing sync --detector heartbeat --delay 2 --heartbeat-timeout 2 --check Termination":            1,
		"--algo bully --n 2 --timing sync --detector heartbeat --heartbeat-period 2 --check Termination":                       0,
		"--algo bully --n 2 --timing sync --detector heartbeat --delay 2 --check Termination":                                  0,
		"--algo bully --n 2 --crashes 1 --timing partial --detector heartbeat --check SingleLeader":                            1,
	} {
		code, _, stderr := run(strings.Fields(args)...)
		assert.Equal(t, want, code, "%s\n%s", args, stderr)
	}
}
