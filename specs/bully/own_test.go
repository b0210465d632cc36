package bully_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/specs/bully"
	"github.com/mcheck/mcheck/specs/internal/spectest"
)

func TestMsgTypes(t *testing.T) {
	alg := bully.Algorithm{}
	assert.Equal(t, []string{"ELECTION", "OK", "COORDINATOR"}, alg.MsgTypes())
	for i, m := range []bully.Msg{election(3), ok(9), coordinator(8)} {
		assert.Equal(t, i, alg.MsgType(&m), alg.FormatMsg(m))
	}
}

// timeout-ok runs T ticks, timeout-coord T2.
func TestTimerDurations(t *testing.T) {
	times := model.Times{Delay: 2, Timeout: 5, TimeoutCoord: 7}
	assert.Equal(t, 5, timer(t, "timeout-ok").Duration(times))
	assert.Equal(t, 7, timer(t, "timeout-coord").Duration(times))
}

// With duplicate IDs (--anonymous) a COORDINATOR from another process
// with the same ID is not from a higher one: it does not hold back
// timeout-coord.
func TestTimeoutCoordIgnoresAnEqualID(t *testing.T) {
	s := setup{ids: []int{8, 9, 4, 8}, dead: []int{1}, queued: []sent{snd(0, 3, coordinator(8))}}
	l := local(bully.Waiting, 0)
	assert.True(t, timer(t, "timeout-coord").Justified(s.env(3, l).GuardCtx(3), &l))
	s.queued = []sent{snd(1, 3, coordinator(9))}
	assert.False(t, timer(t, "timeout-coord").Justified(s.env(3, l).GuardCtx(3), &l))
}

// Bully's own properties, checked: TakeOver's shortest example and its
// explanation, with IDs in order and out of it; none without a crash;
// WaitingAfterOK holds.
func TestOwnProperties(t *testing.T) {
	spec := specs.Spec{Name: "bully", Build: specs.Builder[bully.Local, bully.Msg](bully.Algorithm{})}
	run := func(cfg model.Config, prop string) check.Verdict {
		t.Helper()
		rep, err := check.Run(check.Request{Spec: spec, Config: cfg, Properties: []string{prop}, Continue: true, Workers: 1})
		require.NoError(t, err)
		require.True(t, rep.Stats.Complete)
		for _, v := range rep.Verdicts {
			if v.Name == prop {
				return v
			}
		}
		require.Failf(t, "no verdict", "%s", prop)
		return check.Verdict{}
	}
	v := run(model.Config{N: 4, MaxCrashes: 1, InitialLeader: true}, "TakeOver")
	assert.Equal(t, check.Reachable, v.Status)
	assert.Equal(t, "after 3 steps p3 is leader while p4 (ID 4) is down", v.Summary)
	v = run(model.Config{N: 4, IDs: []int{3, 9, 4, 8}, MaxCrashes: 1, InitialLeader: true}, "TakeOver")
	assert.Equal(t, check.Reachable, v.Status)
	assert.Equal(t, "after 3 steps p8 is leader while p9 (ID 9) is down", v.Summary)
	v = run(model.Config{N: 3, InitialLeader: true}, "TakeOver")
	assert.Equal(t, check.Unreachable, v.Status)

	v = run(model.Config{N: 3, MaxCrashes: 1}, "WaitingAfterOK")
	assert.Equal(t, check.Holds, v.Status)
	assert.Empty(t, v.Vacuous, "processes start waiting")
	// Only p2 detects: it has no higher process and becomes coordinator at
	// once, so nobody ever waits and WaitingAfterOK holds vacuously.
	v = run(model.Config{N: 2, Initiators: []int{2}}, "WaitingAfterOK")
	assert.Equal(t, check.Holds, v.Status)
	assert.Equal(t, check.NeverTriggered, v.Vacuous)

	spec = specs.Spec{Name: "eager", Build: specs.Builder[bully.Local, bully.Msg](eager{})}
	v = run(model.Config{N: 3}, "WaitingAfterOK")
	assert.Equal(t, check.Violated, v.Status)
	assert.Equal(t, "step 2, deliver p1→p2 ELECTION(1), breaks WaitingAfterOK (a process starts waiting for COORDINATOR only when it receives an OK)", v.Summary)
}

// eager is Bully with a fault: a process that receives an ELECTION starts
// waiting for a COORDINATOR as if it had got an OK.
type eager struct{ bully.Algorithm }

func (e eager) Receive(c *model.Ctx[bully.Msg], l *bully.Local, from int, m bully.Msg) {
	e.Algorithm.Receive(c, l, from, m)
	if m.Kind == bully.Election {
		l.Status = bully.Waiting
	}
}

// With duplicate IDs (--anonymous), a COORDINATOR carrying the receiver's
// own ID is neither from a higher process (adopt it) nor from a lower one
// (bully it): it changes nothing.
func TestCoordinatorWithAnEqualID(t *testing.T) {
	var cases []step
	for _, before := range []bully.Local{local(bully.Idle, 0), local(bully.Electing, 0), local(bully.Idle, 9)} {
		cases = append(cases, step{Name: "COORDINATOR(8) to p8@3", IDs: []int{8, 9, 4, 8}, Self: 3, From: 0, Msg: coordinator(8), Before: before, Want: before})
	}
	alg := bully.Algorithm{}
	spectest.Run(t, alg.Elected, spectest.Receive(alg.Receive), cases)
}
