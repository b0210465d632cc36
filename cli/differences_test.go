package cli_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README's "Where the model and the notes differ" shows commands with
// excerpts of their output as witnesses. Every line shown after a
// "$ mcheck ..." there must be a line of the real output, in order ("..."
// stands for lines left out), and the exit status must be a violation's.
func TestREADMEDifferencesShowRealOutput(t *testing.T) {
	text, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(text), "\n### Where the model and the notes differ\n")
	require.True(t, ok, "the README has the section")
	if end := regexp.MustCompile(`\n#{2,3} `).FindStringIndex(section); end != nil {
		section = section[:end[0]]
	}
	runs := 0
	for _, block := range regexp.MustCompile("(?s)```\n(\\$ mcheck .*?)```").FindAllStringSubmatch(section, -1) {
		cmd, shown, _ := strings.Cut(block[1], "\n")
		cmd, _, _ = strings.Cut(strings.TrimPrefix(cmd, "$ mcheck "), "#")
		code, out, stderr := run(strings.Fields(cmd)...)
		assert.Equal(t, 1, code, "%s: %s", cmd, stderr)
		real := strings.Split(out, "\n")
		next := 0
		for _, want := range strings.Split(strings.TrimRight(shown, "\n"), "\n") {
			if want == "..." {
				continue
			}
			for next < len(real) && real[next] != want {
				next++
			}
			require.Less(t, next, len(real), "%s: the line %q is not in the output (in order):\n%s", cmd, want, out)
			next++
		}
		runs++
	}
	assert.Equal(t, 2, runs, "the section shows two runs of mcheck")
}
