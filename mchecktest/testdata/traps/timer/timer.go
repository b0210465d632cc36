// Package timer is a trap that compiles: model.CheckMethods must refuse it.
package timer

import (
	"example.com/traps/ring"
	"github.com/mcheck/mcheck/model"
)

// Algorithm is the ring algorithm with Timer where model.Timed has Timers:
// as it is, the kernel never sees a timer.
type Algorithm struct{ ring.Algorithm }

func (Algorithm) Timer() []model.Timer[ring.Local, ring.Msg] {
	return []model.Timer[ring.Local, ring.Msg]{{
		Name:      "timeout",
		Armed:     func(l *ring.Local) bool { return l.Busy },
		Justified: func(*model.GuardCtx[ring.Msg], *ring.Local) bool { return true },
		Fire:      func(_ *model.Ctx[ring.Msg], l *ring.Local) { l.Busy = false },
	}}
}
