package check

import (
	"context"
	"fmt"
	"time"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/plural"
)

// MaxBound is the largest channel bound a configuration can have
// (model.Config.Validate), where deepening gives up.
const MaxBound = 255

// Deepening is how bound deepening arrived at a report: every bound tried,
// in order, and why it stopped there.
type Deepening struct {
	// TimeLimit is the budget of all bounds together (0: none); each bound
	// also has the memory budget of the request.
	TimeLimit time.Duration
	Bounds    []BoundRun
	// Elapsed is the time of all bounds together.
	Elapsed time.Duration
	// Verdicts is the bound whose verdicts the report gives: the bound of
	// a violation, else the largest bound whose search finished; 0 when not
	// even bound 1 finished (the report is then that incomplete search).
	Verdicts int
	// Exhaustive: at bound Verdicts the search finished and the bound
	// discarded nothing, so the verdicts are those of the unbounded model.
	Exhaustive bool
	// Violation: a property is violated at bound Verdicts by a run that
	// is a counterexample without the bound too. A violation that only
	// the bound creates (a stuck state whose fair step it discarded) does
	// not stop deepening: a larger bound may remove it.
	Violation bool
	// Examples: the check has Sometimes properties only, and at bound
	// Verdicts each has its example (the search stopped there,
	// explore.StopExamples): a run of the model, unbounded too.
	Examples bool
	// AtMaxBound: every bound up to MaxBound finished and each discarded
	// steps, so deepening could go no further.
	AtMaxBound bool
}

// BoundRun is the search at one channel bound.
type BoundRun struct {
	MaxQueue int
	Attempt
}

// Stopped returns the bound that did not finish, if any.
func (d *Deepening) Stopped() *BoundRun {
	if n := len(d.Bounds); n > 0 && !d.Bounds[n-1].Finished() && !d.Violation && !d.Examples {
		return &d.Bounds[n-1]
	}
	return nil
}

// errTimeLimit is the cause of a search stopped by the time limit.
type errTimeLimit time.Duration

func (e errTimeLimit) Error() string {
	return fmt.Sprintf("time limit of %s reached", time.Duration(e))
}

// WithTimeLimit is ctx with a deadline limit from now whose cause says so;
// a search stopped by it reports "time limit of 1m0s reached".
func WithTimeLimit(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	if ctx == nil {
		ctx = context.Background()
	}
	return context.WithTimeoutCause(ctx, limit, errTimeLimit(limit))
}

// Deepen checks req at channel bounds 1, 2, 3, ... (req.Config.MaxQueue is
// ignored), within limit for all bounds together (0: no time limit) and
// req.MemoryBudget and req.MaxStates for each. It stops at the first bound whose search does
// not finish, finds a violation that is not an artefact of the bound
// (Verdict.Bounded), or discards nothing (then no run ever
// needs more messages in a channel, and the verdicts are exhaustive). The
// report returned is that of the violation, else of the largest bound that
// finished, else of bound 1 (incomplete); its Deepening field says which.
//
// Each bound is a search of its own: the state space of bound k is a subset
// of that of bound k+1, but the engine keeps no states between searches,
// and bound k costs a fraction of bound k+1 when the state space grows fast.
func Deepen(req Request, limit time.Duration) (*Report, error) {
	s := newSweep(req, limit)
	defer s.cancel()
	d := &Deepening{TimeLimit: limit}
	var best *Report
	for k := 1; k <= MaxBound; k++ {
		if a, skip := s.skip(); skip {
			d.Bounds = append(d.Bounds, BoundRun{MaxQueue: k, Attempt: a})
			break
		}
		r := req
		r.Config.MaxQueue = k
		rep, a, err := s.run(r)
		if err != nil {
			return nil, fmt.Errorf("bound %d: %w", k, err)
		}
		d.Bounds = append(d.Bounds, BoundRun{MaxQueue: k, Attempt: a})
		st := rep.Stats
		if realViolation(rep) {
			// Reported even from a search that did not finish: its trace
			// is a run of the model.
			best, d.Verdicts, d.Violation = rep, k, true
			break
		}
		if st.Stop == explore.StopExamples {
			best, d.Verdicts, d.Examples = rep, k, true
			break
		}
		if !a.Finished() {
			if best == nil {
				best = rep // not even bound 1 finished
			}
			break
		}
		best, d.Verdicts = rep, k
		if st.Discarded == 0 {
			d.Exhaustive = true
			break
		}
		d.AtMaxBound = k == MaxBound
	}
	d.Elapsed = s.elapsed()
	best.Deepening = d
	if ctx := req.Context; ctx != nil && ctx.Err() != nil {
		best.interruptedDeepening(context.Cause(ctx))
	}
	return best, nil
}

// interruptedDeepening marks the report of bound deepening that its
// Context (a signal, not the time limit) stopped: the report of the last
// bound that finished answers a question other than the one asked (the
// smallest bound with nothing discarded, or a violation), so it is
// incomplete, and what held at that bound is unknown. A violation stands;
// an interrupted first bound says so already.
func (r *Report) interruptedDeepening(cause error) {
	d := r.Deepening
	b := d.Stopped()
	if d.Violation || b == nil || !r.Stats.Complete {
		return
	}
	st := &r.Stats
	st.Complete, st.Stop = false, explore.StopInterrupted
	st.Stopped = fmt.Sprintf("interrupted: %v at bound %d; the counts are those of bound %d, which finished", cause, b.MaxQueue, d.Verdicts)
	for i := range r.Verdicts {
		if v := &r.Verdicts[i]; v.Status == Holds || v.Status == Unreachable {
			found := "violation"
			if v.Status == Unreachable {
				found = "example"
			}
			v.Status, v.Summary = Unknown, fmt.Sprintf("no %s with at most %s per channel (bound %d), but the check was interrupted at bound %d", found, plural.Count(d.Verdicts, "message"), d.Verdicts, b.MaxQueue)
		}
	}
	r.qualify()
}

// realViolation reports whether rep has a counterexample that the channel
// bound did not create: an invariant violation (a run of the unbounded
// model too) or a liveness one (stuck state, lasso) that the bound cut no fair step of.
func realViolation(rep *Report) bool {
	for _, v := range rep.Verdicts {
		if v.Status != Violated {
			continue
		}
		if !v.Bounded {
			return true
		}
		for _, a := range v.Also {
			if !a.Bounded {
				return true
			}
		}
	}
	return false
}

// undecided says why a property is unknown after a search that finished,
// or "".
func undecided(rep *Report) string {
	if !rep.Stats.Complete {
		return ""
	}
	for _, v := range rep.Verdicts {
		if v.Status == Unknown {
			return v.Name + ": " + v.Summary
		}
	}
	return ""
}
