package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// SingleLeader and Agreement fail on the same two steps: the second
// counterexample names the first instead of repeating it, and both trace
// files are still written.
func TestSameCounterexamplePrintedOnce(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := run("--algo", "bully", "--n", "3", "--detector", "unreliable", "--check", "safety", "--trace-out", dir+"/")
	require.Equal(t, 1, code, out)
	assert.Contains(t, out, "\n\nAgreement counterexample, 2 steps: the same trace as SingleLeader's\n")
	assert.Equal(t, 1, strings.Count(out, "   1  suspect p1\n"), out)
	for _, p := range []string{"SingleLeader", "Agreement"} {
		_, err := os.Stat(filepath.Join(dir, p+"-invariant.trace.json"))
		assert.NoError(t, err, p)
	}
}
