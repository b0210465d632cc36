package explore_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/ts"
)

// explicit is a system's whole reachable graph, built by a plain BFS over
// the transition function: per state its predicates and its steps (target,
// fairness class).
type explicit struct {
	props []uint64
	succ  [][]struct {
		to int
		cl int32
	}
}

func explicitGraph(t *testing.T, sys ts.System) *explicit {
	t.Helper()
	g := &explicit{}
	index := map[string]int{}
	exp := sys.NewExpander()
	var b ts.Batch
	exp.Initial(&b)
	var queue [][]byte
	add := func(state []byte) int {
		if i, ok := index[string(state)]; ok {
			return i
		}
		index[string(state)] = len(g.props)
		g.props = append(g.props, 0)
		g.succ = append(g.succ, nil)
		queue = append(queue, slices.Clone(state))
		return len(g.props) - 1
	}
	for j := range b.Succs {
		add(b.State(j))
	}
	for i := 0; i < len(queue); i++ {
		exp.Expand(queue[i], &b)
		g.props[i] = b.Props
		for j := range b.Succs {
			to := add(b.State(j))
			g.succ[i] = append(g.succ[i], struct {
				to int
				cl int32
			}{to, b.Succs[j].Fair})
		}
		require.Less(t, len(queue), 200_000, "the configuration is too large for the oracle")
	}
	return g
}

// oracle decides P ~> Q on the explicit graph: the strongly connected
// components outside Q (Kosaraju's two passes), those of them that hold a
// weakly fair cycle (every class enabled in all of their states taken by a
// step inside), and the states with no fair step outside Q; then, backwards
// from those over steps outside Q, whether some state where P holds and Q
// does not reaches one.
func (g *explicit) oracle(p, q int) bool {
	n := len(g.props)
	out := func(s int) bool { return g.props[s]&(1<<q) == 0 }
	rev := make([][]int, n)
	for s := range n {
		for _, e := range g.succ[s] {
			if out(s) && out(e.to) {
				rev[e.to] = append(rev[e.to], s)
			}
		}
	}
	// Kosaraju: finish order on the forward graph, then components on the
	// reverse graph in reverse finish order.
	seen := make([]bool, n)
	var order []int
	for r := range n {
		if seen[r] || !out(r) {
			continue
		}
		type frame struct{ s, i int }
		stack := []frame{{r, 0}}
		seen[r] = true
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.i < len(g.succ[f.s]) {
				w := g.succ[f.s][f.i].to
				f.i++
				if out(w) && !seen[w] {
					seen[w] = true
					stack = append(stack, frame{w, 0})
				}
				continue
			}
			order = append(order, f.s)
			stack = stack[:len(stack)-1]
		}
	}
	comp := make([]int, n)
	for i := range comp {
		comp[i] = -1
	}
	var comps [][]int
	for i := len(order) - 1; i >= 0; i-- {
		r := order[i]
		if comp[r] >= 0 {
			continue
		}
		c := len(comps)
		comps = append(comps, nil)
		comp[r] = c
		for stack := []int{r}; len(stack) > 0; {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			comps[c] = append(comps[c], s)
			for _, v := range rev[s] {
				if comp[v] < 0 {
					comp[v] = c
					stack = append(stack, v)
				}
			}
		}
	}
	stay := make([]bool, n)
	for s := range n {
		if out(s) && !slices.ContainsFunc(g.succ[s], func(e struct {
			to int
			cl int32
		}) bool {
			return e.cl >= 0
		}) {
			stay[s] = true
		}
	}
	for c, ms := range comps {
		enabled := map[int32]int{} // class → states of the component enabling it
		taken := map[int32]bool{}
		cycle := len(ms) > 1
		for _, s := range ms {
			here := map[int32]bool{}
			for _, e := range g.succ[s] {
				if e.cl >= 0 {
					here[e.cl] = true
				}
				if comp[e.to] == c && out(e.to) {
					taken[e.cl] = true
					cycle = cycle || e.to == s
				}
			}
			for cl := range here {
				enabled[cl]++
			}
		}
		fair := cycle
		for cl, k := range enabled {
			fair = fair && (k < len(ms) || taken[cl])
		}
		if fair {
			for _, s := range ms {
				stay[s] = true
			}
		}
	}
	// Backwards from where a run can stay outside Q.
	can := slices.Clone(stay)
	var stack []int
	for s := range n {
		if can[s] {
			stack = append(stack, s)
		}
	}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, v := range rev[s] {
			if !can[v] {
				can[v] = true
				stack = append(stack, v)
			}
		}
	}
	for s := range n {
		if can[s] && g.props[s]&(1<<p) != 0 {
			return true
		}
	}
	return false
}

// LeaderCrashRecovered on small configurations of the built-in algorithms:
// the explorer's verdict is the oracle's, both ways.
func TestLeadsToAgreesWithAnOracleOnRealConfigurations(t *testing.T) {
	verdicts := map[bool]int{}
	for _, tc := range []struct {
		algo string
		cfg  model.Config
	}{
		{"chang-roberts", model.Config{N: 3, MaxCrashes: 1}},
		{"chang-roberts", model.Config{N: 3, MaxCrashes: 1, Detector: model.Incomplete}},
		{"ring", model.Config{N: 3, MaxCrashes: 1, MaxQueue: 2}},
		{"lelann", model.Config{N: 3, MaxCrashes: 1}},
		{"hirschberg-sinclair", model.Config{N: 3, MaxCrashes: 1}},
		{"bully", model.Config{N: 3, MaxCrashes: 1, InitialLeader: true}},
		{"bully", model.Config{N: 3, MaxCrashes: 1, MaxRestarts: 1, InitialLeader: true}},
		{"bully", model.Config{N: 2, MaxCrashes: 1, InitialLeader: true, Detector: model.Unreliable}},
		{"bully", model.Config{N: 4, MaxCrashes: 1, InitialLeader: true}},
		{"bully", model.Config{N: 3, MaxCrashes: 1, InitialLeader: true, Detector: model.Incomplete}},
	} {
		spec, err := specs.Builtin().Lookup(tc.algo)
		require.NoError(t, err)
		sys, err := spec.Build.System(tc.cfg, []string{"LeaderCrashRecovered"})
		require.NoError(t, err)
		info := sys.(model.PropertySystem).Properties()[0]
		require.Equal(t, model.LeadsTo, info.Kind)
		g := explicitGraph(t, sys)
		want := g.oracle(info.Premise, 0)
		res, err := explore.Run(sys, explore.Options{Targets: explore.Targets{LeadsTo: []explore.LeadsTo{{From: info.Premise, To: 0}}}, Liveness: true, Continue: true})
		require.NoError(t, err)
		require.True(t, res.Complete)
		got := res.Violated(cex.Stuck, 0) != nil || res.Violated(cex.FairCycle, 0) != nil
		assert.Equal(t, want, got, "%s %+v", tc.algo, tc.cfg)
		assert.EqualValues(t, len(g.props), res.States)
		t.Logf("%s %+v: %d states, violated %v", tc.algo, tc.cfg, res.States, got)
		verdicts[want]++
	}
	assert.Positive(t, verdicts[true], "some configuration violates it")
	assert.Positive(t, verdicts[false], "some configuration satisfies it")
}
