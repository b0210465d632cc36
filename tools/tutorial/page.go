package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The README and the tutorial are sequences of steps, marked in the page
// with HTML comments that a reader of the rendered page does not see:
//
//	<!-- file: PATH -->           the next ```go block is the file PATH
//	<!-- run -->                  the next ```sh block is run; it must exit 0
//	<!-- run: exit N -->          the same, and it must exit N
//	<!-- output -->               the next ```text block is (an excerpt of)
//	                              the output of the run before it
//	<!-- edit: PATH: OLD => NEW --> the change the prose asks for
//
// Paths are relative to where the commands have gone so far (the README
// starts in a clone of mcheck; the tutorial next to it, then cds into its
// module).

// stepKind is what a step does.
type stepKind int

const (
	fileStep stepKind = iota
	runStep
	outputStep
	editStep
)

// step is one marked part of the page.
type step struct {
	kind     stepKind
	line     int    // the marker's line in the page, for messages
	path     string // file and edit
	text     string // file content, commands, expected output
	exit     int    // run
	old, new string // edit
}

var (
	markerRE = regexp.MustCompile(`^<!-- (file|run|output|edit)(?::\s*(.*?))?\s*-->$`)
	exitRE   = regexp.MustCompile(`^exit (\d+)$`)
	editRE   = regexp.MustCompile(`^(\S+): (.+) => (.+)$`)
	fences   = map[stepKind]string{fileStep: "```go", runStep: "```sh", outputStep: "```text"}
)

// parseSteps reads the marked steps of a text whose first line is line
// offset+1 of its page.
func parseSteps(section string, offset int) ([]step, error) {
	lines := strings.Split(section, "\n")
	var steps []step
	for i := 0; i < len(lines); i++ {
		m := markerRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		s := step{line: offset + i + 1}
		switch m[1] {
		case "file":
			s.kind, s.path = fileStep, m[2]
		case "run":
			s.kind = runStep
			if m[2] != "" {
				e := exitRE.FindStringSubmatch(m[2])
				if e == nil {
					return nil, fmt.Errorf("line %d: want <!-- run --> or <!-- run: exit N -->", s.line)
				}
				s.exit, _ = strconv.Atoi(e[1])
			}
		case "output":
			s.kind = outputStep
		case "edit":
			e := editRE.FindStringSubmatch(m[2])
			if e == nil {
				return nil, fmt.Errorf("line %d: want <!-- edit: PATH: OLD => NEW -->", s.line)
			}
			s.kind, s.path, s.old, s.new = editStep, e[1], e[2], e[3]
			steps = append(steps, s)
			continue
		}
		if s.kind == fileStep && s.path == "" {
			return nil, fmt.Errorf("line %d: <!-- file: --> needs a path", s.line)
		}
		// The block follows the marker, after blank lines at most.
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j >= len(lines) || lines[j] != fences[s.kind] {
			return nil, fmt.Errorf("line %d: the marker %q is not followed by a %s block", s.line, lines[i], fences[s.kind])
		}
		var b strings.Builder
		for j++; j < len(lines) && lines[j] != "```"; j++ {
			b.WriteString(lines[j] + "\n")
		}
		if j >= len(lines) {
			return nil, fmt.Errorf("line %d: the block is not closed", s.line)
		}
		s.text = b.String()
		if s.kind == outputStep && (len(steps) == 0 || steps[len(steps)-1].kind != runStep) {
			return nil, fmt.Errorf("line %d: <!-- output --> must follow a <!-- run --> block", s.line)
		}
		steps = append(steps, s)
		i = j
	}
	return steps, nil
}

var durationRE = regexp.MustCompile(`\b\d+(\.\d+)?s\b`)

// normalize makes a line comparable: no surrounding blanks, tabs as
// spaces, and durations (which change from run to run) as "Ns".
func normalize(l string) string {
	l = strings.Join(strings.Fields(l), " ")
	return durationRE.ReplaceAllString(l, "Ns")
}

// matchOutput checks that every line of want but "..." lines appears in
// got, in order; it returns the first line that does not.
func matchOutput(want, got string) (missing string, ok bool) {
	var real []string
	for _, l := range strings.Split(got, "\n") {
		real = append(real, normalize(l))
	}
	next := 0
	for _, l := range strings.Split(want, "\n") {
		l = normalize(l)
		if l == "" || l == "..." {
			continue
		}
		found := false
		for ; next < len(real); next++ {
			if real[next] == l {
				found, next = true, next+1
				break
			}
		}
		if !found {
			return l, false
		}
	}
	return "", true
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
