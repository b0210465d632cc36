package ringtimeout_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/specs/internal/spectest"
	"github.com/mcheck/mcheck/specs/ringtimeout"
)

// The tests run on spectest.IDs(): positions 0..3 carry IDs 3, 9, 4, 8, so
// that a handler mixing up positions and IDs suspects or sends to the wrong
// process.

type (
	msg   = ringtimeout.Msg
	local = ringtimeout.Local
	sent  = model.Sent[msg]
)

func election(j int) msg { return msg{Kind: ringtimeout.Election, J: j} }
func elected(j int) msg  { return msg{Kind: ringtimeout.Elected, J: j} }

var ack = msg{Kind: ringtimeout.Ack}

var snd = spectest.Snd[msg]

// newEnv has the positions in dead crashed. What p0 has elected stays ⊥:
// this algorithm suspects by its own timer, not by the environment.
func newEnv(dead ...int) *model.TestEnv[msg] { return spectest.Env[msg](nil, 0, 0, dead...) }

var alg = ringtimeout.Algorithm{}

func TestInitiateSendsToTheFirstUnsuspectedAndAwaitsItsAck(t *testing.T) {
	env := newEnv()
	l := local{}
	alg.Initiate(env.Ctx(0), &l)
	assert.Equal(t, []sent{snd(0, 1, election(3))}, env.Sent)
	assert.Equal(t, local{Busy: true, Succ: 2, Unacked: []msg{election(3)}}, l)
}

// The successor is chosen by the process's own suspicions, not by which
// processes are live: a live but suspected process is skipped, and a
// crashed unsuspected one is sent to (and the message lost).
func TestSuccessorIsBySuspicionNotByLiveness(t *testing.T) {
	env := newEnv(2)
	l := local{Suspected: 1 << 1}
	alg.Initiate(env.Ctx(0), &l)
	assert.Empty(t, env.Sent)
	assert.Equal(t, []sent{snd(0, 2, election(3))}, env.Lost)
	assert.Equal(t, 3, l.Succ)
}

// Every ELECTION or ELECTED is acknowledged to its sender first; one a
// process sent to itself is not, and a process alone awaits nothing.
func TestReceiveAcknowledges(t *testing.T) {
	env := newEnv()
	l := local{}
	alg.Receive(env.Ctx(1), &l, 0, election(3))
	assert.Equal(t, []sent{snd(1, 0, ack), snd(1, 2, election(9))}, env.Sent)
	assert.Equal(t, local{Busy: true, Succ: 3, Unacked: []msg{election(9)}}, l)

	env = newEnv()
	l = local{Busy: true, Suspected: 1<<0 | 1<<2 | 1<<3}
	alg.Receive(env.Ctx(1), &l, 1, election(9))
	assert.Equal(t, []sent{snd(1, 1, elected(9))}, env.Sent)
	assert.Equal(t, local{Busy: true, Suspected: 1<<0 | 1<<2 | 1<<3}, l)
}

// An ELECTION of a process believed crashed is replaced by the receiver's
// own; an ELECTED of one starts a new election instead of going round.
func TestSuspectedIDsAreNotPassedOn(t *testing.T) {
	env := newEnv()
	l := local{Suspected: 1 << 1} // suspects ID 9
	alg.Receive(env.Ctx(3), &l, 2, election(9))
	assert.Equal(t, []sent{snd(3, 2, ack), snd(3, 0, election(8))}, env.Sent)

	env = newEnv()
	l = local{Elected: 9, Suspected: 1 << 1}
	alg.Receive(env.Ctx(3), &l, 2, elected(9))
	assert.Equal(t, []sent{snd(3, 2, ack), snd(3, 0, election(8))}, env.Sent)
	assert.Equal(t, local{Busy: true, Suspected: 1 << 1, Succ: 1, Unacked: []msg{election(8)}}, l)

	env = newEnv()
	l = local{Busy: true}
	alg.Receive(env.Ctx(3), &l, 2, elected(9))
	assert.Equal(t, []sent{snd(3, 2, ack), snd(3, 0, elected(9))}, env.Sent)
	assert.Equal(t, local{Elected: 9, Succ: 1, Unacked: []msg{elected(9)}}, l)
}

// An ACK from the awaited successor takes the oldest message off; the next
// one gets its full wait. An ACK from anyone else (a process suspected
// since) changes nothing.
func TestAck(t *testing.T) {
	env := newEnv()
	l := local{Busy: true, Succ: 2, Unacked: []msg{election(3), election(9)}}
	alg.Receive(env.Ctx(0), &l, 1, ack)
	assert.Equal(t, local{Busy: true, Succ: 2, Unacked: []msg{election(9)}}, l)
	assert.Equal(t, model.TimerRestart, env.Timer[0])
	assert.Empty(t, env.Sent)

	env = newEnv()
	alg.Receive(env.Ctx(0), &l, 1, ack)
	assert.Equal(t, local{Busy: true}, l)
	assert.Nil(t, env.Timer, "the timer goes off with awaiting = ⊥")

	l = local{Busy: true, Suspected: 1 << 1, Succ: 3, Unacked: []msg{election(3)}}
	alg.Receive(env.Ctx(0), &l, 1, ack)
	assert.Equal(t, local{Busy: true, Suspected: 1 << 1, Succ: 3, Unacked: []msg{election(3)}}, l)
}

// timeout-ack suspects the awaited successor and passes every
// unacknowledged message, in order, to the next unsuspected one.
func TestTimeout(t *testing.T) {
	var timer model.Timer[local, msg]
	for _, tm := range alg.Timers() {
		if tm.Name == "timeout-ack" {
			timer = tm
		}
	}
	require.NotNil(t, timer.Fire)
	assert.Equal(t, 7, timer.Duration(model.Times{Delay: 3, Timeout: 7}))

	env := newEnv()
	l := local{Busy: true, Succ: 2, Unacked: []msg{election(3), elected(9)}}
	assert.True(t, timer.Armed(&l))
	assert.False(t, timer.Justified(env.GuardCtx(0), &l), "p1 is live")
	env.Alive[1] = false
	env.Queued[0] = []sent{snd(1, 0, ack)}
	assert.False(t, timer.Justified(env.GuardCtx(0), &l), "its ACK is on the way")
	env.Queued[0] = nil
	assert.True(t, timer.Justified(env.GuardCtx(0), &l))

	env = newEnv()
	timer.Fire(env.Ctx(0), &l)
	assert.Equal(t, []sent{snd(0, 2, election(3)), snd(0, 2, elected(9))}, env.Sent)
	assert.Equal(t, local{Busy: true, Suspected: 1 << 1, Succ: 3, Unacked: []msg{election(3), elected(9)}}, l)
	assert.False(t, timer.Armed(&local{}))
}

func TestCodec(t *testing.T) {
	spectest.RoundTrip(t, alg.AppendLocal, alg.DecodeLocal,
		local{}, local{Busy: true, Elected: 9, Suspected: 1<<1 | 1<<63, Succ: 3, Unacked: []msg{election(3), elected(9)}})
	spectest.RoundTrip(t, alg.AppendMsg, alg.DecodeMsg, election(3), elected(9), ack)
	assert.Equal(t, []string{"ELECTION", "ELECTED", "ACK"}, alg.MsgTypes())
	for i, m := range []msg{election(3), elected(9), ack} {
		assert.Equal(t, i, alg.MsgType(&m))
	}
	assert.Equal(t, "ACK", alg.FormatMsg(ack))
	assert.Equal(t, "ELECTION(3)", alg.FormatMsg(election(3)))
}

// Exact verdicts and counts of small configurations: with T = 2D+1 (the
// default) the leader's crash is survived; with T = 1 a live successor is
// skipped and two processes elect themselves; with T = 2D the ACK races the
// timer and a process is left without a leader.
func TestVerdicts(t *testing.T) {
	spec, err := specs.Builtin().Lookup("ring-timeout")
	require.NoError(t, err)
	sync := func(n, crashes, timeout int) model.Config {
		return model.Config{N: n, MaxCrashes: crashes, InitialLeader: true, Timing: model.Sync, Timeout: timeout}
	}
	all := []string{"SingleLeader", "Agreement", "Termination"}
	for _, c := range []struct {
		name                string
		cfg                 model.Config
		states, transitions int64
		complete            bool
		status              [3]check.Status
		summary             string // of each violation, in order, joined by " / "
	}{
		{"async, one crash", model.Config{N: 3, MaxCrashes: 1, InitialLeader: true}, 56, 77, true, [3]check.Status{check.Holds, check.Holds, check.Holds}, ""},
		{"sync, no crash, all initiate", model.Config{N: 3, Timing: model.Sync}, 2_269, 5_021, true, [3]check.Status{check.Holds, check.Holds, check.Holds}, ""},
		{"sync, one crash", sync(3, 1, 0), 138, 163, true, [3]check.Status{check.Holds, check.Holds, check.Holds}, ""},
		{"sync, one crash, N=4", sync(4, 1, 0), 2_509, 5_394, true, [3]check.Status{check.Holds, check.Holds, check.Holds}, ""},
		{"sync, delay 2", model.Config{N: 3, MaxCrashes: 1, InitialLeader: true, Timing: model.Sync, Delay: 2}, 657, 1_046, true, [3]check.Status{check.Holds, check.Holds, check.Holds}, ""},
		{"T=1", sync(3, 1, 1), 540, 1_027, false, [3]check.Status{check.Violated, check.Violated, check.Unknown},
			"after 20 steps p1 and p2 each consider themselves leader / after 20 steps live processes disagree on a live leader: p1 elected 1; p2 elected 2"},
		{"T=2D", sync(3, 1, 2), 284, 426, false, [3]check.Status{check.Unknown, check.Unknown, check.Violated},
			"stuck without a leader: no fair step is enabled, and p1 elected=⊥ (Stable needs elected=2)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, err := check.Run(check.Request{Spec: spec, Config: c.cfg, Properties: all, Workers: 1})
			require.NoError(t, err)
			assert.Equal(t, c.complete, rep.Stats.Complete)
			assert.Equal(t, c.states, rep.Stats.States)
			assert.Equal(t, c.transitions, rep.Stats.Transitions)
			var got [3]check.Status
			var summaries []string
			for _, v := range rep.Verdicts {
				for i, name := range all {
					if v.Name == name {
						got[i] = v.Status
						if v.Status == check.Violated {
							summaries = append(summaries, v.Summary)
						}
					}
				}
			}
			assert.Equal(t, c.status, got)
			assert.Equal(t, c.summary, strings.Join(summaries, " / "))
		})
	}
}

// With duplicate IDs (--anonymous) an ID is believed crashed only when
// every process carrying it is suspected.
func TestSuspectedIDWithDuplicates(t *testing.T) {
	env := model.NewTestEnv[msg](8, 9, 4, 8)
	l := local{Suspected: 1 << 0} // one of the two 8s
	alg.Receive(env.Ctx(2), &l, 1, election(8))
	assert.Equal(t, []sent{snd(2, 1, ack), snd(2, 3, election(8))}, env.Sent)

	env = model.NewTestEnv[msg](8, 9, 4, 8)
	l = local{Suspected: 1<<0 | 1<<3}
	alg.Receive(env.Ctx(2), &l, 1, election(8))
	assert.Equal(t, []sent{snd(2, 1, ack), snd(2, 1, election(4))}, env.Sent)
}
