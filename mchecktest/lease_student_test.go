package mchecktest_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
)

// A student's lease algorithm written against the API before timers could
// be restarted from a handler: a follower's lease is two identical timers,
// lease0 and lease1, and a parity bit that every heartbeat flips, so that
// the armed timer changes and the kernel starts it again; the initial
// leader starts beating through its initiate step, and a follower arms its
// lease at the first heartbeat. It must keep compiling and keep its
// verdicts and counts (TestStudentLeaseWorkaroundUnchanged).

type slLocal struct {
	Elected   int
	Leading   bool // beating as the leader
	Following bool // a lease is running
	Parity    uint8
}

type slMsg struct {
	Beat bool // HEARTBEAT(J), else ELECTED(J)
	J    int
}

type studentLease struct{ H, L int }

func (studentLease) Init() slLocal                 { return slLocal{} }
func (studentLease) InitLeader(leader int) slLocal { return slLocal{Elected: leader} }
func (studentLease) Elected(l *slLocal) int        { return l.Elected }
func (studentLease) CanInitiate(c *model.Ctx[slMsg], l *slLocal, _ bool) bool {
	return l.Elected == c.ID() && !l.Leading
}
func (studentLease) Initiate(_ *model.Ctx[slMsg], l *slLocal) { l.Leading = true }

func (studentLease) Receive(_ *model.Ctx[slMsg], l *slLocal, _ int, m slMsg) {
	if l.Leading || (m.Beat && m.J != l.Elected) {
		return
	}
	l.Elected, l.Following = m.J, true
	l.Parity ^= 1 // the other lease timer: the kernel starts it again
}

func (studentLease) FormatMsg(m slMsg) string {
	if m.Beat {
		return fmt.Sprintf("HEARTBEAT(%d)", m.J)
	}
	return fmt.Sprintf("ELECTED(%d)", m.J)
}

func (studentLease) MsgTypes() []string { return []string{"HEARTBEAT", "ELECTED"} }
func (studentLease) MsgType(m *slMsg) int {
	if m.Beat {
		return 0
	}
	return 1
}

func broadcast(c *model.Ctx[slMsg], m slMsg) {
	for q := 0; q < c.N(); q++ {
		if q != c.Self() {
			c.Send(q, m)
		}
	}
}

// expire: the leader is presumed dead; the next ID below it takes over.
func expire(c *model.Ctx[slMsg], l *slLocal) {
	next := 0
	for q := 0; q < c.N(); q++ {
		if id := c.IDOf(q); id < l.Elected && id > next {
			next = id
		}
	}
	if next == c.ID() {
		l.Elected, l.Leading, l.Following = next, true, false
		broadcast(c, slMsg{J: next})
		return
	}
	l.Elected = next
	l.Parity ^= 1
}

func (a studentLease) Timers() []model.Timer[slLocal, slMsg] {
	yes := func(*model.GuardCtx[slMsg], *slLocal) bool { return true }
	lease := func(parity uint8) model.Timer[slLocal, slMsg] {
		return model.Timer[slLocal, slMsg]{
			Name:      fmt.Sprintf("lease%d", parity),
			Armed:     func(l *slLocal) bool { return l.Following && !l.Leading && l.Parity == parity },
			Justified: yes,
			Fire:      expire,
			Duration:  func(model.Times) int { return a.L },
		}
	}
	return []model.Timer[slLocal, slMsg]{
		{
			Name: "beat", Armed: func(l *slLocal) bool { return l.Leading }, Justified: yes,
			Fire:     func(c *model.Ctx[slMsg], l *slLocal) { broadcast(c, slMsg{Beat: true, J: c.ID()}) },
			Duration: func(model.Times) int { return a.H },
		},
		lease(0), lease(1),
	}
}

// The student's own properties: a new leader can be reached, a crashed
// leader is followed by a stable state, and few ELECTED messages.
func studentProps(bound int) []model.AnyProperty {
	type P = model.Property[slLocal, slMsg]
	return []model.AnyProperty{
		P{Name: "Takeover", Kind: model.Sometimes, Doc: "some run elects a new leader",
			Holds: func(v *model.View[slLocal, slMsg]) bool {
				for p := 0; p < v.N(); p++ {
					if v.Leader(p) && v.ID(p) != v.N() {
						return true
					}
				}
				return false
			}},
		P{Name: "Recovered", Kind: model.LeadsTo, Doc: "a crashed leader is replaced",
			From:  properties.LeaderCrashed[slLocal, slMsg],
			Holds: properties.Stable[slLocal, slMsg]},
		P{Name: "FewElected", Kind: model.Invariant, Doc: "few ELECTED messages", CountSends: bound + 1,
			Holds: func(v *model.View[slLocal, slMsg]) bool { return v.SentOf("ELECTED") <= bound }},
	}
}

func studentConfig(bound int) mchecktest.Config {
	return mchecktest.Config{
		N: 3, Crashes: 1, InitialLeader: true, Timing: model.Sync, Delay: 1,
		Check: "SingleLeader,Takeover,Recovered,FewElected", Properties: studentProps(bound), Continue: true,
	}
}

func verdicts(r *check.Report) string {
	s := fmt.Sprintf("states=%d transitions=%d", r.Stats.States, r.Stats.Transitions)
	for _, v := range r.Verdicts {
		s += fmt.Sprintf(" %s=%s", v.Name, v.Status)
	}
	return s
}

func TestStudentLeaseWorkaroundUnchanged(t *testing.T) {
	for _, tc := range []struct {
		h, l, bound int
		want        string
	}{
		// too short a lease: a follower takes over from a live leader
		{2, 2, 2, "states=3436 transitions=8688 SingleLeader=violated Agreement=unchecked Termination=unchecked Takeover=reachable Recovered=violated FewElected=violated"},
		// the leader crashes before its first beat: nobody notices (Recovered)
		{2, 4, 2, "states=174 transitions=248 SingleLeader=holds Agreement=unchecked Termination=unchecked Takeover=reachable Recovered=violated FewElected=holds"},
		{2, 4, 0, "states=109 transitions=176 SingleLeader=holds Agreement=unchecked Termination=unchecked Takeover=reachable Recovered=violated FewElected=violated"},
	} {
		r, err := mchecktest.Run(studentLease{H: tc.h, L: tc.l}, studentConfig(tc.bound))
		require.NoError(t, err)
		assert.Equal(t, tc.want, verdicts(r), "H=%d L=%d bound=%d", tc.h, tc.l, tc.bound)
	}
}

// Counting the ELECTED messages alone (CountTypes), the heartbeats no
// longer multiply the states (95 against 174); the verdicts stay.
func TestStudentLeaseCountsElectedAlone(t *testing.T) {
	cfg := studentConfig(2)
	few := cfg.Properties[2].(model.Property[slLocal, slMsg])
	few.CountTypes = []string{"ELECTED"}
	cfg.Properties[2] = few
	r, err := mchecktest.Run(studentLease{H: 2, L: 4}, cfg)
	require.NoError(t, err)
	assert.Equal(t, "states=95 transitions=162 SingleLeader=holds Agreement=unchecked Termination=unchecked Takeover=reachable Recovered=violated FewElected=holds", verdicts(r))
}
