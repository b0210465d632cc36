package main

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docs/performance.md gives the current comparison with SPIN once: one
// ratio, with the date and the commit it was measured at; the older
// figures live in the history it links to, so the page cannot contradict
// itself.
func TestPerformanceStatesOneRatioAgainstSPIN(t *testing.T) {
	text, err := os.ReadFile("../../docs/performance.md")
	require.NoError(t, err)
	page := string(text)
	ratios := regexp.MustCompile(`\d+(\.\d+)?x SPIN`).FindAllString(page, -1)
	assert.Len(t, ratios, 1, "one ratio against SPIN: %v", ratios)
	assert.NotRegexp(t, `\d\.\d+-\d\.\d+ of\s+SPIN`, page, "no range of ratios beside it")
	assert.Regexp(t, `Measured on 20\d\d-\d\d-\d\d at commit [0-9a-f]{7}`, page)
	assert.Contains(t, page, "(../bench/history.md)")
}

// No merge leftovers are tracked: a *.orig file is a conflict's backup.
func TestNoMergeLeftovers(t *testing.T) {
	out, err := exec.Command("git", "-C", "../..", "ls-files").Output()
	require.NoError(t, err)
	for _, f := range strings.Split(string(out), "\n") {
		assert.False(t, strings.HasSuffix(f, ".orig"), "%s is a merge leftover", f)
	}
}

// Code comments say why, not which issue asked for it: the history lives
// in git, and an issue number tells a reader nothing the code does.
func TestNoIssueHistoryInCodeComments(t *testing.T) {
	issue := regexp.MustCompile(`(?i)\bissues? #?[0-9]+`)
	out, err := exec.Command("git", "-C", "../..", "ls-files", "*.go").Output()
	require.NoError(t, err)
	files := strings.Fields(string(out))
	require.Greater(t, len(files), 100)
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join("../..", name), nil, parser.ParseComments|parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, g := range f.Comments {
			if m := issue.FindString(g.Text()); m != "" {
				t.Errorf("%s: a comment cites %q: say why instead", name, m)
			}
		}
	}
}
