package explore

import (
	"context"
	"slices"
	"sort"

	"github.com/mcheck/mcheck/ts"
)

// graph is the explored state graph, kept compactly for the liveness check:
// edges in CSR form (out-edges of state s are start[s]..start[s+1]), each a
// destination index and a fairness class; and per state whether the goal
// (Stable) holds.
type graph struct {
	start []uint32
	dst   column[uint32]
	class column[int32]
	good  []bitset // per goal: the goal holds in the state
	which int      // the goal fairCycle looks at
	cut   bitset   // the channel bound discarded a fair successor of the state
	// With measured (Options.Measure): the messages each edge's step sent,
	// and the quiescent states (no fair step enabled, none discarded).
	measured bool
	sent     column[ts.Sends]
	quiet    bitset
	closed   bool
	// poll interrupts the checks over the graph (fair cycles, measures)
	// when the search's Context is done.
	poll poll
}

// pollEvery is how many units of work (states, edges) the checks after the
// search do between looks at the Context: a look costs next to nothing at
// that rate, and a deadline or Ctrl-C is seen within milliseconds.
const pollEvery = 1 << 16

// poll looks at a Context at the first unit of work and every pollEvery
// after; once the Context is done it keeps saying stop. The zero poll
// never stops.
type poll struct {
	ctx  context.Context
	left int
	err  error // the Context's cause, once it is done
}

// stop counts n units of work and reports whether the check must stop.
func (p *poll) stop(n int) bool {
	if p.err != nil {
		return true
	}
	if p.ctx == nil {
		return false
	}
	if p.left -= n; p.left > 0 {
		return false
	}
	p.left = pollEvery
	if p.ctx.Err() != nil {
		p.err = context.Cause(p.ctx)
	}
	return p.err != nil
}

// interrupted is the Context's cause if a check over the graph stopped
// early, else nil: what such a check returns then is no answer.
func (g *graph) interrupted() error { return g.poll.err }

// fairCycles runs the fair-cycle check of every goal on the complete graph
// and adds the lassos found to r. Interrupted by the Context, it claims
// nothing for the goals left (r.LivenessSkipped says why, as when the check
// does not run at all); the lassos found before stay, each was replayed.
func (s *search) fairCycles(r *Result) error {
	s.graph.close()
	s.graph.poll = poll{ctx: s.opt.Context}
	for k := range s.goals {
		v, err := s.lasso(k)
		if err != nil {
			return err
		}
		if cause := s.graph.interrupted(); cause != nil {
			r.LivenessSkipped = "the fair-cycle check was interrupted: " + cause.Error()
			return nil
		}
		if v != nil {
			r.Violations = append(r.Violations, *v)
		}
	}
	return nil
}

// close ends the CSR arrays with the sentinel start[n], once.
func (g *graph) close() {
	if !g.closed {
		g.start = append(g.start, uint32(g.dst.len()))
		g.closed = true
	}
}

// bitset is a set of state indices.
type bitset []uint64

func (b bitset) has(s uint32) bool { return int(s>>6) < len(b) && b[s>>6]&(1<<(s&63)) != 0 }

func (b *bitset) set(s uint32) {
	for int(s>>6) >= len(*b) {
		*b = append(*b, 0)
	}
	(*b)[s>>6] |= 1 << (s & 63)
}

func (g *graph) n() int { return len(g.start) - 1 }

func (g *graph) isGood(s uint32) bool { return g.good[g.which].has(s) }

func (g *graph) bytes() int64 {
	return int64(cap(g.start))*4 + g.dst.bytes() + g.class.bytes() + int64(cap(g.cut)+cap(g.quiet))*8 + g.goodBytes() +
		g.sent.bytes()
}

func (g *graph) goodBytes() int64 {
	var n int64
	for _, b := range g.good {
		n += int64(cap(b)) * 8
	}
	return n
}

// sccs returns the strongly connected components (Tarjan's algorithm with an
// explicit stack, so depth is not limited by the goroutine stack). comp[s] is
// the component of s; components are numbered in reverse topological order.
// Interrupted (g.interrupted), it returns early with a partial answer.
func (g *graph) sccs() (comp []uint32, ncomp int) {
	n := g.n()
	const unvisited = ^uint32(0)
	index := make([]uint32, n)
	low := make([]uint32, n)
	comp = make([]uint32, n)
	for i := range index {
		index[i], comp[i] = unvisited, unvisited
	}
	type frame struct{ v, edge uint32 }
	var call []frame
	var stack []uint32
	next := uint32(0)
	for root := 0; root < n; root++ {
		if index[root] != unvisited {
			continue
		}
		call = append(call, frame{uint32(root), g.start[root]})
		index[root], low[root] = next, next
		next++
		stack = append(stack, uint32(root))
		for len(call) > 0 {
			if g.poll.stop(1) {
				return comp, ncomp
			}
			f := &call[len(call)-1]
			v := f.v
			if f.edge < g.start[v+1] {
				w := g.dst.at(f.edge)
				f.edge++
				switch {
				case index[w] == unvisited:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					call = append(call, frame{w, g.start[w]})
				case comp[w] == unvisited: // w is on the stack
					low[v] = min(low[v], index[w])
				}
				continue
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					comp[w] = uint32(ncomp)
					if w == v {
						break
					}
				}
				ncomp++
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
		}
	}
	return comp, ncomp
}

// cycleEdge is one step of a cycle: the edge index in the graph.
type cycleEdge = uint32

// fairCycle looks for a reachable cycle that is weakly fair and passes a
// state where the goal does not hold, and returns it as edge indices starting
// and ending at its first state.
//
// Weak fairness on a cycle: every class enabled in all of the cycle's states
// is taken by one of its edges. Within a strongly connected component C, the
// walk through all of C's states and edges is the fairest one: any smaller
// cycle has at least the same classes enabled everywhere and at most the
// same classes taken. So C contains a fair cycle iff that walk is fair, and
// it then passes every state of C, including a bad one if C has one.
//
// Among the violating components it picks the one whose bad state has the
// lowest index (the shallowest, so the prefix is short) and builds a short
// fair cycle in it greedily.
//
// Interrupted (g.interrupted), it returns no cycle, which then proves nothing.
func (g *graph) fairCycle() ([]cycleEdge, bool) {
	comp, ncomp := g.sccs()
	if g.interrupted() != nil {
		return nil, false
	}
	// The states of each component, by a counting sort on comp: component c
	// is order[first[c]:first[c+1]], in increasing state order.
	first := make([]uint32, ncomp+1)
	for _, c := range comp {
		first[c+1]++
	}
	for c := 0; c < ncomp; c++ {
		first[c+1] += first[c]
	}
	order := make([]uint32, len(comp))
	fill := slices.Clone(first[:ncomp])
	for s, c := range comp {
		order[fill[c]] = uint32(s)
		fill[c]++
	}
	best, bestBad := -1, uint32(0)
	for c := 0; c < ncomp; c++ {
		if g.poll.stop(int(first[c+1] - first[c])) {
			return nil, false
		}
		bad, ok := g.violatingComponent(comp, uint32(c), order[first[c]:first[c+1]])
		if ok && (best < 0 || bad < bestBad) {
			best, bestBad = c, bad
		}
	}
	if best < 0 {
		return nil, false
	}
	cycle := g.buildFairCycle(comp, uint32(best), bestBad)
	return cycle, g.interrupted() == nil
}

// violatingComponent reports whether component c (with states ms) is a
// nontrivial, fair component with a bad state, and its lowest bad state.
func (g *graph) violatingComponent(comp []uint32, c uint32, ms []uint32) (uint32, bool) {
	bad, hasBad, internal := uint32(0), false, false
	for _, s := range ms {
		if !g.isGood(s) && !hasBad {
			bad, hasBad = s, true
		}
		for e := g.start[s]; e < g.start[s+1]; e++ {
			if comp[g.dst.at(e)] == c {
				internal = true
			}
		}
	}
	if !hasBad || !internal {
		return 0, false
	}
	required := g.enabledEverywhere(ms)
	taken := map[int32]bool{}
	for _, s := range ms {
		for e := g.start[s]; e < g.start[s+1]; e++ {
			if comp[g.dst.at(e)] == c && g.class.at(e) >= 0 {
				taken[g.class.at(e)] = true
			}
		}
	}
	for _, cl := range required {
		if !taken[cl] {
			return 0, false
		}
	}
	return bad, true
}

// enabledEverywhere lists the fair classes with an out-edge (in the whole
// graph) from every state of ms, sorted.
func (g *graph) enabledEverywhere(ms []uint32) []int32 {
	var common []int32
	for i, s := range ms {
		var here []int32
		for e := g.start[s]; e < g.start[s+1]; e++ {
			if g.class.at(e) >= 0 {
				here = append(here, g.class.at(e))
			}
		}
		slices.Sort(here)
		here = slices.Compact(here)
		if i == 0 {
			common = here
			continue
		}
		common = slices.DeleteFunc(common, func(c int32) bool {
			_, found := slices.BinarySearch(here, c)
			return !found
		})
		if len(common) == 0 {
			break
		}
	}
	return common
}

// buildFairCycle walks inside component c from bad state s0: it repeatedly
// finds a class that is enabled in every state visited so far and not yet
// taken, and extends the walk by a shortest path to an edge of that class or
// to a state where the class is disabled, whichever is nearer; finally it
// returns to s0. Each extension shrinks the classes still owed or grows the
// walk, and the whole component is fair, so it ends.
func (g *graph) buildFairCycle(comp []uint32, c uint32, s0 uint32) []cycleEdge {
	var walk []cycleEdge
	visited := []uint32{s0}
	at := s0
	for {
		owed, ok := g.firstOwed(walk, visited)
		if !ok {
			break
		}
		path := g.pathInside(comp, c, at, func(s uint32, e uint32, viaEdge bool) bool {
			if viaEdge {
				return g.class.at(e) == owed
			}
			return !g.enables(s, owed)
		})
		if g.interrupted() != nil {
			return nil
		}
		for _, e := range path {
			walk = append(walk, e)
			at = g.dst.at(e)
			visited = append(visited, at)
		}
	}
	// Close the cycle (a lone self-loop when the walk is still empty).
	if len(walk) == 0 || at != s0 {
		walk = append(walk, g.pathInside(comp, c, at, func(s uint32, e uint32, viaEdge bool) bool {
			return viaEdge && g.dst.at(e) == s0
		})...)
	}
	return walk
}

// firstOwed returns the smallest class enabled in every visited state and
// taken by no edge of walk.
func (g *graph) firstOwed(walk []cycleEdge, visited []uint32) (int32, bool) {
	common := g.enabledEverywhere(visited)
	taken := map[int32]bool{}
	for _, e := range walk {
		taken[g.class.at(e)] = true
	}
	for _, cl := range common {
		if !taken[cl] {
			return cl, true
		}
	}
	return 0, false
}

func (g *graph) enables(s uint32, cl int32) bool {
	for e := g.start[s]; e < g.start[s+1]; e++ {
		if g.class.at(e) == cl {
			return true
		}
	}
	return false
}

// pathInside is a BFS over edges inside component c from state from; it
// stops at the first edge e (viaEdge) or state s reached (by at least one
// edge) that satisfies stop, and returns the edges leading there. Edges are
// tried in index order, so the result is deterministic. Interrupted, it
// returns nil.
func (g *graph) pathInside(comp []uint32, c uint32, from uint32, stop func(s, e uint32, viaEdge bool) bool) []cycleEdge {
	const none = ^uint32(0)
	prevEdge := map[uint32]uint32{from: none}
	queue := []uint32{from}
	build := func(last uint32) []cycleEdge {
		path := []cycleEdge{last}
		for s := g.srcOf(last); prevEdge[s] != none; s = g.srcOf(prevEdge[s]) {
			path = append(path, prevEdge[s])
		}
		slices.Reverse(path)
		return path
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if g.poll.stop(1) {
			return nil
		}
		for e := g.start[s]; e < g.start[s+1]; e++ {
			w := g.dst.at(e)
			if comp[w] != c {
				continue
			}
			if stop(w, e, true) || stop(w, e, false) {
				return build(e)
			}
			if _, seen := prevEdge[w]; !seen {
				prevEdge[w] = e
				queue = append(queue, w)
			}
		}
	}
	return nil // unreachable inside a strongly connected component
}

// srcOf finds the state an edge leaves (binary search over start).
func (g *graph) srcOf(e uint32) uint32 {
	return uint32(sort.Search(g.n(), func(s int) bool { return g.start[s+1] > e }))
}
