package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/bully"
)

// The synchronous schedule stops before a step that would go over the
// channel bound: with one message per channel, p1 forwards ELECTION(3)
// into chan(p1,p2) while its own ELECTION(1) still waits there.
func TestSynchronousStopsAtTheBound(t *testing.T) {
	s := ringSystem(t, model.Config{N: 3, MaxQueue: 1}).Synchronous()
	assert.True(t, s.Overflow)
	assert.False(t, s.Unbounded)
	require.Len(t, s.Steps, 3, "round 0's three initiations only")
	for _, st := range s.Steps {
		assert.Equal(t, 0, st.Round)
	}
	assert.Equal(t, 3, s.Sent.Total())
	// Round 1 began with the refused delivery: the latency is that of the
	// steps taken, round 0.
	assert.Equal(t, 2, s.Rounds)
	assert.Equal(t, 0, s.Latency)
	assert.Equal(t, model.KindDeliver, s.Blocked.Kind())
	assert.Equal(t, []int{2, 0}, []int{s.Blocked.P(), s.Blocked.Q()})
}

// flipper: one process whose timer is always armed and justified and flips
// a bit, so the schedule comes back to a state it was in.
type flipper struct{}

type fLocal struct{ Bit bool }
type fMsg struct{}

func (flipper) Init() fLocal                                     { return fLocal{} }
func (flipper) Elected(*fLocal) int                              { return 0 }
func (flipper) CanInitiate(*model.Ctx[fMsg], *fLocal, bool) bool { return false }
func (flipper) Initiate(*model.Ctx[fMsg], *fLocal)               {}
func (flipper) Receive(*model.Ctx[fMsg], *fLocal, int, fMsg)     {}
func (flipper) FormatMsg(fMsg) string                            { return "" }
func (flipper) Timers() []model.Timer[fLocal, fMsg] {
	return []model.Timer[fLocal, fMsg]{{
		Name:      "flip",
		Armed:     func(*fLocal) bool { return true },
		Justified: func(*model.GuardCtx[fMsg], *fLocal) bool { return true },
		Fire:      func(_ *model.Ctx[fMsg], l *fLocal) { l.Bit = !l.Bit },
	}}
}

func TestSynchronousRevisitIsUnbounded(t *testing.T) {
	k, err := model.New[fLocal, fMsg](flipper{}, model.Config{N: 2}, nil)
	require.NoError(t, err)
	s := k.Synchronous()
	assert.True(t, s.Unbounded)
	assert.False(t, s.Overflow)
}

// Bully's timers mature two rounds after they are armed: the second
// highest detects in round 0 and times out in round 2.
func TestSynchronousTimersMatureAfterARoundTrip(t *testing.T) {
	k, err := model.New[bully.Local, bully.Msg](bully.Algorithm{}, model.Config{N: 4, Down: []int{4}, Initiators: []int{3}, InitialLeader: true}, nil)
	require.NoError(t, err)
	s := k.Synchronous()
	var rounds []int
	for _, st := range s.Steps {
		rounds = append(rounds, st.Round)
	}
	assert.Equal(t, []int{0, 2, 3, 3}, rounds, "detect, timeout-ok, two COORDINATOR deliveries")
	assert.Equal(t, 3, s.Latency)
	assert.Equal(t, 4, s.Rounds)
}
