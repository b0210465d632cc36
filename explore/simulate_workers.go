package explore

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcheck/mcheck/ts"
)

// The workers of a simulation and the commit of their runs in order.

// simulation is the state of Simulate shared by its workers.
type simulation struct {
	sys      ts.System
	opt      SimOptions
	p        plan
	started  time.Time
	deadline time.Time    // zero: none
	next     atomic.Int64 // the next run to start
	limit    atomic.Int64 // runs from this number on are not taken
	halted   atomic.Bool  // interrupted, or out of memory: runs under way stop
	mu       sync.Mutex   // the rest
	cond     *sync.Cond   // a run was committed
	// Runs 0..committed-1 are committed; pending holds runs that finished
	// before a lower-numbered one.
	committed int64
	pending   map[int64]*runRecord
	spare     []*runRecord
	stats     Stats
	runs      int64 // committed and counted
	stop      bool
	tab       *table // the fingerprints of the distinct states seen
	seen      Sketch // and their sketch
	lengths   int64  // sum of the runs' lengths
	minLen    int
	ends      [numEnds]int64
	taken     []int64
	enabled   uint64
	msgs      msgSamples
	found     []*foundRun // the first run to find each property's violation of each kind
	// curve samples (time, distinct states) for SimStats.NewLate.
	curve        []curvePoint
	curveEvery   time.Duration
	lastProgress time.Time
}

type curvePoint struct {
	at       time.Duration
	distinct int64
}

// foundRun is a violation as a run found it, before shortening.
type foundRun struct {
	runFault
	run  int64
	seed uint64
	init int
	acts []ts.Action // the steps of the run (acts[0] is not one)
}

// runRecord is what a finished run hands to the commit.
type runRecord struct {
	index     int64
	seed      uint64
	end       RunEnd
	steps     int
	init      int
	fps       []uint64
	acts      []ts.Action // with a violation or an example
	bad       []runFault
	hits      []runFault // examples (Reached)
	discarded int64
	taken     []int64
	enabled   uint64
	msgs      msgSamples
}

// maxAhead bounds how many runs past the lowest unfinished one may start,
// so that finished runs waiting for their commit stay few.
const maxAhead = 1024

// work takes runs until there are no more.
func (s *simulation) work(r *runner) {
	var cur int64
	r.abort = func() bool { return s.abortRun(cur) }
	for {
		i, ok := s.claim()
		if !ok {
			return
		}
		cur = i
		seed := s.opt.Seed
		if !s.opt.One {
			seed = RunSeed(s.opt.Seed, i)
		}
		r.seed(seed)
		end := EndViolation
		if r.start(-1) {
			if end, ok = r.run(); !ok {
				return // aborted
			}
		}
		if end == EndViolation && !s.opt.Continue {
			// No run after this one can be the first violation.
			for l := s.limit.Load(); i+1 < l && !s.limit.CompareAndSwap(l, i+1); l = s.limit.Load() {
			}
		}
		s.commit(s.record(r, i, seed, end))
	}
}

// claim returns the next run to take, if any.
func (s *simulation) claim() (int64, bool) {
	for {
		i := s.next.Load()
		if i >= s.limit.Load() {
			return 0, false
		}
		if s.halted.Load() {
			return 0, false // the memory budget, or an interruption, already said why
		}
		if s.opt.Context.Err() != nil {
			s.halt(StopInterrupted, "interrupted: "+context.Cause(s.opt.Context).Error())
			return 0, false
		}
		if !s.deadline.IsZero() && !time.Now().Before(s.deadline) {
			return 0, false
		}
		s.mu.Lock()
		for i-s.committed > maxAhead && !s.stop {
			s.cond.Wait()
		}
		s.mu.Unlock()
		if s.next.CompareAndSwap(i, i+1) {
			return i, true
		}
	}
}

// abortRun says whether run i is to stop where it is.
func (s *simulation) abortRun(i int64) bool {
	if s.opt.Context.Err() != nil {
		s.halt(StopInterrupted, "interrupted: "+context.Cause(s.opt.Context).Error())
	}
	return s.halted.Load() || i >= s.limit.Load()
}

// halt stops the simulation early (the Context, the memory budget).
func (s *simulation) halt(r StopReason, why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.haltLocked(r, why)
}

func (s *simulation) haltLocked(r StopReason, why string) {
	if s.stats.Stop == NotStopped {
		s.stats.Stop, s.stats.Stopped = r, why
	}
	s.stop = true
	if r != StopFirstViolation {
		s.halted.Store(true)
	}
	s.cond.Broadcast()
}

func (s *simulation) record(r *runner, i int64, seed uint64, end RunEnd) *runRecord {
	s.mu.Lock()
	var rec *runRecord
	if n := len(s.spare); n > 0 {
		rec, s.spare = s.spare[n-1], s.spare[:n-1]
	} else {
		rec = &runRecord{}
	}
	s.mu.Unlock()
	rec.index, rec.seed, rec.end, rec.steps, rec.init = i, seed, end, r.steps(), r.initIdx
	rec.fps = append(rec.fps[:0], r.fp...)
	rec.acts = rec.acts[:0]
	if end == EndViolation || len(r.hits) > 0 {
		rec.acts = append(rec.acts, r.act...)
	}
	rec.bad = append(rec.bad[:0], r.bad...)
	rec.hits = append(rec.hits[:0], r.hits...)
	rec.discarded, rec.enabled, rec.msgs = r.discarded, r.enabled, r.msgs
	rec.taken = append(rec.taken[:0], r.taken...)
	return rec
}

// commit adds run rec to the counts once every run before it is in.
func (s *simulation) commit(rec *runRecord) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending[rec.index] = rec
	for {
		rec := s.pending[s.committed]
		if rec == nil {
			break
		}
		delete(s.pending, s.committed)
		if !s.stop {
			s.apply(rec)
		}
		s.committed++
		s.spare = append(s.spare, rec)
	}
	s.cond.Broadcast()
	if s.opt.Progress != nil && time.Since(s.lastProgress) >= s.opt.ProgressEvery {
		s.lastProgress = time.Now()
		s.opt.Progress(Progress{
			States: s.stats.States, Transitions: s.stats.Transitions, Depth: s.stats.Depth,
			Elapsed: time.Since(s.started), MemBytes: s.tab.bytes(), Phase: Simulating, Done: s.runs, Of: s.runsAsked(),
		})
	}
}

// runsAsked is how many runs were asked for (0: as many as time allows).
func (s *simulation) runsAsked() int64 {
	if s.opt.One {
		return 1
	}
	return s.opt.Runs
}

// apply counts a run, in the order of the runs.
func (s *simulation) apply(rec *runRecord) {
	st := &s.stats
	if s.runs == 0 || rec.steps < s.minLen {
		s.minLen = rec.steps
	}
	s.runs++
	st.Transitions += int64(rec.steps)
	st.Depth = max(st.Depth, rec.steps)
	st.Discarded += rec.discarded
	s.lengths += int64(rec.steps)
	s.ends[rec.end]++
	for k, n := range rec.taken {
		s.taken[k] += n
	}
	s.enabled |= rec.enabled
	s.msgs.merge(&rec.msgs)
	for _, fp := range rec.fps {
		if _, ok := s.tab.lookup(fp, nil); !ok {
			s.tab.reserve(1)
			s.tab.insert(fp, 0)
			s.seen.Add(fp)
			st.States++
		}
	}
	s.sampleCurve()
	if b := s.opt.MemoryBudget; b > 0 && s.tab.bytes() > SearchLimit(b) {
		s.haltLocked(StopMemory, fmt.Sprintf("memory budget of %s reached by the table of the distinct states seen", FormatBytes(b)))
	}
	for _, f := range slices.Concat(rec.bad, rec.hits) {
		if slices.ContainsFunc(s.found, func(g *foundRun) bool { return g.kind == f.kind && g.pred == f.pred }) {
			continue
		}
		s.found = append(s.found, &foundRun{runFault: f, run: rec.index, seed: rec.seed, init: rec.init, acts: slices.Clone(rec.acts)})
	}
	if len(rec.bad) > 0 && !s.opt.Continue {
		s.haltLocked(StopFirstViolation, "stopped at the first violation")
		s.limit.Store(0)
	}
}

// sampleCurve records the distinct states seen so far, for NewLate: at
// least curveEvery apart, and twice as far apart whenever the samples
// grow many.
func (s *simulation) sampleCurve() {
	at := time.Since(s.started)
	if n := len(s.curve); n > 0 && at-s.curve[n-1].at < s.curveEvery {
		return
	}
	s.curve = append(s.curve, curvePoint{at, s.stats.States})
	if len(s.curve) >= 4096 {
		for i := range len(s.curve) / 2 {
			s.curve[i] = s.curve[2*i]
		}
		s.curve = s.curve[:len(s.curve)/2]
		s.curveEvery = max(2*s.curveEvery, time.Millisecond)
	}
}

// newLate is how many distinct states were first seen in the last tenth of
// the time.
func (s *simulation) newLate(total time.Duration) int64 {
	before := int64(0)
	for _, c := range s.curve {
		if c.at > total*9/10 {
			break
		}
		before = c.distinct
	}
	return s.stats.States - before
}

func (s *simulation) result() (*Result, error) {
	st := s.stats
	st.Elapsed = time.Since(s.started)
	st.Complete = st.Stop == NotStopped
	st.MemBytes = s.tab.bytes()
	sim := &SimStats{
		Seed: s.opt.Seed, One: s.opt.One, Scheduler: s.opt.Scheduler, Depth: s.opt.Depth, Runs: s.runs,
		MinLength: s.minLen, MaxLength: st.Depth, Ends: s.ends, NewLate: s.newLate(st.Elapsed), Seen: s.seen,
		Taken: s.taken, Enabled: make([]bool, len(s.taken)),
	}
	if s.runs > 0 {
		sim.MeanLength = float64(s.lengths) / float64(s.runs)
	}
	for k := range sim.Enabled {
		sim.Enabled[k] = s.enabled&(1<<k) != 0
	}
	if s.opt.Measure {
		types := []string{"MSG"}
		if m, ok := s.sys.(ts.Messenger); ok {
			types = m.MsgTypes()
		}
		sim.Messages = s.msgs.result(types, s.p.clocked)
	}
	r := &Result{Stats: st, Simulation: sim}
	slices.SortFunc(s.found, func(a, b *foundRun) int {
		if a.kind != b.kind {
			return int(a.kind) - int(b.kind)
		}
		return a.pred - b.pred
	})
	sh := newShortener(s.sys, s.p, s.opt.Context)
	for _, f := range s.found {
		v, by, err := sh.violation(f)
		if err != nil {
			return nil, err
		}
		r.Violations = append(r.Violations, *v)
		sim.Found = append(sim.Found, by)
	}
	return r, nil
}
