package model_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/bully"
	"github.com/mcheck/mcheck/specs/ring"
)

// step takes the step labelled label from state and returns its successor
// and what it sent.
func step(t *testing.T, x model.Expander, state []byte, label string) ([]byte, model.Sends) {
	t.Helper()
	var b model.Batch
	x.Expand(state, &b)
	for i, s := range b.Succs {
		if x.Label(state, s.Action) == label {
			return slices.Clone(b.State(i)), s.Sent
		}
	}
	require.FailNow(t, "no step "+label)
	return nil, model.Sends{}
}

func initial(x model.Expander) []byte {
	var b model.Batch
	x.Initial(&b)
	return slices.Clone(b.State(0))
}

// Sends per step (docs/semantics.md section 5.1): each send counts by type, a send
// to a crashed receiver is lost, and a crash loses every message queued for
// the crashed process.
func TestSendsPerStep(t *testing.T) {
	k := ringSystem(t, model.Config{N: 3, MaxCrashes: 1})
	assert.Equal(t, []string{"ELECTION", "ELECTED"}, k.MsgTypes())
	x, err := model.ExpanderOf(k)
	require.NoError(t, err)
	s := initial(x)
	s, sent := step(t, x, s, "initiate p1")
	assert.Equal(t, model.Sends{ByType: [model.MaxMsgTypes]uint16{1}}, sent)
	s, _ = step(t, x, s, "initiate p3")
	s, sent = step(t, x, s, "crash p2")
	assert.Equal(t, model.Sends{Lost: 1}, sent, "ELECTION(1) in chan(p1,p2) is lost")
	_, sent = step(t, x, s, "deliver p3→p1 ELECTION(3)")
	assert.Equal(t, model.Sends{ByType: [model.MaxMsgTypes]uint16{1}}, sent, "p1 forwards to p3, past crashed p2")
	assert.Equal(t, 1, sent.Total())

	// Bully: p1 detects the crashed coordinator and sends ELECTION to p2 and
	// to crashed p3 (lost).
	kb, err := model.New[bully.Local, bully.Msg](bully.Algorithm{}, model.Config{N: 3, Down: []int{3}}, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"ELECTION", "OK", "COORDINATOR"}, kb.MsgTypes())
	xb, err := model.ExpanderOf(kb)
	require.NoError(t, err)
	_, sent = step(t, xb, initial(xb), "detect p1")
	assert.Equal(t, model.Sends{ByType: [model.MaxMsgTypes]uint16{2}, Lost: 1}, sent)
}

var _ model.Messenger = (*model.Kernel[ring.Local, ring.Msg])(nil)
