// Package explore is the search engine: breadth-first enumeration of every
// reachable state of a ts.System, invariant checks on each state and step,
// and the stuck states and fair cycles of eventually-always properties. It
// knows nothing of leader election: properties reach it as predicate indices.
package explore

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"
	"unsafe"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/ts"
)

// Goal is the predicates that stuck states must satisfy and fair cycles must
// not avoid, each on its own (one per eventually-always property). The zero
// Goal is none.
type Goal struct {
	mask uint64
	bad  bool // a predicate index out of range
}

// GoalOf makes each of the predicates ps a goal.
func GoalOf(ps ...int) Goal {
	var g Goal
	for _, p := range ps {
		if p < 0 || p >= ts.MaxPredicates {
			g.bad = true // Run refuses it
			continue
		}
		g.mask |= 1 << p
	}
	return g
}

// StopReason says why a search stopped before it was complete.
type StopReason uint8

const (
	NotStopped         StopReason = iota
	StopFirstViolation            // a violation was found and Continue is off
	StopInterrupted               // the Context was done
	StopMaxStates                 // Options.MaxStates states were stored
	StopMemory                    // Options.MemoryBudget was reached
	StopTableFull                 // the state table cannot grow further
	StopIO                        // the frontier or parent links failed on disk
	StopCollision                 // Exact: two new states of one batch share a fingerprint
	// StopExamples: every reach predicate has its example, there is nothing
	// else to check, and Continue is off; the counts are partial.
	StopExamples
)

// Targets is what a search looks for, as predicate indices by kind: the
// one description that every search takes (Options, SimOptions,
// WalkOptions).
type Targets struct {
	// Invariants are predicate indices that must hold in every reachable state.
	Invariants []int
	// Steps are predicate indices that must hold of every step: bit p of a
	// successor says whether the step to it satisfies predicate p.
	Steps []int
	// Goal, if set (GoalOf), is the predicates every stuck state must
	// satisfy (Stable), each on its own; the zero Goal means no
	// stuck-state check.
	Goal Goal
	// Quiet are goal predicates that also need, in a state, that no fair
	// step is enabled there (the goal of Quiescent): a state where the
	// predicate holds but a fair step is enabled is outside that goal.
	Quiet Goal
	// Reach are predicate indices to find a state of (Sometimes): the
	// shortest trace to a state where each holds is reported as an
	// example (cex.Example). A search that looks for examples only stops
	// once each has one.
	Reach []int
	// LeadsTo are leads-to properties (From ~> To, under the weak fairness
	// of the goals): a violation is a state where From holds followed by
	// a fair run on which To never holds, a stuck state (found during the
	// search, along its shortest paths) or a fair cycle (with Liveness,
	// when the search completes; the graph then keeps every step).
	LeadsTo []LeadsTo
}

// Options configure a search.
type Options struct {
	// Targets are what the search looks for. Without Continue, the first
	// definite violation stops it: an invariant or step violation, or a
	// stuck state outside a goal (one that only the channel bound made
	// stuck goes on when the graph is kept).
	Targets
	// Liveness keeps the state graph and, when the search completes, looks
	// for fair cycles through states outside each goal and for the
	// violations of each leads-to (needs a Goal or a LeadsTo).
	Liveness bool
	// Continue searches on after a violation, to report full counts and the
	// shortest trace of every violated property.
	Continue bool
	// MemoryBudget stops the search, incomplete, when its bookkeeping
	// (fingerprints, parent links, frontier, graph, the expanders and the
	// tables they share) exceeds this many bytes
	// (0: no limit).
	MemoryBudget int64
	// MaxStates stops the search, incomplete, when this many states are
	// stored (0 or negative: no limit; mchecktest has a default instead).
	MaxStates int64
	// Name names an option of the search, by its field name ("MaxStates"),
	// in what the search says (Stats.Stopped); nil or "" keeps the field
	// name. A front end passes its own words for it (a flag, a field).
	Name func(option string) string
	// Context interrupts the search (Ctrl-C, a deadline); the result is then
	// incomplete but keeps what was found.
	Context context.Context
	// Bitstate, when positive, replaces the fingerprint table by a bit
	// array of this many bytes (SPIN's supertrace): far less memory per
	// state, but states may be missed, so the search is not exhaustive;
	// Result.Bitstate estimates the coverage. No liveness graph is kept.
	Bitstate int64
	// BitstateSeed, when not 0, remixes each fingerprint before it chooses
	// its bits, so that bitstate searches with other seeds take other
	// states for visited (swarm members that miss different states).
	BitstateSeed uint64
	// Reduce turns on partial-order reduction (ts.Reducer) for invariant
	// checking: the search follows only a stubborn subset of the steps of
	// each state, which keeps every invariant violation reachable but
	// explores fewer states, so counts are those of the reduced graph. A
	// state with a reduced step back to its own BFS level or above is
	// expanded in full, so that no cycle of the reduced graph postpones a
	// step forever. Not with a Goal or Liveness; a no-op for systems
	// without a Reducer.
	Reduce bool
	// Measure keeps the state graph with the messages each step sent and
	// which states are quiescent, and computes Result.Measures when the
	// search completes (docs/semantics.md section 5). Not with Reduce or
	// Bitstate: the measures are over the full graph.
	Measure bool
	// Exact stores every state's canonical encoding besides its
	// fingerprint and compares encodings on a fingerprint match, so that no
	// fingerprint collision can make the search take a new state for
	// visited. Costs the encodings' bytes per state. Not with Bitstate.
	Exact bool
	// TempDir is where parent links go once they outgrow memory ("": the
	// system's temporary directory).
	TempDir string
	// Workers is the number of goroutines that expand states (0: one per
	// CPU). Counts, verdicts and traces are the same for every value.
	Workers int
	// Progress, if set, is called about every ProgressEvery (default 1 s).
	Progress      func(Progress)
	ProgressEvery time.Duration
	// test is what only this package's tests change (export_test.go), for
	// this search alone, so that those tests run in parallel with others.
	test testSwitches
}

// testSwitches are the settings of one search that only tests change; the
// zero value is a user's search.
type testSwitches struct {
	// reverse: a one-worker search runs each phase's chunks from the last
	// to the first.
	reverse bool
	// spillAll: the frontier and the parent links go to files at once.
	spillAll bool
}

// spillSizes are when the search's levels (bytes) and parent links
// (entries) go to files.
func (sw testSwitches) spillSizes() (level int64, links int) {
	if sw.spillAll {
		return 0, 1
	}
	return spillFrontierAfter, spillLinksAfter
}

// Progress is a snapshot of a running search.
type Progress struct {
	States, Transitions int64
	Depth               int
	Queue               int // states waiting at this and the next level
	Elapsed             time.Duration
	MemBytes            int64
	// Phase is what the search is doing; after the breadth-first search,
	// Done of Of units (states) of that phase are finished (Of is 0 when
	// the phase cannot say how many there are).
	Phase    Phase
	Done, Of int64
}

// Phase is a part of a search that reports progress.
type Phase uint8

const (
	Searching          Phase = iota // the breadth-first search
	CheckingFairCycles              // the fair-cycle check over the complete graph
	ComputingMeasures               // the measures over the complete graph
	Simulating                      // random runs: Done runs of Of (0: as many as time allows)
)

// Stats are the honest numbers of a search.
type Stats struct {
	States      int64 // distinct states stored
	Transitions int64 // successors generated, one per enabled action instance
	Discarded   int64 // successors dropped by the channel bound
	Depth       int   // the deepest BFS level reached
	Complete    bool  // every reachable state was explored
	// Stop says why an incomplete search stopped; Stopped says it in words.
	Stop    StopReason
	Stopped string
	Elapsed time.Duration // the breadth-first search's
	// CycleCheck is the time of the fair-cycle check after the search
	// (components, judging, lassos); 0 when none ran.
	CycleCheck time.Duration
	MemBytes   int64 // fingerprint table, parent links, frontier, graph and the expanders (their shared tables too)
	// GraphEdges is how many transitions the state graph kept for the
	// liveness check or the measures (0 without a graph): all of them for
	// the measures; for the fair-cycle check only, none that ts.Succ calls
	// Acyclic and no fair class takes (a crash, a restart).
	GraphEdges int64
	// Reduced: partial-order reduction left steps out of at least one
	// state, so the counts are of the reduced graph. ReducedStates counts
	// those states; ProvisoFull the states that had stubborn sets but were
	// expanded in full by the cycle proviso.
	Reduced       bool
	ReducedStates int64
	ProvisoFull   int64
	// OutsideGoal has bit p set when goal predicate p was false in some
	// expanded state: without it, <>[]p holds because every state
	// explored already satisfies p.
	OutsideGoal uint64
	// PremiseHeld has bit To set when the From of that LeadsTo held in
	// some expanded state: without it, the leads-to holds because its
	// premise never does.
	PremiseHeld uint64
	// LivenessSkipped says why the fair-cycle check did not run, when it
	// was asked for and did not.
	LivenessSkipped string
	// Exact: states were compared by their whole encodings (Options.Exact).
	Exact bool
	// SpillFailed says why the frontier or the parent links could not go
	// to their temporary files (a full or small TMPDIR), so that the
	// search kept them in memory, within the budget; "" when nothing failed.
	SpillFailed string
	// CollisionProbability estimates, for a fingerprint search, the chance
	// that two distinct states shared a 64-bit fingerprint, so that one was
	// taken for the other and states may have been missed (0 for an exact
	// or a bitstate search; see collisionProbability).
	CollisionProbability float64
}

// collisionProbability is the chance that some two of n distinct states,
// reached by generated successors and initial states, share a fingerprint
// of 64 uniformly distributed bits: the larger of TLC's "calculated
// (optimistic)" estimate n*(generated-n)/2^64 (each revisit compared with
// n stored fingerprints) and the birthday bound n*(n-1)/2/2^64 (each pair
// of distinct states), which TLC's estimate undercuts when few states are
// revisited.
func collisionProbability(n, generated int64) float64 {
	const space = 1 << 64
	fn := float64(n)
	tlc := fn * float64(max(generated-n, 0)) / space
	birthday := fn * (fn - 1) / 2 / space
	return min(max(tlc, birthday), 1)
}

// Violation is a property violation with its shortest trace.
type Violation struct {
	Kind      cex.Kind
	Predicate int // the invariant or step predicate violated, or the Goal, or a LeadsTo's To
	// Bounded: the counterexample may not exist without the channel bound:
	// the bound discarded a weakly fair step of the stuck state, or of a
	// state of the cycle, so without the bound that state would not be
	// stuck, or the cycle might be unfair. Otherwise the run is a
	// counterexample of the unbounded model too; an invariant violation
	// always is.
	Bounded bool
	Trace   Trace
}

// Result is what a search found.
type Result struct {
	Stats
	Violations []Violation
	// Bitstate describes a bitstate search (nil for an exhaustive one).
	Bitstate *Bitstate
	// Measures are the message counts over all complete runs, with
	// Options.Measure on a complete search; MeasuresSkipped says why not.
	Measures        *Measures
	MeasuresSkipped string
	// Simulation describes a simulation (Simulate); nil for a search.
	Simulation *SimStats
}

// Violated returns the violation of kind k at predicate p, if found.
func (r *Result) Violated(k cex.Kind, p int) *Violation {
	for i := range r.Violations {
		if r.Violations[i].Kind == k && r.Violations[i].Predicate == p {
			return &r.Violations[i]
		}
	}
	return nil
}

const noParent = ^uint32(0)

// search is one breadth-first search, in parts that each have one job and
// are present or absent as the options ask (rather than flags read all
// over the engine):
//
//	front    the frontier: the level being expanded, the next one, and the
//	         parent links (frontier.go)
//	visited  the states seen, and how a batch claims its new ones: the
//	         fingerprint table (exact or not) or the bit array (visited.go)
//	graph    the state graph, with Liveness or Measure; nil without
//	found    what the search found, and when that stops it (findings.go)
//	team     the workers and the crew that runs a batch's phases (team.go)
//
// What stays here is the batch's scratch (chunks) and the search's counts.
type search struct {
	started time.Time // when the breadth-first search began
	sys     ts.System
	exp     ts.Expander
	opt     Options
	batch   ts.Batch
	front   frontier
	visited visitedPart
	// tab is the visited set's table, which the lazy pipeline, the
	// reduction's proviso and the graph's replays look states up in; nil
	// for the bit array, with which none of those runs (conflicts).
	tab   *table
	graph *graph // with Options.Liveness or Options.Measure
	found findings
	team  team
	// encoded, with lazy expansion (every worker has it, or none), is which
	// successor encoded each new state of the batch; nil without.
	encoded  *encoded
	chunks   []chunk
	stats    Stats
	stop     bool
	roots    int   // the initial states are indices 0..roots-1
	initials int64 // initial states generated
	maxSuccs int   // the most successors of a batch so far that may be new states
	maxEdges int   // the most edges of a batch so far, with the graph
	// block is the scratch of the calls to the visited set a block at a
	// time (the initial states).
	block block
	// LivenessSkipped says why the fair-cycle check did not run.
	livenessSkipped string
}

// newExpansion is an expander for a worker, lazy when the search allows.
func (s *search) newExpansion() *expansion {
	x := &expansion{exp: s.sys.NewExpander()}
	if r, ok := x.exp.(ts.Reducer); ok && s.opt.Reduce && r.Reduces() {
		x.red = r
	}
	// Lazy expansion looks successors up by fingerprint alone: not when
	// states are compared whole (exact), nor in a bit array.
	if l, ok := x.exp.(ts.LazyExpander); ok && !s.opt.Exact && s.opt.Bitstate <= 0 {
		x.lazy = l
		x.batch.Lazy = true
	}
	return x
}

// workerStack is what a worker's goroutine may hold on its stack.
const workerStack = 8 << 10

// addWorker makes a worker and returns what it took from the heap (its
// expanders' memory; ReadMemStats counts every allocation, so another
// goroutine's can only make the figure larger), plus its stack.
func (s *search) addWorker() int64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	w := worker{x: s.newExpansion(), alt: s.newExpansion()}
	runtime.ReadMemStats(&after)
	s.team.workers = append(s.team.workers, w)
	if w.x.lazy != nil && s.encoded == nil {
		s.encoded = &encoded{}
	}
	return int64(after.TotalAlloc-before.TotalAlloc) + workerStack
}

// Run explores sys breadth first.
func Run(sys ts.System, opt Options) (*Result, error) {
	opt = opt.withDefaults()
	s := newSearch(sys, opt)
	defer s.close()
	if err := s.staff(); err != nil {
		return nil, err
	}
	if err := conflicts(opt); err != nil {
		return nil, err
	}
	if opt.Exact {
		s.tab.enc = &encStore{}
	}
	found, err := newFindings(s.sys, s.opt)
	if err != nil {
		return nil, err
	}
	s.found = found
	if err := s.setGraph(); err != nil {
		return nil, err
	}
	// The table grows in parts on the workers (between phases, when they
	// are idle).
	s.visited.useCrew(len(s.team.workers), func(k int, f func(i int)) { s.team.parallel(k, func(_ *worker, i int) { f(i) }) })
	s.askPredicates()
	s.started = time.Now()
	s.bfs()
	s.stats.Elapsed = time.Since(s.started)
	return s.result()
}

// withDefaults fills in the options left zero that have a default.
func (opt Options) withDefaults() Options {
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	if opt.ProgressEvery == 0 {
		opt.ProgressEvery = time.Second
	}
	return opt
}

// newSearch is a search of sys with its table, links and level files, and
// one worker.
func newSearch(sys ts.System, opt Options) *search {
	// Indices are needed for the graph's edges, with reduction for the
	// depth of a revisited state, and in an exact table for the encodings.
	// A bitstate search keeps its states in the bits, made by setGraph
	// once the options are checked.
	s := &search{sys: sys, exp: sys.NewExpander(), opt: opt}
	s.team.reverse = opt.test.reverse
	levelAfter, linksAfter := opt.test.spillSizes()
	s.front.init(opt.TempDir, levelAfter, linksAfter)
	if opt.Bitstate > 0 {
		s.visited = &bitSet{}
	} else {
		indexed := opt.Exact || opt.Liveness || opt.Measure || opt.Reduce && reduces(sys)
		s.tab = newTable(1<<16, indexed)
		s.visited = &tableSet{t: s.tab}
	}
	return s
}

// close gives back what the search holds outside the Go heap and on disk.
func (s *search) close() {
	s.front.close()
	// The table and the graph's edges live outside the Go heap: nothing
	// collects them.
	s.visited.free()
	if s.graph != nil {
		s.graph.free()
	}
}

// staff makes the search's workers, as many as asked for (one per CPU by
// default) and as fit in the memory budget, and lets the table grow on
// them.
func (s *search) staff() error {
	opt := s.opt
	n := opt.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	// The workers' memory is inside the budget: what the first costs,
	// times their number, must leave the search at least half its share
	// (they are made before the search looks at the budget: 300,000 of
	// them took 2 GB). Workers asked for that do not fit are an error;
	// one per CPU becomes as many as fit (the results do not depend on
	// it). When not even one fits, the search stops at its first look.
	per := s.addWorker()
	if b := opt.MemoryBudget; b > 0 {
		if fit := int(min(SearchLimit(b)/2/per, math.MaxInt32)); fit >= 1 && n > fit {
			if opt.Workers > 0 {
				most := fmt.Sprintf("%d workers", fit)
				if fit == 1 {
					most = "1 worker"
				}
				return fmt.Errorf("%d workers need about %s (%s each), more than half of what the memory budget of %s leaves the search: give at most %s, or a larger budget",
					n, FormatBytes(int64(n)*per), FormatBytes(per), FormatBytes(b), most)
			}
			n = fit
		}
	}
	s.team.bytes = int64(n) * per
	for len(s.team.workers) < n {
		s.addWorker()
	}
	return nil
}

// conflicts says which options do not go together, if any.
func conflicts(opt Options) error {
	switch {
	case opt.Reduce && (opt.Goal.mask != 0 || opt.Liveness || len(opt.Steps) > 0 || len(opt.LeadsTo) > 0):
		return fmt.Errorf("partial-order reduction preserves invariants only: no goal, liveness or step predicate with it, nor a leads-to")
	case opt.Exact && opt.Bitstate > 0:
		return fmt.Errorf("an exact search stores whole states, a bitstate search none: not both")
	case opt.BitstateSeed != 0 && opt.Bitstate <= 0:
		return fmt.Errorf("a hash seed is for a bitstate search's bit array: not without one")
	case opt.Reduce && opt.Bitstate > 0:
		// The cycle proviso needs the depth of revisited states.
		return fmt.Errorf("partial-order reduction needs the state table: not with bitstate")
	}
	return nil
}

// setGraph decides whether the search keeps the state graph (for liveness
// and the measures) and, with bitstate, sets up the bit array instead.
func (s *search) setGraph() error {
	opt := s.opt
	if opt.Liveness {
		if len(s.found.goals) == 0 && len(s.found.leads) == 0 {
			return fmt.Errorf("liveness needs a goal or a leads-to predicate")
		}
		s.graph = &graph{good: make([]bitset, len(s.found.kept)), marks: len(s.found.kept) - len(s.found.goals), all: len(s.found.leads) > 0}
	}
	if opt.Measure {
		if opt.Reduce || opt.Bitstate > 0 {
			return fmt.Errorf("the measures need the full state graph: not with partial-order reduction or bitstate")
		}
		if s.graph == nil {
			s.graph = &graph{}
		}
		s.graph.measured = true
	}
	if opt.Bitstate > 0 {
		s.visited.(*bitSet).b = newBitstate(opt.Bitstate, opt.BitstateSeed)
		if s.graph != nil {
			s.graph, s.livenessSkipped = nil, "a bitstate search keeps no state graph"
		}
	}
	return nil
}

// askPredicates tells the workers' batches which predicates to evaluate:
// of an expanded state, those of the goals only (the invariants were
// checked when the state was found); of a successor, the invariants and
// the examples only (its goals count when it is expanded).
func (s *search) askPredicates() {
	for _, w := range s.team.workers {
		for _, b := range []*ts.Batch{&w.x.batch, &w.alt.batch} {
			b.NoStateProps, b.StatePropsOnly = s.found.keptMask == 0, s.found.keptMask
			b.NoSuccProps, b.SuccPropsOnly = s.found.invMask|s.found.reachMask == 0, s.found.invMask|s.found.reachMask
		}
	}
}

// predMasks are the properties of a search as bits of predicates.
type predMasks struct {
	inv, step, goal uint64
	goals           []int // the goal's predicates, ascending
}

// masksOf checks the predicate indices of a search's properties against
// sys and returns them as bits.
func masksOf(sys ts.System, invariants, steps []int, goal Goal) (predMasks, error) {
	var m predMasks
	npred := len(sys.Predicates())
	for _, p := range invariants {
		if p < 0 || p >= npred {
			return m, fmt.Errorf("invariant %d: no such predicate", p)
		}
		m.inv |= 1 << p
	}
	for _, p := range steps {
		if p < 0 || p >= npred {
			return m, fmt.Errorf("step predicate %d: no such predicate", p)
		}
		m.step |= 1 << p
	}
	for p := range ts.MaxPredicates {
		if goal.mask&(1<<p) == 0 {
			continue
		}
		if p >= npred {
			return m, fmt.Errorf("goal %d: no such predicate", p)
		}
		m.goals = append(m.goals, p)
		m.goal |= 1 << p
	}
	if goal.bad {
		return m, fmt.Errorf("goal: a predicate index out of range")
	}
	return m, nil
}

// reachMask checks the reach predicates against sys and returns them as
// bits.
func reachMask(sys ts.System, reach []int) (uint64, error) {
	var m uint64
	for _, p := range reach {
		if p < 0 || p >= len(sys.Predicates()) {
			return 0, fmt.Errorf("reach predicate %d: no such predicate", p)
		}
		m |= 1 << p
	}
	return m, nil
}

// lasso builds the violation of goal k in component fc (found by
// violations) as a prefix plus a fair cycle, replayed.
func (s *search) lasso(k int, comp []uint32, fc fairComponent) (*Violation, error) {
	g := s.graph
	cycle := g.buildFairCycle(comp, fc.c, fc.bad)
	if g.interrupted() != nil {
		return nil, nil
	}
	s0 := g.srcOf(cycle[0])
	tr, err := s.trace(s0)
	if err != nil {
		return nil, err
	}
	tr.CycleStart = len(tr.Steps) - 1
	if err := s.walk(&tr, cycle); err != nil {
		return nil, err
	}
	return &Violation{Kind: cex.FairCycle, Predicate: s.found.goals[k], Trace: tr, Bounded: g.cutOn(cycle)}, nil
}

// walk extends tr, which ends in the state the first edge leaves, along
// the graph's edges es, replaying each through the transition function;
// a cycle (tr.CycleStart set) must end in its start.
func (s *search) walk(tr *Trace, es []cycleEdge) error {
	g := s.graph
	exp := s.sys.NewExpander()
	var b ts.Batch
	for _, e := range es {
		prev := tr.Final().State
		exp.Expand(prev, &b)
		j := -1
		for k := range b.Succs {
			if idx, ok := s.tab.lookup(b.Succs[k].FP, b.State(k)); ok && idx == g.dst.at(e) && b.Succs[k].Fair == g.class.at(e) {
				j = k
				break
			}
		}
		if j < 0 {
			return replayFault(s.sys, tr, fmt.Errorf("internal error: replay along the graph: edge %d is not enabled", e))
		}
		a := b.Succs[j].Action
		tr.Steps = append(tr.Steps, Step{Action: a, Label: exp.Label(prev, a), State: slices.Clone(b.State(j)), Props: b.Succs[j].Props, Sent: b.Succs[j].Sent})
	}
	if tr.CycleStart >= 0 && !bytes.Equal(tr.Final().State, tr.Steps[tr.CycleStart].State) {
		return fmt.Errorf("internal error: the cycle does not return to its start")
	}
	return nil
}

// cutOn reports whether the bound discarded a fair step of a state that
// one of the edges es leaves.
func (g *graph) cutOn(es []cycleEdge) bool {
	for _, e := range es {
		if g.cut.has(g.srcOf(e)) {
			return true
		}
	}
	return false
}

// reduces reports whether sys can offer stubborn sets at all.
func reduces(sys ts.System) bool {
	r, ok := sys.NewExpander().(ts.Reducer)
	return ok && r.Reduces()
}

// named is option in the words of Options.Name.
func (o *Options) named(option string) string {
	if o.Name != nil {
		if n := o.Name(option); n != "" {
			return n
		}
	}
	return option
}

func (s *search) halt(r StopReason, why string) {
	s.stop = true
	if s.stats.Stop == NotStopped {
		s.stats.Stop, s.stats.Stopped = r, why
	}
}

func (s *search) memBytes() int64 {
	var g int64
	if s.graph != nil {
		g = s.graph.bytes()
	}
	for i := range s.chunks {
		c := &s.chunks[i]
		g += int64(cap(c.recs))*int64(unsafe.Sizeof(succRec{})) + int64(cap(c.buf)+cap(c.out)) +
			int64(cap(c.edges))*int64(unsafe.Sizeof(edgeRec{})) + int64(cap(c.sends))*int64(unsafe.Sizeof(ts.Sends{}))
	}
	if m, ok := s.sys.(ts.SharedMemory); ok {
		g += m.SharedBytes() // the expanders' shared tables, which grow with the search
	}
	if s.encoded != nil {
		g += s.encoded.bytes()
	}
	return g + s.team.memBytes() + s.visited.Bytes() + s.front.memBytes()
}

// result is what the search found, its statistics, and what the checks
// of the finished graph add.
func (s *search) result() (*Result, error) {
	s.stats.States = int64(s.front.links.n)
	s.stats.Reduced = s.stats.ReducedStates > 0
	s.stats.MemBytes = s.memBytes()
	if s.graph != nil {
		s.stats.GraphEdges = int64(s.graph.dst.len())
	}
	if err := s.front.spillFailed(); err != nil {
		s.stats.SpillFailed = err.Error()
	}
	bits := s.visited.report(&s.stats, s.stats.Transitions+s.initials)
	r := &Result{Stats: s.stats, Bitstate: bits}
	vs, err := s.found.violations(s.trace, s.stepTrace)
	if err != nil {
		return nil, err
	}
	r.Violations = vs
	r.LivenessSkipped = s.livenessSkipped
	if err := s.graphChecks(r); err != nil {
		return nil, err
	}
	return r, nil
}

// graphChecks adds to r what the state graph decides once the search
// finished: the fair cycles and leads-to, then the measures.
func (s *search) graphChecks(r *Result) error {
	// The fair-cycle check first: it finds the components while it judges
	// them, and the measures reuse them.
	if s.graph != nil && s.opt.Liveness {
		switch {
		case !s.stats.Complete:
			r.LivenessSkipped = "the search did not finish"
		default:
			began := time.Now()
			if len(s.found.goals) > 0 {
				if err := s.fairCycles(r); err != nil {
					return err
				}
			}
			if len(s.found.leads) > 0 && r.LivenessSkipped == "" {
				if err := s.leadsToCheck(r); err != nil {
					return err
				}
			}
			r.CycleCheck = time.Since(began)
		}
	}
	if s.opt.Measure {
		switch {
		case !s.stats.Complete:
			r.MeasuresSkipped = "the search did not finish: " + s.stats.Stopped
		case s.graph == nil:
			r.MeasuresSkipped = s.livenessSkipped
		default:
			if err := s.measure(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// FormatBytes renders a byte count for people: "1.5 GiB".
func FormatBytes(b int64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	div, exp := int64(unit), 0
	for n := b / unit; n >= unit; n /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(b)/float64(div), "KMGTPE"[exp])
}
