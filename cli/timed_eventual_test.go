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
	real, next := strings.Split(out, "\n"), 0
	for _, want := range strings.Split(strings.TrimRight(string(m[2]), "\n"), "\n") {
		want = strings.TrimPrefix(want, "  ")
		if strings.TrimSpace(want) == "..." {
			continue
		}
		for next < len(real) && real[next] != want {
			next++
		}
		require.Less(t, next, len(real), "the line %q is not in the output (in order):\n%s", want, out)
		next++
	}
	code, out, stderr = run("replay", trace)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "a genuine counterexample: Termination is violated (stuck, 12 steps; every step replays)")

	// The oracle (perfect) detector: Termination holds at N = 3.
	code, out, stderr = run("--algo", "bully", "--n", "3", "--crash-any", "--timing", "partial", "--check", "Termination")
	assert.Equal(t, 0, code, stderr)
	assert.Regexp(t, `(?m)^  Termination +holds`, out)
}
