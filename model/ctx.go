package model

import (
	"math/bits"
	"strconv"
)

// Ctx is a handler's window on the system: who it is, the ring around it,
// and sending. It is valid only during the handler call.
type Ctx[M any] struct {
	self int
	// ids (by position) and alive are fixed for the whole handler call, so
	// the expander hands them over and the handlers' most frequent
	// questions are field reads instead of calls through env. Without ids
	// (TestEnv), everything goes to env.
	ids   []int
	alive uint64
	env   env[M]
}

// env is implemented by the kernel's expander; Ctx forwards to it.
type env[M any] interface {
	n() int
	idOf(p int) int
	posOf(id int) int
	byID() []int
	alive(p int) bool
	next(p int, d Dir) int
	suspects(p int) bool
	send(from, to int, m M)
	setTimer(p int, op TimerOp)
	pending(to int, pred func(from int, m M) bool) bool
	param(name string) int
}

// Self is the position of the process running the handler.
func (c *Ctx[M]) Self() int { return c.self }

// ID is the running process's own ID.
func (c *Ctx[M]) ID() int { return c.IDOf(c.self) }

// N is the number of processes, live or not.
func (c *Ctx[M]) N() int {
	if c.ids != nil {
		return len(c.ids)
	}
	return c.env.n()
}

// IDOf is the ID of position p.
func (c *Ctx[M]) IDOf(p int) int {
	if c.ids != nil {
		return c.ids[p]
	}
	return c.env.idOf(p)
}

// PosOf is the position of the process with ID id, or -1.
func (c *Ctx[M]) PosOf(id int) int { return c.env.posOf(id) }

// ByID lists all positions in ascending ID order (do not modify).
func (c *Ctx[M]) ByID() []int { return c.env.byID() }

// Alive reports whether position p is live.
func (c *Ctx[M]) Alive(p int) bool {
	if c.ids != nil {
		return c.alive&(1<<p) != 0
	}
	return c.env.alive(p)
}

// Suspects is suspects(self) of the perfect detector: elected is ⊥ or names
// a crashed process. It reads the local state as it is now.
func (c *Ctx[M]) Suspects() bool { return c.env.suspects(c.self) }

// Next is the nearest live position after self in direction d (the repaired
// ring); self when it is the only live process.
func (c *Ctx[M]) Next(d Dir) int {
	if c.ids != nil {
		return nextLive(c.self, d, c.alive)
	}
	return c.env.next(c.self, d)
}

// nextLive is the nearest position after p in direction d whose bit is set
// in alive; p when there is none. Bit arithmetic, no loop: a ring algorithm
// asks it on every send.
func nextLive(p int, d Dir, alive uint64) int {
	below := alive & (1<<p - 1)
	above := alive &^ (1<<(p+1) - 1)
	if d == CW {
		if above != 0 {
			return bits.TrailingZeros64(above)
		}
		if below != 0 {
			return bits.TrailingZeros64(below)
		}
		return p
	}
	if below != 0 {
		return 63 - bits.LeadingZeros64(below)
	}
	if above != 0 {
		return 63 - bits.LeadingZeros64(above)
	}
	return p
}

// Send appends m to chan(self, to); a message to a crashed process is lost.
func (c *Ctx[M]) Send(to int, m M) { c.env.send(c.self, to, m) }

// SendNext sends m to Next(d).
func (c *Ctx[M]) SendNext(d Dir, m M) { c.env.send(c.self, c.Next(d), m) }

// TimerOp is what a handler asks of its process's timer (Ctx.RestartTimer,
// Ctx.StopTimer); TimerKeep, the zero value, asks nothing.
type TimerOp uint8

const (
	TimerKeep TimerOp = iota
	TimerRestart
	TimerStop
)

func (o TimerOp) String() string {
	if o > TimerStop {
		return "TimerOp(" + strconv.Itoa(int(o)) + ")"
	}
	return [...]string{"keep", "restart", "stop"}[o]
}

// RestartTimer starts the process's timer again once this step is over: it
// counts down from the Duration of the timer armed in the local state the
// step leaves (a heartbeat renews a lease), even when the same timer stays
// armed, and when it was stopped. With no timer armed after the step it
// does nothing. In the asynchronous model, which has no clock, it does
// nothing either (docs/semantics.md section 6.4).
func (c *Ctx[M]) RestartTimer() { c.env.setTimer(c.self, TimerRestart) }

// StopTimer stops the process's timer once this step is over: it is off,
// and the armed timer cannot fire, until a step restarts it (RestartTimer,
// a change of which timer is armed). Making Armed false stops it as well,
// in every mode; StopTimer stops the clock only, and does nothing in the
// asynchronous model. Of RestartTimer and StopTimer in one step, the last
// called counts.
func (c *Ctx[M]) StopTimer() { c.env.setTimer(c.self, TimerStop) }

// GuardCtx is the Ctx of a timer's Justified guard, which may also look at
// the messages on their way to the process (a handler may not: it sees
// only the message it receives).
type GuardCtx[M any] struct{ Ctx[M] }

// Pending reports whether some message queued for self satisfies pred
// (Bully's timeouts look for an OK or COORDINATOR on its way).
func (c *GuardCtx[M]) Pending(pred func(from int, m M) bool) bool {
	return c.env.pending(c.self, pred)
}
