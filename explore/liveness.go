package explore

import (
	"context"
	"math/bits"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcheck/mcheck/internal/offheap"
	"github.com/mcheck/mcheck/ts"
)

// graph is the explored state graph, kept compactly for the liveness check:
// edges in CSR form (out-edges of state s are start[s]..start[s+1]), each a
// destination index and a fairness class; and per state whether the goal
// (Stable) holds.
type graph struct {
	start []uint32
	// starts holds start while the search adds states; close moves it to
	// start, one array mapped outside the heap (see column), so that the
	// checks read it without a block lookup.
	starts column[uint32]
	dst    column[uint32]
	class  classes
	// comp and ncomp are the components (sccs), once a complete pass
	// has found them: the fair-cycle check and the measures share them.
	comp  []uint32
	ncomp int
	// good has, per goal and then per other kept predicate (the last
	// marks of them: a leads-to's, search.kept), the states where it
	// holds.
	good  []bitset
	marks int
	cut   bitset // the channel bound discarded a fair successor of the state
	// all keeps every step, not only those a fair cycle needs: a
	// leads-to's run may crash a process on its way to a stuck state.
	all bool
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
// after; once the Context is done it keeps saying stop. At the same rate
// it reports the units done so far, at most every ProgressEvery. The zero
// poll never stops.
type poll struct {
	ctx  context.Context
	left int
	err  error // the Context's cause, once it is done
	// report, if set, shows progress (see search.poll).
	report func(done int64)
	every  time.Duration
	last   time.Time
	done   int64
}

// stop counts n units of work and reports whether the check must stop.
func (p *poll) stop(n int) bool {
	if p.err != nil {
		return true
	}
	if p.ctx == nil && p.report == nil {
		return false
	}
	p.done += int64(n)
	if p.left -= n; p.left > 0 {
		return false
	}
	p.left = pollEvery
	if p.report != nil && time.Since(p.last) >= p.every {
		p.last = time.Now()
		p.report(p.done)
	}
	if p.ctx != nil && p.ctx.Err() != nil {
		p.err = context.Cause(p.ctx)
	}
	return p.err != nil
}

// poll is a poll on the search's Context that reports progress in phase
// ph, with of units in all (0: unknown).
func (s *search) poll(ph Phase, of int64) poll {
	p := poll{ctx: s.opt.Context}
	if s.opt.Progress != nil {
		p.every, p.last = s.opt.ProgressEvery, time.Now()
		p.report = func(done int64) {
			s.opt.Progress(Progress{
				States: int64(s.front.links.n), Transitions: s.stats.Transitions, Depth: s.stats.Depth,
				Elapsed: time.Since(s.started), MemBytes: s.memBytes(),
				Phase: ph, Done: min(done, of), Of: of,
			})
		}
	}
	return p
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
	// The SCC pass counts the states it finishes.
	s.graph.poll = s.poll(CheckingFairCycles, int64(s.graph.n()))
	// The judge runs beside the SCC pass when the search may use more
	// than one goroutine.
	comp, found := s.graph.violations(len(s.team.workers) > 1)
	for k := range s.found.goals {
		if s.graph.interrupted() != nil {
			break
		}
		if !found[k].ok {
			continue
		}
		v, err := s.lasso(k, comp, found[k])
		if err != nil {
			return err
		}
		if v != nil {
			r.Violations = append(r.Violations, *v)
		}
	}
	if cause := s.graph.interrupted(); cause != nil {
		r.LivenessSkipped = "the fair-cycle check was interrupted: " + cause.Error()
	}
	return nil
}

// free gives back the edges' memory (see column); the graph is unusable
// afterwards.
func (g *graph) free() {
	if g.closed {
		offheap.Free(g.start)
		g.start = nil
	}
	g.starts.free()
	g.dst.free()
	g.class.free()
	g.sent.free()
}

// close ends the CSR arrays with the sentinel start[n], once, and moves
// them to start.
func (g *graph) close() {
	if g.closed {
		return
	}
	g.starts.push(uint32(g.dst.len()))
	g.start = offheap.Make[uint32](g.starts.len())
	for i, b := range g.starts.blocks {
		copy(g.start[i*colBlock:], b)
	}
	g.starts.free()
	g.closed = true
}

// bitset is a set of state indices.
type bitset []uint64

func (b bitset) has(s uint32) bool { return int(s>>6) < len(b) && b[s>>6]&(1<<(s&63)) != 0 }

func (b *bitset) set(s uint32) {
	b.fit(s + 1)
	(*b)[s>>6] |= 1 << (s & 63)
}

// fit makes room for the states below n.
func (b *bitset) fit(n uint32) {
	for int(n+63)>>6 > len(*b) {
		*b = append(*b, 0)
	}
}

// setAtomic is set for workers that share the bitset; fit first.
func (b bitset) setAtomic(s uint32) { atomic.OrUint64(&b[s>>6], 1<<(s&63)) }

func (g *graph) n() int { return len(g.start) - 1 }

// keeps reports whether the graph (nil: none) keeps the edge of step y.
// The measures need every step. The fair-cycle check needs the steps a
// cycle may go through, and those of a fair class, which say the class is
// enabled in their state; a step that is neither joins no component and
// changes no component's fairness.
func (g *graph) keeps(y *ts.Succ) bool {
	return g != nil && (g.measured || g.all || !y.Acyclic || y.Fair != ts.NoFairness)
}

// reserve maps the blocks that states up to end (exclusive) and edges more
// edges will take (see column.reserve).
func (g *graph) reserve(end, edges int) {
	g.starts.reserve(end)
	g.dst.reserve(g.dst.len() + edges)
	g.class.col.reserve(g.class.len() + edges)
	if g.measured {
		g.sent.reserve(g.sent.len() + edges)
	}
}

// edges are the indices of the out-edges of state s: lo up to hi.
func (g *graph) edges(s uint32) (lo, hi uint32) { return g.start[s], g.start[s+1] }

func (g *graph) bytes() int64 {
	return int64(cap(g.start))*4 + g.starts.bytes() + g.dst.bytes() + g.class.bytes() + int64(cap(g.cut)+cap(g.quiet))*8 + g.goodBytes() +
		g.sent.bytes()
}

func (g *graph) goodBytes() int64 {
	var n int64
	for _, b := range g.good {
		n += int64(cap(b)) * 8
	}
	return n
}

// sccs returns the strongly connected components: comp[s] is the
// component of s, and components are numbered in reverse topological order
// (an edge between components goes to a smaller number).
//
// It is Pearce's space-efficient variant of Tarjan's algorithm ("A
// space-efficient algorithm for finding strongly connected components",
// 2016), with an explicit call stack so that depth is not limited by the
// goroutine stack. One array serves as Tarjan's index, lowlink and
// component: an open state holds its lowlink (at most the number of open
// states), a finished one its component, counted down from n so that it is
// above every open lowlink and never lowers one. That is a third of
// Tarjan's per-state memory and one random access per edge instead of two.
// Each, unless nil, sees every component that holds a cycle (onCycle) as
// it is found: its states ms, and its number c in comp at that moment
// (counted down from n; sccs renumbers from 0 at the end). Most components
// are one state with no step to itself, which the pass notes while it
// scans the state's edges: each is not called for them.
// Interrupted (g.interrupted), it returns early with a partial answer.
func (g *graph) sccs(each func(comp []uint32, c uint32, ms []uint32)) (comp []uint32, ncomp int) {
	comp, ncomp, done := g.tarjan(each, nil)
	if done {
		renumber(comp)
	}
	return comp, ncomp
}

// renumber turns tarjan's numbering (the first component found, a sink,
// got n) into sccs' (from 0 up).
func renumber(comp []uint32) {
	n := uint32(len(comp))
	for s := range comp {
		comp[s] = n - comp[s]
	}
}

// tarjan is sccs without the final renumbering; done is false when it was
// interrupted. The states of skip (nil: none) and their edges are left out:
// they belong to no component (comp 0, n after renumbering).
func (g *graph) tarjan(each func(comp []uint32, c uint32, ms []uint32), skip bitset) (comp []uint32, ncomp int, done bool) {
	n := g.n()
	rindex := make([]uint32, n) // 0: not visited yet
	// Two bits a state, 32 times smaller than rindex and so mostly in the
	// cache: whether it was visited and whether its component is found.
	// An edge reads rindex only for a state whose component is still open;
	// one to a found component cannot lower a lowlink (its number is
	// above all of them).
	mark := make(sccMarks, (2*n+63)/64)
	// A skipped state looks found: the pass neither starts at it nor
	// follows an edge to it.
	for i, w := range skip {
		for ; w != 0; w &= w - 1 {
			if s := uint32(i*64 + bits.TrailingZeros64(w)); int(s) < n {
				mark.set(s, found)
			}
		}
	}
	type frame struct {
		v, edge uint32
		root    bool // no edge from v's subtree reached an open state below v
		loop    bool // v has a step to itself
	}
	var call []frame
	var open []uint32 // finished states whose component is still open
	var ms []uint32   // the states of the component just found, for each
	index, c := uint32(1), uint32(n)
	for r := range uint32(n) {
		if mark.get(r) != unvisited {
			continue
		}
		rindex[r], index = index, index+1
		mark.set(r, visited)
		call = append(call, frame{r, g.start[r], true, false})
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			// v's edges up to the first to a state not visited yet, which
			// is visited next.
			next, low := uint32(0), rindex[v]
			for e, end := f.edge, g.start[v+1]; e < end; e++ {
				w := g.dst.at(e)
				switch mark.get(w) {
				case unvisited:
					next, f.edge = w+1, e+1
				case found:
					continue
				}
				if next != 0 {
					break
				}
				if rw := rindex[w]; rw < low {
					low, f.root = rw, false
				} else if w == v {
					f.loop = true
				}
			}
			rindex[v] = low
			if next != 0 {
				w := next - 1
				rindex[w], index = index, index+1
				mark.set(w, visited)
				call = append(call, frame{w, g.start[w], true, false})
				continue
			}
			if g.poll.stop(1) {
				return rindex, ncomp, false
			}
			root, loop := f.root, f.loop
			call = call[:len(call)-1]
			if root {
				index--
				ms = append(ms[:0], v)
				for len(open) > 0 && rindex[v] <= rindex[open[len(open)-1]] {
					ms = append(ms, open[len(open)-1])
					rindex[open[len(open)-1]] = c
					mark.set(open[len(open)-1], found)
					open = open[:len(open)-1]
					index--
				}
				rindex[v] = c
				mark.set(v, found)
				if each != nil && (len(ms) > 1 || loop) {
					each(rindex, c, ms)
				}
				c--
				ncomp++
			} else {
				open = append(open, v)
			}
			if len(call) > 0 {
				if p := &call[len(call)-1]; rindex[v] < rindex[p.v] {
					rindex[p.v], p.root = rindex[v], false
				}
			}
		}
	}
	return rindex, ncomp, true
}

// sccMarks is two bits a state for the SCC pass (tarjan): unvisited,
// visited (its component still open) or found.
type sccMarks []uint64

const (
	unvisited = 0
	visited   = 1
	found     = 3
)

func (m sccMarks) get(s uint32) uint64 { return m[s>>5] >> (2 * (s & 31)) & 3 }

// set raises s's mark to k (marks only go up: unvisited, visited, found).
func (m sccMarks) set(s uint32, k uint64) { m[s>>5] |= k << (2 * (s & 31)) }

// cycleEdge is one step of a cycle: the edge index in the graph.
type cycleEdge = uint32

// fairComponent is, for one goal, the component of a fair cycle through
// a bad state, and the lowest bad state of that component.
type fairComponent struct {
	ok     bool
	c, bad uint32
}

// violations finds, for every goal, the fair components with a bad state
// and keeps the one whose bad state has the lowest index (the shallowest, so
// the lasso's prefix is short). Each component is judged as soon as the SCC
// pass has found it, while its states are fresh in the cache. It returns the
// components (as sccs) and the choice per goal.
//
// Weak fairness on a cycle: every class enabled in all of the cycle's states
// is taken by one of its edges. Within a strongly connected component C, the
// walk through all of C's states and edges is the fairest one: any smaller
// cycle has at least the same classes enabled everywhere and at most the
// same classes taken. So C contains a fair cycle iff that walk is fair, and
// it then passes every state of C, including a bad one if C has one.
//
// Interrupted (g.interrupted), its answer proves nothing.
//
// With concurrent set, a second goroutine judges the components that can
// hold a cycle while the SCC pass goes on: the pass is most of the check
// and runs on one core. The judge reads comp only at states of components
// already found, which the pass no longer writes, and judges them in the
// order found, so the answer is the same.
func (g *graph) violations(concurrent bool) ([]uint32, []fairComponent) {
	found := make([]fairComponent, len(g.good)-g.marks)
	// best[k] is found[k].bad (^0: none yet). The judge writes it; the
	// pass, when the judge runs beside it, reads it to dismiss components
	// itself: it may lag behind found, never lead, so what the pass
	// dismisses could not improve found.
	best := make([]atomic.Uint32, len(found))
	for k := range best {
		best[k].Store(^uint32(0))
	}
	var marks classMarks
	judge := func(comp []uint32, c uint32, ms []uint32) {
		// Whether the component is fair matters only to a goal for which
		// it has a bad state below the best so far: once a violation is
		// found, most components are dismissed without a look at their
		// edges.
		fair, judged := false, false
		for k := range found {
			bad, ok := g.lowestBad(k, ms)
			if !ok || bad >= best[k].Load() {
				continue
			}
			if !judged {
				fair, judged = g.fairInside(comp, c, ms, &marks), true
			}
			if fair {
				found[k] = fairComponent{true, c, bad}
				best[k].Store(bad)
			}
		}
	}
	each := judge
	var jobs chan judgeJob
	var judged sync.WaitGroup
	if concurrent {
		jobs = make(chan judgeJob, 1024)
		judged.Add(1)
		go func() {
			defer judged.Done()
			for j := range jobs {
				judge(j.comp, j.c, j.ms)
			}
		}()
		each = func(comp []uint32, c uint32, ms []uint32) {
			// Most components have no bad state below the best: dismissed
			// here, without a copy.
			if g.belowBest(ms, best) {
				jobs <- judgeJob{comp, c, slices.Clone(ms)}
			}
		}
	}
	comp, ncomp, done := g.tarjan(each, nil)
	if concurrent {
		close(jobs)
		judged.Wait()
	}
	if done {
		renumber(comp)
	}
	for k := range found {
		found[k].c = uint32(g.n()) - found[k].c // sccs' final numbering
	}
	if done {
		g.comp, g.ncomp = comp, ncomp
	}
	return comp, found
}

// belowBest reports whether ms has, for some goal k, a bad state below
// best[k].
func (g *graph) belowBest(ms []uint32, best []atomic.Uint32) bool {
	for k := range best {
		if bad, ok := g.lowestBad(k, ms); ok && bad < best[k].Load() {
			return true
		}
	}
	return false
}

// judgeJob is a component for violations' judge: its states and its
// number in comp.
type judgeJob struct {
	comp []uint32
	c    uint32
	ms   []uint32
}

// components are the graph's components, as sccs numbers them, found once.
// Interrupted (g.interrupted), the answer is partial and not kept.
func (g *graph) components() ([]uint32, int) {
	if g.comp == nil {
		comp, ncomp := g.sccs(nil)
		if g.interrupted() != nil {
			return comp, ncomp
		}
		g.comp, g.ncomp = comp, ncomp
	}
	return g.comp, g.ncomp
}

// lowestBad is the lowest state of ms where goal k does not hold.
func (g *graph) lowestBad(k int, ms []uint32) (uint32, bool) {
	bad, ok := uint32(0), false
	for _, s := range ms {
		if !g.good[k].has(s) && (!ok || s < bad) {
			bad, ok = s, true
		}
	}
	return bad, ok
}

// classMarks is fairInside's scratch space, per fair class: which
// call (stamp) its other entries belong to, the last state of the component
// that enables the class (+1), how many of its states do, and the call in
// which an edge inside the component took the class. Stamps make clearing
// between components unnecessary, so a component costs only its own edges.
type classMarks struct {
	stamp                      uint32
	counted, last, count, took []uint32
}

// fit makes room for class cl.
func (m *classMarks) fit(cl int32) {
	for int(cl) >= len(m.counted) {
		m.counted, m.last = append(m.counted, 0), append(m.last, 0)
		m.count, m.took = append(m.count, 0), append(m.took, 0)
	}
}

// fairInside reports whether component c (with states ms, in any order)
// is nontrivial and the walk through all of it is weakly fair.
func (g *graph) fairInside(comp []uint32, c uint32, ms []uint32, m *classMarks) bool {
	if !g.onCycle(ms) {
		return false
	}
	m.stamp++
	for _, s := range ms {
		for e, end := g.edges(s); e < end; e++ {
			cl := g.class.at(e)
			if cl < 0 {
				continue
			}
			m.fit(cl)
			if m.counted[cl] != m.stamp {
				m.counted[cl], m.last[cl], m.count[cl] = m.stamp, 0, 0
			}
			if m.last[cl] != s+1 {
				m.last[cl] = s + 1
				m.count[cl]++
			}
			if comp[g.dst.at(e)] == c {
				m.took[cl] = m.stamp
			}
		}
	}
	// A class enabled in every state is enabled in the first: it must
	// have been taken inside.
	s := ms[0]
	for e, end := g.edges(s); e < end; e++ {
		if cl := g.class.at(e); cl >= 0 && int(m.count[cl]) == len(ms) && m.took[cl] != m.stamp {
			return false
		}
	}
	return true
}

// onCycle reports whether component ms holds a cycle: two states or more
// do; a lone one only with a self-loop.
func (g *graph) onCycle(ms []uint32) bool {
	if len(ms) > 1 {
		return true
	}
	for e, end := g.edges(ms[0]); e < end; e++ {
		if g.dst.at(e) == ms[0] {
			return true
		}
	}
	return false
}

// enabledEverywhere lists the fair classes with an out-edge (in the whole
// graph) from every state of ms, sorted.
func (g *graph) enabledEverywhere(ms []uint32) []int32 {
	var common []int32
	for i, s := range ms {
		var here []int32
		for e, end := g.edges(s); e < end; e++ {
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
	for e, end := g.edges(s); e < end; e++ {
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
		for e, end := g.edges(s); e < end; e++ {
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
