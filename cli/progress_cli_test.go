package cli_test

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/internal/slow"
	"github.com/mcheck/mcheck/specs"
)

// --progress with stderr a pipe, as in CI: plain lines, no escape codes.
func TestProgressFlagWithAPipeAsStderr(t *testing.T) {
	slow.Test(t) // 5 s: a second or more of search, for a progress line
	r, w, err := os.Pipe()
	require.NoError(t, err)
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		got <- b
	}()
	var out bytes.Buffer
	// A second or more of search: at least one progress line.
	code := cli.Main([]string{"--algo", "bully", "--n", "4", "--initial-leader=false", "--crash-any", "--workers", "1",
		"--max-states", "1000000", "--progress"}, specs.Builtin(), &out, w)
	require.NoError(t, w.Close())
	stderr := string(<-got)
	assert.Equal(t, 2, code, "stopped by --max-states: incomplete")
	assert.Contains(t, out.String(), "INCOMPLETE: --max-states 1000000 reached")
	assert.NotContains(t, stderr, "\r")
	assert.NotContains(t, stderr, "\033")
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	require.NotEmpty(t, lines[0], "at least one progress line")
	// The elapsed time is a time.Duration rounded to the second: "9s",
	// "1m0s" or "1h2m3s" on a slow machine.
	for _, l := range lines {
		assert.Regexp(t, `^mcheck: (\d+h)?(\d+m)?\d+s  [\d,]+ states  [\d,]+/s  depth \d+  queue [\d,]+  memory \S+ \S+  \d+% of --max-states  \d+% of the search's \S+ \S+ of --memory \S+ \S+$`, l)
	}
}
