package mchecktest_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tutorial (the README section "Write and check your
// own election algorithm") shows code that lives, built and tested, in
// examples/coursework/tutorial (a module of its own, tested by .ci/run).
// This test keeps the two identical: every Go block of the page is preceded
// by <!-- file: PATH --> and equals that file, and every Go file of the
// directory is on the page (but doc_test.go, which checks the page's output
// excerpt against a real run). It also holds the page to its promise of
// under 60 lines of code.

const (
	tutorialPage = "../README.md"
	tutorialDir  = "../examples/coursework/tutorial"
)

var (
	fileMarker = regexp.MustCompile(`^<!-- file: (\S+) -->$`)
	locClaim   = regexp.MustCompile(`(\d+) lines of Go`)
)

// goBlocks returns the page's ```go blocks by the file each is marked with.
func goBlocks(t *testing.T, page string) map[string]string {
	t.Helper()
	blocks := map[string]string{}
	lines := strings.Split(page, "\n")
	marked := ""
	for i := 0; i < len(lines); i++ {
		if m := fileMarker.FindStringSubmatch(lines[i]); m != nil {
			marked = m[1]
			continue
		}
		if lines[i] != "```go" {
			continue
		}
		require.NotEmpty(t, marked, "line %d: a ```go block without a <!-- file: PATH --> line before it", i+1)
		var b strings.Builder
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			b.WriteString(lines[i] + "\n")
		}
		require.NotContains(t, blocks, marked, "two blocks for %s", marked)
		blocks[marked] = b.String()
		marked = ""
	}
	return blocks
}

// linesOfCode counts lines that are neither blank nor only a comment.
func linesOfCode(src string) int {
	n := 0
	for _, l := range strings.Split(src, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "//") {
			n++
		}
	}
	return n
}

func TestTutorialCodeIsTheTestedCode(t *testing.T) {
	page, err := os.ReadFile(tutorialPage)
	require.NoError(t, err)
	require.Contains(t, string(page), "\n## Write and check your own election algorithm\n")
	blocks := goBlocks(t, string(page))
	require.NotEmpty(t, blocks)

	var files []string
	require.NoError(t, filepath.WalkDir(tutorialDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") && d.Name() != "doc_test.go" {
			rel, _ := filepath.Rel(tutorialDir, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	}))
	for _, f := range files {
		assert.Contains(t, blocks, f, "%s/%s is not on the tutorial page", tutorialDir, f)
	}
	loc := 0
	for name, code := range blocks {
		want, err := os.ReadFile(filepath.Join(tutorialDir, filepath.FromSlash(name)))
		if !assert.NoError(t, err, "the page shows %s, which is not in %s", name, tutorialDir) {
			continue
		}
		assert.Equal(t, string(want), code, "the page's %s differs from %s/%s", name, tutorialDir, name)
		loc += linesOfCode(code)
	}

	assert.Less(t, loc, 60, "the tutorial promises under 60 lines of code")
	m := locClaim.FindStringSubmatch(string(page))
	require.NotNil(t, m, "the page says how many lines of Go it takes")
	assert.Equal(t, strconv.Itoa(loc), m[1], "the page's count of lines of Go")
}
