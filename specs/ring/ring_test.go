package ring_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/internal/spectest"
	"github.com/mcheck/mcheck/specs/ring"
)

// The handler tests run on spectest.IDs(): positions 0..3 carry IDs 3, 9,
// 4, 8, so that a handler mixing up positions and IDs sends to the wrong
// place or the wrong ID.

type (
	sent = model.Sent[ring.Msg]
	// step is one call of a handler: at position Self, with Dead crashed,
	// from Before the handler leaves Want and sends Sent.
	step = spectest.Case[ring.Local, ring.Msg]
)

func election(j int) ring.Msg { return ring.Msg{Kind: ring.Election, J: j} }
func elected(j int) ring.Msg  { return ring.Msg{Kind: ring.Elected, J: j} }

// snd is a send from position from to position to.
var snd = spectest.Snd[ring.Msg]

func TestInitialStates(t *testing.T) {
	alg := ring.Algorithm{}
	assert.Equal(t, ring.Local{}, alg.Init())
	assert.Equal(t, ring.Local{Busy: false, Elected: 9}, alg.InitLeader(9))
	l := ring.Local{Busy: true, Elected: 8}
	assert.Equal(t, 8, alg.Elected(&l))
}

func TestCanInitiate(t *testing.T) {
	alg := ring.Algorithm{}
	spectest.CanInitiate(t, alg.Elected, alg.CanInitiate, []spectest.Guard[ring.Local]{
		{Name: "not busy, suspects", Local: ring.Local{}, Suspects: true, Want: true},
		{Name: "not busy, does not suspect", Local: ring.Local{Elected: 9}, Suspects: false, Want: false},
		{Name: "busy, suspects", Local: ring.Local{Busy: true}, Suspects: true, Want: false},
		{Name: "busy, does not suspect", Local: ring.Local{Busy: true, Elected: 9}, Suspects: false, Want: false},
	})
}

func TestInitiate(t *testing.T) {
	alg := ring.Algorithm{}
	spectest.Run(t, alg.Elected, spectest.Call(alg.Initiate), []step{
		{Name: "sends ELECTION(id) cw", Self: 2, Before: ring.Local{Elected: 9}, Want: ring.Local{Busy: true}, Sent: []sent{snd(2, 3, election(4))}},
		{Name: "wraps around the ring", Self: 3, Before: ring.Local{}, Want: ring.Local{Busy: true}, Sent: []sent{snd(3, 0, election(8))}},
		{Name: "skips a crashed successor", Self: 2, Dead: []int{3}, Before: ring.Local{Elected: 8}, Want: ring.Local{Busy: true}, Sent: []sent{snd(2, 0, election(4))}},
		{Name: "lone process sends to itself", Self: 1, Dead: []int{0, 2, 3}, Before: ring.Local{}, Want: ring.Local{Busy: true}, Sent: []sent{snd(1, 1, election(9))}},
	})
}

func TestReceive(t *testing.T) {
	alg := ring.Algorithm{}
	spectest.Run(t, alg.Elected, spectest.FromPredecessor(alg.Receive), []step{
		// ELECTION(j): busy := true; elected := ⊥; then by j vs id.
		{Name: "ELECTION j>id forwards j", Self: 2, Before: ring.Local{Elected: 8}, Msg: election(9), Want: ring.Local{Busy: true}, Sent: []sent{snd(2, 3, election(9))}},
		{Name: "ELECTION j>id when busy", Self: 2, Before: ring.Local{Busy: true}, Msg: election(8), Want: ring.Local{Busy: true}, Sent: []sent{snd(2, 3, election(8))}},
		{Name: "ELECTION j<id replaces by id", Self: 2, Before: ring.Local{Elected: 9}, Msg: election(3), Want: ring.Local{Busy: true}, Sent: []sent{snd(2, 3, election(4))}},
		{Name: "ELECTION j<id when busy still replaces (no pruning)", Self: 3, Before: ring.Local{Busy: true}, Msg: election(4), Want: ring.Local{Busy: true}, Sent: []sent{snd(3, 0, election(8))}},
		{Name: "ELECTION j=id sends ELECTED(id)", Self: 2, Before: ring.Local{Busy: true}, Msg: election(4), Want: ring.Local{Busy: true}, Sent: []sent{snd(2, 3, elected(4))}},
		{Name: "ELECTION j>id skips a crashed successor", Self: 2, Dead: []int{3}, Before: ring.Local{}, Msg: election(9), Want: ring.Local{Busy: true}, Sent: []sent{snd(2, 0, election(9))}},
		{Name: "ELECTION of a crashed process at a lone process loops to itself", Self: 0, Dead: []int{1, 2, 3}, Before: ring.Local{Busy: true}, Msg: election(9), Want: ring.Local{Busy: true}, Sent: []sent{snd(0, 0, election(9))}},
		// ELECTED(j): busy := false; elected := j; forward unless j = id.
		{Name: "ELECTED j!=id records and forwards", Self: 2, Before: ring.Local{Busy: true}, Msg: elected(9), Want: ring.Local{Elected: 9}, Sent: []sent{snd(2, 3, elected(9))}},
		{Name: "ELECTED j!=id when not busy", Self: 0, Before: ring.Local{Elected: 8}, Msg: elected(9), Want: ring.Local{Elected: 9}, Sent: []sent{snd(0, 1, elected(9))}},
		{Name: "ELECTED j=id stops", Self: 1, Before: ring.Local{Busy: true}, Msg: elected(9), Want: ring.Local{Elected: 9}},
		{Name: "ELECTED j<id is still accepted", Self: 1, Before: ring.Local{Busy: true}, Msg: elected(8), Want: ring.Local{Elected: 8}, Sent: []sent{snd(1, 2, elected(8))}},
	})
}

func TestFormat(t *testing.T) {
	alg := ring.Algorithm{}
	assert.Equal(t, "ELECTION(9)", alg.FormatMsg(election(9)))
	assert.Equal(t, "ELECTED(9)", alg.FormatMsg(elected(9)))
	env := model.NewTestEnv[ring.Msg](spectest.IDs()...)
	assert.Equal(t, []model.Field{{Name: "busy", Value: model.Bool(true)}, {Name: "elected", Value: model.None()}},
		alg.FormatLocal(env.Ctx(0), &ring.Local{Busy: true}))
	assert.Equal(t, []model.Field{{Name: "busy", Value: model.Bool(false)}, {Name: "elected", Value: model.Int(9)}},
		alg.FormatLocal(env.Ctx(0), &ring.Local{Elected: 9}))
	assert.Equal(t, "⊥", ring.FormatID(0))
	assert.Equal(t, "8", ring.FormatID(8))
}

func TestCodecLocal(t *testing.T) {
	alg := ring.Algorithm{}
	spectest.RoundTrip(t, alg.AppendLocal, alg.DecodeLocal, []ring.Local{{}, {Busy: true}, {Elected: 9}, {Busy: true, Elected: 8}, {Elected: 1 << 20}}...)
	// Different local states encode differently (the encoding is canonical).
	a, b := ring.Local{Busy: true}, ring.Local{Elected: 1}
	assert.NotEqual(t, alg.AppendLocal(nil, &a), alg.AppendLocal(nil, &b))
}

func TestCodecMsg(t *testing.T) {
	alg := ring.Algorithm{}
	spectest.RoundTrip(t, alg.AppendMsg, alg.DecodeMsg, []ring.Msg{election(3), elected(9), election(1 << 20), elected(300)}...)
	a, b := election(9), elected(9)
	assert.NotEqual(t, alg.AppendMsg(nil, &a), alg.AppendMsg(nil, &b))
}
