// Package lease is the lease of docs/tutorial.md ("A lease: parameters
// from the command line"), for the tests of parameters: the leader sends
// HEARTBEAT every H ticks; each one starts a follower's lease of L ticks
// again, and a follower whose lease runs out leads itself.
package lease

import "github.com/mcheck/mcheck/model"

// Local is one process's state; Elected 0 means nobody (⊥).
type Local struct {
	Leading bool
	Elected int
}

// Msg is HEARTBEAT.
type Msg struct{ Kind string }

type Algorithm struct{}

var (
	_ model.Algorithm[Local, Msg] = Algorithm{}
	_ model.Timed[Local, Msg]     = Algorithm{}
	_ model.LeaderSelfer[Local]   = Algorithm{}
	_ model.Parameterized         = Algorithm{}
)

// Params: H and L, in ticks, set by --param H=2 or Config.Params.
func (Algorithm) Params() []model.Param {
	return []model.Param{
		{Name: "H", Default: 2, Min: 1, Max: 20, Doc: "the heartbeat period, in ticks"},
		{Name: "L", Default: 6, Min: 1, Max: 40, Doc: "the lease, in ticks"},
	}
}

func (Algorithm) Init() Local            { return Local{} }
func (Algorithm) Elected(l *Local) int   { return l.Elected }
func (Algorithm) FormatMsg(m Msg) string { return m.Kind }

// InitLeaderAs: the leader beats from the start, the others hold a lease.
func (Algorithm) InitLeaderAs(leader, id int) Local {
	return Local{Leading: id == leader, Elected: leader}
}

func (Algorithm) CanInitiate(*model.Ctx[Msg], *Local, bool) bool { return false }
func (Algorithm) Initiate(*model.Ctx[Msg], *Local)               {}

// Receive: a HEARTBEAT starts the lease again (the same timer stays armed,
// so only RestartTimer makes it run its L ticks anew).
func (Algorithm) Receive(c *model.Ctx[Msg], l *Local, from int, m Msg) {
	if !l.Leading {
		c.RestartTimer()
	}
}

// Timers: the leader's beat (periodic: it stays armed) and a follower's
// lease, whose Durations read the parameters.
func (Algorithm) Timers() []model.Timer[Local, Msg] {
	return []model.Timer[Local, Msg]{
		{
			Name:      "beat",
			Armed:     func(l *Local) bool { return l.Leading },
			Justified: func(*model.GuardCtx[Msg], *Local) bool { return true },
			Fire: func(c *model.Ctx[Msg], _ *Local) {
				for q := range c.N() {
					if q != c.Self() {
						c.Send(q, Msg{"HEARTBEAT"})
					}
				}
			},
			Duration: func(t model.Times) int { return t.Param("H") },
		},
		{
			Name:      "lease",
			Armed:     func(l *Local) bool { return !l.Leading },
			Justified: func(c *model.GuardCtx[Msg], l *Local) bool { return !c.Alive(c.PosOf(l.Elected)) },
			Fire:      func(c *model.Ctx[Msg], l *Local) { *l = Local{Leading: true, Elected: c.ID()} },
			Duration:  func(t model.Times) int { return t.Param("L") },
		},
	}
}
