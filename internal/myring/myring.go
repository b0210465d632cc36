// Package myring is Chang-Roberts as the course notes describe it.
package myring

import (
	"fmt"

	"github.com/mcheck/mcheck/model"
)

// Local is one process's state; Elected 0 means nobody (⊥).
type Local struct {
	Participant bool
	Elected     int
}

// Msg is ELECTION(ID) or ELECTED(ID).
type Msg struct {
	Kind string
	ID   int
}

// Algorithm is the whole algorithm: the kernel calls these methods.
type Algorithm struct{}

// The compiler checks the six methods (and each optional one you assert).
var _ model.Algorithm[Local, Msg] = Algorithm{}

func (Algorithm) Init() Local            { return Local{} }
func (Algorithm) Elected(l *Local) int   { return l.Elected }
func (Algorithm) FormatMsg(m Msg) string { return fmt.Sprintf("%s(%d)", m.Kind, m.ID) }

// CanInitiate is the guard of initiate; suspects means that the elected
// leader is ⊥ or has crashed (the failure detector says so).
func (Algorithm) CanInitiate(_ *model.Ctx[Msg], l *Local, suspects bool) bool {
	return suspects && !l.Participant
}

func (Algorithm) Initiate(c *model.Ctx[Msg], l *Local) {
	*l = Local{Participant: true}
	c.SendNext(model.CW, Msg{"ELECTION", c.ID()})
}

func (Algorithm) Receive(c *model.Ctx[Msg], l *Local, from int, m Msg) {
	switch me := c.ID(); {
	case m.Kind == "ELECTED":
		*l = Local{Elected: m.ID}
		if m.ID != me {
			c.SendNext(model.CW, m)
		}
	case m.ID > me, m.ID < me && !l.Participant: // forward the larger ID
		*l = Local{Participant: true}
		c.SendNext(model.CW, Msg{"ELECTION", max(m.ID, me)})
	case m.ID == me: // my own ELECTION came back: I have won
		*l = Local{Elected: me}
		c.SendNext(model.CW, Msg{"ELECTED", me})
	} // m.ID < me at a participant: drop it
}
