// Package lelann is LeLann (1977): every process on the ring collects the
// IDs of the processes taking part, and when its own ELECT returns it elects
// the largest ID it has seen.
package lelann

import (
	"math/bits"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/internal/wire"
)

// Status of a process.
type Status uint8

const (
	Idle Status = iota
	Running
	Decided
)

var statusNames = [...]string{"idle", "running", "decided"}

// Local is a process's local state. Known is the set of IDs seen, as a
// bitmask over positions.
type Local struct {
	Status  Status
	Known   uint64
	Elected int // 0 is ⊥
}

// Msg is ELECT(J).
type Msg struct{ J int }

// Algorithm is LeLann. A joiner sends its own ELECT first, then forwards
// the one that woke it (docs/semantics.md section 3.3): on FIFO channels its
// own ID then travels ahead of every ID it forwards, so a process whose own
// ELECT returns has seen every ID. ForwardFirst swaps the two sends into the
// order the course notes give (forward ELECT(j), then send ELECT(i)): a
// broken variant, kept to show that this order is not safe. The forwarded
// ELECT of an initiator can then return to it before the ID of a process
// that joined behind it, so it decides too early, and SingleLeader fails
// without any fault.
type Algorithm struct{ ForwardFirst bool }

func (Algorithm) Init() Local { return Local{} }
func (Algorithm) InitLeader(leader int) Local {
	return Local{Status: Decided, Elected: leader}
}
func (Algorithm) Elected(l *Local) int { return l.Elected }

func (Algorithm) CanInitiate(_ *model.Ctx[Msg], l *Local, suspects bool) bool {
	return l.Status != Running && suspects
}

func (Algorithm) Initiate(c *model.Ctx[Msg], l *Local) {
	l.Status, l.Elected, l.Known = Running, 0, 1<<c.Self()
	c.SendNext(model.CW, Msg{c.ID()})
}

func (a Algorithm) Receive(c *model.Ctx[Msg], l *Local, _ int, m Msg) {
	id := c.ID()
	if m.J == id { // my own ELECT went round: I have seen every ID
		if l.Status == Running {
			l.Elected, l.Status = maxKnown(c, l.Known), Decided
		}
		return
	}
	switch {
	case l.Status == Running:
		l.Known |= 1 << c.PosOf(m.J)
		c.SendNext(model.CW, m)
	case l.Status == Idle || c.Suspects(): // join the election
		l.Status, l.Elected, l.Known = Running, 0, 1<<c.Self()|1<<c.PosOf(m.J)
		if a.ForwardFirst {
			c.SendNext(model.CW, m)
			c.SendNext(model.CW, Msg{id})
		} else {
			c.SendNext(model.CW, Msg{id})
			c.SendNext(model.CW, m)
		}
	default: // decided, and the leader is live: relay only
		c.SendNext(model.CW, m)
	}
}

func maxKnown(c *model.Ctx[Msg], known uint64) int {
	best := 0
	for ; known != 0; known &= known - 1 {
		best = max(best, c.IDOf(bits.TrailingZeros64(known)))
	}
	return best
}

// Around implements model.RingLocal: messages go only to the live
// neighbour clockwise, which lets the checker reduce interleavings.
func (Algorithm) Around() []model.Dir { return []model.Dir{model.CW} }

// MsgTypes and MsgType implement model.MsgTyper (for --complexity).
func (Algorithm) MsgTypes() []string { return []string{"ELECT"} }
func (Algorithm) MsgType(*Msg) int   { return 0 }

// DescribeMsg implements model.MsgDescriber.
func (Algorithm) DescribeMsg(m Msg) model.Value { return model.Msg("ELECT", model.Int(m.J)) }

func (a Algorithm) FormatMsg(m Msg) string { return a.DescribeMsg(m).String() }

func (Algorithm) FormatLocal(c *model.Ctx[Msg], l *Local) []model.Field {
	var ids []model.Value
	for _, p := range c.ByID() {
		if l.Known&(1<<p) != 0 {
			ids = append(ids, model.Int(c.IDOf(p)))
		}
	}
	return []model.Field{
		{Name: "status", Value: model.Str(statusNames[l.Status])},
		{Name: "known", Value: model.Set(ids...)},
		{Name: "elected", Value: model.ID(l.Elected)},
	}
}

func (Algorithm) AppendLocal(b []byte, l *Local) []byte {
	return wire.AppendUint(wire.AppendUint(append(b, byte(l.Status)), int(l.Known)), l.Elected)
}

func (Algorithm) DecodeLocal(b []byte, l *Local) ([]byte, error) {
	r := wire.Reader{B: b}
	l.Status, l.Known, l.Elected = Status(r.Byte()), uint64(r.Uint()), r.Uint()
	return r.Done()
}

func (Algorithm) AppendMsg(b []byte, m *Msg) []byte { return wire.AppendUint(b, m.J) }

func (Algorithm) DecodeMsg(b []byte, m *Msg) ([]byte, error) {
	r := wire.Reader{B: b}
	m.J = r.Uint()
	return r.Done()
}
