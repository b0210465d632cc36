// Package tutorial_test keeps the output shown in the README tutorial honest:
// the failing run the page shows is run here, and every line of the page's
// excerpt must appear, in order, in the real failure text. (The page's Go
// code is compared with the files of this directory by
// mchecktest/tutorial_test.go in the main module.)
package tutorial_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"example.com/coursework/tutorial/myring"
	"github.com/mcheck/mcheck/mchecktest"
)

// The change the page asks the reader to make, and the excerpt's marker.
const (
	failingConfig = "mchecktest.Config{N: 3, Crashes: 1}"
	outputMarker  = "<!-- output: " + failingConfig + " -->"
)

var testPrefix = regexp.MustCompile(`^\S+_test\.go:\d+: `)

func TestTutorialOutputIsReal(t *testing.T) {
	page, err := os.ReadFile("../../../README.md")
	require.NoError(t, err)
	text := string(page)
	require.Contains(t, text, "`"+failingConfig+"`", "the page tells the reader which change makes the test fail")
	_, after, ok := strings.Cut(text, outputMarker+"\n```text\n")
	require.True(t, ok, "the page has the excerpt after %s", outputMarker)
	excerpt, _, ok := strings.Cut(after, "\n```\n")
	require.True(t, ok)

	rep, err := mchecktest.Run(myring.Algorithm{}, mchecktest.Config{N: 3, Crashes: 1})
	require.NoError(t, err)
	var real []string
	for _, l := range strings.Split(mchecktest.Failure(rep, false), "\n") {
		real = append(real, strings.TrimSpace(l))
	}

	next := 0
	for _, l := range strings.Split(excerpt, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "...") || strings.HasPrefix(l, "--- FAIL") {
			continue // elisions, and go test's own line with the time
		}
		l = testPrefix.ReplaceAllString(l, "")
		found := false
		for ; next < len(real); next++ {
			if real[next] == l {
				found, next = true, next+1
				break
			}
		}
		require.True(t, found, "the page's output line %q is not in the real failure (in this order):\n%s", l, strings.Join(real, "\n"))
	}
}
