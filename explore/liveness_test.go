package explore

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
)

// The fair-cycle logic on hand-built graphs. A state is good when the goal
// (Stable) holds in it; classes >= 0 are weak-fairness classes, -1 unfair.

type edge struct {
	from, to uint32
	class    int32
}

const unfair = model.NoFairness

// push appends an edge of class cl (graphs built by hand).
func (c *classes) push(cl int32) {
	c.col.grow(c.col.len() + 1)
	c.set(uint32(c.col.len()-1), cl)
}

// mk builds a graph: states[i] is 'G' (good) or 'B' (bad); edges keep their
// order among those of the same source, and edge indices follow the sources.
func mk(states string, edges ...edge) *graph {
	n := len(states)
	g := &graph{start: make([]uint32, n+1), good: []bitset{nil}}
	for s := range n {
		g.start[s] = uint32(g.dst.len())
		for _, e := range edges {
			if int(e.from) == s {
				g.dst.push(e.to)
				g.class.push(e.class)
			}
		}
		if states[s] == 'G' {
			g.good[0].set(uint32(s))
		}
	}
	g.start[n] = uint32(g.dst.len())
	for len(g.good[0])*64 < n {
		g.good[0] = append(g.good[0], 0)
	}
	return g
}

// findCycle runs the fair-cycle check (violations, buildFairCycle), failing the test instead of hanging when the
// cycle builder walks forever.
func findCycle(t *testing.T, g *graph) ([]uint32, bool) {
	t.Helper()
	type answer struct {
		walk  []uint32
		found bool
	}
	// Judged in the SCC pass and beside it: the same answer. (A check that
	// does not return is caught by go test's -timeout, not by a clock here.)
	var as [2]answer
	for i, concurrent := range []bool{false, true} {
		comp, found := g.violations(concurrent)
		if found[0].ok {
			as[i].walk = g.buildFairCycle(comp, found[0].c, found[0].bad)
		}
		as[i].found = found[0].ok
	}
	if as[0].found != as[1].found || !slices.Equal(as[0].walk, as[1].walk) {
		t.Errorf("the concurrent judge disagrees: %v against %v", as[1], as[0])
		return nil, !as[0].found // a mismatch fails the caller's check too
	}
	return as[0].walk, as[0].found
}

// sources lists the source state of every edge, found independently of srcOf.
func sources(g *graph) []uint32 {
	src := make([]uint32, g.dst.len())
	for s := 0; s < g.n(); s++ {
		for e, end := g.edges(uint32(s)); e < end; e++ {
			src[e] = uint32(s)
		}
	}
	return src
}

// enabledAt lists the fair classes with an out-edge from s.
func enabledAt(g *graph, s uint32) map[int32]bool {
	on := map[int32]bool{}
	for e, end := g.edges(uint32(s)); e < end; e++ {
		if g.class.at(e) >= 0 {
			on[g.class.at(e)] = true
		}
	}
	return on
}

// fairEdgeSet says whether a closed walk using exactly the edges es (and
// passing exactly their states) is weakly fair: every fair class enabled in
// all those states is the class of one of the edges.
func fairEdgeSet(g *graph, src []uint32, es []uint32) bool {
	states := map[uint32]bool{}
	taken := map[int32]bool{}
	for _, e := range es {
		states[src[e]], states[g.dst.at(e)] = true, true
		taken[g.class.at(e)] = true
	}
	var common map[int32]bool
	for s := range states {
		here := enabledAt(g, s)
		if common == nil {
			common = here
			continue
		}
		for c := range common {
			if !here[c] {
				delete(common, c)
			}
		}
	}
	for c := range common {
		if !taken[c] {
			return false
		}
	}
	return true
}

// requireFairLasso checks that walk is a closed walk, passes a bad state
// and is fair, and returns the states it visits.
func requireFairLasso(t *testing.T, g *graph, walk []uint32) []uint32 {
	t.Helper()
	require.NotEmpty(t, walk)
	src := sources(g)
	var visited []uint32
	bad := false
	for i, e := range walk {
		require.Less(t, int(e), g.dst.len())
		next := walk[(i+1)%len(walk)]
		require.Equal(t, src[next], g.dst.at(e), "edge %d of the walk does not lead to the next one", i)
		visited = append(visited, src[e])
		bad = bad || !g.good[0].has(src[e])
	}
	require.True(t, bad, "the cycle passes no bad state")
	require.True(t, fairEdgeSet(g, src, walk), "the cycle is not fair")
	return visited
}

// bruteForce enumerates every set of edges that a closed walk can use
// exactly (a strongly connected edge set) and returns the lowest bad state
// on a fair one, or -1.
func bruteForce(g *graph) int {
	src := sources(g)
	m := g.dst.len()
	best := -1
	for mask := 1; mask < 1<<m; mask++ {
		var es []uint32
		for e := range m {
			if mask&(1<<e) != 0 {
				es = append(es, uint32(e))
			}
		}
		if !stronglyConnected(g, src, es) || !fairEdgeSet(g, src, es) {
			continue
		}
		for _, e := range es {
			for _, s := range []uint32{src[e], g.dst.at(e)} {
				if !g.good[0].has(s) && (best < 0 || int(s) < best) {
					best = int(s)
				}
			}
		}
	}
	return best
}

func stronglyConnected(g *graph, src []uint32, es []uint32) bool {
	reach := func(from uint32, fwd bool) map[uint32]bool {
		seen := map[uint32]bool{from: true}
		for changed := true; changed; {
			changed = false
			for _, e := range es {
				a, b := src[e], g.dst.at(e)
				if !fwd {
					a, b = b, a
				}
				if seen[a] && !seen[b] {
					seen[b], changed = true, true
				}
			}
		}
		return seen
	}
	root := src[es[0]]
	f, b := reach(root, true), reach(root, false)
	for _, e := range es {
		if !f[src[e]] || !b[src[e]] || !f[g.dst.at(e)] || !b[g.dst.at(e)] {
			return false
		}
	}
	return true
}

func TestUnfairCycleIsNotReported(t *testing.T) {
	// 0 and 1 (bad) loop through unfair steps; class 5 is enabled in both
	// but taken only by edges that leave the cycle, into the good state 2.
	g := mk("BBG",
		edge{0, 1, unfair}, edge{0, 2, 5},
		edge{1, 0, unfair}, edge{1, 2, 5},
		edge{2, 2, 7})
	_, found := findCycle(t, g)
	assert.False(t, found)
	assert.Equal(t, -1, bruteForce(g))

	// Class 5 no longer enabled in 1: the same cycle is fair.
	g = mk("BBG",
		edge{0, 1, unfair}, edge{0, 2, 5},
		edge{1, 0, unfair},
		edge{2, 2, 7})
	walk, found := findCycle(t, g)
	require.True(t, found)
	assert.Equal(t, []uint32{0, 2}, walk) // 0→1, 1→0
	requireFairLasso(t, g, walk)
}

func TestFairCycleTakesEveryClassEnabledEverywhere(t *testing.T) {
	// Two fair classes enabled in both states of the cycle; each is taken.
	g := mk("BB",
		edge{0, 1, 1}, edge{0, 0, 2},
		edge{1, 0, 2}, edge{1, 1, 1})
	walk, found := findCycle(t, g)
	require.True(t, found)
	requireFairLasso(t, g, walk)
	assert.Equal(t, []uint32{0, 2}, walk) // 0→1 (class 1), 1→0 (class 2)

	// Same, but class 2 is only ever taken by a step leaving the component.
	g = mk("BBG",
		edge{0, 1, 1}, edge{0, 2, 2},
		edge{1, 0, 1}, edge{1, 2, 2},
		edge{2, 2, 0})
	_, found = findCycle(t, g)
	assert.False(t, found)
}

func TestSelfLoopCycles(t *testing.T) {
	// A lone process forwarding a message to itself forever.
	g := mk("B", edge{0, 0, 0})
	walk, found := findCycle(t, g)
	require.True(t, found)
	assert.Equal(t, []uint32{0}, walk)
	requireFairLasso(t, g, walk)

	// An unfair self-loop with no fair class enabled is (vacuously) fair.
	g = mk("B", edge{0, 0, unfair})
	walk, found = findCycle(t, g)
	require.True(t, found)
	assert.Equal(t, []uint32{0}, walk)

	// An unfair self-loop while class 3 (to a good state) waits: not fair.
	g = mk("BG", edge{0, 0, unfair}, edge{0, 1, 3}, edge{1, 1, 3})
	_, found = findCycle(t, g)
	assert.False(t, found)

	// A bad state without any step is no cycle (it is a stuck state, found elsewhere).
	g = mk("GB", edge{0, 1, 0}, edge{0, 0, 1})
	_, found = findCycle(t, g)
	assert.False(t, found)
}

func TestCycleOfGoodStatesIsNoViolation(t *testing.T) {
	g := mk("GG", edge{0, 1, 0}, edge{1, 0, 1})
	_, found := findCycle(t, g)
	assert.False(t, found)
	g = mk("GGG", edge{0, 1, 0}, edge{1, 0, 1}, edge{1, 2, 2}, edge{2, 2, 0})
	_, found = findCycle(t, g)
	assert.False(t, found)
}

func TestComponentFairOnlyAsAWhole(t *testing.T) {
	// Class 4 is enabled in 0, 1 and 2 and taken inside the component only
	// by 1→2. The only cycle through the bad state 0 that avoids 2 is
	// 0→1→0, which is unfair; 1→2→1 is fair but passes no bad state. So
	// the fair cycle through 0 must go round the whole component.
	g := mk("BGGG",
		edge{0, 1, unfair}, edge{0, 3, 4}, // e0, e1
		edge{1, 0, unfair}, edge{1, 2, 4}, // e2, e3
		edge{2, 1, unfair}, edge{2, 3, 4}, // e4, e5
		edge{3, 3, 9}) // e6
	src := sources(g)
	for mask := 1; mask < 1<<g.dst.len(); mask++ {
		var es []uint32
		for e := range g.dst.len() {
			if mask&(1<<e) != 0 {
				es = append(es, uint32(e))
			}
		}
		if stronglyConnected(g, src, es) && slices.ContainsFunc(es, func(e uint32) bool { return src[e] == 0 }) && fairEdgeSet(g, src, es) {
			assert.Contains(t, es, uint32(3), "a fair cycle through 0 without 1→2: %v", es)
		}
	}
	assert.Equal(t, 0, bruteForce(g))

	walk, found := findCycle(t, g)
	require.True(t, found)
	assert.Equal(t, []uint32{0, 3, 4, 2}, walk) // 0→1→2→1→0
	assert.Equal(t, []uint32{0, 1, 2, 1}, requireFairLasso(t, g, walk))

	// The builder directly, from the bad state.
	comp, _ := g.sccs(nil)
	assert.Equal(t, walk, g.buildFairCycle(comp, comp[0], 0))
}

func TestFairCycleGoesWhereAnOwedClassIsDisabled(t *testing.T) {
	// Class 1 is enabled in 0 and 1 but not in 2, and never taken inside:
	// 0→1→0 is unfair, 0→1→2→0 is fair because 2 disables class 1.
	g := mk("BBBG",
		edge{0, 1, unfair}, edge{0, 3, 1},
		edge{1, 0, unfair}, edge{1, 2, unfair}, edge{1, 3, 1},
		edge{2, 0, unfair},
		edge{3, 3, 0})
	walk, found := findCycle(t, g)
	require.True(t, found)
	assert.Equal(t, []uint32{0, 1, 2}, requireFairLasso(t, g, walk))
}

func TestFairCycleStartsAtTheLowestBadStateOfAViolatingComponent(t *testing.T) {
	// 0 is bad but its unfair self-loop leaves classes 0 and 1 waiting;
	// {1,2} is fair with bad state 2; {3} is fair with bad state 3.
	g := mk("BGBB",
		edge{0, 0, unfair}, edge{0, 1, 0}, edge{0, 3, 1},
		edge{1, 2, 2},
		edge{2, 1, 3},
		edge{3, 3, 4})
	walk, found := findCycle(t, g)
	require.True(t, found)
	assert.Equal(t, []uint32{2, 1}, requireFairLasso(t, g, walk))
	assert.Equal(t, []uint32{4, 3}, walk)
	assert.Equal(t, 2, bruteForce(g))
}

func TestFairCycleAgreesWithBruteForceOnRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	found := 0
	for i := range 3000 {
		n := 1 + rng.IntN(5)
		states := make([]byte, n)
		for s := range states {
			states[s] = "GB"[rng.IntN(2)]
		}
		var edges []edge
		for range rng.IntN(10) {
			edges = append(edges, edge{uint32(rng.IntN(n)), uint32(rng.IntN(n)), int32(rng.IntN(4)) - 1})
		}
		g := mk(string(states), edges...)
		want := bruteForce(g)
		walk, ok := findCycle(t, g)
		require.Equal(t, want >= 0, ok, "graph %d: %s %v", i, states, edges)
		if ok {
			found++
			visited := requireFairLasso(t, g, walk)
			require.Equal(t, uint32(want), visited[0], "graph %d: %s %v: the cycle should start at the lowest bad state on a fair cycle", i, states, edges)
		}
	}
	assert.Greater(t, found, 300)
}

func TestSCCs(t *testing.T) {
	g := mk("GGGGGG",
		edge{0, 1, 0}, edge{1, 2, 0}, edge{2, 0, 0}, edge{2, 3, 0},
		edge{3, 4, 0}, edge{4, 3, 0},
		edge{5, 0, 0})
	comp, ncomp := g.sccs(nil)
	assert.Equal(t, 3, ncomp)
	assert.Equal(t, []uint32{1, 1, 1, 0, 0, 2}, comp)

	// Reverse topological order: an edge never goes to a later component.
	src := sources(g)
	for e := range uint32(g.dst.len()) {
		assert.GreaterOrEqual(t, comp[src[e]], comp[g.dst.at(e)])
	}

	// Self-loops and isolated states are components of their own.
	g = mk("GGG", edge{1, 1, 0})
	comp, ncomp = g.sccs(nil)
	assert.Equal(t, 3, ncomp)
	assert.Equal(t, []uint32{0, 1, 2}, comp)
}

// The components against their definition: u and v share one iff each
// reaches the other; and an edge never goes to a later component.
func TestSCCsAgreeWithReachabilityOnRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		n := 1 + rng.IntN(12)
		var edges []edge
		for range rng.IntN(3 * n) {
			edges = append(edges, edge{uint32(rng.IntN(n)), uint32(rng.IntN(n)), 0})
		}
		g := mk(strings.Repeat("G", n), edges...)
		reach := make([][]bool, n) // reach[u][v]: a path of length >= 0
		for u := range n {
			reach[u] = make([]bool, n)
			reach[u][u] = true
			stack := []int{u}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, e := range edges {
					if int(e.from) == x && !reach[u][e.to] {
						reach[u][e.to] = true
						stack = append(stack, int(e.to))
					}
				}
			}
		}
		comp, ncomp := g.sccs(nil)
		seen := map[uint32]bool{}
		for u := range n {
			require.Less(t, comp[u], uint32(ncomp), "graph %d: %v", i, edges)
			seen[comp[u]] = true
			for v := range n {
				require.Equal(t, reach[u][v] && reach[v][u], comp[u] == comp[v], "graph %d: states %d and %d: %v", i, u, v, edges)
			}
		}
		require.Len(t, seen, ncomp, "graph %d: components are numbered 0..ncomp-1", i)
		for _, e := range edges {
			require.GreaterOrEqual(t, comp[e.from], comp[e.to], "graph %d: edge %v goes to a later component", i, e)
		}
	}
}

func TestSCCsOfALongChainAndALongCycle(t *testing.T) {
	const n = 200_000
	g := &graph{start: make([]uint32, n+1), good: []bitset{nil}}
	for s := range n {
		g.start[s] = uint32(g.dst.len())
		if s+1 < n {
			g.dst.push(uint32(s + 1))
			g.class.push(0)
		}
	}
	g.start[n] = uint32(g.dst.len())
	comp, ncomp := g.sccs(nil)
	require.Equal(t, n, ncomp)
	for s := range n {
		if comp[s] != uint32(n-1-s) {
			t.Fatalf("comp[%d] = %d, want %d", s, comp[s], n-1-s)
		}
	}

	// Close it into one cycle with one bad state in the middle.
	g.dst.push(0)
	g.class.push(0)
	g.start[n] = uint32(g.dst.len())
	g.good = []bitset{make(bitset, (n+63)/64)}
	for s := range n {
		if s != n/2 {
			g.good[0].set(uint32(s))
		}
	}
	comp, ncomp = g.sccs(nil)
	require.Equal(t, 1, ncomp)
	assert.Equal(t, uint32(0), slices.Max(comp))
	walk, found := findCycle(t, g)
	require.True(t, found)
	require.Len(t, walk, n)
	assert.Equal(t, uint32(n/2), walk[0]) // edge n/2 leaves state n/2
	assert.Equal(t, uint32(n/2-1), walk[n-1])
}

func TestSrcOf(t *testing.T) {
	// State 1 and state 4 have no out-edges.
	g := &graph{start: []uint32{0, 2, 2, 3, 5, 5}}
	g.dst.grow(5)
	g.class.grow(5)
	for e, want := range []uint32{0, 0, 2, 3, 3} {
		assert.Equal(t, want, g.srcOf(uint32(e)), "edge %d", e)
	}
	assert.Equal(t, sources(g), []uint32{0, 0, 2, 3, 3})
}

func TestEnabledEverywhere(t *testing.T) {
	g := mk("BBB",
		edge{0, 1, 3}, edge{0, 1, 1}, edge{0, 2, unfair}, edge{0, 2, 2},
		edge{1, 0, 1}, edge{1, 2, 3}, edge{1, 2, 1},
		edge{2, 0, 1}, edge{2, 0, 3}, edge{2, 0, 4})
	assert.Equal(t, []int32{1, 3}, g.enabledEverywhere([]uint32{0, 1, 2}))
	assert.Equal(t, []int32{1, 2, 3}, g.enabledEverywhere([]uint32{0}))
	assert.Equal(t, []int32{1, 3, 4}, g.enabledEverywhere([]uint32{2, 2}))
	assert.Empty(t, g.enabledEverywhere([]uint32{0, 1, 2, 0}[:0]))
}

// doneAfter is a Context that is done from its after+1-th look on: a
// deadline that passes at a known point of the work.
type doneAfter struct {
	context.Context
	looks, after int
}

var errDeadline = errors.New("the deadline passed")

func (d *doneAfter) Err() error {
	d.looks++
	if d.looks > d.after {
		return errDeadline
	}
	return nil
}

// The fair-cycle check looks at the Context every pollEvery units of work,
// not only when it starts: a deadline that passes during it ends it there,
// and it then claims no cycle (one exists).
func TestFairCycleStopsWhenTheContextIsDoneDuringIt(t *testing.T) {
	const n = 200_000 // a cycle through n states, one of them bad
	g := &graph{start: make([]uint32, n+1), good: []bitset{make(bitset, (n+63)/64)}}
	for s := range n {
		g.start[s] = uint32(g.dst.len())
		g.dst.push(uint32((s + 1) % n))
		g.class.push(0)
		if s != n/2 {
			g.good[0].set(uint32(s))
		}
	}
	g.start[n] = uint32(g.dst.len())
	ctx := &doneAfter{Context: context.Background(), after: 1}
	g.poll = poll{ctx: ctx}
	walk, found := findCycle(t, g)
	assert.False(t, found)
	assert.Nil(t, walk)
	assert.Equal(t, errDeadline, g.interrupted())
	// A look at the start, one after pollEvery units (and context.Cause's
	// look at the error), and none after that.
	assert.Equal(t, 3, ctx.looks)

	// Not done: the same graph has its cycle.
	g.poll = poll{ctx: &doneAfter{Context: context.Background(), after: n}}
	walk, found = findCycle(t, g)
	require.True(t, found)
	assert.Len(t, walk, n)
	assert.NoError(t, g.interrupted())
}

// BenchmarkSCCs times the SCC pass alone on a graph shaped like a BFS
// graph of 4 M states: most edges go a little way forward, a third go a
// little way back (cycles of messages going round), so about half of the
// states are on cycles, as in chang-roberts --n 4 --crash-any.
func BenchmarkSCCs(b *testing.B) {
	const n = 4 << 20
	rng := rand.New(rand.NewPCG(5, 6))
	g := &graph{start: make([]uint32, n+1), good: []bitset{nil}}
	for s := range n {
		g.start[s] = uint32(g.dst.len())
		for range 1 + rng.IntN(3) {
			d := s + 1 + rng.IntN(4096)
			if rng.IntN(3) == 0 {
				d = s - rng.IntN(4096)
			}
			g.dst.push(uint32(min(max(d, 0), n-1)))
			g.class.push(0)
		}
	}
	g.start[n] = uint32(g.dst.len())
	b.ResetTimer()
	for b.Loop() {
		g.sccs(nil)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(g.dst.len()), "ns/edge")
}

// An edge's fairness class takes two bytes; the few classes that do not
// fit are kept aside, and every class reads back as it was set.
func TestEdgeClassesReadBack(t *testing.T) {
	var c classes
	defer c.free()
	want := []int32{unfair, 0, 1, 65533, 65534, 65535, 1 << 20, unfair, 7}
	for _, cl := range want {
		c.push(cl)
	}
	for e, cl := range want {
		require.Equal(t, cl, c.at(uint32(e)), "edge %d", e)
	}
	require.Len(t, c.wide, 3, "65534, 65535 and 1<<20 do not fit")
}
