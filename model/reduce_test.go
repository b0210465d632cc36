package model_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
	"github.com/mcheck/mcheck/specs/changroberts"
)

// reducedAt walks from the initial state along the steps named by path
// (their labels) and expands the state it reaches with reduction: it
// returns the candidate stubborn sets as process names ("p2" "p3"), each
// with the labels of its steps, and every step's label.
func reducedAt[L, M any](t *testing.T, alg model.Algorithm[L, M], cfg model.Config, path ...string) (sets []string, steps []string) {
	t.Helper()
	k, err := model.New(alg, cfg.WithDefaults(), properties.Standard[L, M]()[:2])
	require.NoError(t, err)
	x := k.NewExpander()
	e, ok := x.(model.Expander)
	require.True(t, ok)
	var b model.Batch
	x.Initial(&b)
	state := slices.Clone(b.State(0))
	for _, want := range path {
		x.Expand(state, &b)
		i := slices.IndexFunc(b.Succs, func(s model.Succ) bool { return e.Step(state, s.Action).String() == want })
		require.GreaterOrEqual(t, i, 0, "no step %q", want)
		state = slices.Clone(b.State(i))
	}
	x.(model.Reducer).ExpandReduced(state, &b)
	require.Len(t, b.Group, len(b.Succs))
	for _, s := range b.Succs {
		steps = append(steps, e.Step(state, s.Action).String())
	}
	for _, set := range b.Stubborn {
		var procs []string
		for p := range cfg.N {
			if set&(1<<p) != 0 {
				procs = append(procs, model.PosName(cfg.WithDefaults().IDs, p))
			}
		}
		var in []string
		for i, s := range b.Succs {
			if set&(1<<b.Group[i]) != 0 {
				in = append(in, e.Step(state, s.Action).String())
			}
		}
		sets = append(sets, "{"+strings.Join(procs, ",")+"}: "+strings.Join(in, "; "))
	}
	return sets, steps
}

// The stubborn set of a process takes in its ring predecessor when the
// channel from it is empty (the predecessor's step could send to it), and
// must leave a step out.
func TestStubbornSetsOfChangRoberts(t *testing.T) {
	alg := changroberts.Algorithm{}
	cfg := model.Config{N: 3}
	// Every channel is empty: each closure is the whole ring, no reduction.
	sets, steps := reducedAt(t, alg, cfg)
	assert.Empty(t, sets)
	assert.Len(t, steps, 3)

	// p1 has sent to p2: p2's steps alone (its delivery and its initiate)
	// commute with the rest; p1's closure takes in p3, then p2, and
	// p3's takes in p2: both leave nothing out.
	sets, steps = reducedAt(t, alg, cfg, "initiate p1")
	assert.Equal(t, []string{"{p2}: deliver p1→p2 ELECTION(1); initiate p2"}, sets, "steps %q", steps)

	// p1 and p2 have sent: p2 alone (1 step), p1 with p3 (p3's 2 steps),
	// and p3 alone: the fewest steps first, by seed on a tie, and {p1,p3}
	// and {p3} both, as sets of processes they differ.
	sets, _ = reducedAt(t, alg, cfg, "initiate p1", "initiate p2")
	assert.Equal(t, []string{"{p2}: deliver p1→p2 ELECTION(1)", "{p1,p3}: deliver p2→p3 ELECTION(2); initiate p3", "{p3}: deliver p2→p3 ELECTION(2); initiate p3"}, sets)

	// Everybody has sent: three singletons of one step each, by seed.
	sets, _ = reducedAt(t, alg, cfg, "initiate p1", "initiate p2", "initiate p3")
	assert.Equal(t, []string{"{p1}: deliver p3→p1 ELECTION(3)", "{p2}: deliver p1→p2 ELECTION(1)", "{p3}: deliver p2→p3 ELECTION(2)"}, sets)
}

// A process with a step over the channel bound takes in the receivers of
// its full channels: p1's forwarding of ELECTION(4) is discarded while
// p1→p2 holds ELECTION(1), and becomes possible once p2 takes it.
func TestStubbornSetOverTheBound(t *testing.T) {
	sets, steps := reducedAt(t, changroberts.Algorithm{}, model.Config{N: 4, MaxQueue: 1}, "initiate p1", "initiate p4")
	assert.Equal(t, []string{"{p1,p2}: deliver p1→p2 ELECTION(1); initiate p2", "{p2}: deliver p1→p2 ELECTION(1); initiate p2"}, sets, "steps %q", steps)

	// The same at the last position of the ring (IDs 4,3,2,1): p1 at
	// position 3 cannot pass on ELECTION(2) while p1→p4 is full, so p4
	// joins p1's set.
	sets, steps = reducedAt(t, changroberts.Algorithm{}, model.Config{N: 4, IDs: []int{4, 3, 2, 1}, MaxQueue: 1}, "initiate p1", "initiate p2")
	assert.Equal(t, []string{"{p4}: deliver p1→p4 ELECTION(1); initiate p4", "{p4,p1}: deliver p1→p4 ELECTION(1); initiate p4"}, sets, "steps %q", steps)
}

// No reduction while a crash or a restart can still happen, or in a timed
// model. Where it can, after p1's ELECTION(1) p2's two steps are a set,
// and with p4 live so are p2's and p3's (p3's predecessor p2 has sent
// nothing), which leave p4's initiate out.
func TestNoReductionWhereItIsUnsound(t *testing.T) {
	cr := changroberts.Algorithm{}
	p2 := []string{"{p2}: deliver p1→p2 ELECTION(1); initiate p2"}
	all := append(p2, "{p2,p3}: deliver p1→p2 ELECTION(1); initiate p2; initiate p3")
	sets, _ := reducedAt(t, cr, model.Config{N: 4}, "initiate p1")
	assert.Equal(t, all, sets)
	sets, _ = reducedAt(t, cr, model.Config{N: 4, MaxCrashes: 1}, "initiate p1")
	assert.Empty(t, sets, "a crash can still happen")
	sets, _ = reducedAt(t, cr, model.Config{N: 4, MaxCrashes: 1}, "crash p4", "initiate p1")
	assert.Equal(t, p2, sets, "the crash budget is spent")
	sets, _ = reducedAt(t, cr, model.Config{N: 4, MaxCrashes: 1, MaxRestarts: 1}, "crash p4", "initiate p1")
	assert.Empty(t, sets, "p4 can still restart")
	sets, _ = reducedAt(t, cr, model.Config{N: 4, Down: []int{4}}, "initiate p1")
	assert.Equal(t, p2, sets, "p4 is down for good")
	sets, _ = reducedAt(t, cr, model.Config{N: 4, MaxRestarts: 1, Down: []int{4}}, "initiate p1")
	assert.Empty(t, sets, "p4 is down and can restart")
	sets, _ = reducedAt(t, cr, model.Config{N: 4, MaxRestarts: 1}, "initiate p1")
	assert.Equal(t, all, sets, "nobody is down, so no restart can happen")
	sets, _ = reducedAt(t, cr, model.Config{N: 4, Timing: model.Sync}, "initiate p1")
	assert.Empty(t, sets, "a tick is a step of every process")
}
