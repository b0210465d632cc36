package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/report"
)

// plainEvery is how often progress is written as a plain line when stderr
// is not a terminal (a CI log, a file): often enough to see a long run
// move, rarely enough not to flood the log.
const plainEvery = 5 * time.Second

// progress shows a search's progress on stderr. On a terminal it keeps one
// line up to date, cut to the terminal's width so that it never wraps;
// elsewhere it writes a plain line every plainEvery, without escape codes.
// It shows what is known (states, rate, depth, queue, memory, and how much
// of --max-states and --memory is used), never a guessed time: a
// breadth-first search cannot know how many states are left, and memory
// does not grow at a steady rate.
type progress struct {
	w         io.Writer
	terminal  bool
	width     int // terminal columns
	maxStates int64
	budget    int64         // --memory (0: none)
	shown     bool          // a terminal line is on screen
	lastPlain time.Duration // search time of the last plain line
	search    string        // in a sweep (--max-queue auto, --timeout auto), the search under way
}

func newProgress(w io.Writer, maxStates, budget int64) *progress {
	p := &progress{w: w, maxStates: maxStates, budget: budget, lastPlain: -plainEvery}
	if f, ok := w.(*os.File); ok && isTerminal(f) {
		p.terminal, p.width = true, terminalWidth(f)
	}
	return p
}

// startSearch says that a search of a sweep begins (--max-queue auto: "bound
// 2"; --timeout auto: "T 3, T2 8"): its lines begin with name, and its time
// starts again from zero.
func (p *progress) startSearch(name string) {
	p.search, p.lastPlain = name, -plainEvery
}

// update shows pr.
func (p *progress) update(pr explore.Progress) {
	line := progressLine(pr, p.maxStates, p.budget)
	if p.search != "" {
		line = p.search + ": " + line
	}
	if !p.terminal {
		if pr.Elapsed-p.lastPlain < plainEvery {
			return
		}
		p.lastPlain = pr.Elapsed
		fmt.Fprintf(p.w, "mcheck: %s\n", line)
		return
	}
	// One column is left free: a line that fills the last column wraps on
	// some terminals.
	fmt.Fprintf(p.w, "\r%s\033[K", cut(line, p.width-1))
	p.shown = true
}

// done clears the terminal line before the report.
func (p *progress) done() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// progressLine is one progress report.
func progressLine(pr explore.Progress, maxStates, budget int64) string {
	var s string
	switch pr.Phase {
	case explore.CheckingFairCycles:
		s = fmt.Sprintf("%s  fair-cycle check over %s states: %s done (%s)  memory %s",
			pr.Elapsed.Round(time.Second), report.Commas(pr.Of), report.Commas(pr.Done), percent(pr.Done, max(pr.Of, 1)),
			explore.FormatBytes(pr.MemBytes))
	case explore.Simulating:
		s = fmt.Sprintf("%s  %s runs  %s steps (%s/s)  %s distinct states  longest run %d  memory %s",
			pr.Elapsed.Round(time.Second), report.Commas(pr.Done), report.Commas(pr.Transitions), report.Commas(report.PerSecond(pr.Transitions, pr.Elapsed)),
			report.Commas(pr.States), pr.Depth, explore.FormatBytes(pr.MemBytes))
	case explore.ComputingMeasures:
		s = fmt.Sprintf("%s  measures over %s states  memory %s",
			pr.Elapsed.Round(time.Second), report.Commas(pr.States), explore.FormatBytes(pr.MemBytes))
	default:
		s = fmt.Sprintf("%s  %s states  %s/s  depth %d  queue %s  memory %s",
			pr.Elapsed.Round(time.Second), report.Commas(pr.States), report.Commas(report.PerSecond(pr.States, pr.Elapsed)), pr.Depth,
			report.Commas(int64(pr.Queue)), explore.FormatBytes(pr.MemBytes))
	}
	if maxStates > 0 && pr.Phase == explore.Searching {
		s += fmt.Sprintf("  %s of --max-states", percent(pr.States, maxStates))
	}
	if budget > 0 {
		// The search stops at its share of the budget, not at the budget:
		// the share is what fills up, named as what it is.
		limit := max(explore.SearchLimit(budget), 1)
		s += fmt.Sprintf("  %s of the search's %s of --memory %s", percent(pr.MemBytes, limit), explore.FormatBytes(limit), explore.FormatBytes(budget))
	}
	return s
}

func percent(n, of int64) string {
	return strconv.FormatInt(min(100*n/of, 100), 10) + "%"
}

// cut shortens s to at most width characters.
func cut(s string, width int) string {
	if width < 1 || utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	return string(r[:width])
}

// terminalWidth is $COLUMNS, or the terminal's width, or 80.
func terminalWidth(f *os.File) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if n := windowWidth(f); n > 0 {
		return n
	}
	return 80
}
