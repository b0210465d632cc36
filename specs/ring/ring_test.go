package ring_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/internal/spectest"
	"github.com/mcheck/mcheck/specs/ring"
)

// The ring used throughout: positions 0..3 carry IDs 3, 9, 4, 8, so that a
// handler mixing up positions and IDs sends to the wrong place or the wrong ID.
var ids = []int{3, 9, 4, 8}

type sent = model.Sent[ring.Msg]

func election(j int) ring.Msg { return ring.Msg{Kind: ring.Election, J: j} }
func elected(j int) ring.Msg  { return ring.Msg{Kind: ring.Elected, J: j} }

// snd is a send from position from to position to.
func snd(from, to int, m ring.Msg) sent { return sent{From: from, To: to, Msg: m} }

// newEnv builds a TestEnv with the positions in dead crashed, and tells it
// what self has elected (for suspects).
func newEnv(self int, l ring.Local, dead ...int) *model.TestEnv[ring.Msg] {
	env := model.NewTestEnv[ring.Msg](ids...)
	for _, p := range dead {
		env.Alive[p] = false
	}
	env.Elected[self] = l.Elected
	return env
}

func TestInitialStates(t *testing.T) {
	alg := ring.Algorithm{}
	assert.Equal(t, ring.Local{}, alg.Init())
	assert.Equal(t, ring.Local{Busy: false, Elected: 9}, alg.InitLeader(9))
	l := ring.Local{Busy: true, Elected: 8}
	assert.Equal(t, 8, alg.Elected(&l))
}

func TestCanInitiate(t *testing.T) {
	tests := []struct {
		name     string
		local    ring.Local
		suspects bool
		want     bool
	}{
		{"not busy, suspects", ring.Local{}, true, true},
		{"not busy, does not suspect", ring.Local{Elected: 9}, false, false},
		{"busy, suspects", ring.Local{Busy: true}, true, false},
		{"busy, does not suspect", ring.Local{Busy: true, Elected: 9}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(2, tt.local)
			l := tt.local
			assert.Equal(t, tt.want, ring.Algorithm{}.CanInitiate(env.Ctx(2), &l, tt.suspects))
			assert.Equal(t, tt.local, l, "the guard must not change the local state")
			assert.Empty(t, env.Sent)
		})
	}
}

func TestInitiate(t *testing.T) {
	tests := []struct {
		name   string
		self   int
		dead   []int
		before ring.Local
		want   ring.Local
		sent   []sent
	}{
		{"sends ELECTION(id) cw", 2, nil, ring.Local{Elected: 9}, ring.Local{Busy: true}, []sent{snd(2, 3, election(4))}},
		{"wraps around the ring", 3, nil, ring.Local{}, ring.Local{Busy: true}, []sent{snd(3, 0, election(8))}},
		{"skips a crashed successor", 2, []int{3}, ring.Local{Elected: 8}, ring.Local{Busy: true}, []sent{snd(2, 0, election(4))}},
		{"lone process sends to itself", 1, []int{0, 2, 3}, ring.Local{}, ring.Local{Busy: true}, []sent{snd(1, 1, election(9))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(tt.self, tt.before, tt.dead...)
			l := tt.before
			ring.Algorithm{}.Initiate(env.Ctx(tt.self), &l)
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
		before ring.Local
		msg    ring.Msg
		want   ring.Local
		sent   []sent
	}{
		// ELECTION(j): busy := true; elected := ⊥; then by j vs id.
		{"ELECTION j>id forwards j", 2, nil, ring.Local{Elected: 8}, election(9), ring.Local{Busy: true}, []sent{snd(2, 3, election(9))}},
		{"ELECTION j>id when busy", 2, nil, ring.Local{Busy: true}, election(8), ring.Local{Busy: true}, []sent{snd(2, 3, election(8))}},
		{"ELECTION j<id replaces by id", 2, nil, ring.Local{Elected: 9}, election(3), ring.Local{Busy: true}, []sent{snd(2, 3, election(4))}},
		{"ELECTION j<id when busy still replaces (no pruning)", 3, nil, ring.Local{Busy: true}, election(4), ring.Local{Busy: true}, []sent{snd(3, 0, election(8))}},
		{"ELECTION j=id sends ELECTED(id)", 2, nil, ring.Local{Busy: true}, election(4), ring.Local{Busy: true}, []sent{snd(2, 3, elected(4))}},
		{"ELECTION j>id skips a crashed successor", 2, []int{3}, ring.Local{}, election(9), ring.Local{Busy: true}, []sent{snd(2, 0, election(9))}},
		{"ELECTION of a crashed process at a lone process loops to itself", 0, []int{1, 2, 3}, ring.Local{Busy: true}, election(9), ring.Local{Busy: true}, []sent{snd(0, 0, election(9))}},
		// ELECTED(j): busy := false; elected := j; forward unless j = id.
		{"ELECTED j!=id records and forwards", 2, nil, ring.Local{Busy: true}, elected(9), ring.Local{Elected: 9}, []sent{snd(2, 3, elected(9))}},
		{"ELECTED j!=id when not busy", 0, nil, ring.Local{Elected: 8}, elected(9), ring.Local{Elected: 9}, []sent{snd(0, 1, elected(9))}},
		{"ELECTED j=id stops", 1, nil, ring.Local{Busy: true}, elected(9), ring.Local{Elected: 9}, nil},
		{"ELECTED j<id is still accepted", 1, nil, ring.Local{Busy: true}, elected(8), ring.Local{Elected: 8}, []sent{snd(1, 2, elected(8))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(tt.self, tt.before, tt.dead...)
			l := tt.before
			from := (tt.self + len(ids) - 1) % len(ids)
			ring.Algorithm{}.Receive(env.Ctx(tt.self), &l, from, tt.msg)
			assert.Equal(t, tt.want, l)
			assert.Equal(t, tt.sent, env.Sent)
			assert.Empty(t, env.Lost)
		})
	}
}

func TestFormat(t *testing.T) {
	alg := ring.Algorithm{}
	assert.Equal(t, "ELECTION(9)", alg.FormatMsg(election(9)))
	assert.Equal(t, "ELECTED(9)", alg.FormatMsg(elected(9)))
	env := newEnv(0, ring.Local{})
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
