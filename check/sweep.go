package check

import (
	"context"
	"time"
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
