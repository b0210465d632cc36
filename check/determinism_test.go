package check_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/slow"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// collector is LeLann's idea in a student's hand: every process collects
// the IDs that pass by in Known and elects the largest when its own comes
// back. The variants are the usual ways a handler stops being a function of
// its inputs.
type collector struct {
	appendShared bool // Known = append(Known, id): shares the array of the old state
	mapInPlace   bool // Seen[id] = true on the old state's map
	mapOrder     bool // initiate sends whichever ID a range over a map gives first
	hidden       bool // initiate sends an ID that a package-level counter picks
}

// calls is the hidden state of collector{hidden: true}.
var calls int

type colLocal struct {
	Running bool
	Known   []int
	Seen    map[int]bool
	Elected int
}

type colMsg struct{ ID int }

func (collector) Init() colLocal          { return colLocal{} }
func (collector) Elected(l *colLocal) int { return l.Elected }
func (collector) FormatMsg(m colMsg) string {
	return fmt.Sprintf("ELECT(%d)", m.ID)
}
func (collector) CanInitiate(_ *model.Ctx[colMsg], l *colLocal, suspects bool) bool {
	return suspects && !l.Running && l.Elected == 0
}

func (a collector) note(l *colLocal, id int) {
	switch {
	case l.Seen[id] || slices.Contains(l.Known, id):
	case a.mapInPlace:
		if l.Seen == nil {
			l.Seen = map[int]bool{}
		}
		l.Seen[id] = true
	case a.appendShared:
		l.Known = append(l.Known, id)
	default:
		l.Known = append(slices.Clone(l.Known), id)
	}
}

func (a collector) Initiate(c *model.Ctx[colMsg], l *colLocal) {
	l.Running = true
	a.note(l, c.ID())
	id := c.ID()
	switch {
	case a.mapOrder:
		for first := range map[int]bool{id: true, id + 10: true} {
			id = first
			break
		}
	case a.hidden:
		calls++
		id += 10 * (calls % 2)
	}
	c.SendNext(model.CW, colMsg{id})
}

func (a collector) Receive(c *model.Ctx[colMsg], l *colLocal, _ int, m colMsg) {
	if m.ID == c.ID() {
		if l.Running {
			top := slices.Max(append([]int{0}, l.Known...))
			for id := range l.Seen {
				top = max(top, id)
			}
			*l = colLocal{Elected: top}
		}
		return
	}
	if !l.Running && l.Elected == 0 {
		l.Running = true
		a.note(l, c.ID())
		c.SendNext(model.CW, colMsg{c.ID()})
	}
	a.note(l, m.ID)
	c.SendNext(model.CW, colMsg{m.ID})
}

func collect(t *testing.T, alg collector, cfg model.Config) (*check.Report, error) {
	t.Helper()
	sp := specs.Spec{Name: "collector", Build: specs.Builder[colLocal, colMsg](alg)}
	return check.Run(check.Request{Spec: sp, Config: cfg, Continue: true})
}

// A handler that appends to the slice of the old state shares its array
// with it. mcheck hands every handler a local state of its own (interned
// values are copied in and out), so the search and its replays see the
// same system as a handler that copies first.
func TestAppendToSharedSliceIsHarmless(t *testing.T) {
	slow.Test(t) // 9 s: the fault needs N=5 with a crash
	// At N=5 with a crash, an interned slice that two handlers appended
	// to used to change under the table: "internal error: replay reached
	// another state than the search".
	cfg := model.Config{N: 5, MaxCrashes: 1}
	want, err := collect(t, collector{}, cfg)
	require.NoError(t, err)
	got, err := collect(t, collector{appendShared: true}, cfg)
	require.NoError(t, err)
	assert.Equal(t, want.Stats.States, got.Stats.States)
	assert.Equal(t, want.Stats.Transitions, got.Stats.Transitions)
	for i := range want.Verdicts {
		assert.Equal(t, want.Verdicts[i].Status, got.Verdicts[i].Status, want.Verdicts[i].Name)
	}
}

const causes = "; the usual causes: a handler that changes a slice or map of the old local state in place (copy it before changing it: the kernel copies a Local by value, and the copy shares the slice's array or the map), package-level variables, or a loop over a map deciding what to send"

// A handler that writes into the map of the old state is the algorithm's
// fault, found before the search: the error names the algorithm, the
// step, the field and the usual causes.
func TestInPlaceWriteIsTheAlgorithmsFault(t *testing.T) {
	_, err := collect(t, collector{mapInPlace: true}, model.Config{N: 3})
	require.Error(t, err)
	assert.Equal(t, `collector: the algorithm is not a function of its inputs: step "deliver p1→p2 ELECT(1)" changed the state it started from`+
		` (p2.Seen was map[2:true] and is map[1:true 2:true] after the step)`+causes, err.Error())
	var nd *model.NondeterminismError
	require.ErrorAs(t, err, &nd)
	assert.Equal(t, "p2.Seen", nd.Field)
}

// Map iteration order and package-level state give two successors for one
// step: the probe runs each step again and compares.
func TestHiddenInputsAreTheAlgorithmsFault(t *testing.T) {
	for _, alg := range []collector{{mapOrder: true}, {hidden: true}} {
		_, err := collect(t, alg, model.Config{N: 3})
		require.Error(t, err, "%+v", alg)
		var nd *model.NondeterminismError
		require.ErrorAs(t, err, &nd)
		assert.Regexp(t, `^collector: the algorithm is not a function of its inputs: step "initiate p\d", taken twice from the same state, gave two different successors \(chan p\d→p\d is \[ELECT\(\d+\)\] once and \[ELECT\(\d+\)\] the other time\)`, err.Error())
		assert.Equal(t, nd.Step[:len("initiate")], "initiate")
	}
}

// A fault that the probe before the search does not reach shows when a
// counterexample is replayed: the replay diagnoses it as the algorithm's
// instead of calling it mcheck's internal error.
func TestReplayDiagnosesTheAlgorithmsFault(t *testing.T) {
	slow.Test(t) // 7 s: a search of N=5 with a crash
	sp := specs.Spec{Name: "collector", Build: specs.Builder[colLocal, colMsg](collector{mapInPlace: true})}
	sys, err := sp.Build.System(model.Config{N: 5, MaxCrashes: 1}, []string{"SingleLeader", "Agreement", "Termination"})
	require.NoError(t, err)
	_, err = explore.Run(sys, explore.Options{Targets: explore.Targets{Invariants: []int{0, 1}, Goal: explore.GoalOf(2)}, Liveness: true, Continue: true})
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "internal error")
	var nd *model.NondeterminismError
	require.ErrorAs(t, err, &nd)
	assert.True(t, nd.Changed)
	assert.Regexp(t, `^p\d\.Seen$`, nd.Field)
	assert.Contains(t, err.Error(), causes)
}
