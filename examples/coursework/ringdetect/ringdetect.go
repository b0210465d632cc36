// Package ringdetect is the ring algorithm of the course notes (ELECTION/ELECTED,
// no pruning) with the fixes of its liveness problem switched on one by one,
// so that go test shows what each fix does and what it leaves broken.
//
// The problem (notes, "Selhání"): if P9 crashes after sending ELECTION(9),
// the message circulates forever, even after the ring is repaired. Option 2
// of the notes: any process that receives ELECTION(k) asks its failure
// detector whether Pk has crashed, and if so drops the message and starts a
// new election. That is CheckOriginator. The model checker then finds the
// next two ways the same crash breaks Termination, and the other two
// switches fix them.
package ringdetect

import (
	"encoding/binary"
	"errors"
	"strconv"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/ring"
)

// Msg is ELECTION(J) or ELECTED(J), as in the built-in ring algorithm.
type Msg = ring.Msg

// Local is a process's local state.
type Local struct {
	Busy    bool // taking part in an election
	Elected int  // 0 is ⊥
	// Resend only: the last message sent, and to whom (position+1; 0: none).
	Last Msg
	To   int
}

// Algorithm is the ring algorithm with the fixes switched on.
type Algorithm struct {
	// CheckOriginator is option 2 of the notes: a process that receives
	// ELECTION(k) while Pk is crashed drops it and starts a new election.
	CheckOriginator bool
	// CheckLeader does the same for ELECTED(k) of a crashed Pk.
	CheckLeader bool
	// Resend: when the process a message was last sent to crashes, that
	// message may have been lost with it (a crash empties the channels into
	// the crashed process); send it again to the new successor on the
	// repaired ring. A timeout "resend", justified by the perfect detector.
	Resend bool
}

func (Algorithm) Init() Local          { return Local{} }
func (Algorithm) Elected(l *Local) int { return l.Elected }

func (Algorithm) CanInitiate(_ *model.Ctx[Msg], l *Local, suspects bool) bool {
	return !l.Busy && suspects
}

func (a Algorithm) Initiate(c *model.Ctx[Msg], l *Local) {
	l.Busy, l.Elected = true, 0
	a.send(c, l, Msg{Kind: ring.Election, J: c.ID()})
}

func (a Algorithm) Receive(c *model.Ctx[Msg], l *Local, _ int, m Msg) {
	id := c.ID()
	crashed := m.J != id && !c.Alive(c.PosOf(m.J)) // the perfect detector
	switch m.Kind {
	case ring.Election:
		if a.CheckOriginator && crashed {
			a.Initiate(c, l) // drop ELECTION(k), start a new election
			return
		}
		l.Busy, l.Elected = true, 0
		switch {
		case m.J > id:
			a.send(c, l, m)
		case m.J < id:
			a.send(c, l, Msg{Kind: ring.Election, J: id})
		default: // my own ELECTION came back: I am the coordinator
			a.send(c, l, Msg{Kind: ring.Elected, J: id})
		}
	case ring.Elected:
		if a.CheckLeader && crashed {
			a.Initiate(c, l) // drop ELECTED(k), start a new election
			return
		}
		l.Busy, l.Elected = false, m.J
		if m.J != id {
			a.send(c, l, m)
		}
	}
}

// send sends m to the next live process, remembering it for Resend.
func (a Algorithm) send(c *model.Ctx[Msg], l *Local, m Msg) {
	to := c.Next(model.CW)
	if a.Resend {
		l.Last, l.To = m, to+1
	}
	c.Send(to, m)
}

// Timers implements model.Timed: the resend timeout, when Resend is on.
func (a Algorithm) Timers() []model.Timer[Local, Msg] {
	if !a.Resend {
		return nil
	}
	return []model.Timer[Local, Msg]{{
		Name:      "resend",
		Armed:     func(l *Local) bool { return l.To != 0 },
		Justified: func(c *model.GuardCtx[Msg], l *Local) bool { return !c.Alive(l.To - 1) },
		Fire:      func(c *model.Ctx[Msg], l *Local) { a.send(c, l, l.Last) },
	}}
}

func (Algorithm) FormatMsg(m Msg) string { return ring.Algorithm{}.FormatMsg(m) }

// DescribeMsg implements model.MsgDescriber: messages as data in traces.
func (Algorithm) DescribeMsg(m Msg) model.Value { return ring.Algorithm{}.DescribeMsg(m) }

// FormatLocal implements model.LocalFormatter: how traces show a process.
func (a Algorithm) FormatLocal(c *model.Ctx[Msg], l *Local) []model.Field {
	fs := []model.Field{{Name: "busy", Value: model.Bool(l.Busy)}, {Name: "elected", Value: model.ID(l.Elected)}}
	if a.Resend {
		last := "none"
		if l.To != 0 {
			last = a.FormatMsg(l.Last) + "→p" + strconv.Itoa(c.IDOf(l.To-1))
		}
		fs = append(fs, model.Field{Name: "last", Value: model.Str(last)})
	}
	return fs
}

// The Codec is optional (the kernel falls back to numbering each distinct
// value); with it the search runs faster.

func (Algorithm) AppendLocal(b []byte, l *Local) []byte {
	busy := byte(0)
	if l.Busy {
		busy = 1
	}
	b = append(b, busy, byte(l.Last.Kind))
	b = binary.AppendUvarint(b, uint64(l.Elected))
	b = binary.AppendUvarint(b, uint64(l.Last.J))
	return binary.AppendUvarint(b, uint64(l.To))
}

func (Algorithm) DecodeLocal(b []byte, l *Local) ([]byte, error) {
	if len(b) < 2 {
		return nil, errShort
	}
	l.Busy, l.Last.Kind = b[0] == 1, ring.Kind(b[1])
	b = b[2:]
	var err error
	for _, f := range []*int{&l.Elected, &l.Last.J, &l.To} {
		if *f, b, err = uvarint(b); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func (Algorithm) AppendMsg(b []byte, m *Msg) []byte {
	return binary.AppendUvarint(append(b, byte(m.Kind)), uint64(m.J))
}

func (Algorithm) DecodeMsg(b []byte, m *Msg) ([]byte, error) {
	if len(b) < 1 {
		return nil, errShort
	}
	m.Kind = ring.Kind(b[0])
	var err error
	m.J, b, err = uvarint(b[1:])
	return b, err
}

var errShort = errors.New("ringdetect: short encoding")

func uvarint(b []byte) (int, []byte, error) {
	v, n := binary.Uvarint(b)
	if n <= 0 {
		return 0, nil, errShort
	}
	return int(v), b[n:], nil
}
