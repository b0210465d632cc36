// Package maxring is the ring algorithm with the rule of the notes for
// several initiators ("Více iniciátorů"): every process remembers maxID,
// the highest ID of all ELECTION/ELECTED messages received since the last
// successful election, and ignores ELECTION/ELECTED messages with a lower
// ID. ELECTION messages of candidates that cannot win are then eliminated
// early, by every process they pass and not only by participants as in
// Chang-Roberts.
//
// The local state has no Codec and no formatter: the kernel numbers each
// distinct value of it (exported fields only) and prints it with %+v.
package maxring

import (
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/ring"
)

// Msg is ELECTION(J) or ELECTED(J).
type Msg = ring.Msg

// Local is a process's local state. MaxID != 0 means "in an election".
type Local struct {
	MaxID   int // the highest ID seen since the last election ended; 0: none
	Elected int // 0 is ⊥
}

// Algorithm is the ring algorithm with the maxID rule.
type Algorithm struct{}

func (Algorithm) Init() Local          { return Local{} }
func (Algorithm) Elected(l *Local) int { return l.Elected }

func (Algorithm) CanInitiate(_ *model.Ctx[Msg], l *Local, suspects bool) bool {
	return l.MaxID == 0 && suspects
}

func (Algorithm) Initiate(c *model.Ctx[Msg], l *Local) {
	l.MaxID, l.Elected = c.ID(), 0
	c.SendNext(model.CW, Msg{Kind: ring.Election, J: c.ID()})
}

func (Algorithm) Receive(c *model.Ctx[Msg], l *Local, _ int, m Msg) {
	id := c.ID()
	if m.J < l.MaxID {
		return // the maxID rule: a smaller ELECTION or ELECTED is ignored
	}
	switch m.Kind {
	case ring.Election:
		l.Elected = 0
		switch {
		case m.J > id:
			l.MaxID = m.J
			c.SendNext(model.CW, m)
		case m.J < id:
			l.MaxID = id
			c.SendNext(model.CW, Msg{Kind: ring.Election, J: id})
		default: // my own ELECTION came back
			l.Elected = id
			c.SendNext(model.CW, Msg{Kind: ring.Elected, J: id})
		}
	case ring.Elected:
		l.MaxID, l.Elected = 0, m.J // the election is over
		if m.J != id {
			c.SendNext(model.CW, m)
		}
	}
}

func (Algorithm) FormatMsg(m Msg) string { return ring.Algorithm{}.FormatMsg(m) }

// DescribeMsg implements model.MsgDescriber: messages as data in traces.
func (Algorithm) DescribeMsg(m Msg) model.Value { return ring.Algorithm{}.DescribeMsg(m) }
