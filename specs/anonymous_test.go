package specs_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
)

// Without unique IDs a ring cannot elect a single leader (the notes'
// anonymity argument): three processes with ID 1 each see their own ID come
// back and take themselves for the leader.
func TestChangRobertsAnonymousTwoLeaders(t *testing.T) {
	cr := lookup(t, "chang-roberts")
	cfg := model.Config{N: 3, IDs: []int{1, 1, 1}, Anonymous: true}
	rep := run(t, cr, cfg, false)
	expect(t, rep, false, want{violated, unknown, unknown, "", nil})
	tr := verdict(t, rep, "SingleLeader").Trace
	last := view(t, rep, tr.Final().State)
	assert.Len(t, liveLeaders(&last), 2)
	assert.Equal(t, []string{"initiate p1@0", "deliver p1@0→p1@1 ELECTION(1)", "deliver p1@1→p1@2 ELECTED(1)"}, labels(tr),
		"processes with the same ID are told apart by position")

	_, err := check.Run(check.Request{Spec: cr, Config: model.Config{N: 3, IDs: []int{1, 1, 1}}})
	require.ErrorContains(t, err, "ID 1 appears twice")
}

// An ID given to --initiators or --down names every process that carries it.
func TestAnonymousIDNamesEveryCarrier(t *testing.T) {
	cr := lookup(t, "chang-roberts")
	cfg := model.Config{N: 4, IDs: []int{2, 1, 2, 1}, Anonymous: true, Initiators: []int{2}, Down: []int{1}}
	sys, err := cr.Build.System(cfg, nil)
	require.NoError(t, err)
	exp, err := model.ExpanderOf(sys)
	require.NoError(t, err)
	var b model.Batch
	exp.Initial(&b)
	require.Len(t, b.Succs, 1)
	init := slices.Clone(b.State(0))
	snap := exp.Snapshot(init)
	var alive []string
	for _, p := range snap.Processes {
		if p.Alive {
			alive = append(alive, p.Name())
		}
	}
	assert.Equal(t, []string{"p2@0", "p2@2"}, alive, "--down 1 crashes both processes with ID 1")
	exp.Expand(init, &b)
	var steps []string
	for _, s := range b.Succs {
		steps = append(steps, exp.Label(init, s.Action))
	}
	assert.Equal(t, []string{"initiate p2@0", "initiate p2@2"}, steps, "--initiators 2 lets both processes with ID 2 initiate")
}

// With duplicate IDs, suspects(q) asks whether some live process has the
// elected ID: the crash of one of two processes with ID 2 goes unsuspected.
func TestAnonymousSuspectsSomeCarrierAlive(t *testing.T) {
	cr := lookup(t, "chang-roberts")
	cfg := model.Config{N: 3, IDs: []int{2, 1, 2}, Anonymous: true, InitialLeader: true, MaxCrashes: 1}
	sys, err := cr.Build.System(cfg, nil)
	require.NoError(t, err)
	exp := sys.NewExpander()
	var b model.Batch
	exp.Initial(&b)
	init := slices.Clone(b.State(0))
	exp.Expand(init, &b)
	after := map[string][]byte{}
	for i, s := range b.Succs {
		after[exp.Label(init, s.Action)] = append([]byte(nil), b.State(i)...)
	}
	require.Contains(t, after, "crash p2@0")
	require.Contains(t, after, "crash p2@2")
	var steps []string
	exp.Expand(after["crash p2@0"], &b)
	for _, s := range b.Succs {
		steps = append(steps, exp.Label(after["crash p2@0"], s.Action))
	}
	assert.Empty(t, steps, "p1's leader 2 is still live at position 2: no one suspects, and no crash is left")
}
