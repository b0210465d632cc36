package properties_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// scripted is an algorithm whose processes do what a test tells them:
// each process, at position p, takes the steps of script[p] in order, one
// initiate step each. A step sets what the process has elected and may
// send one message round the ring, which every receiver passes on for
// ever (a message that never dies, for Quiescent). Its runs are small and
// their verdicts follow from the script alone.
type scripted struct{ script [][]act }

type act struct {
	elect int  // the process's elected value after the step; 0 is ⊥
	send  bool // send a token to the next live process
}

type sLocal struct{ E, Done int }
type sMsg struct{ V int }

func (scripted) Init() sLocal            { return sLocal{} }
func (scripted) Elected(l *sLocal) int   { return l.E }
func (scripted) FormatMsg(m sMsg) string { return fmt.Sprintf("TOKEN(%d)", m.V) }

func (a scripted) CanInitiate(c *model.Ctx[sMsg], l *sLocal, _ bool) bool {
	return l.Done < len(a.script[c.Self()])
}

func (a scripted) Initiate(c *model.Ctx[sMsg], l *sLocal) {
	s := a.script[c.Self()][l.Done]
	l.Done++
	l.E = s.elect
	if s.send {
		c.SendNext(model.CW, sMsg{V: c.ID()})
	}
}

func (scripted) Receive(c *model.Ctx[sMsg], _ *sLocal, _ int, m sMsg) { c.SendNext(model.CW, m) }

var _ model.Algorithm[sLocal, sMsg] = scripted{}

// verdicts checks the script on N=len(script) processes with IDs 1..N
// (position p has ID p+1), every standard property selected, and returns
// each property's status, vacuity and one-line summary (under "Name also", the
// further counterexample of another kind).
func verdicts(t *testing.T, cfg model.Config, script ...[]act) map[string]string {
	t.Helper()
	cfg.N = len(script)
	spec := specs.Spec{Name: "scripted", Build: specs.Builder[sLocal, sMsg](scripted{script})}
	rep, err := check.Run(check.Request{Spec: spec, Config: cfg, Properties: []string{"SingleLeader", "Agreement", "Termination",
		"LeaderNotDemoted", "LeaderCrashRecovered", "Quiescent"}, Continue: true, Workers: 1})
	require.NoError(t, err)
	require.True(t, rep.Stats.Complete)
	out := map[string]string{}
	for _, v := range rep.Verdicts {
		out[v.Name] = string(v.Status)
		if v.Vacuous != "" {
			out[v.Name] += " (" + string(v.Vacuous) + ")"
		}
		if v.Summary != "" {
			out[v.Name] += ": " + v.Summary
		}
		for _, a := range v.Also {
			out[v.Name+" also"] = a.Kind.String() + ": " + a.Summary
		}
	}
	return out
}

func elect(ids ...int) [][]act {
	s := make([][]act, len(ids))
	for p, e := range ids {
		s[p] = []act{{elect: e}}
	}
	return s
}

// Everybody elects the largest ID, which is the one leader: every
// property holds, LeaderNotDemoted of a leader that stays alive (the steps
// after p3's), LeaderCrashRecovered vacuously (no leader crashes).
func TestEverybodyElectsTheLargestID(t *testing.T) {
	got := verdicts(t, model.Config{}, elect(3, 3, 3)...)
	for _, name := range []string{"SingleLeader", "Agreement", "Termination", "LeaderNotDemoted", "Quiescent"} {
		assert.Equal(t, "holds", got[name], name)
	}
	assert.Equal(t, "holds (never-triggered)", got["LeaderCrashRecovered"])
	// Nobody is ever leader: LeaderNotDemoted holds vacuously.
	assert.Equal(t, "holds (never-triggered)", verdicts(t, model.Config{}, elect(2, 0, 2)...)["LeaderNotDemoted"])
}

// Each process elects itself: two leaders after two steps, and the
// first two to disagree on a live leader after two steps too.
func TestEachElectsItself(t *testing.T) {
	got := verdicts(t, model.Config{}, elect(1, 2, 3)...)
	assert.Equal(t, "violated: after 2 steps p1 and p2 each consider themselves leader", got["SingleLeader"])
	assert.Equal(t, "violated: after 2 steps live processes disagree on a live leader: p1 elected 1; p2 elected 2", got["Agreement"])
	assert.Equal(t, "violated: stuck with the wrong leader: no fair step is enabled, and p1 elected=1, p2 elected=2 (Stable needs elected=3)", got["Termination"])
	assert.Equal(t, "holds", got["Quiescent"], "nothing is sent")
}

// One leader (p3) and a process that elected p2, who is not a leader:
// SingleLeader holds, Agreement does not, and the run ends unstable.
func TestOneLeaderAndADissenter(t *testing.T) {
	got := verdicts(t, model.Config{}, elect(2, 3, 3)...)
	assert.Equal(t, "holds", got["SingleLeader"])
	assert.Equal(t, "violated: after 2 steps live processes disagree on a live leader: p1 elected 2; p2 elected 3", got["Agreement"])
	assert.Equal(t, "violated: stuck with the wrong leader: no fair step is enabled, and p1 elected=2 (Stable needs elected=3)", got["Termination"])
}

// A process that never elects anybody keeps the run from Stable; ⊥ is
// not a disagreement.
func TestUndecidedProcess(t *testing.T) {
	got := verdicts(t, model.Config{}, elect(0, 3, 3)...)
	assert.Equal(t, "holds", got["SingleLeader"])
	assert.Equal(t, "holds", got["Agreement"])
	assert.Equal(t, "violated: stuck without a leader: no fair step is enabled, and p1 elected=⊥ (Stable needs elected=3)", got["Termination"])
}

// With p3 down from the start, the largest live ID is 2: electing 2 is
// Stable; electing the crashed 3 is neither a disagreement nor Stable,
// and LeaderCrashed holds from the first such step, so
// LeaderCrashRecovered is violated there.
func TestCrashedLeader(t *testing.T) {
	got := verdicts(t, model.Config{Down: []int{3}}, elect(2, 2, 0)...)
	assert.Equal(t, "holds", got["Termination"])
	assert.Equal(t, "holds", got["Agreement"])

	got = verdicts(t, model.Config{Down: []int{3}}, elect(3, 2, 0)...)
	assert.Equal(t, "holds", got["Agreement"], "a crashed leader is no party to agreement")
	assert.Equal(t, "violated: stuck with the wrong leader: no fair step is enabled, and p1 elected=3 (Stable needs elected=2)", got["Termination"])
	assert.Equal(t, "violated: after step 1 the leader has crashed (p1 elected the crashed 3); then stuck with the wrong leader: no fair step is enabled, and p1 elected=3 (Stable needs elected=2)",
		got["LeaderCrashRecovered"])
}

// A leader that takes a second step electing somebody else is demoted.
func TestDemotedLeader(t *testing.T) {
	script := [][]act{{{elect: 1}, {elect: 0}}, {{elect: 0}}}
	got := verdicts(t, model.Config{}, script...)
	assert.Equal(t, "violated: step 2, initiate p1, demotes the live leader p1 (now elected=⊥)", got["LeaderNotDemoted"])
	script = [][]act{{{elect: 2}}, {{elect: 2}, {elect: 1}}}
	got = verdicts(t, model.Config{}, script...)
	assert.Equal(t, "violated: step 2, initiate p2, demotes the live leader p2 (now elected=1)", got["LeaderNotDemoted"])
	assert.Equal(t, "holds", verdicts(t, model.Config{}, [][]act{{{elect: 2}, {elect: 2}}, {{elect: 2}}}...)["LeaderNotDemoted"],
		"electing the same leader again is no demotion")
}

// A token that circulates for ever: everybody agrees on 2 and
// Termination holds, but the system never falls quiet.
func TestTokenForever(t *testing.T) {
	script := [][]act{{{elect: 2}}, {{elect: 2, send: true}}}
	got := verdicts(t, model.Config{}, script...)
	assert.Equal(t, "holds", got["Termination"])
	assert.Equal(t, "violated: a fair cycle of 2 steps repeats forever, so the system never falls quiet (in flight where it starts: p2→p1 TOKEN(2)), although every live process has elected 2",
		got["Quiescent"])
}

// p3 sends a token and elects itself, as everybody does; if p3 then
// crashes, the largest live ID is 2, and the token of the crashed p3
// circulates between p1 and p2 for ever.
func TestOrphanTokenForever(t *testing.T) {
	script := [][]act{{{elect: 3}}, {{elect: 3}}, {{elect: 3, send: true}}}
	got := verdicts(t, model.Config{MaxCrashes: 1}, script...)
	assert.Equal(t, "violated: TOKEN(3) of crashed p3 circulates forever; Stable (elected=2) is never reached: p1 elected=3, p2 elected=3", got["Termination"])
	// Without the crash, everybody agrees on 3 and the token goes round.
	assert.Equal(t, "violated: a fair cycle of 3 steps repeats forever, so the system never falls quiet (in flight where it starts: p3→p1 TOKEN(3)), although every live process has elected 3",
		got["Quiescent"])
	// The shortest: p1 elects 3, p3 crashes before its step, p2 elects 3.
	assert.Equal(t, "violated: after step 2 the leader has crashed (p1 elected the crashed 3); then stuck with the wrong leader: no fair step is enabled, and p1 elected=3, p2 elected=3 (Stable needs elected=2)",
		got["LeaderCrashRecovered"])
}

// With one message per channel, two tokens that each wait for the other's
// channel to empty jam: messages are in flight and no step can take them
// (each delivery would overflow the bound), so the system is stuck, not
// quiet.
func TestJammedTokens(t *testing.T) {
	script := [][]act{{{elect: 2, send: true}}, {{elect: 2, send: true}}}
	got := verdicts(t, model.Config{MaxQueue: 1}, script...)
	assert.Equal(t, "stuck: stuck after 2 steps with messages in flight that no fair step delivers: p1→p2 TOKEN(1), p2→p1 TOKEN(2)", got["Quiescent also"])
	// Before p2 sends, p1's token can go round for ever: p2's send is
	// enabled only while p2→p1 is empty, so the cycle is fair.
	assert.Equal(t, "violated: a fair cycle of 2 steps repeats forever, so the system never falls quiet (in flight where it starts: p1→p2 TOKEN(1))", got["Quiescent"])
}
