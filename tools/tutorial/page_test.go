package main

import (
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README's first screen runs the first check, then the first chart,
// the other commands that show what mcheck finds and timed Bully, each with
// an excerpt of its output. (Running them is go run ./tools/tutorial, in .ci/run.)
func TestTheReadmeSteps(t *testing.T) {
	page, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	steps, err := loadReadme(string(page))
	require.NoError(t, err)
	var kinds []stepKind
	var exits []int
	for _, s := range steps {
		kinds = append(kinds, s.kind)
		if s.kind == runStep {
			exits = append(exits, s.exit)
		}
	}
	assert.Equal(t, []stepKind{runStep, outputStep, runStep, outputStep, runStep, outputStep, runStep, outputStep, runStep, outputStep, runStep, outputStep, runStep, outputStep}, kinds)
	assert.Equal(t, "go run ./cmd/mcheck --algo bully --n 4 --crash-any\n", steps[0].text, "the first check comes first")
	assert.Contains(t, steps[2].text, "--msc chart.svg", "then the first chart")
	assert.Equal(t, []int{0, 1, 1, 1, 0, 1, 1}, exits)

	_, err = loadReadme("<!-- run -->\n```sh\ngo run ./cmd/mcheck --algo bully --n 4 --crash-any\n```\n")
	assert.EqualError(t, err, `no <!-- run --> block runs "--msc": the first check and the first chart are part of the path`)
	_, err = loadReadme("<!-- file: a.go -->\n```go\npackage a\n```\n")
	assert.EqualError(t, err, "line 1: the README runs commands only; files and edits belong in the tutorial")
}

// The tutorial parses into the steps a student takes, in order.
func TestTheTutorialSteps(t *testing.T) {
	page, err := os.ReadFile("../../docs/tutorial.md")
	require.NoError(t, err)
	steps, err := loadTutorial(string(page))
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
		fileStep, editStep, runStep, outputStep,
		fileStep, fileStep, runStep, outputStep, editStep, runStep, outputStep,
		fileStep, fileStep, runStep, outputStep, fileStep, editStep, runStep, outputStep, runStep, outputStep}, kinds)
	assert.Equal(t, []string{"myring/myring.go", "myring/myring_test.go", "mcheck/main.go", "myring/properties.go", "myring/questions.go", "myring/messages.go",
		"myecho/myecho.go", "myecho/myecho_test.go", "mylease/mylease.go", "mylease/mylease_test.go", "mcheck/lease.go"}, files)
	assert.Equal(t, 1, steps[8].exit, "the broken test fails")
	assert.Equal(t, 1, steps[18].exit, "the broken invariant fails")
	assert.Equal(t, 1, steps[24].exit, "the leads-to fails")
	assert.Equal(t, 0, steps[28].exit, "the message bound holds")
	assert.Equal(t, 1, steps[32].exit, "the timer of a round trip fails")
	assert.Equal(t, 0, steps[35].exit, "the timer of a round trip and a tick passes")
	assert.Equal(t, 0, steps[39].exit, "the lease's tests pass (too short a lease caught)")
	assert.Equal(t, 1, steps[43].exit, "a lease of H+D from the command line fails")
	assert.Equal(t, 0, steps[45].exit, "--param L=auto finds the smallest lease")
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

// The README's second command, the tests, is the one .ci/run runs last, with
// the slow tests and a timeout added: the README's Tests section and .ci/run
// say the same.
func TestTheReadmeTestCommandIsCIs(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	m := regexp.MustCompile("(?m)^```sh\n(go test[^\n]*)\n```$").FindStringSubmatch(string(readme))
	require.NotNil(t, m, "the README shows the test command in a ```sh block")
	ci, err := os.ReadFile("../../.ci/run")
	require.NoError(t, err)
	last := regexp.MustCompile(`(?m)^go test .*$`).FindAllString(string(ci), -1)
	require.NotEmpty(t, last, ".ci/run runs go test")
	// .ci/run's own additions: the slow tests and an explicit timeout.
	got := regexp.MustCompile(` -(tags slow|timeout \S+)`).ReplaceAllString(last[len(last)-1], "")
	assert.Equal(t, m[1], got, "the README's test command is .ci/run's last go test, less -tags slow and -timeout")
	assert.Contains(t, string(readme), "`"+m[1]+"` is the fast loop", "the README's Tests section names the same command")
}
