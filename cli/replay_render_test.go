package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// replay says "genuine" of a file whose message text is a terminal escape
// sequence (the text is not compared, only the message as data): what it
// prints and draws is the model's text, and no raw control character
// reaches the terminal, the SVG or the Markdown chart.
func TestReplayShowsTheModelsTextNotTheFiles(t *testing.T) {
	data, err := os.ReadFile("../testdata/golden/circulating-election.Termination-fair-cycle.trace.json")
	require.NoError(t, err)
	text := strings.ReplaceAll(string(data), `"text": "ELECTION(4)"`, `"text": "\u001b[2J\u001b]0;owned\u0007HACKED"`)
	text = strings.Replace(text, `"summary": "`, `"summary": "HACKED `, 1)
	require.NotEqual(t, string(data), text)
	dir := t.TempDir()
	path := filepath.Join(dir, "evil.trace.json")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	for _, chart := range []string{"chart.svg", "chart.md"} {
		code, out, stderr := mainOut("replay", "--full-states", "--msc", filepath.Join(dir, chart), path)
		require.Equal(t, ExitHolds, code, stderr)
		assert.Contains(t, out, ": a genuine counterexample: Termination is violated")
		assert.Contains(t, out, "deliver p3→p1 ELECTION(4)")
		drawn, err := os.ReadFile(filepath.Join(dir, chart))
		require.NoError(t, err)
		for what, s := range map[string]string{"the text": out, chart: string(drawn)} {
			assert.NotContains(t, s, "HACKED", what)
			assert.False(t, strings.ContainsAny(s, "\x1b\x07"), "%s holds a raw control character", what)
		}
		assert.Contains(t, string(drawn), "ELECTION(4) of crashed p4 circulates forever", "the summary, from the model")
	}
}
