// Package ring is the ring algorithm with ELECTION/ELECTED and no pruning
// (docs/semantics.md section 3.1): every ELECTION travels until the highest
// ID on its way has replaced it and it returns to that process.
package ring

import (
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/internal/wire"
)

// Local is a process's local state.
type Local struct {
	Busy    bool
	Elected int // 0 is ⊥
}

// Kind is a message kind.
type Kind uint8

const (
	Election Kind = iota + 1
	Elected
)

// Msg is ELECTION(J) or ELECTED(J).
type Msg struct {
	Kind Kind
	J    int
}

// Algorithm is the ring algorithm.
type Algorithm struct{}

func (Algorithm) Init() Local                 { return Local{} }
func (Algorithm) InitLeader(leader int) Local { return Local{Elected: leader} }
func (Algorithm) Elected(l *Local) int        { return l.Elected }
func (Algorithm) CanInitiate(_ *model.Ctx[Msg], l *Local, suspects bool) bool {
	return !l.Busy && suspects
}

func (Algorithm) Initiate(c *model.Ctx[Msg], l *Local) {
	l.Busy, l.Elected = true, 0
	c.SendNext(model.CW, Msg{Election, c.ID()})
}

func (Algorithm) Receive(c *model.Ctx[Msg], l *Local, _ int, m Msg) {
	id := c.ID()
	switch m.Kind {
	case Election:
		l.Busy, l.Elected = true, 0
		switch {
		case m.J > id:
			c.SendNext(model.CW, Msg{Election, m.J})
		case m.J < id:
			c.SendNext(model.CW, Msg{Election, id})
		default: // my own ELECTION came back: I am the coordinator
			c.SendNext(model.CW, Msg{Elected, id})
		}
	case Elected:
		l.Busy, l.Elected = false, m.J
		if m.J != id {
			c.SendNext(model.CW, Msg{Elected, m.J})
		}
	}
}

// Around implements model.RingLocal: messages go only to the live
// neighbour clockwise, which lets the checker reduce interleavings.
func (Algorithm) Around() []model.Dir { return []model.Dir{model.CW} }

// MsgTypes and MsgType implement model.MsgTyper (for --complexity).
func (Algorithm) MsgTypes() []string { return []string{"ELECTION", "ELECTED"} }
func (Algorithm) MsgType(m *Msg) int { return int(m.Kind) - 1 }

// DescribeMsg implements model.MsgDescriber.
func (Algorithm) DescribeMsg(m Msg) model.Value {
	if m.Kind == Election {
		return model.Msg("ELECTION", model.Int(m.J))
	}
	return model.Msg("ELECTED", model.Int(m.J))
}

func (a Algorithm) FormatMsg(m Msg) string { return a.DescribeMsg(m).String() }

func (Algorithm) FormatLocal(_ *model.Ctx[Msg], l *Local) []model.Field {
	return []model.Field{{Name: "busy", Value: model.Bool(l.Busy)}, {Name: "elected", Value: model.ID(l.Elected)}}
}

// FormatID renders an elected value: ⊥ for none.
func FormatID(id int) string { return model.ID(id).String() }

func (Algorithm) AppendLocal(b []byte, l *Local) []byte {
	return wire.AppendUint(wire.AppendBool(b, l.Busy), l.Elected)
}

func (Algorithm) DecodeLocal(b []byte, l *Local) ([]byte, error) {
	r := wire.Reader{B: b}
	l.Busy, l.Elected = r.Bool(), r.Uint()
	return r.Done()
}

func (Algorithm) AppendMsg(b []byte, m *Msg) []byte {
	return wire.AppendUint(append(b, byte(m.Kind)), m.J)
}

func (Algorithm) DecodeMsg(b []byte, m *Msg) ([]byte, error) {
	r := wire.Reader{B: b}
	m.Kind, m.J = Kind(r.Byte()), r.Uint()
	return r.Done()
}
