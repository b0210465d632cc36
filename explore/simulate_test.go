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
	"github.com/mcheck/mcheck/ts"
)

// graphSys is a hand-built graph as a ts.System: state i is the 4 bytes
// of i, predicate 0 (the goal) holds in the states marked 'G', and the
// edges from a state are its steps, in order, of the edge's class.
type graphSys struct {
	states string
	edges  []edge
}

func (g graphSys) NewExpander() ts.Expander { return graphExp{g} }
func (graphSys) Predicates() []string       { return []string{"Stable"} }
func (graphSys) FairClass(c int32) string   { return fmt.Sprint("class ", c) }
func (g graphSys) edgeList() []edge         { return g.edges }
func (g graphSys) props(s uint32) (p uint64) {
	if g.states[s] == 'G' {
		p = 1
	}
	return p
}

// handBuilt is a graph built by hand: its edges, and the predicates that
// hold in each state.
type handBuilt interface {
	edgeList() []edge
	props(s uint32) uint64
}

// graphExp expands a hand-built graph: state i is the 4 bytes of i, and
// edge k is action k.
type graphExp struct{ g handBuilt }

func enc(s uint32) []byte { return binary.LittleEndian.AppendUint32(nil, s) }

func (e graphExp) Initial(out *ts.Batch) {
	out.Reset()
	out.Add(0, ts.NoFairness, e.g.props(0), enc(0))
}

func (e graphExp) Expand(state []byte, out *ts.Batch) {
	out.Reset()
	s := binary.LittleEndian.Uint32(state)
	out.Props = e.g.props(s)
	for k, ed := range e.g.edgeList() {
		if ed.from == s {
			out.Add(ts.Action(k), ed.class, e.g.props(ed.to), enc(ed.to))
		}
	}
}

func (graphExp) Label(_ []byte, a ts.Action) string { return fmt.Sprint("edge ", a) }

// kindsOf lists the kinds of the violations of r.
func kindsOf(r *Result) []cex.Kind {
	var ks []cex.Kind
	for _, v := range r.Violations {
		ks = append(ks, v.Kind)
	}
	slices.Sort(ks)
	return ks
}

func simulateGraph(t *testing.T, g graphSys, runs int64, workers int) *Result {
	t.Helper()
	res, err := Simulate(g, SimOptions{Targets: Targets{Goal: GoalOf(0)}, Seed: 7, Runs: runs, Depth: 40, Continue: true, Workers: workers})
	require.NoError(t, err)
	return res
}

// A run judges the cycles it closes as the search judges the graph's
// (docs/semantics.md section 2.3): on hand-built graphs, the same verdicts.
func TestSimulationJudgesCyclesAsTheSearch(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    graphSys
		want []cex.Kind
		// sim, when set, is what the simulation finds: a run ends at its
		// first violation, so a stuck state hides the cycles past it.
		sim []cex.Kind
	}{
		{"a fair self-loop outside the goal", graphSys{"GB", []edge{{0, 1, 0}, {1, 1, 1}}}, []cex.Kind{cex.FairCycle}, nil},
		// Class 1 is enabled in the loop's one state and never taken in it.
		{"an unfair self-loop", graphSys{"BG", []edge{{0, 0, 0}, {0, 1, 1}}}, nil, nil},
		// Both directions of a two-state cycle: each class is enabled in
		// one state only, so the cycle is fair.
		{"a fair two-state cycle", graphSys{"BB", []edge{{0, 1, 0}, {1, 0, 1}}}, []cex.Kind{cex.FairCycle}, nil},
		// Classes 5, 6 and 7 are each enabled in two of the cycle's three
		// states, not in all (whichever state the run closes it at): the
		// cycle is fair without them.
		{"classes enabled in some of a cycle's states", graphSys{"BBBG", []edge{
			{0, 1, 0}, {1, 2, 1}, {2, 0, 2}, {0, 3, 5}, {2, 3, 5}, {0, 3, 6}, {1, 3, 6}, {1, 3, 7}, {2, 3, 7},
		}}, []cex.Kind{cex.FairCycle}, nil},
		{"a fair cycle inside the goal", graphSys{"GG", []edge{{0, 1, 0}, {1, 0, 1}}}, nil, nil},
		{"stuck outside the goal", graphSys{"GB", []edge{{0, 1, 0}}}, []cex.Kind{cex.Stuck}, nil},
		{"stuck, with only an unfair step", graphSys{"BG", []edge{{0, 1, unfair}}}, []cex.Kind{cex.Stuck}, nil},
		// An unfair step round a loop: no fair class is enabled, the loop
		// is fair (and its state stuck besides).
		{"an unfair loop outside the goal", graphSys{"B", []edge{{0, 0, unfair}}}, []cex.Kind{cex.Stuck, cex.FairCycle}, []cex.Kind{cex.Stuck}},
		{"a fair cycle past an unfair step", graphSys{"GBB", []edge{{0, 1, unfair}, {1, 2, 0}, {2, 1, 0}}}, []cex.Kind{cex.FairCycle}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			search, err := Run(tc.g, Options{Targets: Targets{Goal: GoalOf(0)}, Liveness: true, Continue: true, Workers: 1})
			require.NoError(t, err)
			require.Equal(t, tc.want, kindsOf(search), "the search")
			want := tc.want
			if tc.sim != nil {
				want = tc.sim
			}
			assert.Equal(t, want, kindsOf(simulateGraph(t, tc.g, 200, 1)), "the simulation")
		})
	}
}

// On random graphs every violation a simulation reports is one the search
// reports (it is real), and with enough runs on graphs this small it finds
// the property violated whenever the search does (one way or another: a
// run stops at its first violation, so a stuck state may hide a cycle).
func TestSimulationAgreesWithTheSearchOnRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 300 {
		n := 1 + rng.IntN(5)
		var states []byte
		for range n {
			states = append(states, "GB"[rng.IntN(2)])
		}
		g := graphSys{states: string(states)}
		for s := range n {
			for range rng.IntN(4) {
				g.edges = append(g.edges, edge{uint32(s), uint32(rng.IntN(n)), int32(rng.IntN(4)) - 1})
			}
		}
		search, err := Run(g, Options{Targets: Targets{Goal: GoalOf(0)}, Liveness: true, Continue: true, Workers: 1})
		require.NoError(t, err)
		sim := simulateGraph(t, g, 300, 2)
		want, got := kindsOf(search), kindsOf(sim)
		require.Equal(t, len(want) > 0, len(got) > 0, "graph %d: %+v: %v against %v", i, g, got, want)
		for _, k := range got {
			require.Contains(t, want, k, "graph %d: %+v", i, g)
		}
		for _, v := range sim.Violations {
			if v.Kind == cex.FairCycle {
				assert.True(t, validLasso(g, v.Trace), "graph %d: %+v", i, v.Trace)
			}
		}
	}
}

// validLasso checks a simulation's lasso on its own: it returns to its
// cycle's start, passes a bad state there, and every class enabled in all
// the cycle's states is taken in it.
func validLasso(g graphSys, t Trace) bool {
	c := t.CycleStart
	if c < 0 || c >= len(t.Steps)-1 || !slices.Equal(t.Steps[c].State, t.Final().State) {
		return false
	}
	bad := false
	enabled := map[int32]int{}
	taken := map[int32]bool{}
	for i := c; i < len(t.Steps)-1; i++ {
		s := binary.LittleEndian.Uint32(t.Steps[i].State)
		bad = bad || g.states[s] == 'B'
		here := map[int32]bool{}
		for _, e := range g.edges {
			if e.from == s && e.class >= 0 {
				here[e.class] = true
			}
		}
		for cl := range here {
			enabled[cl]++
		}
		taken[g.edges[t.Steps[i+1].Action].class] = true
	}
	for cl, k := range enabled {
		if k == len(t.Steps)-1-c && !taken[cl] {
			return false
		}
	}
	return bad
}

// The zero Scheduler is Faults, the default (bench/history.md measured it
// better): a caller that names none gets the runs that naming Faults
// gives. From state 0 one fair step leads into the goal and eight unfair
// ones to a stuck state outside it: Uniform takes a fault in 8 of 9 runs,
// Faults at its drawn rate, at most 1/2.
func TestTheDefaultSchedulerIsFaults(t *testing.T) {
	assert.Equal(t, Faults, SimOptions{}.Scheduler)
	g := graphSys{"BGB", []edge{{0, 1, 0}}}
	for range 8 {
		g.edges = append(g.edges, edge{0, 2, unfair})
	}
	stuck := func(s Scheduler) int64 {
		res, err := Simulate(g, SimOptions{Targets: Targets{Goal: GoalOf(0)}, Seed: 1, Runs: 400, Depth: 10, Continue: true, Workers: 1, Scheduler: s})
		require.NoError(t, err)
		return res.Simulation.Ends[EndViolation]
	}
	var zero Scheduler
	def, faults, uniform := stuck(zero), stuck(Faults), stuck(Uniform)
	assert.Equal(t, faults, def, "the zero Scheduler runs as Faults")
	assert.Less(t, def, int64(100), "Faults takes a fault at a rate of at most 1/2")
	assert.Greater(t, uniform, int64(300), "Uniform takes one in 8 of 9 runs")
}
