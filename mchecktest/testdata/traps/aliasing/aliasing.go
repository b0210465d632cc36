// Package aliasing is a collecting ring algorithm whose handler writes
// into the map of the old local state: not a function of its inputs.
package aliasing

import (
	"fmt"

	"github.com/mcheck/mcheck/model"
)

type Local struct {
	Running bool
	Seen    map[int]bool
	Elected int
}

type Msg struct{ ID int }

type Algorithm struct{}

var _ model.Algorithm[Local, Msg] = Algorithm{}

func (Algorithm) Init() Local            { return Local{} }
func (Algorithm) Elected(l *Local) int   { return l.Elected }
func (Algorithm) FormatMsg(m Msg) string { return fmt.Sprintf("ELECT(%d)", m.ID) }

func (Algorithm) CanInitiate(_ *model.Ctx[Msg], l *Local, suspects bool) bool {
	return suspects && !l.Running && l.Elected == 0
}

func (Algorithm) Initiate(c *model.Ctx[Msg], l *Local) {
	l.Running, l.Seen = true, map[int]bool{c.ID(): true}
	c.SendNext(model.CW, Msg{c.ID()})
}

func (Algorithm) Receive(c *model.Ctx[Msg], l *Local, _ int, m Msg) {
	if m.ID == c.ID() {
		top := 0
		for id := range l.Seen {
			top = max(top, id)
		}
		*l = Local{Elected: top}
		return
	}
	if l.Seen == nil {
		l.Running, l.Seen = true, map[int]bool{c.ID(): true}
		c.SendNext(model.CW, Msg{c.ID()})
	}
	l.Seen[m.ID] = true // the old state's map: should copy it first
	c.SendNext(model.CW, m)
}
