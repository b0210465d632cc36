// Package hirschsinclair is Hirschberg-Sinclair (1980) on a bidirectional
// ring: a candidate probes both ways to distance 2^k in phase k and goes on to
// the next phase when both probes come back as replies.
package hirschsinclair

import (
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/internal/wire"
)

// Status of a process.
type Status uint8

const (
	Idle Status = iota
	Candidate
	Relay
	Decided
)

var statusNames = [...]string{"idle", "candidate", "relay", "decided"}

// Local is a process's local state.
type Local struct {
	Status  Status
	Phase   int
	Replies int
	Elected int // 0 is ⊥
}

// Kind is a message kind.
type Kind uint8

const (
	Probe Kind = iota + 1
	Reply
	Elected
)

// Msg is PROBE(J, K, H, D), REPLY(J, K, D) or ELECTED(J); D is the direction
// of travel.
type Msg struct {
	Kind    Kind
	J, K, H int
	D       model.Dir
}

// Algorithm is Hirschberg-Sinclair.
type Algorithm struct{}

func (Algorithm) Init() Local { return Local{} }
func (Algorithm) InitLeader(leader int) Local {
	return Local{Status: Decided, Elected: leader}
}
func (Algorithm) Elected(l *Local) int { return l.Elected }

func (Algorithm) CanInitiate(_ *model.Ctx[Msg], l *Local, suspects bool) bool {
	return (l.Status == Idle || l.Status == Decided && suspects) && suspects
}

func (Algorithm) Initiate(c *model.Ctx[Msg], l *Local) { start(c, l) }

func start(c *model.Ctx[Msg], l *Local) {
	l.Status, l.Phase, l.Replies, l.Elected = Candidate, 0, 0, 0
	probe(c, 0)
}

// probe sends PROBE(id, phase, 1, d) both ways, cw first.
func probe(c *model.Ctx[Msg], phase int) {
	for _, d := range []model.Dir{model.CW, model.CCW} {
		c.SendNext(d, Msg{Kind: Probe, J: c.ID(), K: phase, H: 1, D: d})
	}
}

func (Algorithm) Receive(c *model.Ctx[Msg], l *Local, _ int, m Msg) {
	id := c.ID()
	switch m.Kind {
	case Probe:
		switch {
		case m.J == id: // my probe went all the way round
			if l.Status == Candidate {
				l.Status, l.Elected = Decided, id
				c.SendNext(model.CW, Msg{Kind: Elected, J: id})
			}
		case m.J > id:
			if l.Status == Idle || l.Status == Candidate || l.Status == Decided && c.Suspects() {
				l.Status, l.Elected = Relay, 0
			}
			if m.H < 1<<m.K {
				c.SendNext(m.D, Msg{Kind: Probe, J: m.J, K: m.K, H: m.H + 1, D: m.D})
			} else {
				c.SendNext(m.D.Back(), Msg{Kind: Reply, J: m.J, K: m.K, D: m.D.Back()})
			}
		default: // a smaller candidate: swallow its probe, and run myself
			if l.Status == Idle || l.Status == Decided && c.Suspects() {
				start(c, l)
			}
		}
	case Reply:
		switch {
		case m.J != id:
			c.SendNext(m.D, m)
		case l.Status == Candidate && m.K == l.Phase:
			l.Replies++
			if l.Replies == 2 {
				l.Phase, l.Replies = m.K+1, 0
				probe(c, l.Phase)
			}
		}
	case Elected:
		l.Status, l.Elected = Decided, m.J
		if m.J != id {
			c.SendNext(model.CW, m)
		}
	}
}

// Around implements model.RingLocal: messages go only to the live
// neighbour in each direction, which lets the checker reduce interleavings.
func (Algorithm) Around() []model.Dir { return []model.Dir{model.CW, model.CCW} }

// DescribeMsg implements model.MsgDescriber.
func (Algorithm) DescribeMsg(m Msg) model.Value {
	j, k, d := model.Int(m.J), model.Int(m.K), model.Str(m.D.String())
	switch m.Kind {
	case Probe:
		return model.Msg("PROBE", j, k, model.Int(m.H), d)
	case Reply:
		return model.Msg("REPLY", j, k, d)
	}
	return model.Msg("ELECTED", j)
}

func (a Algorithm) FormatMsg(m Msg) string { return a.DescribeMsg(m).String() }

func (Algorithm) FormatLocal(_ *model.Ctx[Msg], l *Local) []model.Field {
	return []model.Field{
		{Name: "status", Value: model.Str(statusNames[l.Status])},
		{Name: "phase", Value: model.Int(l.Phase)},
		{Name: "replies", Value: model.Int(l.Replies)},
		{Name: "elected", Value: model.ID(l.Elected)},
	}
}

func (Algorithm) AppendLocal(b []byte, l *Local) []byte {
	b = append(b, byte(l.Status), byte(l.Replies))
	return wire.AppendUint(wire.AppendUint(b, l.Phase), l.Elected)
}

func (Algorithm) DecodeLocal(b []byte, l *Local) ([]byte, error) {
	r := wire.Reader{B: b}
	l.Status, l.Replies = Status(r.Byte()), int(r.Byte())
	l.Phase, l.Elected = r.Uint(), r.Uint()
	return r.Done()
}

func (Algorithm) AppendMsg(b []byte, m *Msg) []byte {
	b = append(b, byte(m.Kind), byte(m.D))
	return wire.AppendUint(wire.AppendUint(wire.AppendUint(b, m.J), m.K), m.H)
}

func (Algorithm) DecodeMsg(b []byte, m *Msg) ([]byte, error) {
	r := wire.Reader{B: b}
	m.Kind, m.D = Kind(r.Byte()), model.Dir(r.Byte())
	m.J, m.K, m.H = r.Uint(), r.Uint(), r.Uint()
	return r.Done()
}
