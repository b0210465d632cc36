package cli_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README's "Where the model and the notes differ" shows each difference
// with a command and an excerpt of its output, and docs/differences.md the
// longer witnesses. Every line shown after a "$ mcheck ..." there must be a
// line of the real output, in order ("..." stands for lines left out), and
// the exit status must be what the excerpt shows: a violation's where it
// shows one, 0 where it shows only measures.
func TestREADMEDifferencesShowRealOutput(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(readme), "\n## Where the model and the notes differ\n")
	require.True(t, ok, "the README has the section")
	section, _, _ = strings.Cut(section, "\n## ")
	full, err := os.ReadFile("../docs/differences.md")
	require.NoError(t, err)
	for _, page := range []struct {
		name, text string
		runs       int
	}{{"README.md", section, 6}, {"docs/differences.md", string(full), 18}} {
		runs := 0
		for _, block := range regexp.MustCompile("(?s)```\n(\\$ mcheck .*?)```").FindAllStringSubmatch(page.text, -1) {
			cmd, shown, _ := strings.Cut(block[1], "\n")
			cmd, _, _ = strings.Cut(strings.TrimPrefix(cmd, "$ mcheck "), "#")
			code, out, stderr := run(strings.Fields(cmd)...)
			want := 0
			if strings.Contains(shown, " VIOLATED ") {
				want = 1
			}
			assert.Equal(t, want, code, "%s: %s: %s", page.name, cmd, stderr)
			real := strings.Split(out, "\n")
			next := 0
			for _, want := range strings.Split(strings.TrimRight(shown, "\n"), "\n") {
				if want == "..." {
					continue
				}
				for next < len(real) && real[next] != want {
					next++
				}
				require.Less(t, next, len(real), "%s: %s: the line %q is not in the output (in order):\n%s", page.name, cmd, want, out)
				next++
			}
			runs++
		}
		assert.Equal(t, page.runs, runs, "%s: the runs of mcheck shown", page.name)
	}
}
