package report

import (
	"fmt"
	"io"
	"time"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/plural"
)

// writeDeepening lists the bounds that the deepening (check.Deepening) tried and says what
// the verdicts above are about.
func writeDeepening(w io.Writer, r *Result) {
	d := r.Deepening
	if d == nil {
		return
	}
	fmt.Fprintf(w, "\nbound deepening (%s, %s; the memory budget and %s apply to each bound), %.2f s in all\n", r.set("MaxQueue", "auto"), limitWords(d.TimeLimit), r.set("MaxStates", ""), d.Elapsed.Seconds())
	for _, b := range d.Bounds {
		status := "complete"
		switch {
		case d.Violation && b.MaxQueue == d.Verdicts:
			status = "VIOLATION"
		case d.Examples && b.MaxQueue == d.Verdicts:
			status = "every example found"
		case b.NotStarted:
			status = fmt.Sprintf("not started: %s left, less than bound %d took", seconds(b.Left), b.MaxQueue-1)
		case !b.Complete:
			status = "stopped: " + b.Stopped
		case b.Undecided != "":
			status = "finished, but not every property decided: " + b.Undecided
		case b.BoundedOnly:
			status = "complete; violated only where the bound cut a fair step"
		}
		if b.NotStarted {
			fmt.Fprintf(w, "  max-queue %-3d %s\n", b.MaxQueue, status)
			continue
		}
		fmt.Fprintf(w, "  max-queue %-3d %12s states  %12s discarded  %8.2f s  %s\n",
			b.MaxQueue, Commas(b.States), Commas(b.Discarded), b.Elapsed.Seconds(), status)
	}
	fmt.Fprintf(w, "  verdict: %s\n", deepeningVerdict(r))
}

// limitWords says what time limit a sweep of searches had.
func limitWords(limit time.Duration) string {
	if limit > 0 {
		return "time limit " + limit.String()
	}
	return "no time limit"
}

// deepeningVerdict says in one sentence what the verdicts are about.
func deepeningVerdict(r *Result) string {
	d := r.Deepening
	k := d.Verdicts
	var s string
	switch {
	case d.Violation:
		return fmt.Sprintf("a property is violated with at most %s per channel; the counterexample is a run of the model (unbounded too, unless marked \"for the bounded model only\")", plural.Count(k, "message"))
	case d.Examples:
		return fmt.Sprintf("every property has its example with at most %s per channel, each a run of the model (unbounded too)", plural.Count(k, "message"))
	case k == 0:
		return "not even the search at bound 1 finished, so no property can be said to hold"
	case r.Stats.Stop == explore.StopInterrupted:
		return fmt.Sprintf("%s; bound %d found no violation with at most %s per channel, but deepening did not finish, so no property can be said to hold", r.Stats.Stopped, k, plural.Count(k, "message"))
	case d.Exhaustive:
		return fmt.Sprintf("bound %d discarded nothing: no run ever has more than %s in a channel, so the verdicts are for the unbounded model", k, plural.Count(k, "message"))
	default:
		s = fmt.Sprintf("the verdicts are for every run with at most %s per channel; a run that needs more was not explored, so a violation that needs one is not ruled out", plural.Count(k, "message"))
	}
	if b := d.Stopped(); b != nil && b.NotStarted {
		prev := d.Bounds[len(d.Bounds)-2]
		s += fmt.Sprintf("; bound %d was not started with %s left: it has all %s states of bound %d and more, which took %s",
			b.MaxQueue, seconds(b.Left), approx(prev.States), prev.MaxQueue, seconds(prev.Elapsed))
	} else if b != nil && b.Complete {
		s += fmt.Sprintf("; at bound %d not every property was decided (%s)", b.MaxQueue, b.Undecided)
	} else if b != nil {
		s += fmt.Sprintf("; bound %d stopped at %s with %s states (%s)", b.MaxQueue, seconds(d.Elapsed), approx(b.States), b.Stopped)
	} else if d.AtMaxBound {
		s += fmt.Sprintf("; %d is the largest bound mcheck can check", k)
	}
	return s
}

// approx renders a count as people say it: 41 M, 7.6 M, 110,807.
func approx(n int64) string {
	switch {
	case n >= 10_000_000:
		return fmt.Sprintf("%d M", (n+500_000)/1_000_000)
	case n >= 1_000_000:
		return fmt.Sprintf("%.1f M", float64(n)/1e6)
	}
	return Commas(n)
}

type jsonDeepening struct {
	TimeLimitSeconds float64     `json:"time_limit_seconds,omitempty"`
	Seconds          float64     `json:"seconds"`
	VerdictBound     int         `json:"verdict_bound"`
	Exhaustive       bool        `json:"exhaustive"`
	Violation        bool        `json:"violation"`
	Examples         bool        `json:"examples,omitempty"`
	Verdict          string      `json:"verdict"`
	Bounds           []jsonBound `json:"bounds"`
}

type jsonBound struct {
	MaxQueue int `json:"max_queue"`
	jsonAttempt
}

// jsonAttempt is one search of a sweep (check.Attempt).
type jsonAttempt struct {
	Complete    bool    `json:"complete"`
	States      int64   `json:"states"`
	Transitions int64   `json:"transitions"`
	Discarded   int64   `json:"discarded"`
	Seconds     float64 `json:"seconds"`
	MemoryBytes int64   `json:"memory_bytes"`
	Stopped     string  `json:"stopped,omitempty"`
	BoundedOnly bool    `json:"violated_for_the_bound_only,omitempty"`
	NotStarted  bool    `json:"not_started,omitempty"`
	Undecided   string  `json:"undecided,omitempty"`
}

func deepeningJSON(r *Result) *jsonDeepening {
	d := r.Deepening
	if d == nil {
		return nil
	}
	out := &jsonDeepening{TimeLimitSeconds: d.TimeLimit.Seconds(), Seconds: d.Elapsed.Seconds(), VerdictBound: d.Verdicts, Exhaustive: d.Exhaustive,
		Violation: d.Violation, Examples: d.Examples, Verdict: deepeningVerdict(r)}
	for _, b := range d.Bounds {
		out.Bounds = append(out.Bounds, jsonBound{MaxQueue: b.MaxQueue, jsonAttempt: attemptJSON(b.Attempt)})
	}
	return out
}

func attemptJSON(a check.Attempt) jsonAttempt {
	return jsonAttempt{Complete: a.Complete, States: a.States, Transitions: a.Transitions, Discarded: a.Discarded,
		Seconds: a.Elapsed.Seconds(), MemoryBytes: a.MemBytes, Stopped: a.Stopped, BoundedOnly: a.BoundedOnly, NotStarted: a.NotStarted, Undecided: a.Undecided}
}

// seconds renders a duration as 0.18 s, 4.2 s or 61 s.
func seconds(d time.Duration) string {
	switch s := d.Seconds(); {
	case s < 1:
		return fmt.Sprintf("%.2f s", s)
	case s < 10:
		return fmt.Sprintf("%.1f s", s)
	default:
		return fmt.Sprintf("%.0f s", s)
	}
}
