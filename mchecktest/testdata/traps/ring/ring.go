// Package ring is the ring algorithm the traps start from: each trap
// embeds it and declares one optional method wrongly.
package ring

import (
	"fmt"

	"github.com/mcheck/mcheck/model"
)

type Local struct {
	Busy    bool
	Elected int
}

type Msg struct {
	Kind string
	ID   int
}

type Algorithm struct{}

func (Algorithm) Init() Local            { return Local{} }
func (Algorithm) Elected(l *Local) int   { return l.Elected }
func (Algorithm) FormatMsg(m Msg) string { return fmt.Sprintf("%s(%d)", m.Kind, m.ID) }

func (Algorithm) CanInitiate(_ *model.Ctx[Msg], l *Local, suspects bool) bool {
	return suspects && !l.Busy
}

func (Algorithm) Initiate(c *model.Ctx[Msg], l *Local) {
	*l = Local{Busy: true}
	c.SendNext(model.CW, Msg{"ELECTION", c.ID()})
}

func (Algorithm) Receive(c *model.Ctx[Msg], l *Local, _ int, m Msg) {
	switch me := c.ID(); {
	case m.Kind == "ELECTED":
		*l = Local{Elected: m.ID}
		if m.ID != me {
			c.SendNext(model.CW, m)
		}
	case m.ID == me:
		*l = Local{Elected: me}
		c.SendNext(model.CW, Msg{"ELECTED", me})
	default:
		*l = Local{Busy: true}
		c.SendNext(model.CW, Msg{"ELECTION", max(m.ID, me)})
	}
}
