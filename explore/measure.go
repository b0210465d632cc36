package explore

import (
	"container/heap"
	"fmt"
	"slices"
	"time"

	"github.com/mcheck/mcheck/ts"
)

// Measures are message counts over all complete runs of the explored graph
// (docs/semantics.md section 5): runs from an initial state to a quiescent state
// (no fair step enabled, no step discarded by the channel bound); for a
// system with a clock (ts.Clocked), also their time in ticks (section 6).
type Measures struct {
	// Types names the message types of ByType, in the system's order.
	Types []string
	// CompleteRuns: some quiescent state is reachable. Without one every
	// figure is zero and has no witness.
	CompleteRuns bool
	Total        Figure
	ByType       []Figure
	Lost         Figure
	// Time counts the tick steps of a run (docs/semantics.md section 6:
	// time.min and time.max); nil for a system without a clock.
	Time *Figure
	// Elapsed is the time of the dynamic program and the witnesses, after
	// the search.
	Elapsed time.Duration
}

// Figure is one count (the total, one message type, or the lost messages)
// minimised and maximised on its own over the complete runs.
type Figure struct {
	Min, Max int
	// Unbounded: a run reaches a cycle that counts (sends a message of the
	// figure) and from which a quiescent state is still reachable; Max is
	// then meaningless and MaxRun is that lasso.
	Unbounded bool
	// MinRun and MaxRun attain Min and Max; each is a shortest such run.
	MinRun, MaxRun Trace
}

// Figures lists the figures with their names: "total", each type, "lost".
func (m *Measures) Figures() ([]string, []*Figure) {
	names := []string{"total"}
	figs := []*Figure{&m.Total}
	for i := range m.ByType {
		names, figs = append(names, m.Types[i]), append(figs, &m.ByType[i])
	}
	return append(names, "lost"), append(figs, &m.Lost)
}

// edgeCost is the count of one figure on an edge.
type edgeCost func(e uint32) int

// measure computes r.Measures on the complete graph. Interrupted by the
// Context, it gives none: r.MeasuresSkipped says why, as when the search
// did not finish.
func (s *search) measure(r *Result) error {
	start := time.Now()
	s.graph.poll = s.poll(ComputingMeasures, 0) // passes of several kinds: no total
	m, err := s.measureGraph()
	if err != nil {
		return err
	}
	if cause := s.graph.interrupted(); cause != nil {
		r.MeasuresSkipped = "the measures were interrupted: " + cause.Error()
		return nil
	}
	m.Elapsed = time.Since(start)
	r.Measures = m
	return nil
}

// measureGraph returns the measures, or nil when interrupted
// (g.interrupted).
func (s *search) measureGraph() (*Measures, error) {
	g := s.graph
	g.close()
	types := []string{"MSG"}
	if m, ok := s.sys.(ts.Messenger); ok {
		types = m.MsgTypes()
	}
	m := &Measures{Types: types, ByType: make([]Figure, len(types))}
	tick, clocked := int32(0), false
	if c, ok := s.sys.(ts.Clocked); ok {
		tick, clocked = c.TickClass()
	}
	if clocked {
		m.Time = &Figure{}
	}
	ending := g.reachesQuiet()
	if g.interrupted() != nil {
		return nil, nil
	}
	for r := range s.roots {
		m.CompleteRuns = m.CompleteRuns || ending.has(uint32(r))
	}
	if !m.CompleteRuns {
		return m, nil
	}
	comp, ncomp := g.components()
	if g.interrupted() != nil {
		return nil, nil
	}
	costs := []edgeCost{func(e uint32) int { return g.sent.ptr(e).Total() }}
	for t := range types {
		costs = append(costs, func(e uint32) int { return int(g.sent.ptr(e).ByType[t]) })
	}
	costs = append(costs, func(e uint32) int { return int(g.sent.ptr(e).Lost) })
	_, figs := m.Figures()
	if m.Time != nil {
		// A tick is the one step of its fairness class (ts.Clocked),
		// and the graph keeps every edge's class.
		figs = append(figs, m.Time)
		costs = append(costs, func(e uint32) int {
			if g.class.at(e) == tick {
				return 1
			}
			return 0
		})
	}
	for i, cost := range costs {
		if err := s.minimise(figs[i], cost); err != nil {
			return nil, err
		}
		if err := s.maximise(figs[i], cost, ending, comp, ncomp); err != nil {
			return nil, err
		}
		if g.interrupted() != nil {
			return nil, nil
		}
	}
	return m, nil
}

// reachesQuiet is the set of states from which a quiescent state is
// reachable (a backward search over the reversed edges); partial when
// interrupted (g.interrupted).
func (g *graph) reachesQuiet() bitset {
	n := g.n()
	rstart := make([]uint32, n+1)
	for e := range uint32(g.dst.len()) {
		rstart[g.dst.at(e)+1]++
	}
	for v := 0; v < n; v++ {
		rstart[v+1] += rstart[v]
	}
	rsrc := make([]uint32, g.dst.len())
	fill := slices.Clone(rstart[:n])
	for u := 0; u < n; u++ {
		if g.poll.stop(1) {
			return nil
		}
		for e, end := g.edges(uint32(u)); e < end; e++ {
			d := g.dst.at(e)
			rsrc[fill[d]] = uint32(u)
			fill[d]++
		}
	}
	var ok bitset
	var queue []uint32
	for v := 0; v < n; v++ {
		if g.quiet.has(uint32(v)) {
			ok.set(uint32(v))
			queue = append(queue, uint32(v))
		}
	}
	for len(queue) > 0 {
		v := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if g.poll.stop(1) {
			return nil
		}
		for i := rstart[v]; i < rstart[v+1]; i++ {
			if u := rsrc[i]; !ok.has(u) {
				ok.set(u)
				queue = append(queue, u)
			}
		}
	}
	return ok
}

// minimise: Dijkstra by the figure's count from the initial states; the
// least count at a quiescent state, and a shortest run attaining it.
func (s *search) minimise(f *Figure, cost edgeCost) error {
	g := s.graph
	n := g.n()
	const inf = int(^uint(0) >> 1)
	dist := make([]int, n)
	for i := range dist {
		dist[i] = inf
	}
	var q distHeap
	for r := range s.roots {
		dist[r] = 0
		q = append(q, distItem{0, uint32(r)})
	}
	heap.Init(&q)
	for q.Len() > 0 {
		if g.poll.stop(1) {
			return nil
		}
		it := heap.Pop(&q).(distItem)
		if it.d > dist[it.s] {
			continue
		}
		for e, end := g.edges(it.s); e < end; e++ {
			if d := it.d + cost(e); d < dist[g.dst.at(e)] {
				dist[g.dst.at(e)] = d
				heap.Push(&q, distItem{d, g.dst.at(e)})
			}
		}
	}
	best := inf
	for v := 0; v < n; v++ {
		if g.quiet.has(uint32(v)) {
			best = min(best, dist[v])
		}
	}
	f.Min = best
	// Every edge of a least-count run is tight: dist[u]+cost = dist[v].
	run, err := s.shortestTight(func(v uint32) bool { return dist[v] == 0 }, func(v uint32) bool { return dist[v] != inf },
		func(e, u, v uint32) bool { return dist[u]+cost(e) == dist[v] },
		func(v uint32) bool { return g.quiet.has(v) && dist[v] == best })
	f.MinRun = run
	return err
}

// maximise: the largest count at a quiescent state over the states that
// can still reach one. A counting edge inside a strongly connected
// component of them makes it unbounded; otherwise the count is constant
// on each component and grows along the DAG of components.
func (s *search) maximise(f *Figure, cost edgeCost, ending bitset, comp []uint32, ncomp int) error {
	g := s.graph
	n := g.n()
	for u := 0; u < n; u++ {
		if g.poll.stop(1) {
			return nil
		}
		if !ending.has(uint32(u)) {
			continue
		}
		for e, end := g.edges(uint32(u)); e < end; e++ {
			if comp[g.dst.at(e)] == comp[u] && cost(e) > 0 {
				f.Unbounded = true
				run, err := s.lassoThrough(uint32(u), e, comp)
				f.MaxRun = run
				return err
			}
		}
	}
	// Tarjan numbers components in reverse topological order: an edge
	// between components goes to a smaller number.
	first, order := groupBy(comp, ncomp)
	val := make([]int, ncomp)
	for c := range val {
		val[c] = -1
	}
	for r := range s.roots {
		if ending.has(uint32(r)) {
			val[comp[r]] = max(val[comp[r]], 0)
		}
	}
	for c := ncomp - 1; c >= 0; c-- {
		if g.poll.stop(1) {
			return nil
		}
		if val[c] < 0 {
			continue
		}
		for _, u := range order[first[c]:first[c+1]] {
			for e, end := g.edges(u); e < end; e++ {
				v := g.dst.at(e)
				if cv := comp[v]; cv != uint32(c) && ending.has(v) {
					val[cv] = max(val[cv], val[c]+cost(e))
				}
			}
		}
	}
	best := -1
	for v := 0; v < n; v++ {
		if g.quiet.has(uint32(v)) {
			best = max(best, val[comp[v]])
		}
	}
	f.Max = best
	at := func(v uint32) int { return val[comp[v]] }
	run, err := s.shortestTight(func(v uint32) bool { return at(v) == 0 }, func(v uint32) bool { return ending.has(v) && at(v) >= 0 },
		func(e, u, v uint32) bool { return at(u)+cost(e) == at(v) },
		func(v uint32) bool { return g.quiet.has(v) && at(v) == best })
	f.MaxRun = run
	return err
}

// groupBy lists the states of each component: component c is
// order[first[c]:first[c+1]], in increasing state order.
func groupBy(comp []uint32, ncomp int) (first, order []uint32) {
	first = make([]uint32, ncomp+1)
	for _, c := range comp {
		first[c+1]++
	}
	for c := 0; c < ncomp; c++ {
		first[c+1] += first[c]
	}
	order = make([]uint32, len(comp))
	fill := slices.Clone(first[:ncomp])
	for v, c := range comp {
		order[fill[c]] = uint32(v)
		fill[c]++
	}
	return first, order
}

// shortestTight is a breadth-first search from the initial states that
// satisfy start, through states that satisfy inside, along tight edges
// only; it returns the run to the first state that satisfies goal (fewest
// steps, then lowest index). A run that attains an extreme count has only
// tight edges, so this is a shortest run among those that attain it.
func (s *search) shortestTight(start, inside func(v uint32) bool, tight func(e, u, v uint32) bool, goal func(v uint32) bool) (Trace, error) {
	g := s.graph
	const none = ^uint32(0)
	via := make([]uint32, g.n())
	for i := range via {
		via[i] = none
	}
	seen := bitset{}
	var level []uint32
	for r := range s.roots {
		if v := uint32(r); inside(v) && start(v) {
			seen.set(v)
			level = append(level, v)
		}
	}
	for len(level) > 0 {
		slices.Sort(level)
		for _, v := range level {
			if !goal(v) {
				continue
			}
			var edges []uint32
			for x := v; via[x] != none; x = g.srcOf(via[x]) {
				edges = append(edges, via[x])
			}
			slices.Reverse(edges)
			root := v
			if len(edges) > 0 {
				root = g.srcOf(edges[0])
			}
			return s.replay(root, edges)
		}
		var next []uint32
		for _, u := range level {
			if g.poll.stop(1) {
				return Trace{}, nil
			}
			for e, end := g.edges(u); e < end; e++ {
				v := g.dst.at(e)
				if !seen.has(v) && inside(v) && tight(e, u, v) {
					seen.set(v)
					via[v] = e
					next = append(next, v)
				}
			}
		}
		level = next
	}
	return Trace{}, fmt.Errorf("internal error: no run attains the extreme count")
}

// lassoThrough is a shortest run to u, then a cycle that starts with edge
// e (inside u's component) and returns to u.
func (s *search) lassoThrough(u, e uint32, comp []uint32) (Trace, error) {
	g := s.graph
	tr, err := s.trace(u)
	if err != nil {
		return Trace{}, err
	}
	cycle := []uint32{e}
	if v := g.dst.at(e); v != u {
		cycle = append(cycle, g.pathInside(comp, comp[u], v, func(x, _ uint32, viaEdge bool) bool { return !viaEdge && x == u })...)
	}
	tr.CycleStart = len(tr.Steps) - 1
	if err := s.extend(&tr, u, cycle); err != nil {
		return Trace{}, err
	}
	return tr, nil
}

// replay rebuilds the run from initial state root along edges.
func (s *search) replay(root uint32, edges []uint32) (Trace, error) {
	tr, err := s.trace(root)
	if err != nil {
		return Trace{}, err
	}
	return tr, s.extend(&tr, root, edges)
}

// extend appends the steps of edges, which leave state from, to tr. The
// edges of a state are its successors in expansion order (the measures
// need a full search), so edge e is successor e-start[src] of its source.
func (s *search) extend(tr *Trace, from uint32, edges []uint32) error {
	g := s.graph
	exp := s.sys.NewExpander()
	var b ts.Batch
	for _, e := range edges {
		if g.srcOf(e) != from {
			return fmt.Errorf("internal error: edge %d does not leave state %d", e, from)
		}
		prev := tr.Final().State
		exp.Expand(prev, &b)
		j := int(e - g.start[from])
		if j >= len(b.Succs) {
			return replayFault(s.sys, tr, fmt.Errorf("internal error: replay of edge %d: state %d has %d steps", e, from, len(b.Succs)))
		}
		x := &b.Succs[j]
		if idx, ok := s.tab.lookup(x.FP, b.State(j)); !ok || idx != g.dst.at(e) {
			return replayFault(s.sys, tr, fmt.Errorf("internal error: replay of edge %d reached another state than the search", e))
		}
		tr.Steps = append(tr.Steps, Step{Action: x.Action, Label: exp.Label(prev, x.Action), State: slices.Clone(b.State(j)), Props: x.Props, Sent: x.Sent})
		from = g.dst.at(e)
	}
	return nil
}

type distItem struct {
	d int
	s uint32
}

// distHeap orders by count, then state index (deterministic).
type distHeap []distItem

func (h distHeap) Len() int { return len(h) }
func (h distHeap) Less(i, j int) bool {
	return h[i].d < h[j].d || h[i].d == h[j].d && h[i].s < h[j].s
}
func (h distHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *distHeap) Push(x any)   { *h = append(*h, x.(distItem)) }
func (h *distHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
