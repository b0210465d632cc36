package check_test

// Independent oracles for every place the channel bound can cut a run short
// (docs/semantics.md sections 1, 2 and 5): a stuck state whose fair step the
// bound refused, a state the bound stopped that is no natural end of a
// complete run, the witnesses and lassos of the measures, the shortest
// counterexample after a reduced search, and --max-queue auto. Each oracle
// is a plain breadth-first search over the transition function written in
// this file, with the figures computed from its graph here (shortest
// paths, Bellman-Ford for the longest ones, reachability), and Stable and
// SingleLeader read from the states' snapshots; none of it calls the
// explorer, the measures or the verdict code under test.

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/ts"
)

type oEdge struct {
	to     int
	action ts.Action
	fair   bool
	sends  int // sends of the step (the total figure)
	lost   int
	sent   ts.Sends // per type (the timed oracle's figures)
	tick   bool     // a tick of time, by the action's kind (section 6)
}

// oGraph is the reachable graph of a configuration, states by index in
// breadth-first order (so depth is the length of a shortest path).
type oGraph struct {
	exp       model.Expander
	states    [][]byte
	index     map[string]int
	depth     []int
	out       [][]oEdge
	discarded []int // successors the bound refused, per state
	cutFair   []int // of them, weakly fair ones
	initial   []int
	edges     int
}

func oracleGraph(t *testing.T, algo string, cfg model.Config) *oGraph {
	t.Helper()
	sp, err := specs.Builtin().Lookup(algo)
	require.NoError(t, err)
	sys, err := sp.Build.System(cfg, nil)
	require.NoError(t, err)
	exp, err := model.ExpanderOf(sys)
	require.NoError(t, err)
	g := &oGraph{exp: exp, index: map[string]int{}}
	add := func(s []byte, d int) (int, bool) {
		if i, ok := g.index[string(s)]; ok {
			return i, false
		}
		i := len(g.states)
		g.index[string(s)] = i
		g.states = append(g.states, append([]byte(nil), s...))
		g.depth = append(g.depth, d)
		return i, true
	}
	var b ts.Batch
	exp.Initial(&b)
	var queue []int
	for j := range b.Succs {
		i, fresh := add(b.State(j), 0)
		g.initial = append(g.initial, i)
		if fresh {
			queue = append(queue, i)
		}
	}
	g.out = nil
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		exp.Expand(g.states[i], &b)
		for len(g.out) <= i {
			g.out = append(g.out, nil)
			g.discarded = append(g.discarded, 0)
			g.cutFair = append(g.cutFair, 0)
		}
		g.discarded[i], g.cutFair[i] = b.Discarded, b.DiscardedFair
		for j := range b.Succs {
			x := &b.Succs[j]
			to, fresh := add(b.State(j), g.depth[i]+1)
			if fresh {
				queue = append(queue, to)
			}
			g.out[i] = append(g.out[i], oEdge{to: to, action: x.Action, fair: x.Fair != ts.NoFairness, sends: x.Sent.Total(), lost: int(x.Sent.Lost),
				sent: x.Sent, tick: model.Action(x.Action).Kind() == model.KindTick})
			g.edges++
		}
	}
	return g
}

func (g *oGraph) totalDiscarded() int64 {
	n := 0
	for _, d := range g.discarded {
		n += d
	}
	return int64(n)
}

func (g *oGraph) anyFair(i int) bool {
	for _, e := range g.out[i] {
		if e.fair {
			return true
		}
	}
	return false
}

// stable is Stable read from the snapshot: every live process has elected
// the largest live ID.
func (g *oGraph) stable(i int) bool {
	s := g.exp.Snapshot(g.states[i])
	top := 0
	for _, p := range s.Processes {
		if p.Alive {
			top = max(top, p.ID)
		}
	}
	for _, p := range s.Processes {
		v, _ := p.Field("elected")
		if e, _ := v.Int(); p.Alive && e != top {
			return false
		}
	}
	return true
}

// leaders counts the live processes that elected themselves.
func (g *oGraph) leaders(i int) int {
	n := 0
	for _, p := range g.exp.Snapshot(g.states[i]).Processes {
		v, _ := p.Field("elected")
		if e, _ := v.Int(); p.Alive && e == p.ID {
			n++
		}
	}
	return n
}

// stateOf is the index of a trace's state.
func (g *oGraph) stateOf(t *testing.T, s []byte) int {
	t.Helper()
	i, ok := g.index[string(s)]
	require.True(t, ok, "a trace's state is not reachable")
	return i
}

// edgeOf is the oracle's edge for a trace step from i by action a.
func (g *oGraph) edgeOf(t *testing.T, i int, a ts.Action, to []byte) oEdge {
	t.Helper()
	for _, e := range g.out[i] {
		if e.action == a && string(g.states[e.to]) == string(to) {
			return e
		}
	}
	require.Fail(t, "a trace's step is no edge of the graph")
	return oEdge{}
}

// costOf follows run through the graph to its last state, at, and sums
// cost over its steps, and over the steps of its cycle when it is a lasso.
func (g *oGraph) costOf(t *testing.T, run *explore.Trace, cost func(oEdge) int) (at, total, inCycle int) {
	at = g.stateOf(t, run.Steps[0].State)
	for k, st := range run.Steps[1:] {
		e := g.edgeOf(t, at, st.Action, st.State)
		total += cost(e)
		if run.CycleStart >= 0 && k >= run.CycleStart {
			inCycle += cost(e)
		}
		at = e.to
	}
	return at, total, inCycle
}

// quiescent: no fair step and nothing refused by the bound (section 5);
// bounded also counts the states the bound stopped, which are no ends.
func (g *oGraph) quiescent(i int, bounded bool) bool {
	return !g.anyFair(i) && (g.discarded[i] == 0 || bounded)
}

// coReach marks the states from which a state in target is reachable.
func (g *oGraph) coReach(target func(int) bool) []bool {
	in := make([][]int, len(g.states))
	for i, es := range g.out {
		for _, e := range es {
			in[e.to] = append(in[e.to], i)
		}
	}
	mark := make([]bool, len(g.states))
	var stack []int
	for i := range g.states {
		if target(i) {
			mark[i] = true
			stack = append(stack, i)
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, j := range in[i] {
			if !mark[j] {
				mark[j] = true
				stack = append(stack, j)
			}
		}
	}
	return mark
}

// extremes are the least and largest cost of a path from an initial state
// to a target state, and whether the largest is unbounded (a cycle of
// positive cost from which a target is reachable); ok is false when no
// target is reachable. Bellman-Ford on states that reach a target: costs
// are non-negative, so a relaxation in round |V| means a positive cycle.
// figureAgrees checks a measure's figure against the oracle graph g, whose
// runs end where q holds, with cost per step: its min, max and
// unboundedness (when the graph has complete runs, as the figure says),
// and its witnesses: runs that end where q holds and cost the min or max,
// shortest among those, or, for an unbounded max, lassos whose cycle
// costs and can still reach q. It returns the oracle's extremes.
func figureAgrees(t *testing.T, g *oGraph, q func(int) bool, cost func(oEdge) int, fig *explore.Figure, complete bool, name string) (lo, hi int, unb, ok bool) {
	t.Helper()
	lo, hi, unb, ok = g.extremes(q, cost)
	require.Equal(t, ok, complete, name)
	if !ok {
		return
	}
	assert.Equal(t, lo, fig.Min, "%s: min", name)
	assert.Equal(t, unb, fig.Unbounded, "%s: unbounded", name)
	if !unb {
		assert.Equal(t, hi, fig.Max, "%s: max", name)
	}
	for _, w := range []struct {
		run      *explore.Trace
		want     int
		maximise bool
	}{{&fig.MinRun, lo, false}, {&fig.MaxRun, hi, true}} {
		at, total, inCycle := g.costOf(t, w.run, cost)
		if w.run.CycleStart >= 0 {
			require.True(t, unb && w.maximise, name)
			assert.Equal(t, string(w.run.Steps[w.run.CycleStart].State), string(w.run.Final().State), "%s: the lasso closes", name)
			assert.Positive(t, inCycle, "%s: the lasso's cycle counts", name)
			assert.True(t, g.coReach(q)[at], "%s: a quiescent state is reachable from the cycle", name)
			continue
		}
		if w.maximise && unb {
			assert.Fail(t, "the maximum is unbounded, but its witness is no lasso", name)
			continue
		}
		assert.True(t, q(at), "%s: the witness ends in a quiescent state, not one the bound stopped", name)
		assert.Equal(t, w.want, total, name)
		assert.Equal(t, g.shortestAttaining(q, cost, w.maximise), len(w.run.Steps)-1, "%s: a shortest witness", name)
	}
	return
}

func (g *oGraph) extremes(target func(int) bool, cost func(oEdge) int) (lo, hi int, unbounded, ok bool) {
	live := g.coReach(target)
	n := len(g.states)
	const none = math.MinInt / 2
	long, short := make([]int, n), make([]int, n)
	for i := range long {
		long[i], short[i] = none, math.MaxInt/2
	}
	for _, i := range g.initial {
		if live[i] {
			long[i], short[i] = 0, 0
		}
	}
	for round := 0; round <= n; round++ {
		changed := false
		for i, es := range g.out {
			if long[i] == none {
				continue
			}
			for _, e := range es {
				if !live[e.to] {
					continue
				}
				if c := long[i] + cost(e); c > long[e.to] {
					long[e.to], changed = c, true
					if round == n {
						unbounded = true
					}
				}
				if c := short[i] + cost(e); c < short[e.to] {
					short[e.to], changed = c, true
				}
			}
		}
		if !changed {
			break
		}
	}
	lo, hi = math.MaxInt, 0
	for i := range g.states {
		if target(i) && long[i] != none {
			ok = true
			lo, hi = min(lo, short[i]), max(hi, long[i])
		}
	}
	return lo, hi, unbounded, ok
}

func runCheck(t *testing.T, req check.Request) *check.Report {
	t.Helper()
	rep, err := check.Run(req)
	require.NoError(t, err)
	require.True(t, rep.Stats.Complete)
	return rep
}

func spec(t *testing.T, algo string) specs.Spec {
	sp, err := specs.Builtin().Lookup(algo)
	require.NoError(t, err)
	return sp
}

// A stuck state outside Stable is a Termination counterexample; it holds
// without the bound too only when the bound refused none of its fair
// steps. The oracle lists every stuck state with whether the bound cut it.
func TestStuckStatesTheBoundStoppedAgainstAnOracle(t *testing.T) {
	sawCut, sawReal := false, false
	for _, c := range []struct {
		algo string
		cfg  model.Config
	}{
		{"chang-roberts", model.Config{N: 3, MaxQueue: 1}},
		{"chang-roberts", model.Config{N: 3, IDs: []int{7, 4, 6}, MaxCrashes: 1, MaxQueue: 1}},
		{"ring", model.Config{N: 3, MaxCrashes: 1, MaxQueue: 1}},
		{"ring", model.Config{N: 3, MaxCrashes: 1, MaxQueue: 2}},
		{"bully", model.Config{N: 3, MaxCrashes: 1, MaxQueue: 1}},
	} {
		name := fmt.Sprintf("%s %+v", c.algo, c.cfg)
		g := oracleGraph(t, c.algo, c.cfg)
		rep := runCheck(t, check.Request{Spec: spec(t, c.algo), Config: c.cfg, Properties: []string{"Termination"}, Continue: true})
		require.Equal(t, int64(len(g.states)), rep.Stats.States, name)
		require.Equal(t, g.totalDiscarded(), rep.Stats.Discarded, name)
		// The oracle's stuck states outside Stable, the shallowest first.
		first, depthOf := -1, map[bool]int{}
		for i := range g.states {
			if g.anyFair(i) || g.stable(i) {
				continue
			}
			cut := g.cutFair[i] > 0
			if d, ok := depthOf[cut]; !ok || g.depth[i] < d {
				depthOf[cut] = g.depth[i]
			}
			if first < 0 || g.depth[i] < g.depth[first] {
				first = i
			}
		}
		v := mchecktest.Verdict(rep, "Termination")
		var stuck *check.Counterexample
		if v.Kind == cex.Stuck {
			stuck = &check.Counterexample{Kind: v.Kind, Trace: v.Trace, Bounded: v.Bounded}
		}
		for i := range v.Also {
			if v.Also[i].Kind == cex.Stuck {
				stuck = &v.Also[i]
			}
		}
		if first < 0 {
			assert.Nil(t, stuck, name)
			continue
		}
		require.NotNil(t, stuck, "%s: the oracle has a stuck state outside Stable", name)
		end := g.stateOf(t, stuck.Trace.Final().State)
		assert.False(t, g.anyFair(end) || g.stable(end), name)
		assert.Equal(t, g.depth[first], g.depth[end], "%s: a shortest stuck run", name)
		assert.Equal(t, len(stuck.Trace.Steps)-1, g.depth[end], name)
		assert.Equal(t, g.cutFair[end] > 0, stuck.Bounded, "%s: Bounded is whether the bound refused a fair step there", name)
		sawCut = sawCut || stuck.Bounded
		sawReal = sawReal || !stuck.Bounded
	}
	assert.True(t, sawCut && sawReal, "the configurations have stuck states of both kinds")
}

// The measures count complete runs only: a state the bound stopped is no
// quiescent state, so no run ends there. The oracle's figures, and the
// figures it would have if it counted those states, differ in at least one
// configuration, so the test tells the two apart.
func TestMeasuresIgnoreStatesTheBoundStoppedAgainstAnOracle(t *testing.T) {
	differs, unbounded := false, false
	for _, c := range []struct {
		algo string
		cfg  model.Config
	}{
		{"chang-roberts", model.Config{N: 3, IDs: []int{7, 4, 6}, MaxCrashes: 1, MaxQueue: 1}},
		{"chang-roberts", model.Config{N: 3, MaxQueue: 1}},
		{"chang-roberts", model.Config{N: 2, Detector: model.Unreliable, MaxQueue: 1}},
		{"ring", model.Config{N: 3, MaxCrashes: 1, MaxQueue: 1}},
		{"lelann", model.Config{N: 3, MaxQueue: 1}},
		{"bully", model.Config{N: 3, MaxCrashes: 1, MaxQueue: 1}},
	} {
		name := fmt.Sprintf("%s %+v", c.algo, c.cfg)
		g := oracleGraph(t, c.algo, c.cfg)
		rep := runCheck(t, check.Request{Spec: spec(t, c.algo), Config: c.cfg, Complexity: true})
		m := rep.Complexity.Measures
		require.NotNil(t, m, name)
		q := func(i int) bool { return g.quiescent(i, false) }
		for _, f := range []struct {
			fig  *explore.Figure
			cost func(oEdge) int
		}{{&m.Total, func(e oEdge) int { return e.sends }}, {&m.Lost, func(e oEdge) int { return e.lost }}} {
			lo, hi, unb, ok := figureAgrees(t, g, q, f.cost, f.fig, m.CompleteRuns, name)
			if !ok {
				continue
			}
			blo, bhi, bunb, _ := g.extremes(func(i int) bool { return g.quiescent(i, true) }, f.cost)
			differs = differs || blo != lo || bhi != hi || bunb != unb
			unbounded = unbounded || unb
		}
	}
	assert.True(t, differs, "some configuration's figures change when states the bound stopped count as ends")
	assert.True(t, unbounded, "some configuration has an unbounded maximum")
}

// A reduced search that finds a violation is rerun in full, so that the
// counterexample is a shortest one of the (bounded) model: its length is
// the oracle's depth of the shallowest state with two leaders.
func TestShortestCounterexampleAfterReductionAgainstAnOracle(t *testing.T) {
	cut := false
	for _, c := range []struct {
		algo string
		cfg  model.Config
	}{
		{"lelann", model.Config{N: 3, MaxCrashes: 1, MaxQueue: 2}},
		{"lelann", model.Config{N: 3, MaxCrashes: 1, MaxQueue: 3}},
		{"lelann", model.Config{N: 4, MaxCrashes: 1, MaxQueue: 2}},
	} {
		name := fmt.Sprintf("%s %+v", c.algo, c.cfg)
		g := oracleGraph(t, c.algo, c.cfg)
		want := -1
		for i := range g.states {
			if g.leaders(i) > 1 && (want < 0 || g.depth[i] < want) {
				want = g.depth[i]
			}
		}
		require.GreaterOrEqual(t, want, 0, "%s: the oracle finds two leaders", name)
		rep := runCheck(t, check.Request{Spec: spec(t, c.algo), Config: c.cfg, Properties: []string{"SingleLeader"}, Reduce: true, Continue: true})
		require.True(t, rep.RerunFull, "%s: the reduced search found the violation and was rerun", name)
		v := mchecktest.Verdict(rep, "SingleLeader")
		require.Equal(t, check.Violated, v.Status, name)
		end := g.stateOf(t, v.Trace.Final().State)
		assert.Greater(t, g.leaders(end), 1, name)
		assert.Equal(t, want, len(v.Trace.Steps)-1, "%s: a shortest counterexample", name)
		cut = cut || g.totalDiscarded() > 0
	}
	assert.True(t, cut, "the bound cuts some of these models")
}

// --max-queue auto deepens the bound until a search discards nothing, or
// finds a violation that the bound did not create. The oracle searches
// every bound itself: with no violation, the first bound that discards
// nothing; with an invariant violation, the first bound that reaches it.
func TestDeepeningAgainstAnOracle(t *testing.T) {
	for _, c := range []struct {
		algo  string
		cfg   model.Config
		props []string
		bad   func(g *oGraph, i int) bool
	}{
		{"chang-roberts", model.Config{N: 3}, []string{"SingleLeader", "Agreement"}, nil},
		{"ring", model.Config{N: 3}, []string{"SingleLeader"}, nil},
		{"lelann", model.Config{N: 3, MaxCrashes: 1}, []string{"SingleLeader"}, func(g *oGraph, i int) bool { return g.leaders(i) > 1 }},
	} {
		name := fmt.Sprintf("%s %+v", c.algo, c.cfg)
		rep, err := check.Deepen(check.Request{Spec: spec(t, c.algo), Config: c.cfg, Properties: c.props, Continue: true}, 0)
		require.NoError(t, err)
		d := rep.Deepening
		for k := 1; ; k++ {
			cfg := c.cfg
			cfg.MaxQueue = k
			g := oracleGraph(t, c.algo, cfg)
			require.Greater(t, len(d.Bounds), k-1, "%s: deepening stopped before bound %d", name, k)
			b := d.Bounds[k-1]
			assert.Equal(t, int64(len(g.states)), b.States, "%s bound %d", name, k)
			assert.Equal(t, int64(g.edges), b.Transitions, "%s bound %d", name, k)
			assert.Equal(t, g.totalDiscarded(), b.Discarded, "%s bound %d", name, k)
			violated := false
			for i := range g.states {
				violated = violated || c.bad != nil && c.bad(g, i)
			}
			if violated {
				assert.True(t, d.Violation, name)
				assert.Equal(t, k, d.Verdicts, name)
				assert.Len(t, d.Bounds, k, name)
				break
			}
			if g.totalDiscarded() == 0 {
				assert.True(t, d.Exhaustive, name)
				assert.Equal(t, k, d.Verdicts, name)
				assert.Len(t, d.Bounds, k, name)
				break
			}
		}
	}
}
