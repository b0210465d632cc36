package hirschsinclair_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/model"
	hs "github.com/mcheck/mcheck/specs/hirschsinclair"
	"github.com/mcheck/mcheck/specs/internal/spectest"
)

// Positions 0..3 carry IDs 3, 9, 4, 8. Neighbours: p2 (ID 4) has p3 (ID 8)
// cw and p1 (ID 9) ccw; p3 (ID 8) has p0 (ID 3) cw and p2 (ID 4) ccw.
var ids = []int{3, 9, 4, 8}

const (
	cw  = model.CW
	ccw = model.CCW
)

type sent = model.Sent[hs.Msg]

func probe(j, k, h int, d model.Dir) hs.Msg {
	return hs.Msg{Kind: hs.Probe, J: j, K: k, H: h, D: d}
}
func reply(j, k int, d model.Dir) hs.Msg { return hs.Msg{Kind: hs.Reply, J: j, K: k, D: d} }
func elected(j int) hs.Msg               { return hs.Msg{Kind: hs.Elected, J: j} }

// snd is a send from position from to position to.
func snd(from, to int, m hs.Msg) sent { return sent{From: from, To: to, Msg: m} }

func local(s hs.Status, phase, replies, el int) hs.Local {
	return hs.Local{Status: s, Phase: phase, Replies: replies, Elected: el}
}

func newEnv(self int, l hs.Local, dead ...int) *model.TestEnv[hs.Msg] {
	env := model.NewTestEnv[hs.Msg](ids...)
	for _, p := range dead {
		env.Alive[p] = false
	}
	env.Elected[self] = l.Elected
	return env
}

func TestInitialStates(t *testing.T) {
	alg := hs.Algorithm{}
	assert.Equal(t, local(hs.Idle, 0, 0, 0), alg.Init())
	// --initial-leader: decided, phase 0, replies 0.
	assert.Equal(t, local(hs.Decided, 0, 0, 9), alg.InitLeader(9))
	l := local(hs.Relay, 1, 1, 8)
	assert.Equal(t, 8, alg.Elected(&l))
}

func TestCanInitiate(t *testing.T) {
	tests := []struct {
		name     string
		local    hs.Local
		suspects bool
		want     bool
	}{
		{"idle, suspects", local(hs.Idle, 0, 0, 0), true, true},
		{"idle, does not suspect", local(hs.Idle, 0, 0, 9), false, false},
		{"decided, suspects", local(hs.Decided, 0, 0, 8), true, true},
		{"decided, does not suspect", local(hs.Decided, 0, 0, 9), false, false},
		{"candidate, suspects", local(hs.Candidate, 1, 0, 0), true, false},
		{"candidate, does not suspect", local(hs.Candidate, 1, 0, 9), false, false},
		{"relay, suspects", local(hs.Relay, 0, 0, 0), true, false},
		{"relay, does not suspect", local(hs.Relay, 0, 0, 9), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(2, tt.local)
			l := tt.local
			assert.Equal(t, tt.want, hs.Algorithm{}.CanInitiate(env.Ctx(2), &l, tt.suspects))
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
		before hs.Local
		sent   []sent
	}{
		{"idle: probes cw first, then ccw", 2, nil, local(hs.Idle, 0, 0, 0),
			[]sent{snd(2, 3, probe(4, 0, 1, cw)), snd(2, 1, probe(4, 0, 1, ccw))}},
		{"decided with a crashed leader resets phase and replies", 2, []int{3}, local(hs.Decided, 2, 1, 8),
			[]sent{snd(2, 0, probe(4, 0, 1, cw)), snd(2, 1, probe(4, 0, 1, ccw))}},
		{"wraps around both ways", 0, nil, local(hs.Idle, 0, 0, 0),
			[]sent{snd(0, 1, probe(3, 0, 1, cw)), snd(0, 3, probe(3, 0, 1, ccw))}},
		{"lone process probes itself", 1, []int{0, 2, 3}, local(hs.Idle, 0, 0, 0),
			[]sent{snd(1, 1, probe(9, 0, 1, cw)), snd(1, 1, probe(9, 0, 1, ccw))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(tt.self, tt.before, tt.dead...)
			l := tt.before
			hs.Algorithm{}.Initiate(env.Ctx(tt.self), &l)
			assert.Equal(t, local(hs.Candidate, 0, 0, 0), l)
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
		before hs.Local
		msg    hs.Msg
		want   hs.Local
		sent   []sent
	}{
		// PROBE(j, k, h, d), j = id.
		{"own PROBE back at a candidate: decided, ELECTED cw", 1, nil, local(hs.Candidate, 2, 1, 0), probe(9, 2, 3, cw),
			local(hs.Decided, 2, 1, 9), []sent{snd(1, 2, elected(9))}},
		{"own PROBE back ccw: ELECTED still goes cw", 1, nil, local(hs.Candidate, 2, 0, 0), probe(9, 2, 3, ccw),
			local(hs.Decided, 2, 0, 9), []sent{snd(1, 2, elected(9))}},
		{"own PROBE at a relay is dropped", 2, nil, local(hs.Relay, 0, 0, 0), probe(4, 1, 2, cw),
			local(hs.Relay, 0, 0, 0), nil},
		{"own PROBE at a decided process is dropped", 1, nil, local(hs.Decided, 2, 0, 9), probe(9, 2, 3, cw),
			local(hs.Decided, 2, 0, 9), nil},
		{"own PROBE at an idle process is dropped", 2, nil, local(hs.Idle, 0, 0, 0), probe(4, 0, 1, cw),
			local(hs.Idle, 0, 0, 0), nil},

		// PROBE(j, k, h, d), j > id: become relay, then forward or reply.
		{"j>id, idle, h<2^k, cw: relay and forward cw with h+1", 2, nil, local(hs.Idle, 0, 0, 0), probe(9, 1, 1, cw),
			local(hs.Relay, 0, 0, 0), []sent{snd(2, 3, probe(9, 1, 2, cw))}},
		{"j>id, idle, h<2^k, ccw: forward ccw with h+1", 2, nil, local(hs.Idle, 0, 0, 0), probe(9, 1, 1, ccw),
			local(hs.Relay, 0, 0, 0), []sent{snd(2, 1, probe(9, 1, 2, ccw))}},
		{"j>id, h<2^k with k=2", 2, nil, local(hs.Idle, 0, 0, 0), probe(8, 2, 3, cw),
			local(hs.Relay, 0, 0, 0), []sent{snd(2, 3, probe(8, 2, 4, cw))}},
		{"j>id, candidate, h=2^k (k=0), cw: relay keeps phase/replies, REPLY back ccw", 2, nil, local(hs.Candidate, 1, 1, 0), probe(9, 0, 1, cw),
			local(hs.Relay, 1, 1, 0), []sent{snd(2, 1, reply(9, 0, ccw))}},
		{"j>id, h=2^k (k=1), ccw: REPLY back cw", 2, nil, local(hs.Idle, 0, 0, 0), probe(9, 1, 2, ccw),
			local(hs.Relay, 0, 0, 0), []sent{snd(2, 3, reply(9, 1, cw))}},
		{"j>id, h=2^k (k=2), cw: REPLY back ccw", 3, nil, local(hs.Idle, 0, 0, 0), probe(9, 2, 4, cw),
			local(hs.Relay, 0, 0, 0), []sent{snd(3, 2, reply(9, 2, ccw))}},
		{"j>id, already relay", 2, nil, local(hs.Relay, 0, 0, 0), probe(8, 1, 1, cw),
			local(hs.Relay, 0, 0, 0), []sent{snd(2, 3, probe(8, 1, 2, cw))}},
		{"j>id, decided and suspects (leader crashed): relay, forward past the crash", 2, []int{3}, local(hs.Decided, 0, 0, 8), probe(9, 1, 1, cw),
			local(hs.Relay, 0, 0, 0), []sent{snd(2, 0, probe(9, 1, 2, cw))}},
		{"j>id, decided with a live leader: relays h+1 without changing state", 2, nil, local(hs.Decided, 0, 0, 9), probe(9, 1, 1, cw),
			local(hs.Decided, 0, 0, 9), []sent{snd(2, 3, probe(9, 1, 2, cw))}},
		{"j>id, decided with a live leader: replies without changing state", 2, nil, local(hs.Decided, 0, 0, 9), probe(9, 0, 1, ccw),
			local(hs.Decided, 0, 0, 9), []sent{snd(2, 3, reply(9, 0, cw))}},

		// PROBE(j, k, h, d), j < id: swallow; start if idle or decided ∧ suspects.
		{"j<id, idle: swallow and start", 3, nil, local(hs.Idle, 0, 0, 0), probe(4, 0, 1, cw),
			local(hs.Candidate, 0, 0, 0), []sent{snd(3, 0, probe(8, 0, 1, cw)), snd(3, 2, probe(8, 0, 1, ccw))}},
		{"j<id, decided and suspects: swallow and start", 3, []int{1}, local(hs.Decided, 3, 1, 9), probe(3, 1, 2, ccw),
			local(hs.Candidate, 0, 0, 0), []sent{snd(3, 0, probe(8, 0, 1, cw)), snd(3, 2, probe(8, 0, 1, ccw))}},
		{"j<id, decided with a live leader: swallow only", 3, nil, local(hs.Decided, 0, 0, 9), probe(4, 0, 1, cw),
			local(hs.Decided, 0, 0, 9), nil},
		{"j<id, candidate: swallow only", 3, nil, local(hs.Candidate, 1, 1, 0), probe(4, 0, 1, cw),
			local(hs.Candidate, 1, 1, 0), nil},
		{"j<id, relay: swallow only", 3, nil, local(hs.Relay, 0, 0, 0), probe(3, 1, 1, ccw),
			local(hs.Relay, 0, 0, 0), nil},

		// REPLY(j, k, d), j ≠ id: pass it on in direction d, state unchanged.
		{"REPLY of another, cw", 2, nil, local(hs.Candidate, 0, 1, 0), reply(9, 1, cw),
			local(hs.Candidate, 0, 1, 0), []sent{snd(2, 3, reply(9, 1, cw))}},
		{"REPLY of another, ccw", 2, nil, local(hs.Relay, 0, 0, 0), reply(8, 1, ccw),
			local(hs.Relay, 0, 0, 0), []sent{snd(2, 1, reply(8, 1, ccw))}},
		{"REPLY of a smaller ID is passed on too", 2, nil, local(hs.Relay, 0, 0, 0), reply(3, 0, cw),
			local(hs.Relay, 0, 0, 0), []sent{snd(2, 3, reply(3, 0, cw))}},
		{"REPLY of another past a crashed neighbour", 2, []int{1}, local(hs.Relay, 0, 0, 0), reply(8, 1, ccw),
			local(hs.Relay, 0, 0, 0), []sent{snd(2, 0, reply(8, 1, ccw))}},

		// REPLY(j, k, d), j = id.
		{"own REPLY, candidate, k=phase, first: replies 1", 3, nil, local(hs.Candidate, 1, 0, 0), reply(8, 1, cw),
			local(hs.Candidate, 1, 1, 0), nil},
		{"own REPLY, candidate, k=phase, second: next phase probes cw then ccw", 3, nil, local(hs.Candidate, 1, 1, 0), reply(8, 1, ccw),
			local(hs.Candidate, 2, 0, 0), []sent{snd(3, 0, probe(8, 2, 1, cw)), snd(3, 2, probe(8, 2, 1, ccw))}},
		{"own REPLY, candidate, stale k: dropped", 3, nil, local(hs.Candidate, 2, 1, 0), reply(8, 1, cw),
			local(hs.Candidate, 2, 1, 0), nil},
		{"own REPLY at a relay: dropped", 3, nil, local(hs.Relay, 1, 1, 0), reply(8, 1, cw),
			local(hs.Relay, 1, 1, 0), nil},
		{"own REPLY at a decided process: dropped", 3, nil, local(hs.Decided, 1, 1, 9), reply(8, 1, cw),
			local(hs.Decided, 1, 1, 9), nil},
		{"own REPLY at an idle process: dropped", 3, nil, local(hs.Idle, 0, 0, 0), reply(8, 0, cw),
			local(hs.Idle, 0, 0, 0), nil},

		// ELECTED(j): decided, elected := j; forward cw unless j = id.
		{"ELECTED of another: decided and forward cw", 2, nil, local(hs.Candidate, 1, 1, 0), elected(9),
			local(hs.Decided, 1, 1, 9), []sent{snd(2, 3, elected(9))}},
		{"ELECTED of another at a relay, past a crash", 2, []int{3}, local(hs.Relay, 0, 0, 0), elected(9),
			local(hs.Decided, 0, 0, 9), []sent{snd(2, 0, elected(9))}},
		{"ELECTED of itself: stops", 1, nil, local(hs.Decided, 2, 0, 9), elected(9),
			local(hs.Decided, 2, 0, 9), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(tt.self, tt.before, tt.dead...)
			l := tt.before
			from := (tt.self + 1) % len(ids)
			hs.Algorithm{}.Receive(env.Ctx(tt.self), &l, from, tt.msg)
			assert.Equal(t, tt.want, l)
			assert.Equal(t, tt.sent, env.Sent)
			assert.Empty(t, env.Lost)
		})
	}
}

func TestDirBack(t *testing.T) {
	assert.Equal(t, ccw, cw.Back())
	assert.Equal(t, cw, ccw.Back())
}

func TestFormat(t *testing.T) {
	alg := hs.Algorithm{}
	assert.Equal(t, "PROBE(9,1,2,cw)", alg.FormatMsg(probe(9, 1, 2, cw)))
	assert.Equal(t, "PROBE(9,0,1,ccw)", alg.FormatMsg(probe(9, 0, 1, ccw)))
	assert.Equal(t, "REPLY(9,1,ccw)", alg.FormatMsg(reply(9, 1, ccw)))
	assert.Equal(t, "REPLY(9,1,cw)", alg.FormatMsg(reply(9, 1, cw)))
	assert.Equal(t, "ELECTED(9)", alg.FormatMsg(elected(9)))
	env := newEnv(0, hs.Local{})
	assert.Equal(t, []model.Field{{Name: "status", Value: model.Str("candidate")}, {Name: "phase", Value: model.Int(2)}, {Name: "replies", Value: model.Int(1)}, {Name: "elected", Value: model.None()}},
		alg.FormatLocal(env.Ctx(0), &hs.Local{Status: hs.Candidate, Phase: 2, Replies: 1}))
	for s, name := range map[hs.Status]string{hs.Idle: "idle", hs.Relay: "relay", hs.Decided: "decided"} {
		assert.Equal(t, model.Field{Name: "status", Value: model.Str(name)}, alg.FormatLocal(env.Ctx(0), &hs.Local{Status: s})[0])
	}
}

func TestCodecLocal(t *testing.T) {
	alg := hs.Algorithm{}
	spectest.RoundTrip(t, alg.AppendLocal, alg.DecodeLocal, []hs.Local{
		local(hs.Idle, 0, 0, 0),
		local(hs.Candidate, 2, 1, 0),
		local(hs.Relay, 300, 2, 0),
		local(hs.Decided, 5, 0, 9),
		local(hs.Decided, 0, 0, 1<<20),
	}...)
	a, b := local(hs.Candidate, 1, 0, 0), local(hs.Candidate, 0, 1, 0)
	assert.NotEqual(t, alg.AppendLocal(nil, &a), alg.AppendLocal(nil, &b))
}

func TestCodecMsg(t *testing.T) {
	alg := hs.Algorithm{}
	spectest.RoundTrip(t, alg.AppendMsg, alg.DecodeMsg, []hs.Msg{
		probe(9, 1, 2, cw), probe(3, 0, 1, ccw), probe(1<<20, 4, 16, ccw),
		reply(9, 1, ccw), reply(8, 300, cw), elected(9), elected(1 << 20),
	}...)
	a, b := probe(9, 1, 2, cw), probe(9, 1, 2, ccw)
	assert.NotEqual(t, alg.AppendMsg(nil, &a), alg.AppendMsg(nil, &b))
}
