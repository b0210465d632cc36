package changroberts_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/model"
	cr "github.com/mcheck/mcheck/specs/changroberts"
	"github.com/mcheck/mcheck/specs/internal/spectest"
)

// The handler tests run on spectest.IDs(): positions 0..3 carry IDs 3, 9,
// 4, 8.

type (
	sent = model.Sent[cr.Msg]
	step = spectest.Case[cr.Local, cr.Msg]
)

func election(j int) cr.Msg { return cr.Msg{Kind: cr.Election, J: j} }
func elected(j int) cr.Msg  { return cr.Msg{Kind: cr.Elected, J: j} }

var snd = spectest.Snd[cr.Msg]

func TestInitialStates(t *testing.T) {
	alg := cr.Algorithm{}
	assert.Equal(t, cr.Local{}, alg.Init())
	assert.Equal(t, cr.Local{Participant: false, Elected: 9}, alg.InitLeader(9))
	l := cr.Local{Participant: true, Elected: 8}
	assert.Equal(t, 8, alg.Elected(&l))
}

func TestCanInitiate(t *testing.T) {
	alg := cr.Algorithm{}
	spectest.CanInitiate(t, alg.Elected, alg.CanInitiate, []spectest.Guard[cr.Local]{
		{Name: "not participant, suspects", Local: cr.Local{}, Suspects: true, Want: true},
		{Name: "not participant, does not suspect", Local: cr.Local{Elected: 9}, Suspects: false, Want: false},
		{Name: "participant, suspects", Local: cr.Local{Participant: true}, Suspects: true, Want: false},
		{Name: "participant, does not suspect", Local: cr.Local{Participant: true, Elected: 9}, Suspects: false, Want: false},
	})
}

func TestInitiate(t *testing.T) {
	alg := cr.Algorithm{}
	spectest.Run(t, alg.Elected, spectest.Call(alg.Initiate), []step{
		{Name: "sends ELECTION(id) cw", Self: 2, Before: cr.Local{Elected: 8}, Want: cr.Local{Participant: true}, Sent: []sent{snd(2, 3, election(4))}},
		{Name: "wraps around the ring", Self: 3, Before: cr.Local{}, Want: cr.Local{Participant: true}, Sent: []sent{snd(3, 0, election(8))}},
		{Name: "skips a crashed successor", Self: 0, Dead: []int{1}, Before: cr.Local{Elected: 9}, Want: cr.Local{Participant: true}, Sent: []sent{snd(0, 2, election(3))}},
	})
}

func TestReceive(t *testing.T) {
	alg := cr.Algorithm{}
	spectest.Run(t, alg.Elected, spectest.FromPredecessor(alg.Receive), []step{
		// ELECTION(j), j > id: participant := true; elected := ⊥; forward j.
		{Name: "ELECTION j>id, not participant", Self: 2, Before: cr.Local{Elected: 8}, Msg: election(9), Want: cr.Local{Participant: true}, Sent: []sent{snd(2, 3, election(9))}},
		{Name: "ELECTION j>id, participant", Self: 2, Before: cr.Local{Participant: true}, Msg: election(8), Want: cr.Local{Participant: true}, Sent: []sent{snd(2, 3, election(8))}},
		{Name: "ELECTION j>id skips a crashed successor", Self: 2, Dead: []int{3}, Before: cr.Local{}, Msg: election(9), Want: cr.Local{Participant: true}, Sent: []sent{snd(2, 0, election(9))}},
		// ELECTION(j), j < id, not participant: become one and send own ID.
		{Name: "ELECTION j<id, not participant", Self: 3, Before: cr.Local{Elected: 9}, Msg: election(4), Want: cr.Local{Participant: true}, Sent: []sent{snd(3, 0, election(8))}},
		// ELECTION(j), j < id, participant: drop it.
		{Name: "ELECTION j<id, participant drops", Self: 3, Before: cr.Local{Participant: true}, Msg: election(4), Want: cr.Local{Participant: true}},
		{Name: "ELECTION j<id, participant drops and keeps elected", Self: 3, Before: cr.Local{Participant: true, Elected: 9}, Msg: election(3), Want: cr.Local{Participant: true, Elected: 9}},
		// ELECTION(j), j = id: participant := false; elected := id; send ELECTED(id).
		{Name: "ELECTION j=id wins", Self: 2, Before: cr.Local{Participant: true}, Msg: election(4), Want: cr.Local{Elected: 4}, Sent: []sent{snd(2, 3, elected(4))}},
		{Name: "ELECTION j=id at a lone process", Self: 1, Dead: []int{0, 2, 3}, Before: cr.Local{Participant: true}, Msg: election(9), Want: cr.Local{Elected: 9}, Sent: []sent{snd(1, 1, elected(9))}},
		// ELECTED(j): participant := false; elected := j; forward unless j = id.
		{Name: "ELECTED j!=id records and forwards", Self: 2, Before: cr.Local{Participant: true}, Msg: elected(9), Want: cr.Local{Elected: 9}, Sent: []sent{snd(2, 3, elected(9))}},
		{Name: "ELECTED j!=id, not participant", Self: 0, Before: cr.Local{Elected: 8}, Msg: elected(9), Want: cr.Local{Elected: 9}, Sent: []sent{snd(0, 1, elected(9))}},
		{Name: "ELECTED j=id stops", Self: 1, Before: cr.Local{}, Msg: elected(9), Want: cr.Local{Elected: 9}},
	})
}

func TestFormat(t *testing.T) {
	alg := cr.Algorithm{}
	assert.Equal(t, "ELECTION(9)", alg.FormatMsg(election(9)))
	assert.Equal(t, "ELECTED(9)", alg.FormatMsg(elected(9)))
	env := model.NewTestEnv[cr.Msg](spectest.IDs()...)
	assert.Equal(t, []model.Field{{Name: "participant", Value: model.Bool(true)}, {Name: "elected", Value: model.None()}},
		alg.FormatLocal(env.Ctx(0), &cr.Local{Participant: true}))
	assert.Equal(t, []model.Field{{Name: "participant", Value: model.Bool(false)}, {Name: "elected", Value: model.Int(9)}},
		alg.FormatLocal(env.Ctx(0), &cr.Local{Elected: 9}))
}

func TestCodecLocal(t *testing.T) {
	alg := cr.Algorithm{}
	spectest.RoundTrip(t, alg.AppendLocal, alg.DecodeLocal, []cr.Local{{}, {Participant: true}, {Elected: 9}, {Participant: true, Elected: 8}, {Elected: 1 << 20}}...)
	a, b := cr.Local{Participant: true}, cr.Local{Elected: 1}
	assert.NotEqual(t, alg.AppendLocal(nil, &a), alg.AppendLocal(nil, &b))
}

func TestCodecMsg(t *testing.T) {
	alg := cr.Algorithm{}
	spectest.RoundTrip(t, alg.AppendMsg, alg.DecodeMsg, []cr.Msg{election(3), elected(9), election(1 << 20), elected(300)}...)
}
