// Package bully is Garcia-Molina's Bully algorithm (1982): a process that
// suspects the coordinator challenges every higher process; the highest live
// one bullies the others into accepting it.
package bully

import (
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/internal/wire"
)

// Status of a process.
type Status uint8

const (
	Idle     Status = iota
	Electing        // sent ELECTION, waiting for an OK
	Waiting         // got an OK, waiting for COORDINATOR
)

var statusNames = [...]string{"idle", "electing", "waiting"}

// Local is a process's local state.
type Local struct {
	Status  Status
	Elected int // 0 is ⊥
}

// Kind is a message kind.
type Kind uint8

const (
	Election Kind = iota + 1
	OK
	Coordinator
)

var kindNames = [...]string{"", "ELECTION", "OK", "COORDINATOR"}

// Msg is ELECTION(J), OK(J) or COORDINATOR(J); J is the sender's ID.
type Msg struct {
	Kind Kind
	J    int
}

// Algorithm is Bully.
type Algorithm struct{}

func (Algorithm) Init() Local                 { return Local{} }
func (Algorithm) InitLeader(leader int) Local { return Local{Elected: leader} }
func (Algorithm) Elected(l *Local) int        { return l.Elected }
func (Algorithm) InitiateName() string        { return "detect" }

func (Algorithm) CanInitiate(_ *model.Ctx[Msg], l *Local, suspects bool) bool {
	return l.Status == Idle && suspects
}

func (Algorithm) Initiate(c *model.Ctx[Msg], l *Local) { startElection(c, l) }

// OnRestart: a recovered process calls an election at once.
func (Algorithm) OnRestart(c *model.Ctx[Msg], l *Local) { startElection(c, l) }

func startElection(c *model.Ctx[Msg], l *Local) {
	id := c.ID()
	if !hasHigher(c) {
		becomeCoordinator(c, l)
		return
	}
	l.Elected, l.Status = 0, Electing
	for _, q := range c.ByID() {
		if c.IDOf(q) > id {
			c.Send(q, Msg{Election, id})
		}
	}
}

func becomeCoordinator(c *model.Ctx[Msg], l *Local) {
	id := c.ID()
	l.Elected, l.Status = id, Idle
	for _, q := range c.ByID() {
		if c.IDOf(q) < id {
			c.Send(q, Msg{Coordinator, id})
		}
	}
}

func hasHigher(c *model.Ctx[Msg]) bool {
	for q := 0; q < c.N(); q++ {
		if c.IDOf(q) > c.ID() {
			return true
		}
	}
	return false
}

// higherAllCrashed is the perfect detector's view that no higher process
// can answer any more.
func higherAllCrashed(c *model.Ctx[Msg]) bool {
	for q := 0; q < c.N(); q++ {
		if c.IDOf(q) > c.ID() && c.Alive(q) {
			return false
		}
	}
	return true
}

func (Algorithm) Receive(c *model.Ctx[Msg], l *Local, from int, m Msg) {
	id := c.ID()
	switch m.Kind {
	case Election:
		c.Send(from, Msg{OK, id})
		if l.Status == Idle {
			startElection(c, l)
		}
	case OK:
		if l.Status == Electing {
			l.Status = Waiting
		}
	case Coordinator:
		switch {
		case m.J > id:
			l.Elected, l.Status = m.J, Idle
		case m.J < id && l.Status == Idle: // bully the smaller one
			startElection(c, l)
		}
	}
}

// Timers: timeout-ok fires when no OK came (no higher process is live),
// timeout-coord when an OK came but no COORDINATOR followed. In the
// asynchronous model the perfect detector justifies them; in a timed one
// (docs/semantics.md section 6.4) they run T (--timeout) and T' (--timeout-coord)
// ticks from the step that set status electing or waiting.
func (Algorithm) Timers() []model.Timer[Local, Msg] {
	return []model.Timer[Local, Msg]{
		{
			Name:  "timeout-ok",
			Armed: func(l *Local) bool { return l.Status == Electing },
			Justified: func(c *model.GuardCtx[Msg], _ *Local) bool {
				return higherAllCrashed(&c.Ctx) && !c.Pending(func(_ int, m Msg) bool { return m.Kind == OK })
			},
			Fire:     becomeCoordinator,
			Duration: func(t model.Times) int { return t.Timeout },
		},
		{
			Name:  "timeout-coord",
			Armed: func(l *Local) bool { return l.Status == Waiting },
			Justified: func(c *model.GuardCtx[Msg], _ *Local) bool {
				return higherAllCrashed(&c.Ctx) && !c.Pending(func(from int, m Msg) bool {
					return m.Kind == Coordinator && c.IDOf(from) > c.ID()
				})
			},
			Fire:     startElection,
			Duration: func(t model.Times) int { return t.TimeoutCoord },
		},
	}
}

// Params declares T and T' as parameters (model.Parameterized), so that
// --param T=5 is --timeout 5; the configuration holds them (Config.Timeout
// and TimeoutCoord), whose defaults depend on the delay.
func (Algorithm) Params() []model.Param {
	return []model.Param{
		{Name: "T", Field: "Timeout", Min: 1, Max: model.MaxTicks, Doc: "the wait for an OK, in ticks (default 2D+1)"},
		{Name: "T2", Field: "TimeoutCoord", Min: 1, Max: model.MaxTicks, Doc: "the wait for a COORDINATOR after an OK, in ticks (default 2T+2D)"},
	}
}

// MsgTypes and MsgType implement model.MsgTyper (for --complexity).
func (Algorithm) MsgTypes() []string { return kindNames[1:] }
func (Algorithm) MsgType(m *Msg) int { return int(m.Kind) - 1 }

// DescribeMsg implements model.MsgDescriber.
func (Algorithm) DescribeMsg(m Msg) model.Value { return model.Msg(kindNames[m.Kind], model.Int(m.J)) }

func (a Algorithm) FormatMsg(m Msg) string { return a.DescribeMsg(m).String() }

func (Algorithm) FormatLocal(_ *model.Ctx[Msg], l *Local) []model.Field {
	return []model.Field{{Name: "status", Value: model.Str(statusNames[l.Status])}, {Name: "elected", Value: model.ID(l.Elected)}}
}

func (Algorithm) AppendLocal(b []byte, l *Local) []byte {
	return wire.AppendUint(append(b, byte(l.Status)), l.Elected)
}

func (Algorithm) DecodeLocal(b []byte, l *Local) ([]byte, error) {
	r := wire.Reader{B: b}
	l.Status, l.Elected = Status(r.Byte()), r.Uint()
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
