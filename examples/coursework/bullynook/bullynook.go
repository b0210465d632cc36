// Package bullynook is the Bully algorithm written without the OK answer,
// as a student might: a process that receives ELECTION does not answer, it
// only starts its own election. The model explains why the checker cannot
// tell it from the real Bully under the perfect detector: a timeout fires
// there only when every higher process has crashed, and then no OK could
// have come anyway. Only the unreliable detector, whose timeouts may fire
// early, lets OK change the outcome (see docs/model.md of mcheck).
package bullynook

import (
	"fmt"

	"github.com/mcheck/mcheck/model"
)

// Local is one process: whether it is waiting for a higher process to take
// over, and the leader it knows (0 is ⊥).
type Local struct {
	Electing bool
	Elected  int
}

// Msg is ELECTION(ID) or COORDINATOR(ID).
type Msg struct {
	Kind string
	ID   int
}

// Algorithm is Bully without OK.
type Algorithm struct{}

func (Algorithm) Init() Local                 { return Local{} }
func (Algorithm) InitLeader(leader int) Local { return Local{Elected: leader} }
func (Algorithm) Elected(l *Local) int        { return l.Elected }
func (Algorithm) InitiateName() string        { return "detect" }
func (Algorithm) FormatMsg(m Msg) string      { return fmt.Sprintf("%s(%d)", m.Kind, m.ID) }

func (Algorithm) CanInitiate(_ *model.Ctx[Msg], l *Local, suspects bool) bool {
	return !l.Electing && suspects
}

func (Algorithm) Initiate(c *model.Ctx[Msg], l *Local)  { start(c, l) }
func (Algorithm) OnRestart(c *model.Ctx[Msg], l *Local) { start(c, l) }

// start sends ELECTION to every higher process, or, with none, wins.
func start(c *model.Ctx[Msg], l *Local) {
	*l = Local{Electing: true}
	sent := false
	for _, q := range c.ByID() {
		if c.IDOf(q) > c.ID() {
			c.Send(q, Msg{"ELECTION", c.ID()})
			sent = true
		}
	}
	if !sent {
		win(c, l)
	}
}

// win announces c's process as the coordinator to every lower process.
func win(c *model.Ctx[Msg], l *Local) {
	*l = Local{Elected: c.ID()}
	for _, q := range c.ByID() {
		if c.IDOf(q) < c.ID() {
			c.Send(q, Msg{"COORDINATOR", c.ID()})
		}
	}
}

func (Algorithm) Receive(c *model.Ctx[Msg], l *Local, _ int, m Msg) {
	switch {
	case m.Kind == "ELECTION" && !l.Electing: // no OK: just take over
		start(c, l)
	case m.Kind == "COORDINATOR" && m.ID > c.ID():
		*l = Local{Elected: m.ID}
	case m.Kind == "COORDINATOR" && !l.Electing: // bully the smaller one
		start(c, l)
	}
}

// Timers: an electing process that hears nothing wins. The timeout is
// justified when every higher process has crashed; in the timed modes it
// runs for --timeout ticks, Bully's T.
func (Algorithm) Timers() []model.Timer[Local, Msg] {
	return []model.Timer[Local, Msg]{{
		Name:  "timeout",
		Armed: func(l *Local) bool { return l.Electing },
		Justified: func(c *model.GuardCtx[Msg], _ *Local) bool {
			for q := 0; q < c.N(); q++ {
				if c.IDOf(q) > c.ID() && c.Alive(q) {
					return false
				}
			}
			return true
		},
		Fire:     win,
		Duration: func(t model.Times) int { return t.Timeout },
	}}
}
