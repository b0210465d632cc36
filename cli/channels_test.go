package cli_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// --channels: an unknown discipline is one line and exit 2; unordered
// reaches the search (its counts and the configuration line), fifo is
// the default's counts and says nothing.
func TestChannelsFlag(t *testing.T) {
	code, out, stderr := run("--algo", "ring", "--channels", "lifo")
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Equal(t, "mcheck: --channels: \"lifo\" is unknown: use fifo or unordered (docs/model.md explains them) (see mcheck --help)\n", stderr)

	code, out, stderr = run("--algo", "chang-roberts", "--n", "3", "--channels", "unordered")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "mcheck chang-roberts, N=3, ids 1,2,3, no crashes, perfect detector, unordered channels, max-queue 6\n")
	assert.Contains(t, out, "states       201 distinct\ntransitions  422\n") // TestUnorderedCountsAgreeWithAnOracle's

	_, def, _ := run("--algo", "chang-roberts", "--n", "3")
	code, fifo, stderr := run("--algo", "chang-roberts", "--n", "3", "--channels", "fifo")
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, fifo, "channels")
	assert.Equal(t, cut(def, "time "), cut(fifo, "time "))
}

// cut is out before the line that starts with prefix (timings differ).
func cut(out, prefix string) string {
	before, _, _ := strings.Cut(out, "\n"+prefix)
	return before
}
