package check_test

// An independent oracle for --complexity in the timed modes (docs/semantics.md
// sections 5 and 6): time.min and time.max in ticks, and the message
// figures, over the timed state graph. The graph is bound_oracle_test.go's
// (a breadth-first search over the transition function), a tick known by
// its action's kind, not by the fairness class the measures count; the
// extremes come from its Bellman-Ford, and the length of a shortest run
// attaining each from a lexicographic Bellman-Ford here. Quiescence is
// also read from the states' snapshots: section 6 says a quiescent state
// has nothing in flight, no timer running and, with partial timing, gst.

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
)

// shortestAttaining is the fewest steps of a run from an initial state to
// a target state whose cost is the least (maximise false) or the largest
// (true) over all such runs, the figure being bounded: Bellman-Ford on
// (cost, length) pairs, lexicographically.
func (g *oGraph) shortestAttaining(target func(int) bool, cost func(oEdge) int, maximise bool) int {
	live := g.coReach(target)
	type pair struct{ c, l int }
	better := func(a, b pair) bool {
		if a.c != b.c {
			return a.c < b.c != maximise
		}
		return a.l < b.l
	}
	best := make([]pair, len(g.states))
	seen := make([]bool, len(g.states))
	for _, i := range g.initial {
		if live[i] {
			best[i], seen[i] = pair{}, true
		}
	}
	for changed := true; changed; {
		changed = false
		for i, es := range g.out {
			if !seen[i] {
				continue
			}
			for _, e := range es {
				if !live[e.to] {
					continue
				}
				if p := (pair{best[i].c + cost(e), best[i].l + 1}); !seen[e.to] || better(p, best[e.to]) {
					best[e.to], seen[e.to], changed = p, true, true
				}
			}
		}
	}
	found, want, steps := false, 0, math.MaxInt
	for i := range g.states {
		switch {
		case !target(i) || !seen[i]:
		case !found || better(pair{best[i].c, 0}, pair{want, 0}):
			found, want, steps = true, best[i].c, best[i].l
		case best[i].c == want:
			steps = min(steps, best[i].l)
		}
	}
	return steps
}

// quietBySnapshot: nothing in flight, every timer off, gst come.
func quietBySnapshot(s model.Snapshot) bool {
	if len(s.Channels) > 0 || s.GST != nil && !*s.GST {
		return false
	}
	for _, p := range s.Processes {
		if p.Timer == nil {
			continue
		}
		if off, _ := p.Timer.Str(); off != "off" {
			return false
		}
	}
	return true
}

func TestTimedMeasuresAgainstAnOracle(t *testing.T) {
	sawUnbounded, sawTicks, sawCut := false, false, false
	for _, c := range []struct {
		algo string
		cfg  model.Config
	}{
		{"bully", model.Config{N: 3, MaxCrashes: 2, InitialLeader: true, Timing: model.Sync}},
		{"bully", model.Config{N: 3, MaxCrashes: 2, InitialLeader: true, Timing: model.Sync, Delay: 2, Timeout: 2}},
		{"bully", model.Config{N: 3, Down: []int{3}, Initiators: []int{1}, InitialLeader: true, Timing: model.Sync, Delay: 2}},
		{"bully", model.Config{N: 3, Timing: model.Sync, Timeout: 1, TimeoutCoord: 2}},
		{"bully", model.Config{N: 3, MaxCrashes: 1, InitialLeader: true, Timing: model.Partial}},
		{"bully", model.Config{N: 3, MaxCrashes: 1, InitialLeader: true, Timing: model.Sync, MaxQueue: 1}},
		{"chang-roberts", model.Config{N: 3, Timing: model.Sync, Delay: 2}},
		{"ring", model.Config{N: 3, Initiators: []int{1}, Timing: model.Partial, MaxQueue: 2}},
	} {
		name := fmt.Sprintf("%s %+v", c.algo, c.cfg)
		g := oracleGraph(t, c.algo, c.cfg)
		q := func(i int) bool { return g.quiescent(i, false) }
		for i := range g.states {
			if q(i) {
				require.True(t, quietBySnapshot(g.exp.Snapshot(g.states[i])), "%s: a quiescent state has nothing in flight, no timer running and gst: %s", name, g.exp.Describe(g.states[i]))
			}
		}
		rep := runCheck(t, check.Request{Spec: spec(t, c.algo), Config: c.cfg, Complexity: true})
		require.Equal(t, int64(len(g.states)), rep.Stats.States, name)
		require.Equal(t, int64(g.edges), rep.Stats.Transitions, name)
		m := rep.Complexity.Measures
		require.NotNil(t, m, name)
		require.NotNil(t, m.Time, "%s: a timed mode measures time", name)
		sawCut = sawCut || g.totalDiscarded() > 0
		figures := []struct {
			name string
			fig  *explore.Figure
			cost func(oEdge) int
		}{
			{"total", &m.Total, func(e oEdge) int { return e.sent.Total() }},
			{"lost", &m.Lost, func(e oEdge) int { return int(e.sent.Lost) }},
			{"time", m.Time, func(e oEdge) int {
				if e.tick {
					return 1
				}
				return 0
			}},
		}
		for k, typ := range m.Types {
			figures = append(figures, struct {
				name string
				fig  *explore.Figure
				cost func(oEdge) int
			}{typ, &m.ByType[k], func(e oEdge) int { return int(e.sent.ByType[k]) }})
		}
		for _, f := range figures {
			_, hi, unb, ok := figureAgrees(t, g, q, f.cost, f.fig, m.CompleteRuns, name+" "+f.name)
			if ok && f.name == "time" {
				sawUnbounded = sawUnbounded || unb
				sawTicks = sawTicks || hi > 0
			}
		}
	}
	assert.True(t, sawUnbounded, "some configuration's time is unbounded (partial timing: late messages wait)")
	assert.True(t, sawTicks, "some configuration's runs take time")
	assert.True(t, sawCut, "the bound cuts some of these models")
}
