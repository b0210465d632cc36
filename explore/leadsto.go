package explore

import (
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/ts"
)

// LeadsTo is the property From ~> To over two predicates: from every
// reachable state where From holds, every weakly fair run reaches a state
// where To holds. A violation is a state where From holds, then a fair run
// that stays outside To for good: one that ends in a stuck state (no fair
// step enabled) or goes round a weakly fair cycle, every state from the
// premise on (cycle included) outside To.
//
// The search finds the stuck states as it goes, along its shortest paths:
// a state is armed when To is false in it and either From holds in it or
// its parent in the search (the state that first reached it) is armed; an
// armed stuck state ends a violation. The graph, once complete, decides the
// rest (leadsToCheck): the components of the subgraph outside To, and
// which of them can hold a run for good.
type LeadsTo struct{ From, To int }

// setLeadsTo checks lts against the system's predicates and lays out what
// the search keeps of them: their predicates in kept (after the goals), an
// armed bit per state and leads-to.
func (f *findings) setLeadsTo(sys ts.System, lts []LeadsTo) error {
	if _, err := leadsToMask(sys, lts); err != nil {
		return err
	}
	f.kept, f.keptMask = slices.Clone(f.goals), f.goalMask
	for _, lt := range lts {
		for _, p := range []int{lt.From, lt.To} {
			if f.keptMask&(1<<p) == 0 {
				f.kept, f.keptMask = append(f.kept, p), f.keptMask|1<<p
			}
		}
	}
	f.leads, f.armed = slices.Clone(lts), make([]bitset, len(lts))
	return nil
}

// leadsToMask checks lts against the predicates of sys and returns the
// predicates they read, as bits.
func leadsToMask(sys ts.System, lts []LeadsTo) (uint64, error) {
	npred := len(sys.Predicates())
	var m uint64
	for i, lt := range lts {
		for _, p := range []int{lt.From, lt.To} {
			if p < 0 || p >= npred {
				return 0, fmt.Errorf("leads-to %d ~> %d: no predicate %d", lt.From, lt.To, p)
			}
			m |= 1 << p
		}
		if slices.ContainsFunc(lts[:i], func(o LeadsTo) bool { return o.To == lt.To }) {
			return 0, fmt.Errorf("two leads-to properties with the same To predicate %d", lt.To)
		}
	}
	return m, nil
}

// leadsToOf is the leads-to of lts whose To is p.
func leadsToOf(lts []LeadsTo, p int) (LeadsTo, bool) {
	i := slices.IndexFunc(lts, func(lt LeadsTo) bool { return lt.To == p })
	if i < 0 {
		return LeadsTo{}, false
	}
	return lts[i], true
}

// noteLeadsTo decides whether expanded state v (at position i of its
// chunk) is armed for each leads-to (see LeadsTo), and records it as the
// chunk's first stuck state of that leads-to when it is armed and stuck.
func (s *search) noteLeadsTo(ch *chunk, b *ts.Batch, i int, v uint32) {
	for k, lt := range s.found.leads {
		from := b.Props&(1<<lt.From) != 0
		if from {
			ch.premised |= 1 << lt.To
		}
		was := s.found.armed[k].hasAtomic(v) // the parent's, set when v was found
		armed := b.Props&(1<<lt.To) == 0 && (from || was)
		switch {
		case armed && !was:
			s.found.armed[k].setAtomic(v)
		case !armed && was:
			s.found.armed[k].clearAtomic(v)
		}
		if j := len(s.found.goals) + k; armed && ch.stuck[j] < 0 && !b.AnyFair() {
			ch.stuck[j], ch.stuckCut[j] = int64(ch.lo+i), b.DiscardedFair > 0
		}
	}
}

// inheritArmed gives new state idx, first reached from src, src's armed
// bits.
func (s *search) inheritArmed(src, idx uint32) {
	for k := range s.found.armed {
		if s.found.armed[k].hasAtomic(src) {
			s.found.armed[k].setAtomic(idx)
		}
	}
}

// mark sets tr.Premise: the earliest step from which on To never holds,
// in a state where From holds. A counterexample of lt has one.
func (lt LeadsTo) mark(tr *Trace) error {
	at := -1
	for i := len(tr.Steps) - 1; i >= 0 && tr.Steps[i].Props&(1<<lt.To) == 0; i-- {
		if tr.Steps[i].Props&(1<<lt.From) != 0 {
			at = i
		}
	}
	if at < 0 {
		return fmt.Errorf("internal error: the leads-to counterexample has no state where its premise holds and its goal never does after")
	}
	tr.Premise = &at
	return nil
}

// leadsToCheck looks, on the complete graph, for a violation of each
// leads-to and adds it to r: a stuck state found by the graph replaces the
// one the search found (its premise is the shallowest that can go wrong),
// a lasso comes besides it. Interrupted, it claims nothing more.
func (s *search) leadsToCheck(r *Result) error {
	g := s.graph
	g.close()
	g.poll = s.poll(CheckingFairCycles, int64(g.n()*len(s.found.leads)))
	for _, lt := range s.found.leads {
		run, ok := g.leadsTo(g.good[slices.Index(s.found.kept, lt.From)], g.good[slices.Index(s.found.kept, lt.To)])
		if g.interrupted() != nil {
			break
		}
		if !ok {
			continue
		}
		tr, err := s.trace(run.premise)
		if err != nil {
			return err
		}
		if err := s.walk(&tr, run.path); err != nil {
			return err
		}
		v := Violation{Kind: cex.Stuck, Predicate: lt.To, Bounded: g.cut.has(run.end)}
		if run.cycle != nil {
			tr.CycleStart = len(tr.Steps) - 1
			if err := s.walk(&tr, run.cycle); err != nil {
				return err
			}
			v.Kind, v.Bounded = cex.FairCycle, g.cutOn(run.cycle)
		}
		if err := lt.mark(&tr); err != nil {
			return err
		}
		v.Trace = tr
		if i := slices.IndexFunc(r.Violations, func(o Violation) bool { return o.Kind == v.Kind && o.Predicate == v.Predicate }); i >= 0 {
			r.Violations[i] = v
		} else {
			r.Violations = append(r.Violations, v)
		}
	}
	if cause := g.interrupted(); cause != nil {
		r.LivenessSkipped = "the leads-to check was interrupted: " + cause.Error()
	}
	return nil
}

// leadsToRun is a violation of a leads-to on the graph: the premise state,
// the path from it to end, and when end is on a fair cycle, that cycle
// (nil: end is stuck).
type leadsToRun struct {
	premise, end uint32
	path, cycle  []cycleEdge
}

// leadsTo finds a violation of From ~> To on the complete graph (from and
// to are the states where each holds). Outside To, the components of the
// subgraph that hold a weakly fair cycle (judged with every step of their
// states, to To or not, as docs/semantics.md section 2.3 judges fairness) and
// the states with no fair step enabled are where a run can stay outside To
// for good; a state can go wrong when such a place is reachable from it
// outside To. Components are numbered so that their edges go down, so one
// pass from the lowest number up finds those that can. The premise is the
// lowest such state where From holds (the search's shallowest), and the
// run from it a shortest path to such a place.
func (g *graph) leadsTo(from, to bitset) (leadsToRun, bool) {
	n := g.n()
	stay := make(bitset, (n+63)/64) // outside To, and a run may stay there
	var marks classMarks
	comp, ncomp, done := g.tarjan(func(comp []uint32, c uint32, ms []uint32) {
		if g.fairInside(comp, c, ms, &marks) {
			for _, s := range ms {
				stay.set(s)
			}
		}
	}, to)
	if !done {
		return leadsToRun{}, false
	}
	renumber(comp)
	for s := range uint32(n) {
		if !to.has(s) && !g.anyFairStep(s) {
			stay.set(s)
		}
	}
	// The states of each component, components in order.
	first := make([]uint32, ncomp+1)
	for s := range uint32(n) {
		if c := comp[s]; int(c) < ncomp {
			first[c+1]++
		}
	}
	for c := range ncomp {
		first[c+1] += first[c]
	}
	order := make([]uint32, first[ncomp])
	next := slices.Clone(first[:ncomp])
	for s := range uint32(n) {
		if c := comp[s]; int(c) < ncomp {
			order[next[c]] = s
			next[c]++
		}
	}
	next = nil
	wrong := make(bitset, (ncomp+63)/64) // components from which a run can stay outside To
	for c := range uint32(ncomp) {
	states:
		for _, s := range order[first[c]:first[c+1]] {
			if stay.has(s) {
				wrong.set(c)
				break
			}
			for e, end := g.edges(s); e < end; e++ {
				if d := comp[g.dst.at(e)]; int(d) < ncomp && d != c && wrong.has(d) {
					wrong.set(c)
					break states
				}
			}
		}
		if g.poll.stop(int(first[c+1] - first[c])) {
			return leadsToRun{}, false
		}
	}
	p0 := uint32(0)
	for ; int(p0) < n; p0++ {
		if from.has(p0) && !to.has(p0) && wrong.has(comp[p0]) {
			break
		}
	}
	if int(p0) == n {
		return leadsToRun{}, false
	}
	run := leadsToRun{premise: p0, end: p0}
	if !stay.has(p0) {
		run.path = g.shortestPath(p0, func(w uint32) bool { return !to.has(w) && wrong.has(comp[w]) }, stay.has)
		if run.path == nil {
			return leadsToRun{}, false // interrupted
		}
		run.end = g.dst.at(run.path[len(run.path)-1])
	}
	if g.anyFairStep(run.end) {
		run.cycle = g.buildFairCycle(comp, comp[run.end], run.end)
		if run.cycle == nil {
			return leadsToRun{}, false // interrupted
		}
	}
	return run, true
}

// anyFairStep reports whether some fair step leaves s.
func (g *graph) anyFairStep(s uint32) bool {
	for e, end := g.edges(s); e < end; e++ {
		if g.class.at(e) >= 0 {
			return true
		}
	}
	return false
}

// shortestPath is a BFS from state from over the edges to states that pass
// inside, to the first state that satisfies stop; it returns the edges
// there (nil when interrupted or none is reachable), tried in index order.
func (g *graph) shortestPath(from uint32, inside, stop func(uint32) bool) []cycleEdge {
	const none = ^uint32(0)
	prevEdge := map[uint32]uint32{from: none}
	for queue := []uint32{from}; len(queue) > 0; queue = queue[1:] {
		s := queue[0]
		if g.poll.stop(1) {
			return nil
		}
		for e, end := g.edges(s); e < end; e++ {
			w := g.dst.at(e)
			if _, seen := prevEdge[w]; seen || !inside(w) {
				continue
			}
			prevEdge[w] = e
			if !stop(w) {
				queue = append(queue, w)
				continue
			}
			path := []cycleEdge{e}
			for v := s; prevEdge[v] != none; v = g.srcOf(prevEdge[v]) {
				path = append(path, prevEdge[v])
			}
			slices.Reverse(path)
			return path
		}
	}
	return nil
}

// hasAtomic, setAtomic and clearAtomic work on a bitset that workers share
// (fit first).
func (b bitset) hasAtomic(s uint32) bool {
	return int(s>>6) < len(b) && atomic.LoadUint64(&b[s>>6])&(1<<(s&63)) != 0
}

func (b bitset) clearAtomic(s uint32) { atomic.AndUint64(&b[s>>6], ^uint64(1<<(s&63))) }
