// Package changroberts is Chang-Roberts (1979): the ring algorithm with
// participant marks, so that an ELECTION that cannot win is dropped early.
package changroberts

import (
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/internal/wire"
	"github.com/mcheck/mcheck/specs/ring"
)

// Local is a process's local state.
type Local struct {
	Participant bool
	Elected     int // 0 is ⊥
}

// Msg is the ring algorithm's ELECTION(J) or ELECTED(J).
type Msg = ring.Msg

const (
	Election = ring.Election
	Elected  = ring.Elected
)

// Algorithm is Chang-Roberts.
type Algorithm struct{ ring.Algorithm }

func (Algorithm) Init() Local                 { return Local{} }
func (Algorithm) InitLeader(leader int) Local { return Local{Elected: leader} }
func (Algorithm) Elected(l *Local) int        { return l.Elected }
func (Algorithm) CanInitiate(_ *model.Ctx[Msg], l *Local, suspects bool) bool {
	return !l.Participant && suspects
}

func (Algorithm) Initiate(c *model.Ctx[Msg], l *Local) {
	l.Participant, l.Elected = true, 0
	c.SendNext(model.CW, Msg{Kind: Election, J: c.ID()})
}

func (Algorithm) Receive(c *model.Ctx[Msg], l *Local, _ int, m Msg) {
	id := c.ID()
	switch m.Kind {
	case Election:
		switch {
		case m.J > id:
			l.Participant, l.Elected = true, 0
			c.SendNext(model.CW, Msg{Kind: Election, J: m.J})
		case m.J < id && !l.Participant:
			l.Participant, l.Elected = true, 0
			c.SendNext(model.CW, Msg{Kind: Election, J: id})
		case m.J < id: // a participant drops a smaller candidate
		default:
			l.Participant, l.Elected = false, id
			c.SendNext(model.CW, Msg{Kind: Elected, J: id})
		}
	case Elected:
		l.Participant, l.Elected = false, m.J
		if m.J != id {
			c.SendNext(model.CW, Msg{Kind: Elected, J: m.J})
		}
	}
}

// Around implements model.RingLocal: messages go only to the live
// neighbour clockwise, which lets the checker reduce interleavings.
func (Algorithm) Around() []model.Dir { return []model.Dir{model.CW} }

func (Algorithm) FormatLocal(_ *model.Ctx[Msg], l *Local) []model.Field {
	return []model.Field{{Name: "participant", Value: model.Bool(l.Participant)}, {Name: "elected", Value: model.ID(l.Elected)}}
}

func (Algorithm) AppendLocal(b []byte, l *Local) []byte {
	return wire.AppendUint(wire.AppendBool(b, l.Participant), l.Elected)
}

func (Algorithm) DecodeLocal(b []byte, l *Local) ([]byte, error) {
	r := wire.Reader{B: b}
	l.Participant, l.Elected = r.Bool(), r.Uint()
	return r.Done()
}
