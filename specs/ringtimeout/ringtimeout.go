// Package ringtimeout is the ring algorithm of package ring with the course
// notes' "option 1" of crash handling (docs/semantics.md section 3.6): a
// process waits for its successor's ACK of every message it passes on, and
// when none comes within T ticks it suspects the successor and sends to the
// next one. Suspicion is its own, by a timer, not the kernel's ring repair:
// a timeout too short for the latency skips a live process.
package ringtimeout

import (
	"slices"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/internal/wire"
)

// Local is a process's local state.
type Local struct {
	Busy    bool
	Elected int // 0 is ⊥
	// Suspected is the positions this process believes crashed, a bit each;
	// it is never cleared (crash-stop).
	Suspected uint64
	// Succ is 1 + the position that Unacked went to, 0 when none is awaited.
	Succ int
	// Unacked are the messages sent to Succ and not yet acknowledged, oldest
	// first (channels are FIFO, so ACKs come back in that order).
	Unacked []Msg
}

// Kind is a message kind.
type Kind uint8

const (
	Election Kind = iota + 1
	Elected
	Ack
)

var kindNames = [...]string{"", "ELECTION", "ELECTED", "ACK"}

// Msg is ELECTION(J), ELECTED(J) or ACK (J is 0).
type Msg struct {
	Kind Kind
	J    int
}

// Algorithm is the ring algorithm with successors suspected by timeout.
type Algorithm struct{}

func (Algorithm) Init() Local                 { return Local{} }
func (Algorithm) InitLeader(leader int) Local { return Local{Elected: leader} }
func (Algorithm) Elected(l *Local) int        { return l.Elected }
func (Algorithm) CanInitiate(_ *model.Ctx[Msg], l *Local, suspects bool) bool {
	return !l.Busy && suspects
}

func (Algorithm) Initiate(c *model.Ctx[Msg], l *Local) {
	l.Busy, l.Elected = true, 0
	pass(c, l, Msg{Election, c.ID()})
}

// successor is the first position clockwise after self that l does not
// suspect, or self when it suspects every other one.
func successor(c *model.Ctx[Msg], l *Local) int {
	self, n := c.Self(), c.N()
	for i := 1; i < n; i++ {
		if q := (self + i) % n; l.Suspected&(1<<q) == 0 {
			return q
		}
	}
	return self
}

// pass sends m to the successor and awaits its ACK. A process alone (in its
// own view) sends to itself and awaits nothing.
func pass(c *model.Ctx[Msg], l *Local, m Msg) {
	s := successor(c, l)
	c.Send(s, m)
	if s == c.Self() {
		return
	}
	l.Succ = s + 1
	l.Unacked = append(slices.Clip(l.Unacked), m)
}

func (Algorithm) Receive(c *model.Ctx[Msg], l *Local, from int, m Msg) {
	id := c.ID()
	if m.Kind == Ack {
		// An ACK from a process suspected since is too late: its messages
		// were sent on already.
		if from+1 == l.Succ && len(l.Unacked) > 0 {
			l.Unacked = slices.Clone(l.Unacked[1:])
			if len(l.Unacked) == 0 {
				l.Succ, l.Unacked = 0, nil
			} else {
				c.RestartTimer() // the next one gets its full wait
			}
		}
		return
	}
	if from != c.Self() {
		c.Send(from, Msg{Kind: Ack})
	}
	switch {
	case m.Kind == Election:
		l.Busy, l.Elected = true, 0
		switch {
		case m.J == id: // my own ELECTION came back: I am the coordinator
			pass(c, l, Msg{Elected, id})
		case m.J > id && !suspected(c, l, m.J):
			pass(c, l, Msg{Election, m.J})
		default: // a smaller ID, or one this process believes crashed
			pass(c, l, Msg{Election, id})
		}
	case suspected(c, l, m.J):
		// The announced leader is believed crashed: elect again rather
		// than pass the announcement round forever.
		l.Busy, l.Elected = true, 0
		pass(c, l, Msg{Election, id})
	default: // ELECTED
		l.Busy, l.Elected = false, m.J
		if m.J != id {
			pass(c, l, Msg{Elected, m.J})
		}
	}
}

// suspected reports whether l suspects every process with ID j (there may
// be several under --anonymous), and there is one.
func suspected(c *model.Ctx[Msg], l *Local, j int) bool {
	found := false
	for q := 0; q < c.N(); q++ {
		if c.IDOf(q) == j {
			if l.Suspected&(1<<q) == 0 {
				return false
			}
			found = true
		}
	}
	return found
}

// timeout: no ACK came from the successor in time. It is suspected, and
// every unacknowledged message goes on to the next unsuspected one.
func timeout(c *model.Ctx[Msg], l *Local) {
	msgs := l.Unacked
	l.Suspected |= 1 << (l.Succ - 1)
	l.Succ, l.Unacked = 0, nil
	for _, m := range msgs {
		pass(c, l, m)
	}
}

// Timers: timeout-ack runs T (--timeout, --param T) ticks from the send
// that started the wait. In the asynchronous model the perfect detector
// justifies it: the successor has crashed and no ACK from it is on its way.
func (Algorithm) Timers() []model.Timer[Local, Msg] {
	return []model.Timer[Local, Msg]{{
		Name:  "timeout-ack",
		Armed: func(l *Local) bool { return l.Succ != 0 },
		Justified: func(c *model.GuardCtx[Msg], l *Local) bool {
			s := l.Succ - 1
			return !c.Alive(s) && !c.Pending(func(from int, m Msg) bool { return from == s && m.Kind == Ack })
		},
		Fire:     timeout,
		Duration: func(t model.Times) int { return t.Timeout },
	}}
}

// Params declares T (model.Parameterized), held by Config.Timeout: its
// default 2D+1 is one tick more than a round trip.
func (Algorithm) Params() []model.Param {
	return []model.Param{{Name: "T", Field: "Timeout", Min: 1, Max: model.MaxTicks, Doc: "the wait for an ACK from the successor, in ticks (default 2D+1)"}}
}

// MsgTypes and MsgType implement model.MsgTyper (for --complexity).
func (Algorithm) MsgTypes() []string { return kindNames[1:] }
func (Algorithm) MsgType(m *Msg) int { return int(m.Kind) - 1 }

// DescribeMsg implements model.MsgDescriber.
func (Algorithm) DescribeMsg(m Msg) model.Value {
	if m.Kind == Ack {
		return model.Msg("ACK")
	}
	return model.Msg(kindNames[m.Kind], model.Int(m.J))
}

func (a Algorithm) FormatMsg(m Msg) string { return a.DescribeMsg(m).String() }

func (Algorithm) FormatLocal(c *model.Ctx[Msg], l *Local) []model.Field {
	var sus []model.Value
	for q := 0; q < c.N(); q++ {
		if l.Suspected&(1<<q) != 0 {
			sus = append(sus, model.ID(c.IDOf(q)))
		}
	}
	succ := model.ID(0)
	if l.Succ != 0 {
		succ = model.ID(c.IDOf(l.Succ - 1))
	}
	return []model.Field{
		{Name: "busy", Value: model.Bool(l.Busy)},
		{Name: "elected", Value: model.ID(l.Elected)},
		{Name: "suspected", Value: model.Set(sus...)},
		{Name: "awaiting", Value: succ},
		{Name: "unacked", Value: model.Int(len(l.Unacked))},
	}
}

func (Algorithm) AppendLocal(b []byte, l *Local) []byte {
	b = wire.AppendUint(wire.AppendBool(b, l.Busy), l.Elected)
	b = wire.AppendUint(wire.AppendUint(b, int(l.Suspected)), l.Succ)
	b = wire.AppendUint(b, len(l.Unacked))
	for i := range l.Unacked {
		b = appendMsg(b, &l.Unacked[i])
	}
	return b
}

func (Algorithm) DecodeLocal(b []byte, l *Local) ([]byte, error) {
	r := wire.Reader{B: b}
	l.Busy, l.Elected = r.Bool(), r.Uint()
	l.Suspected, l.Succ = uint64(r.Uint()), r.Uint()
	n := r.Uint()
	l.Unacked = nil
	for i := 0; i < n && r.Err == nil; i++ {
		l.Unacked = append(l.Unacked, Msg{Kind(r.Byte()), r.Uint()})
	}
	return r.Done()
}

func appendMsg(b []byte, m *Msg) []byte { return wire.AppendUint(append(b, byte(m.Kind)), m.J) }

func (Algorithm) AppendMsg(b []byte, m *Msg) []byte { return appendMsg(b, m) }

func (Algorithm) DecodeMsg(b []byte, m *Msg) ([]byte, error) {
	r := wire.Reader{B: b}
	m.Kind, m.J = Kind(r.Byte()), r.Uint()
	return r.Done()
}
