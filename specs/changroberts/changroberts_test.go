package changroberts_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/model"
	cr "github.com/mcheck/mcheck/specs/changroberts"
	"github.com/mcheck/mcheck/specs/internal/spectest"
)

// Positions 0..3 carry IDs 3, 9, 4, 8.
var ids = []int{3, 9, 4, 8}

type sent = model.Sent[cr.Msg]

func election(j int) cr.Msg { return cr.Msg{Kind: cr.Election, J: j} }
func elected(j int) cr.Msg  { return cr.Msg{Kind: cr.Elected, J: j} }

// snd is a send from position from to position to.
func snd(from, to int, m cr.Msg) sent { return sent{From: from, To: to, Msg: m} }

func newEnv(self int, l cr.Local, dead ...int) *model.TestEnv[cr.Msg] {
	env := model.NewTestEnv[cr.Msg](ids...)
	for _, p := range dead {
		env.Alive[p] = false
	}
	env.Elected[self] = l.Elected
	return env
}

func TestInitialStates(t *testing.T) {
	alg := cr.Algorithm{}
	assert.Equal(t, cr.Local{}, alg.Init())
	assert.Equal(t, cr.Local{Participant: false, Elected: 9}, alg.InitLeader(9))
	l := cr.Local{Participant: true, Elected: 8}
	assert.Equal(t, 8, alg.Elected(&l))
}

func TestCanInitiate(t *testing.T) {
	tests := []struct {
		name     string
		local    cr.Local
		suspects bool
		want     bool
	}{
		{"not participant, suspects", cr.Local{}, true, true},
		{"not participant, does not suspect", cr.Local{Elected: 9}, false, false},
		{"participant, suspects", cr.Local{Participant: true}, true, false},
		{"participant, does not suspect", cr.Local{Participant: true, Elected: 9}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(2, tt.local)
			l := tt.local
			assert.Equal(t, tt.want, cr.Algorithm{}.CanInitiate(env.Ctx(2), &l, tt.suspects))
			assert.Equal(t, tt.local, l)
			assert.Empty(t, env.Sent)
		})
	}
}

func TestInitiate(t *testing.T) {
	tests := []struct {
		name   string
		self   int
		dead   []int
		before cr.Local
		want   cr.Local
		sent   []sent
	}{
		{"sends ELECTION(id) cw", 2, nil, cr.Local{Elected: 8}, cr.Local{Participant: true}, []sent{snd(2, 3, election(4))}},
		{"wraps around the ring", 3, nil, cr.Local{}, cr.Local{Participant: true}, []sent{snd(3, 0, election(8))}},
		{"skips a crashed successor", 0, []int{1}, cr.Local{Elected: 9}, cr.Local{Participant: true}, []sent{snd(0, 2, election(3))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(tt.self, tt.before, tt.dead...)
			l := tt.before
			cr.Algorithm{}.Initiate(env.Ctx(tt.self), &l)
			assert.Equal(t, tt.want, l)
			assert.Equal(t, tt.sent, env.Sent)
			assert.Empty(t, env.Lost)
		})
	}
}

func TestReceive(t *testing.T) {
	tests := []struct {
		name   string
		self   int
		dead   []int
		before cr.Local
		msg    cr.Msg
		want   cr.Local
		sent   []sent
	}{
		// ELECTION(j), j > id: participant := true; elected := ⊥; forward j.
		{"ELECTION j>id, not participant", 2, nil, cr.Local{Elected: 8}, election(9), cr.Local{Participant: true}, []sent{snd(2, 3, election(9))}},
		{"ELECTION j>id, participant", 2, nil, cr.Local{Participant: true}, election(8), cr.Local{Participant: true}, []sent{snd(2, 3, election(8))}},
		{"ELECTION j>id skips a crashed successor", 2, []int{3}, cr.Local{}, election(9), cr.Local{Participant: true}, []sent{snd(2, 0, election(9))}},
		// ELECTION(j), j < id, not participant: become one and send own ID.
		{"ELECTION j<id, not participant", 3, nil, cr.Local{Elected: 9}, election(4), cr.Local{Participant: true}, []sent{snd(3, 0, election(8))}},
		// ELECTION(j), j < id, participant: drop it.
		{"ELECTION j<id, participant drops", 3, nil, cr.Local{Participant: true}, election(4), cr.Local{Participant: true}, nil},
		{"ELECTION j<id, participant drops and keeps elected", 3, nil, cr.Local{Participant: true, Elected: 9}, election(3), cr.Local{Participant: true, Elected: 9}, nil},
		// ELECTION(j), j = id: participant := false; elected := id; send ELECTED(id).
		{"ELECTION j=id wins", 2, nil, cr.Local{Participant: true}, election(4), cr.Local{Elected: 4}, []sent{snd(2, 3, elected(4))}},
		{"ELECTION j=id at a lone process", 1, []int{0, 2, 3}, cr.Local{Participant: true}, election(9), cr.Local{Elected: 9}, []sent{snd(1, 1, elected(9))}},
		// ELECTED(j): participant := false; elected := j; forward unless j = id.
		{"ELECTED j!=id records and forwards", 2, nil, cr.Local{Participant: true}, elected(9), cr.Local{Elected: 9}, []sent{snd(2, 3, elected(9))}},
		{"ELECTED j!=id, not participant", 0, nil, cr.Local{Elected: 8}, elected(9), cr.Local{Elected: 9}, []sent{snd(0, 1, elected(9))}},
		{"ELECTED j=id stops", 1, nil, cr.Local{}, elected(9), cr.Local{Elected: 9}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(tt.self, tt.before, tt.dead...)
			l := tt.before
			from := (tt.self + len(ids) - 1) % len(ids)
			cr.Algorithm{}.Receive(env.Ctx(tt.self), &l, from, tt.msg)
			assert.Equal(t, tt.want, l)
			assert.Equal(t, tt.sent, env.Sent)
			assert.Empty(t, env.Lost)
		})
	}
}

func TestFormat(t *testing.T) {
	alg := cr.Algorithm{}
	assert.Equal(t, "ELECTION(9)", alg.FormatMsg(election(9)))
	assert.Equal(t, "ELECTED(9)", alg.FormatMsg(elected(9)))
	env := newEnv(0, cr.Local{})
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
