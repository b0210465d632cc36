package explore

import (
	"fmt"
	"math/bits"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/ts"
)

// findings is the search's bookkeeping of what it looks for and what it
// found: the targets as masks, the first state or step found for each,
// and the decision whether a finding stops the search. Its methods say
// why the search stops (NotStopped: it goes on); the search halts.
type findings struct {
	// cont is Options.Continue: nothing found stops the search. measure is
	// Options.Measure: the search must finish for the measures.
	cont, measure bool
	invMask       uint64
	reachMask     uint64
	stepMask      uint64
	quietMask     uint64 // the goals that also need no fair step enabled
	goals         []int  // Options.Goal's predicates, ascending
	goalMask      uint64 // the same, as bits
	leads         []LeadsTo
	// kept are the predicates whose truth the graph keeps per state: the
	// goals, then those of the leads-to that are no goals; keptMask the
	// same as bits.
	kept     []int
	keptMask uint64
	// invFound maps a predicate to the state index that violates it (an
	// invariant) or satisfies it first (a reach predicate).
	invFound map[int]uint32
	// stepFound maps a step predicate to the first violating step found:
	// the state it leaves and its action.
	stepFound map[int]stepAt
	// Per goal (in the order of goals), then per leads-to: the first stuck
	// state outside it (for a leads-to, reached through its premise along
	// the search's shortest paths), whether the bound discarded a fair
	// successor of it, and whether one was found.
	stuckAt   []uint32
	stuckCut  []bool
	stuckSeen []bool
	// armed[k] has the states from which a run may still violate leads-to
	// k along the search's shortest paths (see leadsto.go).
	armed []bitset
}

// Why the search stops, in words, for the reasons findings give.
const (
	whyFirstViolation = "stopped at the first violation"
	whyExamples       = "stopped once every example was found"
)

// haltFor halts the search for a reason findings gave, if any.
func (s *search) haltFor(r StopReason) {
	switch r {
	case StopFirstViolation:
		s.halt(r, whyFirstViolation)
	case StopExamples:
		s.halt(r, whyExamples)
	}
}

// newFindings checks the options' predicates against sys and keeps them
// as masks: invariants, step predicates, goals, examples to reach, quiet
// goals and leads-to pairs.
func newFindings(sys ts.System, opt Options) (findings, error) {
	f := findings{cont: opt.Continue, measure: opt.Measure, invFound: map[int]uint32{}, stepFound: map[int]stepAt{}}
	pm, err := masksOf(sys, opt.Invariants, opt.Steps, opt.Goal)
	if err != nil {
		return findings{}, err
	}
	f.invMask, f.stepMask, f.goalMask, f.goals = pm.inv, pm.step, pm.goal, pm.goals
	if f.reachMask, err = reachMask(sys, opt.Reach); err != nil {
		return findings{}, err
	}
	if f.quietMask = opt.Quiet.mask; opt.Quiet.bad || f.quietMask&^f.goalMask != 0 {
		return findings{}, fmt.Errorf("a quiet goal must be one of the goals")
	}
	if err := f.setLeadsTo(sys, opt.LeadsTo); err != nil {
		return findings{}, err
	}
	nstuck := len(f.goals) + len(f.leads)
	f.stuckAt, f.stuckCut, f.stuckSeen = make([]uint32, nstuck), make([]bool, nstuck), make([]bool, nstuck)
	return f, nil
}

// checkState records the invariants that state idx (its predicates props)
// violates, and the reach predicates that hold in it.
func (f *findings) checkState(props uint64, idx uint32) StopReason {
	stop := NotStopped
	if bad := f.invMask&^props | f.reachMask&props; bad != 0 {
		for p := 0; bad != 0; p, bad = p+1, bad>>1 {
			if bad&1 != 0 {
				stop = first(stop, f.invariant(p, idx))
			}
		}
	}
	return stop
}

// first is the earlier of two reasons to stop (the first one given).
func first(a, b StopReason) StopReason {
	if a != NotStopped {
		return a
	}
	return b
}

// invariant keeps the first (lowest-index, so shallowest) violation of
// invariant p, or example of reach predicate p (which stops the search
// only once it has nothing else to find).
func (f *findings) invariant(p int, idx uint32) StopReason {
	if old, seen := f.invFound[p]; seen && old <= idx {
		return NotStopped
	}
	f.invFound[p] = idx
	switch {
	case f.cont:
	case f.invMask&(1<<p) != 0:
		return StopFirstViolation
	case f.onlyExamplesLeft():
		return StopExamples
	}
	return NotStopped
}

// step keeps the first step found to violate step predicate p (callers
// give them in BFS order).
func (f *findings) step(p int, at stepAt) StopReason {
	if _, seen := f.stepFound[p]; seen {
		return NotStopped
	}
	f.stepFound[p] = at
	if f.cont {
		return NotStopped
	}
	return StopFirstViolation
}

// stuck keeps the first stuck state v outside goal or leads-to k (callers
// give them in BFS order); cut says the bound discarded a fair step of it,
// graph that the search keeps the state graph.
func (f *findings) stuck(k int, v uint32, cut, graph bool) StopReason {
	if f.stuckSeen[k] {
		return NotStopped
	}
	f.stuckSeen[k], f.stuckAt[k], f.stuckCut[k] = true, v, cut
	// A stuck state outside a goal is a definite answer as soon as it is
	// expanded, liveness or not (a fair cycle, the other way to fail,
	// needs the whole graph; Continue asks for it). One that only the
	// channel bound made stuck (a fair step of it discarded) says nothing
	// of the unbounded model: with liveness the search goes on, as
	// deepening needs.
	if !f.cont && (!graph || !cut) {
		return StopFirstViolation
	}
	return NotStopped
}

// anyStuck reports whether a stuck state outside a goal or leads-to was
// found.
func (f *findings) anyStuck() bool {
	for _, seen := range f.stuckSeen {
		if seen {
			return true
		}
	}
	return false
}

// onlyExamplesLeft reports whether the search has nothing left to find:
// it checks reach predicates only, and each has its example.
func (f *findings) onlyExamplesLeft() bool {
	if f.invMask|f.stepMask|f.goalMask != 0 || f.leads != nil || f.measure {
		return false
	}
	for m := f.reachMask; m != 0; m &= m - 1 {
		if _, ok := f.invFound[bits.TrailingZeros64(m)]; !ok {
			return false
		}
	}
	return true
}

// violations replays what f found into the result's violations, in this
// order: the invariants' violations and the examples by predicate, the
// stuck states by goal then leads-to, the steps by predicate. trace and
// stepTrace are the search's (trace.go).
func (f *findings) violations(trace func(uint32) (Trace, error), stepTrace func(stepAt, int) (Trace, error)) ([]Violation, error) {
	vs, err := f.stateViolations(nil, trace)
	if err != nil {
		return nil, err
	}
	if vs, err = f.stuckViolations(vs, trace); err != nil {
		return nil, err
	}
	return f.stepViolations(vs, stepTrace)
}

// stateViolations appends the invariants' violations and the examples.
func (f *findings) stateViolations(vs []Violation, trace func(uint32) (Trace, error)) ([]Violation, error) {
	for p := range ts.MaxPredicates {
		idx, ok := f.invFound[p]
		if !ok {
			continue
		}
		tr, err := trace(idx)
		if err != nil {
			return nil, err
		}
		kind, holds := cex.Invariant, tr.Final().Props&(1<<p) != 0
		if f.reachMask&(1<<p) != 0 {
			kind, holds = cex.Example, !holds
		}
		if holds {
			return nil, fmt.Errorf("internal error: replayed trace does not violate predicate %d", p)
		}
		vs = append(vs, Violation{Kind: kind, Predicate: p, Trace: tr})
	}
	return vs, nil
}

// stuckViolations appends the stuck states outside a goal or leads-to, a
// leads-to's trace with its premise marked.
func (f *findings) stuckViolations(vs []Violation, trace func(uint32) (Trace, error)) ([]Violation, error) {
	for k := range f.stuckSeen {
		if !f.stuckSeen[k] {
			continue
		}
		tr, err := trace(f.stuckAt[k])
		if err != nil {
			return nil, err
		}
		p := 0
		if k < len(f.goals) {
			p = f.goals[k]
		} else {
			lt := f.leads[k-len(f.goals)]
			p = lt.To
			if err := lt.mark(&tr); err != nil {
				return nil, err
			}
		}
		vs = append(vs, Violation{Kind: cex.Stuck, Predicate: p, Trace: tr, Bounded: f.stuckCut[k]})
	}
	return vs, nil
}

// stepViolations appends the steps that violate a step predicate.
func (f *findings) stepViolations(vs []Violation, stepTrace func(stepAt, int) (Trace, error)) ([]Violation, error) {
	for p := range ts.MaxPredicates {
		at, ok := f.stepFound[p]
		if !ok {
			continue
		}
		tr, err := stepTrace(at, p)
		if err != nil {
			return nil, err
		}
		vs = append(vs, Violation{Kind: cex.Step, Predicate: p, Trace: tr})
	}
	return vs, nil
}
