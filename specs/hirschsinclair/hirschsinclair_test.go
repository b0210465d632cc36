package hirschsinclair_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/model"
	hs "github.com/mcheck/mcheck/specs/hirschsinclair"
	"github.com/mcheck/mcheck/specs/internal/spectest"
)

// The handler tests run on spectest.IDs(): positions 0..3 carry IDs 3, 9,
// 4, 8. Neighbours: p2 (ID 4) has p3 (ID 8) cw and p1 (ID 9) ccw; p3 (ID 8)
// has p0 (ID 3) cw and p2 (ID 4) ccw.

const (
	cw  = model.CW
	ccw = model.CCW
)

type (
	sent = model.Sent[hs.Msg]
	step = spectest.Case[hs.Local, hs.Msg]
)

func probe(j, k, h int, d model.Dir) hs.Msg {
	return hs.Msg{Kind: hs.Probe, J: j, K: k, H: h, D: d}
}
func reply(j, k int, d model.Dir) hs.Msg { return hs.Msg{Kind: hs.Reply, J: j, K: k, D: d} }
func elected(j int) hs.Msg               { return hs.Msg{Kind: hs.Elected, J: j} }

var snd = spectest.Snd[hs.Msg]

func local(s hs.Status, phase, replies, el int) hs.Local {
	return hs.Local{Status: s, Phase: phase, Replies: replies, Elected: el}
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
	alg := hs.Algorithm{}
	spectest.CanInitiate(t, alg.Elected, alg.CanInitiate, []spectest.Guard[hs.Local]{
		{Name: "idle, suspects", Local: local(hs.Idle, 0, 0, 0), Suspects: true, Want: true},
		{Name: "idle, does not suspect", Local: local(hs.Idle, 0, 0, 9), Suspects: false, Want: false},
		{Name: "decided, suspects", Local: local(hs.Decided, 0, 0, 8), Suspects: true, Want: true},
		{Name: "decided, does not suspect", Local: local(hs.Decided, 0, 0, 9), Suspects: false, Want: false},
		{Name: "candidate, suspects", Local: local(hs.Candidate, 1, 0, 0), Suspects: true, Want: false},
		{Name: "candidate, does not suspect", Local: local(hs.Candidate, 1, 0, 9), Suspects: false, Want: false},
		{Name: "relay, suspects", Local: local(hs.Relay, 0, 0, 0), Suspects: true, Want: false},
		{Name: "relay, does not suspect", Local: local(hs.Relay, 0, 0, 9), Suspects: false, Want: false},
	})
}

func TestInitiate(t *testing.T) {
	alg := hs.Algorithm{}
	spectest.Run(t, alg.Elected, spectest.Call(alg.Initiate), []step{
		{Name: "idle: probes cw first, then ccw", Self: 2, Before: local(hs.Idle, 0, 0, 0),
			Want: local(hs.Candidate, 0, 0, 0), Sent: []sent{snd(2, 3, probe(4, 0, 1, cw)), snd(2, 1, probe(4, 0, 1, ccw))}},
		{Name: "decided with a crashed leader resets phase and replies", Self: 2, Dead: []int{3}, Before: local(hs.Decided, 2, 1, 8),
			Want: local(hs.Candidate, 0, 0, 0), Sent: []sent{snd(2, 0, probe(4, 0, 1, cw)), snd(2, 1, probe(4, 0, 1, ccw))}},
		{Name: "wraps around both ways", Self: 0, Before: local(hs.Idle, 0, 0, 0),
			Want: local(hs.Candidate, 0, 0, 0), Sent: []sent{snd(0, 1, probe(3, 0, 1, cw)), snd(0, 3, probe(3, 0, 1, ccw))}},
		{Name: "lone process probes itself", Self: 1, Dead: []int{0, 2, 3}, Before: local(hs.Idle, 0, 0, 0),
			Want: local(hs.Candidate, 0, 0, 0), Sent: []sent{snd(1, 1, probe(9, 0, 1, cw)), snd(1, 1, probe(9, 0, 1, ccw))}},
	})
}

// receive delivers the case's message from the successor (the handler does
// not look at the sender).
func receive(c *model.Ctx[hs.Msg], l *hs.Local, tc step) {
	hs.Algorithm{}.Receive(c, l, (tc.Self+1)%c.N(), tc.Msg)
}

func TestReceive(t *testing.T) {
	spectest.Run(t, hs.Algorithm{}.Elected, receive, []step{
		// PROBE(j, k, h, d), j = id.
		{Name: "own PROBE back at a candidate: decided, ELECTED cw", Self: 1, Before: local(hs.Candidate, 2, 1, 0), Msg: probe(9, 2, 3, cw),
			Want: local(hs.Decided, 2, 1, 9), Sent: []sent{snd(1, 2, elected(9))}},
		{Name: "own PROBE back ccw: ELECTED still goes cw", Self: 1, Before: local(hs.Candidate, 2, 0, 0), Msg: probe(9, 2, 3, ccw),
			Want: local(hs.Decided, 2, 0, 9), Sent: []sent{snd(1, 2, elected(9))}},
		{Name: "own PROBE at a relay is dropped", Self: 2, Before: local(hs.Relay, 0, 0, 0), Msg: probe(4, 1, 2, cw),
			Want: local(hs.Relay, 0, 0, 0)},
		{Name: "own PROBE at a decided process is dropped", Self: 1, Before: local(hs.Decided, 2, 0, 9), Msg: probe(9, 2, 3, cw),
			Want: local(hs.Decided, 2, 0, 9)},
		{Name: "own PROBE at an idle process is dropped", Self: 2, Before: local(hs.Idle, 0, 0, 0), Msg: probe(4, 0, 1, cw),
			Want: local(hs.Idle, 0, 0, 0)},

		// PROBE(j, k, h, d), j > id: become relay, then forward or reply.
		{Name: "j>id, idle, h<2^k, cw: relay and forward cw with h+1", Self: 2, Before: local(hs.Idle, 0, 0, 0), Msg: probe(9, 1, 1, cw),
			Want: local(hs.Relay, 0, 0, 0), Sent: []sent{snd(2, 3, probe(9, 1, 2, cw))}},
		{Name: "j>id, idle, h<2^k, ccw: forward ccw with h+1", Self: 2, Before: local(hs.Idle, 0, 0, 0), Msg: probe(9, 1, 1, ccw),
			Want: local(hs.Relay, 0, 0, 0), Sent: []sent{snd(2, 1, probe(9, 1, 2, ccw))}},
		{Name: "j>id, h<2^k with k=2", Self: 2, Before: local(hs.Idle, 0, 0, 0), Msg: probe(8, 2, 3, cw),
			Want: local(hs.Relay, 0, 0, 0), Sent: []sent{snd(2, 3, probe(8, 2, 4, cw))}},
		{Name: "j>id, candidate, h=2^k (k=0), cw: relay keeps phase/replies, REPLY back ccw", Self: 2, Before: local(hs.Candidate, 1, 1, 0), Msg: probe(9, 0, 1, cw),
			Want: local(hs.Relay, 1, 1, 0), Sent: []sent{snd(2, 1, reply(9, 0, ccw))}},
		{Name: "j>id, h=2^k (k=1), ccw: REPLY back cw", Self: 2, Before: local(hs.Idle, 0, 0, 0), Msg: probe(9, 1, 2, ccw),
			Want: local(hs.Relay, 0, 0, 0), Sent: []sent{snd(2, 3, reply(9, 1, cw))}},
		{Name: "j>id, h=2^k (k=2), cw: REPLY back ccw", Self: 3, Before: local(hs.Idle, 0, 0, 0), Msg: probe(9, 2, 4, cw),
			Want: local(hs.Relay, 0, 0, 0), Sent: []sent{snd(3, 2, reply(9, 2, ccw))}},
		{Name: "j>id, already relay", Self: 2, Before: local(hs.Relay, 0, 0, 0), Msg: probe(8, 1, 1, cw),
			Want: local(hs.Relay, 0, 0, 0), Sent: []sent{snd(2, 3, probe(8, 1, 2, cw))}},
		{Name: "j>id, decided and suspects (leader crashed): relay, forward past the crash", Self: 2, Dead: []int{3}, Before: local(hs.Decided, 0, 0, 8), Msg: probe(9, 1, 1, cw),
			Want: local(hs.Relay, 0, 0, 0), Sent: []sent{snd(2, 0, probe(9, 1, 2, cw))}},
		{Name: "j>id, decided with a live leader: relays h+1 without changing state", Self: 2, Before: local(hs.Decided, 0, 0, 9), Msg: probe(9, 1, 1, cw),
			Want: local(hs.Decided, 0, 0, 9), Sent: []sent{snd(2, 3, probe(9, 1, 2, cw))}},
		{Name: "j>id, decided with a live leader: replies without changing state", Self: 2, Before: local(hs.Decided, 0, 0, 9), Msg: probe(9, 0, 1, ccw),
			Want: local(hs.Decided, 0, 0, 9), Sent: []sent{snd(2, 3, reply(9, 0, cw))}},

		// PROBE(j, k, h, d), j < id: swallow; start if idle or decided ∧ suspects.
		{Name: "j<id, idle: swallow and start", Self: 3, Before: local(hs.Idle, 0, 0, 0), Msg: probe(4, 0, 1, cw),
			Want: local(hs.Candidate, 0, 0, 0), Sent: []sent{snd(3, 0, probe(8, 0, 1, cw)), snd(3, 2, probe(8, 0, 1, ccw))}},
		{Name: "j<id, decided and suspects: swallow and start", Self: 3, Dead: []int{1}, Before: local(hs.Decided, 3, 1, 9), Msg: probe(3, 1, 2, ccw),
			Want: local(hs.Candidate, 0, 0, 0), Sent: []sent{snd(3, 0, probe(8, 0, 1, cw)), snd(3, 2, probe(8, 0, 1, ccw))}},
		{Name: "j<id, decided with a live leader: swallow only", Self: 3, Before: local(hs.Decided, 0, 0, 9), Msg: probe(4, 0, 1, cw),
			Want: local(hs.Decided, 0, 0, 9)},
		{Name: "j<id, candidate: swallow only", Self: 3, Before: local(hs.Candidate, 1, 1, 0), Msg: probe(4, 0, 1, cw),
			Want: local(hs.Candidate, 1, 1, 0)},
		{Name: "j<id, relay: swallow only", Self: 3, Before: local(hs.Relay, 0, 0, 0), Msg: probe(3, 1, 1, ccw),
			Want: local(hs.Relay, 0, 0, 0)},

		// REPLY(j, k, d), j ≠ id: pass it on in direction d, state unchanged.
		{Name: "REPLY of another, cw", Self: 2, Before: local(hs.Candidate, 0, 1, 0), Msg: reply(9, 1, cw),
			Want: local(hs.Candidate, 0, 1, 0), Sent: []sent{snd(2, 3, reply(9, 1, cw))}},
		{Name: "REPLY of another, ccw", Self: 2, Before: local(hs.Relay, 0, 0, 0), Msg: reply(8, 1, ccw),
			Want: local(hs.Relay, 0, 0, 0), Sent: []sent{snd(2, 1, reply(8, 1, ccw))}},
		{Name: "REPLY of a smaller ID is passed on too", Self: 2, Before: local(hs.Relay, 0, 0, 0), Msg: reply(3, 0, cw),
			Want: local(hs.Relay, 0, 0, 0), Sent: []sent{snd(2, 3, reply(3, 0, cw))}},
		{Name: "REPLY of another past a crashed neighbour", Self: 2, Dead: []int{1}, Before: local(hs.Relay, 0, 0, 0), Msg: reply(8, 1, ccw),
			Want: local(hs.Relay, 0, 0, 0), Sent: []sent{snd(2, 0, reply(8, 1, ccw))}},

		// REPLY(j, k, d), j = id.
		{Name: "own REPLY, candidate, k=phase, first: replies 1", Self: 3, Before: local(hs.Candidate, 1, 0, 0), Msg: reply(8, 1, cw),
			Want: local(hs.Candidate, 1, 1, 0)},
		{Name: "own REPLY, candidate, k=phase, second: next phase probes cw then ccw", Self: 3, Before: local(hs.Candidate, 1, 1, 0), Msg: reply(8, 1, ccw),
			Want: local(hs.Candidate, 2, 0, 0), Sent: []sent{snd(3, 0, probe(8, 2, 1, cw)), snd(3, 2, probe(8, 2, 1, ccw))}},
		{Name: "own REPLY, candidate, stale k: dropped", Self: 3, Before: local(hs.Candidate, 2, 1, 0), Msg: reply(8, 1, cw),
			Want: local(hs.Candidate, 2, 1, 0)},
		{Name: "own REPLY at a relay: dropped", Self: 3, Before: local(hs.Relay, 1, 1, 0), Msg: reply(8, 1, cw),
			Want: local(hs.Relay, 1, 1, 0)},
		{Name: "own REPLY at a decided process: dropped", Self: 3, Before: local(hs.Decided, 1, 1, 9), Msg: reply(8, 1, cw),
			Want: local(hs.Decided, 1, 1, 9)},
		{Name: "own REPLY at an idle process: dropped", Self: 3, Before: local(hs.Idle, 0, 0, 0), Msg: reply(8, 0, cw),
			Want: local(hs.Idle, 0, 0, 0)},

		// ELECTED(j): decided, elected := j; forward cw unless j = id.
		{Name: "ELECTED of another: decided and forward cw", Self: 2, Before: local(hs.Candidate, 1, 1, 0), Msg: elected(9),
			Want: local(hs.Decided, 1, 1, 9), Sent: []sent{snd(2, 3, elected(9))}},
		{Name: "ELECTED of another at a relay, past a crash", Self: 2, Dead: []int{3}, Before: local(hs.Relay, 0, 0, 0), Msg: elected(9),
			Want: local(hs.Decided, 0, 0, 9), Sent: []sent{snd(2, 0, elected(9))}},
		{Name: "ELECTED of itself: stops", Self: 1, Before: local(hs.Decided, 2, 0, 9), Msg: elected(9),
			Want: local(hs.Decided, 2, 0, 9)},
	})
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
	env := model.NewTestEnv[hs.Msg](spectest.IDs()...)
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
