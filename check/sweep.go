package check

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcheck/mcheck/model"
)

// A sweep checks one configuration after another, each differing from the
// last in one value (Deepen: the channel bound; SearchTimeouts: a
// timeout), within one time limit for all of them and the request's memory
// budget and MaxStates for each.
type sweep struct {
	ctx    context.Context
	cancel context.CancelFunc
	start  time.Time
	// last is the time of the last search run; ran says there was one.
	last time.Duration
	ran  bool
}

func newSweep(req Request, limit time.Duration) *sweep {
	parent := req.Context
	if parent == nil {
		parent = context.Background()
	}
	s := &sweep{ctx: parent, cancel: func() {}, start: time.Now()}
	if limit > 0 {
		s.ctx, s.cancel = WithTimeLimit(parent, limit)
	}
	return s
}

// Attempt is one search of a sweep: its counts and how it ended.
type Attempt struct {
	Complete    bool
	States      int64
	Transitions int64
	Discarded   int64
	Elapsed     time.Duration
	MemBytes    int64
	Stopped     string // why the search did not finish ("" if it did)
	// Undecided says why a property stayed unknown although the search
	// finished (the state graph outgrew the memory budget, so fair cycles
	// were not checked); such a search counts as not finished.
	Undecided string
	// BoundedOnly: a property is violated, but only by runs the channel
	// bound cut a fair step of.
	BoundedOnly bool
	// NotStarted: the time left (Left) was less than the previous search
	// took, and the next value's state space is as a rule larger, so the
	// search was not started.
	NotStarted bool
	Left       time.Duration
}

// Finished: the search finished and decided every property.
func (a *Attempt) Finished() bool { return a.Complete && a.Undecided == "" }

// skip says whether the next search is not to be started: the time left
// is less than the last one took. The Attempt says so.
func (s *sweep) skip() (Attempt, bool) {
	deadline, ok := s.ctx.Deadline()
	if !ok || !s.ran {
		return Attempt{}, false
	}
	left := time.Until(deadline)
	return Attempt{NotStarted: true, Left: max(left, 0)}, left < s.last
}

// run checks r within the sweep's time.
func (s *sweep) run(r Request) (*Report, Attempt, error) {
	r.Context = s.ctx
	if r.Sweeping != nil {
		r.Sweeping(r.Config.WithDefaults())
	}
	began := time.Now()
	rep, err := Run(r)
	if err != nil {
		return nil, Attempt{}, err
	}
	st := rep.Stats
	// The search's time is all of it, the fair-cycle check after the
	// search too: the next value's costs more.
	a := Attempt{Complete: st.Complete, States: st.States, Transitions: st.Transitions,
		Discarded: st.Discarded, Elapsed: time.Since(began), MemBytes: st.MemBytes, Stopped: st.Stopped,
		BoundedOnly: rep.Violated() && !realViolation(rep), Undecided: undecided(rep)}
	s.last, s.ran = a.Elapsed, true
	return rep, a, nil
}

// elapsed is the time of the sweep so far.
func (s *sweep) elapsed() time.Duration { return time.Since(s.start) }

// ParamSearch is how a search over one of the algorithm's parameters
// (SearchParam) arrived at its report: every value tried, in order.
type ParamSearch struct {
	// Param is the parameter searched, as the algorithm declares it.
	Param model.Param
	// TimeLimit is the budget of all searches together (0: none).
	TimeLimit time.Duration
	Elapsed   time.Duration
	Runs      []ParamRun
	// Value is the smallest value at which every property holds; Found
	// says there is one.
	Value int
	Found bool
	// Failure is the report at the largest value that fails (nil where
	// none failed): its counterexamples show why a smaller value fails.
	Failure *Report
	// Longest: every value up to Longest failed, and the next gives a
	// timer too long for the state encoding (model.TimerWidthError).
	Longest int
	// AllFail: every value of the parameter's range fails.
	AllFail bool
}

// ParamRun is the search at one value of the parameter.
type ParamRun struct {
	Value int
	Attempt
	Outcome Outcome
	// Failed names the properties violated (or, for a Sometimes,
	// unreachable).
	Failed []string
}

// Stopped is the search that ended the sweep without an answer, if any.
func (p *ParamSearch) Stopped() *ParamRun {
	if n := len(p.Runs); n > 0 && !p.Found && p.Runs[n-1].Outcome == Undecided {
		return &p.Runs[n-1]
	}
	return nil
}

// SearchParam checks req at param = its Min, Min+1, ... up to its Max
// (req.Config.Params[param.Name] is ignored, the other parameters as
// given) until every property holds: the smallest value at which
// everything holds. Budgets as in SearchTimeouts; a search that does not
// finish (or would not fit the time left) ends the sweep without an
// answer. The report returned is that of the value found, else of the last
// search run; its ParamSearch says which.
func SearchParam(req Request, param model.Param, limit time.Duration) (*Report, error) {
	s := newSweep(req, limit)
	defer s.cancel()
	d := &ParamSearch{Param: param, TimeLimit: limit}
	var last *Report
	for v := param.Min; v <= param.Max; v++ {
		if a, skip := s.skip(); skip {
			d.Runs = append(d.Runs, ParamRun{Value: v, Attempt: a, Outcome: Undecided})
			break
		}
		r := req
		r.Config.Params = make(map[string]int, len(req.Config.Params)+1)
		for n, x := range req.Config.Params {
			r.Config.Params[n] = x
		}
		r.Config.Params[param.Name] = v
		rep, a, err := s.run(r)
		if wide := (*model.TimerWidthError)(nil); errors.As(err, &wide) && v > param.Min {
			d.Longest = v - 1
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s %d: %w", param.Name, v, err)
		}
		last = rep
		run := ParamRun{Value: v, Attempt: a, Outcome: outcome(rep)}
		for _, vd := range rep.Verdicts {
			if vd.Status == Violated || vd.Status == Unreachable {
				run.Failed = append(run.Failed, vd.Name)
			}
		}
		d.Runs = append(d.Runs, run)
		if run.Outcome == Fails {
			d.Failure = rep
			if v == param.Max {
				d.AllFail = true
			}
			continue
		}
		if run.Outcome == AllHold {
			d.Value, d.Found = v, true
		}
		break
	}
	d.Elapsed = s.elapsed()
	if last == nil {
		return nil, fmt.Errorf("%s: no value was checked", param.Name)
	}
	last.ParamSearch = d
	return last, nil
}
