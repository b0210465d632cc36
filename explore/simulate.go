package explore

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcheck/mcheck/ts"
)

// Simulation samples random runs instead of enumerating states (TLC's
// -simulate, SPIN's random simulation): each run starts in an initial
// state and takes one enabled step after another, chosen by a Scheduler,
// checking every invariant on every state, every step predicate on every
// step, and the goals on the states where no fair step is enabled and on
// the fair cycles the run closes. What it finds is real (every
// counterexample is a run the transition function takes); what it does not
// find proves nothing.
//
// Runs are numbered 0, 1, 2, ...; run i follows RunSeed(Seed, i) alone, so
// a run is the same whatever goroutine takes it. The runs are committed in
// order of their numbers: the counts are of runs 0..k, and a violation is
// reported from the lowest-numbered run that found one, so that results do
// not depend on Workers (with Runs; a time limit decides how many runs
// there are).

// Scheduler chooses the steps of a simulation run.
type Scheduler uint8

const (
	// Uniform takes each enabled step with the same chance (TLC's and P's
	// random scheduler).
	Uniform Scheduler = iota
	// Faults decides how often a fault happens separately from how many
	// fault steps are enabled. Each run draws a fault rate r, log-uniformly
	// between 1/1024 and 1/2; in a state where fair and unfair steps
	// (crashes, restarts, spurious steps) are both enabled it takes an
	// unfair one with chance r, else a fair one, each uniformly. Under
	// Uniform a fault's chance is its share of the enabled steps, so with
	// many processes the fault budget is spent in the first steps and a
	// crash in the middle of an election is rare; with r spread over three
	// orders of magnitude, some runs crash at once and others late, as PCT
	// spreads its few priority changes over the run, and runs differ from
	// each other as swarm testing's do.
	Faults
)

var schedulerNames = [...]string{Uniform: "uniform", Faults: "faults"}

func (s Scheduler) String() string {
	if int(s) < len(schedulerNames) {
		return schedulerNames[s]
	}
	return fmt.Sprintf("scheduler%d", uint8(s))
}

// SchedulerNames lists the schedulers' names, as String gives them.
func SchedulerNames() []string { return slices.Clone(schedulerNames[:]) }

// RunEnd says how a simulation run ended.
type RunEnd uint8

const (
	// EndDepth: the run took SimOptions.Depth steps.
	EndDepth RunEnd = iota
	// EndQuiescent: the run stopped in a quiescent state (no fair step
	// enabled, none discarded by the channel bound) with no step left at
	// all. (A quiescent state with faults left ends a complete run too,
	// but the run goes on with a fault.)
	EndQuiescent
	// EndStuck: the run stopped where no step is enabled but the channel
	// bound discarded some: the bound stopped it, not the system.
	EndStuck
	// EndCycle: the run returned to one of its states on a fair cycle
	// inside every goal: a whole fair behaviour that satisfies them.
	EndCycle
	// EndViolation: the run violated a property.
	EndViolation
	numEnds
)

var endNames = [numEnds]string{"depth", "quiescent", "stuck", "cycle", "violation"}

func (e RunEnd) String() string {
	if e < numEnds {
		return endNames[e]
	}
	return fmt.Sprintf("end%d", uint8(e))
}

// RunEnds lists the ways a run ends, in the order of SimStats.Ends.
func RunEnds() []RunEnd { return []RunEnd{EndDepth, EndQuiescent, EndStuck, EndCycle, EndViolation} }

// SimOptions configure a simulation.
type SimOptions struct {
	// Invariants, Steps and Goal are the properties, as in Options; with a
	// Goal, stuck states and fair cycles are violations.
	Invariants []int
	Steps      []int
	Goal       Goal
	// Seed is the master seed: run i follows RunSeed(Seed, i). With One,
	// Seed is a run's own seed and that single run is replayed.
	Seed uint64
	One  bool
	// Runs is how many runs to take (0: until Duration or the Context
	// ends); Duration the time to spend on them (0: no limit). Reaching
	// either is the simulation's end, not an interruption.
	Runs     int64
	Duration time.Duration
	// Depth is the most steps of one run.
	Depth     int
	Scheduler Scheduler
	// Continue takes runs on after a violation (each run still stops at
	// its own first one), for every property's violation.
	Continue bool
	// Workers take runs in parallel (0: one per CPU).
	Workers int
	// Context interrupts the simulation; the result keeps what was found.
	Context context.Context
	// MemoryBudget bounds the table of the distinct states seen, as
	// Options.MemoryBudget bounds a search (0: no limit).
	MemoryBudget int64
	// Measure samples the messages of complete runs (SimStats.Messages).
	Measure bool
	// Kind, when set, sorts actions into Kinds kinds for the statistics
	// (at most 64; SimStats.Kinds); without it every action is kind 0.
	Kind  func(ts.Action) int
	Kinds int
	// Progress, if set, is called about every ProgressEvery (default 1 s).
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// SimStats are the statistics of a simulation, besides the Stats every
// search has (there: States is the distinct states seen, Transitions the
// steps taken, Depth the longest run, Discarded the successors the channel
// bound dropped in the states the runs expanded).
type SimStats struct {
	Seed      uint64
	One       bool // Seed is a run's own seed (SimOptions.One)
	Scheduler Scheduler
	Depth     int // the most steps a run may take
	Runs      int64
	// MinLength, MaxLength and MeanLength are the runs' numbers of steps.
	MinLength, MaxLength int
	MeanLength           float64
	// Ends counts the runs by how they ended (index: RunEnd).
	Ends [numEnds]int64
	// Seen sketches the distinct states seen, so that those of several
	// simulations can be counted together (Sketch.Merge).
	Seen Sketch
	// NewLate is how many distinct states were first seen in the last
	// tenth of the time: near 0 says that the runs keep to states seen
	// before (saturation), not that no other states exist.
	NewLate int64
	// Taken[k] is how often a step of kind k was taken; Enabled[k] whether
	// one was ever enabled.
	Taken   []int64
	Enabled []bool
	// Messages are the sends of the complete runs the runs passed through
	// (every quiescent state a run reached ends one), with Measure.
	Messages *SampledMessages
	// Found describes how each violation of Result.Violations was found,
	// in the same order.
	Found []FoundBy
}

// FoundBy is the run that found a violation, which --run-seed replays,
// and how far its shortening took it.
type FoundBy struct {
	Run     int64
	RunSeed uint64
	// RawSteps is the length of the run up to the violation, before it was
	// shortened to the trace's; Replays the runs shortening tried.
	RawSteps int
	Replays  int
}

// SampledMessages are message counts over sampled complete runs: samples,
// never bounds.
type SampledMessages struct {
	Samples int64
	Types   []string // the message types, which ByType follows
	Total   Sample
	ByType  []Sample
	Lost    Sample
}

// Sample is the least, the largest and the sum of a figure over samples.
type Sample struct{ Min, Max, Sum int64 }

// Mean is the figure's mean over n samples.
func (s Sample) Mean(n int64) float64 {
	if n == 0 {
		return 0
	}
	return float64(s.Sum) / float64(n)
}

// merge adds o, of on samples, to s, of n samples.
func (s *Sample) merge(o Sample, n, on int64) {
	switch {
	case on == 0:
		return
	case n == 0:
		*s = o
		return
	}
	s.Min, s.Max, s.Sum = min(s.Min, o.Min), max(s.Max, o.Max), s.Sum+o.Sum
}

// msgSamples accumulates the sends of complete runs.
type msgSamples struct {
	n      int64
	total  Sample
	byType [ts.MaxMsgTypes]Sample
	lost   Sample
}

// add samples the sends of one complete run.
func (m *msgSamples) add(s *ts.Sends) {
	one := func(v int64) Sample { return Sample{v, v, v} }
	m.total.merge(one(int64(s.Total())), m.n, 1)
	for i, v := range s.ByType {
		m.byType[i].merge(one(int64(v)), m.n, 1)
	}
	m.lost.merge(one(int64(s.Lost)), m.n, 1)
	m.n++
}

func (m *msgSamples) merge(o *msgSamples) {
	m.total.merge(o.total, m.n, o.n)
	for i := range m.byType {
		m.byType[i].merge(o.byType[i], m.n, o.n)
	}
	m.lost.merge(o.lost, m.n, o.n)
	m.n += o.n
}

func (m *msgSamples) result(types []string) *SampledMessages {
	r := &SampledMessages{Samples: m.n, Types: types, Total: m.total, Lost: m.lost}
	for i := range types {
		r.ByType = append(r.ByType, m.byType[i])
	}
	return r
}

// RunSeed is the seed of run i of a simulation with master seed seed: the
// (i+1)-th number of SplitMix64 seeded with it, so that every run has a
// seed of its own that replays it alone (SimOptions.One).
func RunSeed(seed uint64, i int64) uint64 {
	return splitmix(seed + uint64(i+1)*0x9e3779b97f4a7c15)
}

// splitmix is SplitMix64's output function.
func splitmix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Simulate takes random runs of sys (see Scheduler and SimOptions). The
// result's Stats count what the committed runs did; its Violations are the
// first found of each property and kind, shortened and replayed; its
// Simulation says the rest.
func Simulate(sys ts.System, opt SimOptions) (*Result, error) {
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	if opt.ProgressEvery == 0 {
		opt.ProgressEvery = time.Second
	}
	switch {
	case opt.Depth <= 0:
		return nil, fmt.Errorf("a simulation needs a depth of at least 1 step, not %d", opt.Depth)
	case opt.Runs < 0:
		return nil, fmt.Errorf("a simulation cannot take %d runs", opt.Runs)
	case opt.Kinds > 64 || opt.Kind != nil && opt.Kinds < 1:
		return nil, fmt.Errorf("a simulation sorts actions into 1 to 64 kinds, not %d", opt.Kinds)
	}
	pm, err := masksOf(sys, opt.Invariants, opt.Steps, opt.Goal)
	if err != nil {
		return nil, err
	}
	s := &simulation{
		sys: sys, opt: opt, pending: map[int64]*runRecord{}, tab: newTable(1<<16, false), seen: NewSketch(),
		p: plan{
			inv: pm.inv, step: pm.step, goal: pm.goal, cycles: pm.goal != 0, stuck: pm.goal != 0,
			depth: opt.Depth, sched: opt.Scheduler, measure: opt.Measure, kind: opt.Kind, kinds: max(opt.Kinds, 1),
		},
	}
	defer s.tab.free()
	s.cond = sync.NewCond(&s.mu)
	s.limit.Store(math.MaxInt64)
	if opt.Runs > 0 {
		s.limit.Store(opt.Runs)
	}
	if opt.One {
		s.limit.Store(1)
	}
	s.taken = make([]int64, s.p.kinds)
	n := opt.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	n = int(min(int64(n), s.limit.Load()))
	s.started = time.Now()
	if opt.Duration > 0 {
		s.deadline = s.started.Add(opt.Duration)
	}
	s.lastProgress = s.started
	var wg sync.WaitGroup
	for range n {
		r := newRunner(sys, &s.p)
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.work(r)
		}()
	}
	wg.Wait()
	return s.result()
}

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
	acts      []ts.Action // with a violation
	bad       []runFault
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
		if s.halted.Load() || s.opt.Context.Err() != nil {
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
	if end == EndViolation {
		rec.acts = append(rec.acts, r.act...)
	}
	rec.bad = append(rec.bad[:0], r.bad...)
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
	for _, f := range rec.bad {
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
		sim.Messages = s.msgs.result(types)
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

// WalkOptions configure Walk.
type WalkOptions struct {
	Invariants []int
	Steps      []int
	Goal       Goal
	// Depth is the most random steps after the path.
	Depth int
}

// Walked is the outcome of a walk: the steps after the path, how the walk
// ended, and what it violated there (EndViolation).
type Walked struct {
	Actions []ts.Action
	// At is the step of the whole path where the walk ended (a violation
	// may end it inside the path).
	At         int
	End        RunEnd
	Violations []WalkViolation
}

// WalkViolation is a violation at the end of a walk; a FairCycle's cycle
// starts at step CycleStart of the whole path (0: the initial state).
type WalkViolation struct {
	Kind       Kind
	Predicate  int
	Bounded    bool
	CycleStart int
}

// Walk is one run of a simulation (the uniform scheduler) as the explorer
// takes it: from the single initial state it follows path, then takes
// random steps seeded with seed until a state without a fair step (after
// at least one step past the path), a violation, a fair cycle, or Depth
// steps. Every state and step of the path and the walk is checked.
func Walk(sys ts.System, opt WalkOptions, path []ts.Action, seed uint64) (*Walked, error) {
	pm, err := masksOf(sys, opt.Invariants, opt.Steps, opt.Goal)
	if err != nil {
		return nil, err
	}
	p := &plan{
		inv: pm.inv, step: pm.step, goal: pm.goal, cycles: pm.goal != 0, stuck: pm.goal != 0,
		depth: len(path) + opt.Depth, stopQuiet: true, kinds: 1,
	}
	r := newRunner(sys, p)
	r.seed(seed)
	r.script = path
	end, ok := EndViolation, true
	if r.start(0) {
		end, ok = r.run()
	}
	if !ok {
		return nil, fmt.Errorf("step %d of the path is not enabled", r.steps()+1)
	}
	w := &Walked{Actions: slices.Clone(r.act[min(len(path)+1, len(r.act)):]), At: r.steps(), End: end}
	for _, b := range r.bad {
		w.Violations = append(w.Violations, WalkViolation{Kind: b.kind, Predicate: b.pred, Bounded: b.bounded, CycleStart: b.cycleStart})
	}
	return w, nil
}
