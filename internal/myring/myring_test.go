package myring_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// This package is the tutorial's student algorithm, docs/tutorial.md's
// first myring/myring.go block, copied so that benchmarks (check's
// BenchmarkTutorialRing) measure the algorithm the page shows: no Codec,
// so the kernel's generic path. The copy must stay the page's text.
func TestSameAsTheTutorial(t *testing.T) {
	page, err := os.ReadFile("../../docs/tutorial.md")
	require.NoError(t, err)
	_, block, ok := strings.Cut(string(page), "<!-- file: myring/myring.go -->\n```go\n")
	require.True(t, ok, "the tutorial has no myring/myring.go block")
	block, _, ok = strings.Cut(block, "\n```\n")
	require.True(t, ok, "the myring/myring.go block is not closed")
	copied, err := os.ReadFile("myring.go")
	require.NoError(t, err)
	require.Equal(t, block+"\n", string(copied), "internal/myring/myring.go is not the tutorial's block: copy it again")
}
