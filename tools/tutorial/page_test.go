package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README's tutorial parses into the steps a student takes, in order.
// (Running them is go run ./tools/tutorial, in .ci/run.)
func TestTheReadmeTutorialSteps(t *testing.T) {
	page, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	steps, err := loadSteps(string(page))
	require.NoError(t, err)
	var kinds []stepKind
	var files []string
	for _, s := range steps {
		kinds = append(kinds, s.kind)
		if s.kind == fileStep {
			files = append(files, s.path)
		}
	}
	assert.Equal(t, []stepKind{runStep, fileStep, fileStep, runStep, outputStep, runStep, outputStep, editStep, runStep, outputStep, fileStep, runStep, outputStep,
		fileStep, editStep, runStep, outputStep, editStep, runStep, outputStep,
		editStep, fileStep, editStep, editStep, runStep, outputStep,
		fileStep, fileStep, runStep, outputStep, editStep, runStep, outputStep}, kinds)
	assert.Equal(t, []string{"myring/myring.go", "myring/myring_test.go", "mcheck/main.go", "myring/properties.go", "myring/questions.go",
		"myecho/myecho.go", "myecho/myecho_test.go"}, files)
	assert.Equal(t, 1, steps[8].exit, "the broken test fails")
	assert.Equal(t, 1, steps[18].exit, "the broken invariant fails")
	assert.Equal(t, 1, steps[24].exit, "the leads-to fails")
	assert.Equal(t, 1, steps[28].exit, "the timer of a round trip fails")
	assert.Equal(t, 0, steps[31].exit, "the timer of a round trip and a tick passes")
}

func TestParseStepsRejectsLooseMarkers(t *testing.T) {
	for _, c := range []struct{ page, want string }{
		{"<!-- file: a.go -->\n```sh\nx\n```\n", "line 1: the marker \"<!-- file: a.go -->\" is not followed by a ```go block"},
		{"<!-- output -->\n```text\nx\n```\n", "line 1: <!-- output --> must follow a <!-- run --> block"},
		{"<!-- run: twice -->\n```sh\nx\n```\n", "line 1: want <!-- run --> or <!-- run: exit N -->"},
		{"<!-- edit: a.go -->\n", "line 1: want <!-- edit: PATH: OLD => NEW -->"},
		{"<!-- run -->\n```sh\nx\n", "line 1: the block is not closed"},
	} {
		_, err := parseSteps(c.page, 0)
		assert.EqualError(t, err, c.want)
	}
	steps, err := parseSteps("<!-- run: exit 1 -->\n\n```sh\ngo test\n```\n<!-- output -->\n```text\nFAIL\n```\n<!-- edit: a.go: x => y z -->\n", 10)
	require.NoError(t, err)
	require.Len(t, steps, 3)
	assert.Equal(t, step{kind: runStep, line: 11, text: "go test\n", exit: 1}, steps[0])
	assert.Equal(t, step{kind: editStep, line: 20, path: "a.go", old: "x", new: "y z"}, steps[2])
}

func TestMatchOutput(t *testing.T) {
	got := "go: finding\nok  \texample.com/x\t0.013s\n--- FAIL: TestA (1.20s)\n    a_test.go:3: broken\nFAIL\n"
	_, ok := matchOutput("ok   example.com/x  0.02s\n...\n    a_test.go:3: broken\n", got)
	assert.True(t, ok, "blanks and durations do not matter; ... skips")
	missing, ok := matchOutput("a_test.go:3: broken\nok example.com/x 0.01s\n", got)
	assert.False(t, ok, "order matters")
	assert.Equal(t, "ok example.com/x Ns", missing)
	_, ok = matchOutput("a_test.go:3: fixed\n", got)
	assert.False(t, ok)
}
