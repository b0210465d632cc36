package check

import (
	"errors"
	"fmt"
	"time"

	"github.com/mcheck/mcheck/model"
)

// Timeouts is how a search over timeouts (SearchTimeouts) arrived at its
// report: every T and T2 tried, in order, and what it found.
type Timeouts struct {
	// TimeLimit is the budget of all searches together (0: none); each
	// also has the memory budget and MaxStates of the request.
	TimeLimit time.Duration
	Elapsed   time.Duration
	// Delay is the D of every search; CoordGiven: T2 was given, so only T
	// was searched, with it.
	Delay      int
	CoordGiven bool
	Runs       []TimeoutRun
	// Timeout is the smallest T at which every property holds, T2 at its
	// default (2T+2D) or as given; TimeoutCoord the smallest T2 at that T.
	// 0 when not found.
	Timeout, TimeoutCoord int
	// Failure is the report at the largest T that fails (Timeout-1 when
	// Timeout was found), CoordFailure the one at TimeoutCoord-1: their
	// counterexamples show why a smaller value fails. Nil where no value
	// failed.
	Failure, CoordFailure *Report
	// Longest: every T up to Longest failed, and T = Longest+1 does not
	// fit the state encoding (model.TimerWidthError), so none holds.
	Longest int
}

// Found: the smallest T and T2 were both found.
func (t *Timeouts) Found() bool { return t.Timeout > 0 && t.TimeoutCoord > 0 }

// NoneHolds: every T that can be checked fails.
func (t *Timeouts) NoneHolds() bool { return t.Longest > 0 }

// Stopped is the search that ended the sweep without an answer (it did not
// finish, or was not started), if any.
func (t *Timeouts) Stopped() *TimeoutRun {
	if n := len(t.Runs); n > 0 && !t.Found() && !t.NoneHolds() && t.Runs[n-1].Outcome == Undecided {
		return &t.Runs[n-1]
	}
	return nil
}

// TimeoutRun is the search at one T and T2.
type TimeoutRun struct {
	Timeout, TimeoutCoord int
	// Coord: a search of the T2 sweep (T fixed at Timeouts.Timeout).
	Coord bool
	Attempt
	Outcome Outcome
	// Failed names the properties violated (or, for a Sometimes,
	// unreachable).
	Failed []string
}

// Outcome is what one search of a sweep says of its value.
type Outcome string

const (
	AllHold   Outcome = "holds"     // every property holds
	Fails     Outcome = "fails"     // a property is violated, without the channel bound too
	Undecided Outcome = "undecided" // the search did not decide: stopped, not started, or violated only for the bounded model
)

// outcome is what rep says of its configuration.
func outcome(rep *Report) Outcome {
	if realViolation(rep) {
		return Fails
	}
	for _, v := range rep.Verdicts {
		switch v.Status {
		case Unreachable:
			return Fails
		case Unknown, Violated: // Violated here: for the bounded model only
			return Undecided
		}
	}
	// A search that did not finish leaves every property it did not
	// decide Unknown.
	return AllHold
}

// boundedOnly is what the T2 search makes of a value violated only where
// the channel bound cut a fair step: it neither holds nor fails, and the
// search goes on to the next value (T2 at its default holds, so it ends).
const boundedOnly Outcome = "violated for the bounded model only"

// smallest checks at v = 1, 2, ... (try) until every property holds, and
// returns that v and its report, with the report of the largest v that
// failed. A search that decides nothing ends it with v 0 (and a nil
// report), unless try says boundedOnly; so does an error, returned with
// the v that raised it. With end > 0, v = end is known to hold: it is
// returned without a search.
func smallest(end int, try func(v int) (*Report, Outcome, error)) (v int, holds, failure *Report, err error) {
	for v = 1; v != end; v++ {
		rep, o, err := try(v)
		switch {
		case err != nil:
			return v, nil, failure, err
		case o == Fails:
			failure = rep
		case o == AllHold:
			return v, rep, failure, nil
		case o == boundedOnly:
		default:
			return 0, nil, failure, nil
		}
	}
	return end, nil, failure, nil
}

// BoundOnly: the run's search finished, deciding every property, and
// found a violation only where the channel bound cut a fair step: a larger
// channel bound decides the value.
func (r *TimeoutRun) BoundOnly() bool { return r.Finished() && r.BoundedOnly }

// CoordBoundedOnly are the values of T2 below TimeoutCoord that the T2
// search passed over because they are violated only where the channel
// bound cut a fair step: a smaller T2 than TimeoutCoord may hold with a
// larger channel bound.
func (t *Timeouts) CoordBoundedOnly() []int {
	var vs []int
	for i := range t.Runs {
		if r := &t.Runs[i]; r.Coord && r.BoundOnly() {
			vs = append(vs, r.TimeoutCoord)
		}
	}
	return vs
}

// SearchTimeouts checks req (an algorithm with timers, in a timed mode) at
// T = 1, 2, 3, ... (req.Config.Timeout is ignored; T2 at its default
// 2T+2D, or as given) until every property holds, and then, unless T2 was
// given, at T2 = 1, 2, ... below its default at that T likewise: the
// smallest values at which everything holds. Budgets as in Deepen: limit
// for all searches together (0: none), req.MemoryBudget and req.MaxStates
// for each; a search that does not finish (or would not fit the time
// left) ends the sweep without an answer. The report returned is that of
// the values found, else of the last search run; its Timeouts field says
// which, with the reports of the largest values that fail.
func SearchTimeouts(req Request, limit time.Duration) (*Report, error) {
	s := newSweep(req, limit)
	defer s.cancel()
	cfg := req.Config
	cfg.Timeout = 1
	d := &Timeouts{TimeLimit: limit, Delay: cfg.WithDefaults().Delay, CoordGiven: cfg.TimeoutCoord != 0}
	var last *Report
	// try checks at T and T2 (0: its default) and says what it found.
	try := func(t, t2 int, coord bool) (rep *Report, o Outcome, err error) {
		if a, skip := s.skip(); skip {
			c := cfg
			c.Timeout, c.TimeoutCoord = t, t2
			d.Runs = append(d.Runs, TimeoutRun{Timeout: t, TimeoutCoord: c.WithDefaults().TimeoutCoord, Coord: coord, Attempt: a, Outcome: Undecided})
			return nil, Undecided, nil
		}
		r := req
		r.Config.Timeout, r.Config.TimeoutCoord = t, t2
		rep, a, err := s.run(r)
		if err != nil {
			return nil, "", err
		}
		last = rep
		run := TimeoutRun{Timeout: t, TimeoutCoord: rep.Config.TimeoutCoord, Coord: coord, Attempt: a, Outcome: outcome(rep)}
		for _, v := range rep.Verdicts {
			if v.Status == Violated || v.Status == Unreachable {
				run.Failed = append(run.Failed, v.Name)
			}
		}
		d.Runs = append(d.Runs, run)
		return rep, run.Outcome, nil
	}
	t, found, failure, err := smallest(0, func(t int) (*Report, Outcome, error) { return try(t, req.Config.TimeoutCoord, false) })
	d.Failure = failure
	if wide := (*model.TimerWidthError)(nil); errors.As(err, &wide) && t > 1 {
		d.Longest, err = t-1, nil
	}
	if err != nil {
		return nil, fmt.Errorf("timeout %d: %w", t, err)
	}
	if found != nil {
		d.Timeout, d.TimeoutCoord = t, found.Config.TimeoutCoord
	}
	if found != nil && !d.CoordGiven {
		// T2 below its default at this T, which holds.
		// A value violated only where the channel bound cut a fair step is
		// passed over: T is found, so the answer is given (the default T2
		// holds), with the values passed over as its caveat.
		t2, holds, failure, err := smallest(found.Config.TimeoutCoord, func(t2 int) (*Report, Outcome, error) {
			rep, o, err := try(d.Timeout, t2, true)
			if err == nil && o == Undecided && d.Runs[len(d.Runs)-1].BoundOnly() {
				o = boundedOnly
			}
			return rep, o, err
		})
		if err != nil {
			return nil, fmt.Errorf("timeout %d, timeout-coord %d: %w", d.Timeout, t2, err)
		}
		d.TimeoutCoord, d.CoordFailure = t2, failure
		if holds != nil {
			found = holds
		}
	}
	d.Elapsed = s.elapsed()
	best := last
	if d.Found() {
		best = found
	}
	best.Timeouts = d
	return best, nil
}
