package explore

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/mcheck/mcheck/cex"
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
	// Faults, the zero value and the default, decides how often a fault
	// happens separately from how many fault steps are enabled. Each run
	// draws a fault rate r, log-uniformly between 1/1024 and 1/2; in a
	// state where fair and unfair steps (crashes, restarts, spurious steps)
	// are both enabled it takes an unfair one with chance r, else a fair
	// one, each uniformly. Under Uniform a fault's chance is its share of
	// the enabled steps, so with many processes the fault budget is spent
	// in the first steps and a crash in the middle of an election is rare;
	// with r spread over three orders of magnitude, some runs crash at once
	// and others late, as PCT spreads its few priority changes over the
	// run, and runs differ from each other as swarm testing's do. It is the
	// default because it measured better (bench/history.md, "Simulation
	// schedulers: uniform against faults").
	Faults Scheduler = iota
	// Uniform takes each enabled step with the same chance (TLC's and P's
	// random scheduler).
	Uniform
)

var schedulerNames = [...]string{Faults: "faults", Uniform: "uniform"}

func (s Scheduler) String() string {
	if int(s) < len(schedulerNames) {
		return schedulerNames[s]
	}
	return fmt.Sprintf("scheduler%d", uint8(s))
}

// DefaultScheduler is the scheduler of a simulation that names none
// (mcheck --simulate without --scheduler, mchecktest's Config.Simulate,
// the zero SimOptions): faults, chosen by measurement (BENCHMARKS.md,
// "Simulation schedulers").
const DefaultScheduler = Faults

// ParseScheduler is the scheduler of the name String gives it.
func ParseScheduler(name string) (Scheduler, bool) {
	i := slices.Index(schedulerNames[:], name)
	return Scheduler(max(i, 0)), i >= 0
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
	// Targets are the properties, as in Options; with a Goal, stuck states
	// and fair cycles are violations. A run that meets a Reach predicate
	// goes on: the first run (in run order) to meet it gives its example.
	Targets
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
	Depth int
	// Scheduler chooses the steps (zero: Faults).
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
	// (every quiescent state a run reached ends one), and their time in
	// ticks for a system with a clock, with Measure.
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
	// Time is the ticks of the runs (ts.Clocked); nil without a clock.
	Time *Sample
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
	time   Sample
}

// add samples the sends and the ticks of one complete run.
func (m *msgSamples) add(s *ts.Sends, ticks int64) {
	one := func(v int64) Sample { return Sample{v, v, v} }
	m.total.merge(one(int64(s.Total())), m.n, 1)
	for i, v := range s.ByType {
		m.byType[i].merge(one(int64(v)), m.n, 1)
	}
	m.lost.merge(one(int64(s.Lost)), m.n, 1)
	m.time.merge(one(ticks), m.n, 1)
	m.n++
}

func (m *msgSamples) merge(o *msgSamples) {
	m.total.merge(o.total, m.n, o.n)
	for i := range m.byType {
		m.byType[i].merge(o.byType[i], m.n, o.n)
	}
	m.lost.merge(o.lost, m.n, o.n)
	m.time.merge(o.time, m.n, o.n)
	m.n += o.n
}

func (m *msgSamples) result(types []string, clocked bool) *SampledMessages {
	r := &SampledMessages{Samples: m.n, Types: types, Total: m.total, Lost: m.lost}
	if clocked {
		t := m.time
		r.Time = &t
	}
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
	reach, err := reachMask(sys, opt.Reach)
	if err != nil {
		return nil, err
	}
	if opt.Quiet.bad || opt.Quiet.mask&^pm.goal != 0 {
		return nil, fmt.Errorf("a quiet goal must be one of the goals")
	}
	leadMask, err := leadsToMask(sys, opt.LeadsTo)
	if err != nil {
		return nil, err
	}
	live := pm.goal != 0 || len(opt.LeadsTo) > 0
	s := &simulation{
		sys: sys, opt: opt, pending: map[int64]*runRecord{}, tab: newTable(1<<16, false), seen: NewSketch(),
		p: plan{
			inv: pm.inv, step: pm.step, goal: pm.goal, cycles: live, stuck: live, reach: reach, quiet: opt.Quiet.mask,
			leads: opt.LeadsTo, leadMask: leadMask,
			depth: opt.Depth, sched: opt.Scheduler, measure: opt.Measure, kind: opt.Kind, kinds: max(opt.Kinds, 1),
		},
	}
	if c, ok := sys.(ts.Clocked); ok {
		s.p.tick, s.p.clocked = c.TickClass()
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

// WalkOptions configure Walk.
type WalkOptions struct {
	// Targets: a walk checks the invariants, steps and goal (stuck states
	// and fair cycles) of its one run.
	Targets
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
	Kind       cex.Kind
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
		depth: len(path) + opt.Depth, stopQuiet: true, kinds: 1, sched: Uniform,
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
