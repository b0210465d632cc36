// Package crnomarks is Chang-Roberts with its participant marks deleted, a
// deliberately broken variant for the course: the student's question is
// "what are the marks for?", and go test answers it.
//
// Compare with github.com/mcheck/mcheck/specs/changroberts: the Participant
// field is gone, and with it two things. A process no longer drops a
// smaller candidate's ELECTION when it already takes part (it replaces it
// by its own, again and again), and nothing stops a process from starting a
// second election while its first is still on the ring. Both send extra
// ELECTION messages, and the second breaks Termination even without any
// crash (see crnomarks_test.go).
//
// The local state has no Codec: the kernel numbers each distinct value of
// it, which needs exported fields only.
package crnomarks

import (
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/ring"
)

// Msg is ELECTION(J) or ELECTED(J), as in Chang-Roberts.
type Msg = ring.Msg

// Local is a process's local state: Chang-Roberts' without Participant.
type Local struct {
	Elected int // 0 is ⊥
}

// Algorithm is Chang-Roberts without participant marks.
type Algorithm struct{}

func (Algorithm) Init() Local          { return Local{} }
func (Algorithm) Elected(l *Local) int { return l.Elected }

// CanInitiate was !l.Participant && suspects.
func (Algorithm) CanInitiate(_ *model.Ctx[Msg], l *Local, suspects bool) bool {
	return suspects
}

func (Algorithm) Initiate(c *model.Ctx[Msg], l *Local) {
	l.Elected = 0
	c.SendNext(model.CW, Msg{Kind: ring.Election, J: c.ID()})
}

func (Algorithm) Receive(c *model.Ctx[Msg], l *Local, _ int, m Msg) {
	id := c.ID()
	switch m.Kind {
	case ring.Election:
		switch {
		case m.J > id:
			l.Elected = 0
			c.SendNext(model.CW, m)
		case m.J < id: // Chang-Roberts drops it here when it is a participant
			l.Elected = 0
			c.SendNext(model.CW, Msg{Kind: ring.Election, J: id})
		default:
			l.Elected = id
			c.SendNext(model.CW, Msg{Kind: ring.Elected, J: id})
		}
	case ring.Elected:
		l.Elected = m.J
		if m.J != id {
			c.SendNext(model.CW, m)
		}
	}
}

func (Algorithm) FormatMsg(m Msg) string { return ring.Algorithm{}.FormatMsg(m) }

// DescribeMsg implements model.MsgDescriber: messages as data in traces.
func (Algorithm) DescribeMsg(m Msg) model.Value { return ring.Algorithm{}.DescribeMsg(m) }
