package model_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// lease is a heartbeat algorithm on the timers of docs/semantics.md
// section 6.4 as a handler drives them: the leader's timer beat (H ticks,
// periodic) sends HEARTBEAT to every other process; a follower's timer
// lease (L ticks) is restarted by each HEARTBEAT of its leader
// (Ctx.RestartTimer) and, when it runs out, the next ID below the leader
// takes over (and announces ELECTED). Both timers are armed in the initial
// local states (Init: a follower of nobody; InitLeaderAs: the leader
// beats, the others follow). With Stop, a follower that hears a
// HEARTBEAT from another than its leader stops its lease (Ctx.StopTimer).
type lease struct {
	H, L int
	Stop bool
}

type leaseLocal struct {
	Elected int
	Leading bool
}

type leaseMsg struct {
	Beat bool // HEARTBEAT(J), else ELECTED(J)
	J    int
}

func (lease) Init() leaseLocal { return leaseLocal{} }
func (lease) InitLeaderAs(leader, id int) leaseLocal {
	return leaseLocal{Elected: leader, Leading: id == leader}
}
func (lease) Elected(l *leaseLocal) int                                { return l.Elected }
func (lease) CanInitiate(*model.Ctx[leaseMsg], *leaseLocal, bool) bool { return false }
func (lease) Initiate(*model.Ctx[leaseMsg], *leaseLocal)               {}
func (lease) MsgTypes() []string                                       { return []string{"HEARTBEAT", "ELECTED"} }
func (lease) MsgType(m *leaseMsg) int                                  { return map[bool]int{true: 0, false: 1}[m.Beat] }
func (lease) FormatMsg(m leaseMsg) string {
	if m.Beat {
		return fmt.Sprintf("HEARTBEAT(%d)", m.J)
	}
	return fmt.Sprintf("ELECTED(%d)", m.J)
}

func (a lease) Receive(c *model.Ctx[leaseMsg], l *leaseLocal, _ int, m leaseMsg) {
	switch {
	case l.Leading:
	case !m.Beat:
		l.Elected = m.J
		c.RestartTimer()
	case m.J == l.Elected:
		c.RestartTimer()
	case a.Stop:
		c.StopTimer()
	}
}

func leaseBroadcast(c *model.Ctx[leaseMsg], m leaseMsg) {
	for q := 0; q < c.N(); q++ {
		if q != c.Self() {
			c.Send(q, m)
		}
	}
}

func (a lease) Timers() []model.Timer[leaseLocal, leaseMsg] {
	yes := func(*model.GuardCtx[leaseMsg], *leaseLocal) bool { return true }
	return []model.Timer[leaseLocal, leaseMsg]{
		{
			Name: "beat", Armed: func(l *leaseLocal) bool { return l.Leading }, Justified: yes,
			Fire:     func(c *model.Ctx[leaseMsg], _ *leaseLocal) { leaseBroadcast(c, leaseMsg{Beat: true, J: c.ID()}) },
			Duration: func(model.Times) int { return a.H },
		},
		{
			Name: "lease", Armed: func(l *leaseLocal) bool { return !l.Leading }, Justified: yes,
			Fire: func(c *model.Ctx[leaseMsg], l *leaseLocal) {
				below := l.Elected
				if below == 0 {
					below = 1 << 30 // no leader known: the largest ID
				}
				next := 0
				for q := 0; q < c.N(); q++ {
					if id := c.IDOf(q); id < below && id > next {
						next = id
					}
				}
				l.Elected = next
				if next == c.ID() {
					l.Leading = true
					leaseBroadcast(c, leaseMsg{J: next})
				}
			},
			Duration: func(model.Times) int { return a.L },
		},
	}
}

func TestTimerRestartedByAHandler(t *testing.T) {
	k, err := model.New[leaseLocal, leaseMsg](lease{H: 2, L: 4}, model.Config{N: 2, Timing: model.Sync, InitialLeader: true}, nil)
	require.NoError(t, err)
	w := newTimedWalkOf(t, k)
	assert.Equal(t, "p1{elected=2 leading=false timer=4} p2{elected=2 leading=true timer=2}", w.x.Describe(w.state),
		"timers armed in the initial-leader states run from the start")
	w.take("tick")
	w.take("tick")
	w.take("beat p2")
	w.take("tick")
	assert.Equal(t, "1", w.timer(0))
	w.take("deliver p2→p1 HEARTBEAT(2)")
	assert.Equal(t, "4", w.timer(0), "a HEARTBEAT restarts the lease, though the same timer stays armed")
	assert.Equal(t, "1", w.timer(1), "the leader's beat runs on")
}

func TestTimerStoppedByAHandler(t *testing.T) {
	// p1 follows 3 but has heard nothing; a HEARTBEAT of 2 stops its lease.
	k, err := model.New[leaseLocal, leaseMsg](lease{H: 1, L: 1, Stop: true}, model.Config{N: 3, Timing: model.Sync, InitialLeader: true, MaxCrashes: 1}, nil)
	require.NoError(t, err)
	w := newTimedWalkOf(t, k)
	w.take("crash p3")
	w.take("tick")
	w.take("lease p2") // 2 takes over, announces ELECTED(2)
	w.take("lease p1") // 1 now follows 2: its lease starts again (its own timeout)
	assert.Equal(t, "1", w.timer(0))
	w.take("tick")
	w.take("beat p2")
	w.take("deliver p2→p1 ELECTED(2)") // restart
	assert.Equal(t, "1", w.timer(0))
	assert.Equal(t, "p1{elected=2 leading=false timer=1} p2{elected=2 leading=true timer=1} p3✝ | p2→p1 [HEARTBEAT(2)@0] | crashes=1 restarts=0",
		w.x.Describe(w.state))

	k, err = model.New[leaseLocal, leaseMsg](lease{H: 1, L: 1, Stop: true}, model.Config{N: 3, Timing: model.Sync, InitialLeader: true, MaxCrashes: 1}, nil)
	require.NoError(t, err)
	w = newTimedWalkOf(t, k)
	w.take("tick")
	w.take("lease p2") // p3 is live: a second leader, whose ELECTED p1 takes
	w.take("beat p3")
	w.take("lease p1") // 1 gives up on 3 and follows 2
	w.take("tick")
	w.take("deliver p2→p1 ELECTED(2)")
	w.take("deliver p3→p1 HEARTBEAT(3)") // not its leader's: stop
	assert.Equal(t, "off", w.timer(0), "StopTimer: the lease is off while armed")
	assert.NotContains(t, w.enabled(), "lease p1", "a stopped timer does not fire")
}

func TestTimerArmedInInitRunsFromTheStartAndTheRestart(t *testing.T) {
	k, err := model.New[leaseLocal, leaseMsg](lease{H: 2, L: 3}, model.Config{N: 2, Timing: model.Sync, MaxCrashes: 1, MaxRestarts: 1}, nil)
	require.NoError(t, err)
	w := newTimedWalkOf(t, k)
	assert.Equal(t, "p1{elected=0 leading=false timer=3} p2{elected=0 leading=false timer=3}", w.x.Describe(w.state))
	w.take("crash p1")
	w.take("tick")
	assert.Equal(t, "off", w.timer(0))
	w.take("restart p1")
	assert.Equal(t, "3", w.timer(0), "a restarted process's timer starts as in the initial state")
}

// twoAtStart arms both timers in its initial-leader state.
type twoAtStart struct{ lease }

func (twoAtStart) InitLeaderAs(leader, id int) leaseLocal { return leaseLocal{Elected: leader} }
func (twoAtStart) Timers() []model.Timer[leaseLocal, leaseMsg] {
	ts := lease{H: 1, L: 1}.Timers()
	ts[0].Armed = func(l *leaseLocal) bool { return l.Elected != 0 }
	return ts
}

func TestTimerTwoArmedAtStartRefused(t *testing.T) {
	_, err := model.New[leaseLocal, leaseMsg](twoAtStart{}, model.Config{N: 2, Timing: model.Sync, InitialLeader: true}, nil)
	assert.EqualError(t, err, "the algorithm's initial-leader state of ID 1 (leader 2) arms two timers at once (beat and lease), but a process has one timer: arm at most one")
	_, err = model.New[leaseLocal, leaseMsg](twoAtStart{}, model.Config{N: 2, InitialLeader: true}, nil)
	assert.NoError(t, err, "the asynchronous model has no clocks to refuse")
}

func TestTimerRequestsInTestEnv(t *testing.T) {
	env := model.NewTestEnv[leaseMsg](1, 2)
	l := leaseLocal{Elected: 2}
	lease{Stop: true}.Receive(env.Ctx(0), &l, 1, leaseMsg{Beat: true, J: 2})
	assert.Equal(t, []model.TimerOp{model.TimerRestart, model.TimerKeep}, env.Timer)
	lease{Stop: true}.Receive(env.Ctx(0), &l, 1, leaseMsg{Beat: true, J: 1})
	assert.Equal(t, "stop", env.Timer[0].String())
}

// few is an invariant on the ELECTED messages sent, counted alone or
// with every type.
func few(types ...string) model.Property[leaseLocal, leaseMsg] {
	return model.Property[leaseLocal, leaseMsg]{Name: "FewElected", Kind: model.Invariant, CountSends: 2, CountTypes: types,
		Holds: func(v *model.View[leaseLocal, leaseMsg]) bool { return v.SentOf("ELECTED") <= 1 }}
}

func leaseRun(t *testing.T, alg lease, mc model.Config, props ...model.Property[leaseLocal, leaseMsg]) (*check.Report, error) {
	t.Helper()
	spec := specs.Spec{Name: "lease", Build: specs.Builder(alg, props...)}
	var names []string
	for _, p := range props {
		names = append(names, p.Name)
	}
	return check.Run(check.Request{Spec: spec, Config: mc, Properties: append(names, "SingleLeader"), Continue: true, Workers: 1, MaxStates: 2_000_000})
}

func TestCountSendsOfOneType(t *testing.T) {
	mc := model.Config{N: 3, Timing: model.Sync, InitialLeader: true, MaxCrashes: 1}
	all, err := leaseRun(t, lease{H: 2, L: 4}, mc, few())
	require.NoError(t, err)
	one, err := leaseRun(t, lease{H: 2, L: 4}, mc, few("ELECTED"))
	require.NoError(t, err)
	require.True(t, all.Stats.Complete && one.Stats.Complete)
	assert.Equal(t, []int64{81, 52}, []int64{all.Stats.States, one.Stats.States},
		"counting the ELECTED messages alone leaves the heartbeats out of the state")
	for i := range all.Verdicts {
		assert.Equal(t, all.Verdicts[i].Status, one.Verdicts[i].Status, all.Verdicts[i].Name)
	}
	// Here who leads tells how many ELECTED were sent: no more states
	// than counting nothing.
	none, err := leaseRun(t, lease{H: 2, L: 4}, mc)
	require.NoError(t, err)
	assert.Equal(t, int64(52), none.Stats.States)

	// A property that reads a type not counted is told so.
	reads := few("ELECTED")
	reads.Name = "ReadsBeats"
	reads.Holds = func(v *model.View[leaseLocal, leaseMsg]) bool { return v.SentOf("HEARTBEAT") >= 0 }
	_, err = leaseRun(t, lease{H: 2, L: 4}, mc, reads)
	assert.ErrorContains(t, err, "a property reads the sends of HEARTBEAT, but the properties checked count the sends of ELECTED only (CountTypes): add what it reads to its CountTypes, or leave CountTypes empty to count every type")
	_, err = leaseRun(t, lease{H: 2, L: 4}, mc, few("ELECTION"))
	assert.ErrorContains(t, err, `property FewElected counts the sends of message type "ELECTION", but the algorithm's types are HEARTBEAT, ELECTED: name one of them`)
	bare := few("ELECTED")
	bare.CountSends = 0
	_, err = leaseRun(t, lease{H: 2, L: 4}, mc, bare)
	assert.ErrorContains(t, err, "property FewElected: CountTypes names the message types to count, but CountSends is 0: set CountSends to how far they are counted")
}

func TestCountSendsOfOneTypeReplays(t *testing.T) {
	mc := model.Config{N: 3, Timing: model.Sync, InitialLeader: true, MaxCrashes: 1}
	p := few("ELECTED")
	p.Holds = func(v *model.View[leaseLocal, leaseMsg]) bool { return v.SentOf("ELECTED") == 0 }
	rep, err := leaseRun(t, lease{H: 2, L: 4}, mc, p)
	require.NoError(t, err)
	var f *trace.File
	for _, v := range rep.Verdicts {
		if v.Name == "FewElected" {
			f = v.File
		}
	}
	require.NotNil(t, f, "%+v", rep.Verdicts)
	last := f.Steps[len(f.Steps)-1].State.Sent
	assert.Equal(t, &model.SendsSnapshot{Total: 2, ByType: []model.TypeCount{{Type: "ELECTED", Count: 2}}, Cap: 2, Only: true}, last,
		"the states show the types counted, alone")
	// A replay counts as the check did (the trace's options), not every type.
	build := specs.Builder[leaseLocal, leaseMsg](lease{H: 2, L: 4}, p)
	sys, err := build.System(mc, []string{"FewElected"}, f.KernelOptions()...)
	require.NoError(t, err)
	assert.NoError(t, trace.Verify(sys, f))
	sys, err = build.System(mc, []string{"FewElected"}, model.WithSendCounts(2))
	require.NoError(t, err)
	assert.Error(t, trace.Verify(sys, f), "counting every type, the states differ")
}
