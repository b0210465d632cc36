package check_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/internal/myring"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// The tutorial's algorithm has no Codec: its states go through the
// kernel's generic path, whose numbering of values depends on which worker
// meets a value first. Counts, verdicts and counterexamples must not: the
// numbers below are those of the hashstructure-only path, which numbered
// no values.
func TestTutorialRingSameAtAnyWorkerCount(t *testing.T) {
	spec := specs.Spec{Name: "myring", Build: specs.Builder(myring.Algorithm{})}
	for _, c := range []struct {
		cfg                 model.Config
		states, transitions int64
		termination         []string // Termination's counterexample
	}{
		{model.Config{N: 3, MaxCrashes: 1}, 268, 549, []string{"", "initiate p2", "deliver p2→p3 ELECTION(2)", "deliver p3→p1 ELECTION(3)",
			"crash p3", "deliver p1→p2 ELECTION(3)", "deliver p2→p1 ELECTION(3)"}},
		{model.Config{N: 4, MaxCrashes: 1}, 994, 2700, []string{"", "initiate p2", "deliver p2→p3 ELECTION(2)", "deliver p3→p4 ELECTION(3)", "deliver p4→p1 ELECTION(4)",
			"crash p4", "deliver p1→p2 ELECTION(4)", "deliver p2→p3 ELECTION(4)", "deliver p3→p1 ELECTION(4)"}},
	} {
		var first *check.Report
		for _, w := range []int{1, 2, 4} {
			rep, err := check.Run(check.Request{Spec: spec, Config: c.cfg, Continue: true, Workers: w})
			require.NoError(t, err)
			require.True(t, rep.Stats.Complete)
			var verdicts []string
			for _, v := range rep.Verdicts {
				verdicts = append(verdicts, fmt.Sprintf("%s %v", v.Name, v.Status))
			}
			assert.Equal(t, c.states, rep.Stats.States, "states at %d workers", w)
			assert.Equal(t, c.transitions, rep.Stats.Transitions, "transitions at %d workers", w)
			assert.Equal(t, []string{"SingleLeader holds", "Agreement holds", "Termination violated"}, verdicts, "at %d workers", w)
			require.NotNil(t, rep.Verdicts[2].Trace)
			assert.Equal(t, c.termination, labels(rep.Verdicts[2].Trace.Steps), "at %d workers", w)
			if first == nil {
				first = rep
				continue
			}
			requireSameSearch(t, first, rep)
		}
	}
}

// floatRing is the tutorial's algorithm with a float in its local state,
// which takes the generic path's other way (hashstructure: a float is not
// its own identity under ==). Weight is NaN when Nan is set and 1
// otherwise: a NaN, unequal to itself, must still be one value.
type floatRing struct{ nan bool }

type floatLocal struct {
	Ring   myring.Local
	Weight float64
}

func (a floatRing) weight() float64 {
	if a.nan {
		return math.NaN()
	}
	return 1
}

func (a floatRing) Init() floatLocal            { return floatLocal{Weight: a.weight()} }
func (floatRing) Elected(l *floatLocal) int     { return l.Ring.Elected }
func (floatRing) FormatMsg(m myring.Msg) string { return myring.Algorithm{}.FormatMsg(m) }
func (floatRing) CanInitiate(c *model.Ctx[myring.Msg], l *floatLocal, suspects bool) bool {
	return myring.Algorithm{}.CanInitiate(c, &l.Ring, suspects)
}

func (a floatRing) Initiate(c *model.Ctx[myring.Msg], l *floatLocal) {
	myring.Algorithm{}.Initiate(c, &l.Ring)
	l.Weight = a.weight()
}

func (a floatRing) Receive(c *model.Ctx[myring.Msg], l *floatLocal, from int, m myring.Msg) {
	myring.Algorithm{}.Receive(c, &l.Ring, from, m)
	l.Weight = a.weight()
}

// A NaN in a local state gives the states of any other float: the same
// counts as the tutorial's algorithm.
func TestNaNIsOneValue(t *testing.T) {
	for _, nan := range []bool{false, true} {
		spec := specs.Spec{Name: "floatring", Build: specs.Builder[floatLocal, myring.Msg](floatRing{nan: nan})}
		rep, err := check.Run(check.Request{Spec: spec, Config: model.Config{N: 3, MaxCrashes: 1}, Continue: true, MaxStates: 10_000})
		require.NoError(t, err)
		assert.True(t, rep.Stats.Complete, "NaN %v", nan)
		assert.Equal(t, int64(268), rep.Stats.States, "NaN %v", nan)
		assert.Equal(t, int64(549), rep.Stats.Transitions, "NaN %v", nan)
	}
}
