package explore

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/internal/slow"
	"github.com/mcheck/mcheck/ts"
)

// A leads-to P ~> Q on hand-built graphs, against a brute-force oracle.
// States are labelled '.' (neither), 'P' (P only), 'Q' (Q only) or 'B'
// (both); predicate 0 is Q, predicate 1 is P. State 0 is initial, and the
// edges from a state are its steps in order, edge k being action k.

type ltSys struct {
	states string
	edges  []edge
}

func (g ltSys) NewExpander() ts.Expander { return graphExp{g} }
func (ltSys) Predicates() []string       { return []string{"Q", "P"} }
func (ltSys) FairClass(c int32) string   { return fmt.Sprint("class ", c) }
func (g ltSys) edgeList() []edge         { return g.edges }

func (g ltSys) props(s uint32) (p uint64) {
	switch g.states[s] {
	case 'Q':
		p = 1
	case 'P':
		p = 2
	case 'B':
		p = 3
	}
	return p
}

func (g ltSys) q(s uint32) bool { return g.props(s)&1 != 0 }
func (g ltSys) p(s uint32) bool { return g.props(s)&2 != 0 }

var pLeadsToQ = []LeadsTo{{From: 1, To: 0}}

// oracleLeadsTo decides P ~> Q by brute force, independently of the
// explorer: some reachable state where P holds and Q does not reaches,
// through states outside Q, a state outside Q that is stuck (no fair step
// leaves it) or lies on a weakly fair cycle outside Q, found by trying every
// set of edges between states outside Q as the edges of a closed walk.
func oracleLeadsTo(g ltSys) bool {
	n := uint32(len(g.states))
	reach := map[uint32]bool{0: true}
	for changed := true; changed; {
		changed = false
		for _, e := range g.edges {
			if reach[e.from] && !reach[e.to] {
				reach[e.to], changed = true, true
			}
		}
	}
	fairOut := func(s uint32) map[int32]bool {
		m := map[int32]bool{}
		for _, e := range g.edges {
			if e.from == s && e.class >= 0 {
				m[e.class] = true
			}
		}
		return m
	}
	stay := map[uint32]bool{}
	for s := range n {
		if !g.q(s) && len(fairOut(s)) == 0 {
			stay[s] = true
		}
	}
	var inner []edge
	for _, e := range g.edges {
		if !g.q(e.from) && !g.q(e.to) {
			inner = append(inner, e)
		}
	}
	for mask := 1; mask < 1<<len(inner); mask++ {
		var es []edge
		states := map[uint32]bool{}
		for i, e := range inner {
			if mask&(1<<i) != 0 {
				es = append(es, e)
				states[e.from], states[e.to] = true, true
			}
		}
		if !closedWalk(es, states) {
			continue
		}
		fair := true
		for cl := range fairOut(es[0].from) {
			everywhere := true
			for s := range states {
				everywhere = everywhere && fairOut(s)[cl]
			}
			taken := slices.ContainsFunc(es, func(e edge) bool { return e.class == cl })
			fair = fair && (!everywhere || taken)
		}
		if fair {
			for s := range states {
				stay[s] = true
			}
		}
	}
	for s := range n {
		if !reach[s] || !g.p(s) || g.q(s) {
			continue
		}
		seen := map[uint32]bool{s: true}
		for changed := true; changed; {
			changed = false
			for _, e := range inner {
				if seen[e.from] && !seen[e.to] {
					seen[e.to], changed = true, true
				}
			}
		}
		for t := range seen {
			if stay[t] {
				return true
			}
		}
	}
	return false
}

// closedWalk: a walk can use exactly the edges es, each at least once,
// and come back: every state reaches every other along them.
func closedWalk(es []edge, states map[uint32]bool) bool {
	for a := range states {
		seen := map[uint32]bool{a: true}
		for changed := true; changed; {
			changed = false
			for _, e := range es {
				if seen[e.from] && !seen[e.to] {
					seen[e.to], changed = true, true
				}
			}
		}
		if len(seen) != len(states) {
			return false
		}
	}
	return true
}

// checkLeadsToRun checks a counterexample of P ~> Q as the oracle reads
// one, from the graph alone: a run of the graph from state 0; P holds at
// the premise and Q nowhere from there (or from the cycle's start) on; it
// ends stuck outside Q, or its cycle returns and is weakly fair.
func checkLeadsToRun(t *testing.T, g ltSys, v Violation) {
	t.Helper()
	tr := v.Trace
	state := func(i int) uint32 { return binary.LittleEndian.Uint32(tr.Steps[i].State) }
	require.Zero(t, state(0))
	for i := 1; i < len(tr.Steps); i++ {
		e := g.edges[tr.Steps[i].Action]
		require.Equal(t, []uint32{state(i - 1), state(i)}, []uint32{e.from, e.to}, "step %d", i)
	}
	require.NotNil(t, tr.Premise)
	m := *tr.Premise
	require.True(t, g.p(state(m)), "P at the premise, step %d", m)
	from := m
	if tr.CycleStart >= 0 {
		from = min(m, tr.CycleStart)
	}
	for i := from; i < len(tr.Steps); i++ {
		require.False(t, g.q(state(i)), "Q at step %d, after the premise", i)
	}
	last := state(len(tr.Steps) - 1)
	fairOut := func(s uint32) []int32 {
		var cls []int32
		for _, e := range g.edges {
			if e.from == s && e.class >= 0 {
				cls = append(cls, e.class)
			}
		}
		return cls
	}
	switch v.Kind {
	case cex.Stuck:
		require.Empty(t, fairOut(last), "the last state is stuck")
	case cex.FairCycle:
		c := tr.CycleStart
		require.Equal(t, state(c), last, "the cycle returns to its start")
		for _, cl := range fairOut(state(c)) {
			everywhere, taken := true, false
			for i := c; i < len(tr.Steps)-1; i++ {
				everywhere = everywhere && slices.Contains(fairOut(state(i)), cl)
				taken = taken || g.edges[tr.Steps[i+1].Action].class == cl
			}
			require.True(t, !everywhere || taken, "class %d is enabled round the cycle and never taken", cl)
		}
	default:
		t.Fatalf("kind %d is no leads-to counterexample", v.Kind)
	}
}

func leadsToViolations(r *Result) []Violation {
	var vs []Violation
	for _, v := range r.Violations {
		if v.Kind == cex.Stuck || v.Kind == cex.FairCycle {
			vs = append(vs, v)
		}
	}
	return vs
}

func TestLeadsToOnHandBuiltGraphs(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    ltSys
		want []cex.Kind
	}{
		{"P then stuck outside Q", ltSys{".P.", []edge{{0, 1, 0}, {1, 2, 0}}}, []cex.Kind{cex.Stuck}},
		{"P then Q", ltSys{".PQ", []edge{{0, 1, 0}, {1, 2, 0}}}, nil},
		{"Q before P does not count", ltSys{"QP.", []edge{{0, 1, 0}, {1, 2, 0}}}, []cex.Kind{cex.Stuck}},
		{"P and Q in one state", ltSys{"B.", []edge{{0, 1, 0}}}, nil},
		{"never P", ltSys{"..", []edge{{0, 1, 0}, {1, 0, 0}}}, nil},
		// 1 and 2 loop fairly outside Q; Q is one step away, by an unfair
		// crash-like step.
		{"fair cycle outside Q", ltSys{".P.Q", []edge{{0, 1, 0}, {1, 2, 0}, {2, 1, 1}, {2, 3, unfair}}}, []cex.Kind{cex.FairCycle}},
		// The class that leads to Q is enabled all round the cycle: weak
		// fairness takes it.
		{"unfair cycle", ltSys{"P.Q", []edge{{0, 1, 0}, {0, 2, 1}, {1, 0, 0}, {1, 2, 1}}}, nil},
		// The same, but the class leaves the cycle at 1 only: the cycle
		// 0→1→0 is fair.
		{"class not enabled everywhere", ltSys{"P.Q", []edge{{0, 1, 0}, {1, 0, 0}, {1, 2, 1}}}, []cex.Kind{cex.FairCycle}},
		// Stuck only after a crash-like (unfair, acyclic) step.
		{"stuck after an unfair step", ltSys{"P.Q.", []edge{{0, 1, 0}, {1, 2, 0}, {0, 3, unfair}}}, []cex.Kind{cex.Stuck}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := len(tc.want) > 0
			require.Equal(t, want, oracleLeadsTo(tc.g), "the oracle")
			res, err := Run(tc.g, Options{Targets: Targets{LeadsTo: pLeadsToQ}, Liveness: true, Continue: true, Workers: 1})
			require.NoError(t, err)
			vs := leadsToViolations(res)
			var kinds []cex.Kind
			for _, v := range vs {
				kinds = append(kinds, v.Kind)
				assert.Equal(t, 0, v.Predicate)
				checkLeadsToRun(t, tc.g, v)
			}
			assert.Equal(t, tc.want, kinds)
			assert.Equal(t, slices.ContainsFunc([]byte(tc.g.states), func(c byte) bool { return c == 'P' || c == 'B' }), res.PremiseHeld&1 != 0)
		})
	}
}

// randomLT is a random graph of up to 6 states and 9 edges, classes -1..2.
func randomLT(rng *rand.Rand) ltSys {
	n := 2 + rng.IntN(5)
	labels := make([]byte, n)
	for i := range labels {
		labels[i] = ".PQB."[rng.IntN(5)]
	}
	var es []edge
	for range 1 + rng.IntN(9) {
		es = append(es, edge{uint32(rng.IntN(n)), uint32(rng.IntN(n)), int32(rng.IntN(4)) - 1})
	}
	slices.SortStableFunc(es, func(a, b edge) int { return int(a.from) - int(b.from) })
	return ltSys{string(labels), es}
}

// The explorer's verdict agrees with the oracle on thousands of random
// graphs, and each counterexample it gives is one; without the graph, the
// stuck states found during the search are real violations too.
func TestLeadsToAgreesWithBruteForceOnRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	violated, graphs := 0, slow.Size(500, 4000)
	for i := range graphs {
		g := randomLT(rng)
		want := oracleLeadsTo(g)
		res, err := Run(g, Options{Targets: Targets{LeadsTo: pLeadsToQ}, Liveness: true, Continue: true, Workers: 1})
		require.NoError(t, err)
		vs := leadsToViolations(res)
		require.Equal(t, want, len(vs) > 0, "graph %d: %q %v", i, g.states, g.edges)
		for _, v := range vs {
			checkLeadsToRun(t, g, v)
		}
		if want {
			violated++
		}
		bfs, err := Run(g, Options{Targets: Targets{LeadsTo: pLeadsToQ}, Continue: true, Workers: 2})
		require.NoError(t, err)
		for _, v := range leadsToViolations(bfs) {
			require.True(t, want, "graph %d: the search found a stuck state the oracle rejects", i)
			require.Equal(t, cex.Stuck, v.Kind)
			checkLeadsToRun(t, g, v)
		}
	}
	// Both verdicts are well represented.
	assert.Greater(t, violated, graphs/10)
	assert.Less(t, violated, graphs*9/10)
}

// Reach predicates give the shortest run to a state where they hold. An
// example stops the search only when it has nothing else to check (and
// Continue is off): an invariant is still checked after it.
func TestReachGivesAShortestExample(t *testing.T) {
	// 0 → 1 → 2 → 3 (P), and 0 → 4 → 3 (a shorter way); 5 breaks Q
	// (as an invariant) after 3.
	g := ltSys{"QQQBQ.", []edge{{0, 1, 0}, {0, 4, 0}, {1, 2, 0}, {2, 3, 0}, {3, 5, 0}, {4, 3, 0}}}
	for _, cont := range []bool{false, true} {
		res, err := Run(g, Options{Targets: Targets{Reach: []int{1}}, Workers: 1, Continue: cont})
		require.NoError(t, err)
		if cont {
			assert.True(t, res.Complete)
			assert.EqualValues(t, 6, res.States)
		} else {
			assert.Equal(t, StopExamples, res.Stop, "nothing left to find")
			assert.Less(t, res.States, int64(6))
		}
		ex := res.Violated(cex.Example, 1)
		require.NotNil(t, ex)
		var path []uint32
		for _, s := range ex.Trace.Steps {
			path = append(path, binary.LittleEndian.Uint32(s.State))
		}
		assert.Equal(t, []uint32{0, 4, 3}, path)
	}
	// An invariant's violation stops the search (without Continue), and
	// the example found before it stays.
	res, err := Run(g, Options{Targets: Targets{Reach: []int{1}, Invariants: []int{0}}, Workers: 1})
	require.NoError(t, err)
	assert.Equal(t, StopFirstViolation, res.Stop)
	require.NotNil(t, res.Violated(cex.Example, 1))
	inv := res.Violated(cex.Invariant, 0)
	require.NotNil(t, inv)
	assert.Len(t, inv.Trace.Steps, 4)

	// Never reached: no example, complete search.
	res, err = Run(ltSys{"Q.", []edge{{0, 1, 0}}}, Options{Targets: Targets{Reach: []int{1}}, Workers: 1})
	require.NoError(t, err)
	assert.True(t, res.Complete)
	assert.Nil(t, res.Violated(cex.Example, 1))
}

// A simulation finds examples too, goes on after them, and its example is
// a run to a state where the predicate holds. (Uniform: the path below is
// that scheduler's first example at seed 3.)
func TestSimulationFindsExamples(t *testing.T) {
	g := ltSys{"QQQBQ.", []edge{{0, 1, 0}, {0, 4, 0}, {1, 2, 0}, {2, 3, 0}, {3, 5, 0}, {4, 3, 0}}}
	res, err := Simulate(g, SimOptions{Targets: Targets{Reach: []int{1}}, Seed: 3, Runs: 20, Depth: 10, Workers: 2, Scheduler: Uniform})
	require.NoError(t, err)
	require.True(t, res.Complete)
	assert.EqualValues(t, 20, res.Simulation.Runs, "an example ends no run")
	ex := res.Violated(cex.Example, 1)
	require.NotNil(t, ex)
	assert.Equal(t, uint32(3), binary.LittleEndian.Uint32(ex.Trace.Final().State))
	assert.Len(t, ex.Trace.Steps, 3, "shortened to 0 → 4 → 3")
	assert.Zero(t, res.Simulation.Ends[EndViolation])
}

// A simulation judges leads-to as the search does: on random graphs every
// counterexample it finds is one (and the oracle agrees there is one),
// and on most graphs with a violation some run finds it.
func TestSimulationJudgesLeadsToAsTheSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 2))
	violated, found := 0, 0
	for i := range 1500 {
		g := randomLT(rng)
		want := oracleLeadsTo(g)
		res, err := Simulate(g, SimOptions{Targets: Targets{LeadsTo: pLeadsToQ}, Seed: uint64(i), Runs: 60, Depth: 30, Continue: true, Workers: 1})
		require.NoError(t, err)
		vs := leadsToViolations(res)
		for _, v := range vs {
			require.True(t, want, "graph %d: %q %v: the simulation found a violation the oracle rejects", i, g.states, g.edges)
			checkLeadsToRun(t, g, v)
		}
		if want {
			violated++
			if len(vs) > 0 {
				found++
			}
		}
	}
	t.Logf("%d of %d graphs with a violation: found by the runs", found, violated)
	assert.Greater(t, found, violated/2, "most violations are found by some run")
}

// A Quiet goal also needs no fair step enabled: a fair cycle through
// states that satisfy the predicate violates it, a state where only
// unfair steps are left does not; in a search and in a simulation alike.
func TestQuietGoals(t *testing.T) {
	busy := graphSys{"GG", []edge{{0, 1, 0}, {1, 0, 0}}}
	calm := graphSys{"GG", []edge{{0, 1, unfair}}}
	for _, tc := range []struct {
		g     graphSys
		quiet bool
		want  []cex.Kind
	}{
		{busy, false, nil},
		{busy, true, []cex.Kind{cex.FairCycle}},
		{calm, true, nil},
	} {
		opt := Options{Targets: Targets{Goal: GoalOf(0)}, Liveness: true, Continue: true, Workers: 1}
		sim := SimOptions{Targets: Targets{Goal: GoalOf(0)}, Seed: 1, Runs: 10, Depth: 20, Continue: true, Workers: 1}
		if tc.quiet {
			opt.Quiet, sim.Quiet = GoalOf(0), GoalOf(0)
		}
		res, err := Run(tc.g, opt)
		require.NoError(t, err)
		assert.Equal(t, tc.want, kindsOf(res), "search: %v quiet %v", tc.g, tc.quiet)
		assert.Equal(t, tc.quiet && tc.want != nil, res.OutsideGoal&1 != 0)
		sres, err := Simulate(tc.g, sim)
		require.NoError(t, err)
		assert.Equal(t, tc.want, kindsOf(sres), "simulation: %v quiet %v", tc.g, tc.quiet)
	}
	_, err := Run(busy, Options{Targets: Targets{Goal: GoalOf(0), Quiet: GoalOf(1)}})
	assert.ErrorContains(t, err, "a quiet goal must be one of the goals")
}

// A leads-to that names a predicate the system does not have, or shares
// its To with another, is refused by a search and a simulation alike:
// position len(Predicates()) is one past the last.
func TestLeadsToRefusesBadPredicates(t *testing.T) {
	g := ltSys{".P", []edge{{0, 1, 0}}}
	for _, tc := range []struct {
		lts  []LeadsTo
		want string
	}{
		{[]LeadsTo{{From: 1, To: 2}}, "leads-to 1 ~> 2: no predicate 2"},
		{[]LeadsTo{{From: 2, To: 0}}, "leads-to 2 ~> 0: no predicate 2"},
		{[]LeadsTo{{From: -1, To: 0}}, "leads-to -1 ~> 0: no predicate -1"},
		{[]LeadsTo{{From: 1, To: 0}, {From: 0, To: 1}, {From: 1, To: 0}}, "two leads-to properties with the same To predicate 0"},
	} {
		_, err := Run(g, Options{Targets: Targets{LeadsTo: tc.lts}, Workers: 1})
		assert.ErrorContains(t, err, tc.want, "search: %v", tc.lts)
		_, err = Simulate(g, SimOptions{Targets: Targets{LeadsTo: tc.lts}, Seed: 1, Runs: 1, Depth: 2, Workers: 1})
		assert.ErrorContains(t, err, tc.want, "simulation: %v", tc.lts)
	}
	for _, lts := range [][]LeadsTo{{{From: 1, To: 1}}, {{From: 1, To: 0}, {From: 0, To: 1}}} {
		_, err := Run(g, Options{Targets: Targets{LeadsTo: lts}, Workers: 1})
		assert.NoError(t, err, "search: %v", lts)
		_, err = Simulate(g, SimOptions{Targets: Targets{LeadsTo: lts}, Seed: 1, Runs: 1, Depth: 2, Workers: 1})
		assert.NoError(t, err, "simulation: %v", lts)
	}
}

// Two leads-to properties in one search, each violated by its own stuck
// state, with and without a goal before them: each is reported for its
// own To, with a run that ends in its stuck state.
func TestTwoLeadsToEachStuck(t *testing.T) {
	// 0 (Q) → 1 (.) stuck violates Q ~> P; 0 → 2 (P) → 3 (.) stuck
	// violates P ~> Q.
	g := ltSys{"Q.P.", []edge{{0, 1, 0}, {0, 2, 0}, {2, 3, 0}}}
	lts := []LeadsTo{{From: 1, To: 0}, {From: 0, To: 1}}
	for _, goals := range [][]int{nil, {0}} {
		opt := Options{Targets: Targets{LeadsTo: lts}, Liveness: true, Continue: true, Workers: 1}
		if goals != nil {
			opt.Goal = GoalOf(goals...)
		}
		res, err := Run(g, opt)
		require.NoError(t, err)
		assert.Len(t, leadsToViolations(res), 2+len(goals), "goals %v: one each, and the goal's", goals)
		for to, end := range []uint32{0: 3, 1: 1} {
			v := res.Violated(cex.Stuck, to)
			require.NotNil(t, v, "goals %v: leads-to to %d", goals, to)
			assert.Equal(t, end, binary.LittleEndian.Uint32(v.Trace.Final().State), "goals %v: leads-to to %d", goals, to)
		}
	}
}

// cutLT is an ltSys whose state cut lost a weakly fair step to a channel
// bound (ts.Batch.DiscardedFair), as a bounded model's states do.
type cutLT struct {
	ltSys
	cut uint32
}

func (g cutLT) NewExpander() ts.Expander { return cutExp{graphExp{g.ltSys}, g.cut} }

type cutExp struct {
	graphExp
	cut uint32
}

func (e cutExp) Expand(state []byte, out *ts.Batch) {
	e.graphExp.Expand(state, out)
	if binary.LittleEndian.Uint32(state) == e.cut {
		out.Discarded, out.DiscardedFair = 1, 1
	}
}

// A leads-to's stuck state that is not the first of its level is the one
// reported, and it is Bounded exactly when the bound cut a fair step of
// it: 0 (Q) → 1 (P) → 3 (.) stuck violates P ~> Q; 0 → 2 (.) stuck, the
// second state of level 1, violates Q ~> P. Of two stuck states in one
// level the first is reported. The same with the state graph kept for
// liveness, which judges stuck states on its own.
func TestLeadsToStuckStateAndItsBound(t *testing.T) {
	g := ltSys{"QP..", []edge{{0, 1, 0}, {0, 2, 0}, {1, 3, 0}}}
	lts := []LeadsTo{{From: 1, To: 0}, {From: 0, To: 1}}
	for _, liveness := range []bool{false, true} {
		for _, cut := range []uint32{2, 3, 99} {
			res, err := Run(cutLT{g, cut}, Options{Targets: Targets{LeadsTo: lts}, Liveness: liveness, Continue: true, Workers: 1})
			require.NoError(t, err)
			require.Len(t, leadsToViolations(res), 2, "liveness %v, cut %d", liveness, cut)
			for to, end := range []uint32{0: 3, 1: 2} {
				v := res.Violated(cex.Stuck, to)
				require.NotNil(t, v, "liveness %v, cut %d: leads-to to %d", liveness, cut, to)
				assert.Equal(t, end, binary.LittleEndian.Uint32(v.Trace.Final().State), "liveness %v, cut %d: leads-to to %d", liveness, cut, to)
				assert.Equal(t, cut == end, v.Bounded, "liveness %v, cut %d: leads-to to %d", liveness, cut, to)
			}
		}
		// 0 (Q) → 1 (.) and 0 → 2 (.), both stuck: state 1 is reported.
		res, err := Run(ltSys{"Q..", []edge{{0, 1, 0}, {0, 2, 0}}}, Options{Targets: Targets{LeadsTo: lts[1:]}, Liveness: liveness, Continue: true, Workers: 1})
		require.NoError(t, err)
		v := res.Violated(cex.Stuck, 1)
		require.NotNil(t, v, "liveness %v", liveness)
		assert.Equal(t, uint32(1), binary.LittleEndian.Uint32(v.Trace.Final().State), "liveness %v: the first stuck state", liveness)
	}
}

// mark puts a leads-to counterexample's premise at the earliest state
// where From holds after the last state where To does, and refuses a run
// that has none. Predicate 0 is Q (To), 1 is P (From).
func TestLeadsToMarkPremise(t *testing.T) {
	trace := func(props ...uint64) Trace {
		var tr Trace
		for _, p := range props {
			tr.Steps = append(tr.Steps, Step{Props: p})
		}
		return tr
	}
	for _, tc := range []struct {
		tr   Trace
		want int
	}{
		{trace(2, 0, 1, 2, 0, 0), 3},
		{trace(0, 2, 2, 0), 1},
		{trace(3, 2), 1},
	} {
		require.NoError(t, pLeadsToQ[0].mark(&tc.tr))
		require.NotNil(t, tc.tr.Premise)
		assert.Equal(t, tc.want, *tc.tr.Premise, "%v", tc.tr.Steps)
	}
	for _, tr := range []Trace{trace(2, 1, 0), trace(0, 0), trace(3)} {
		assert.ErrorContains(t, pLeadsToQ[0].mark(&tr), "no state where its premise holds", "%v", tr.Steps)
		assert.Nil(t, tr.Premise)
	}
}
