// Package electedloop is Chang-Roberts whose winner does not stop its own
// ELECTED: when ELECTED(id) comes back to the process id, it sends it on
// again, so the message goes round the ring for ever after everybody has
// agreed. A deliberately broken variant for the course: every process has
// elected the largest ID, for good, so Termination (<>[]Stable) holds; the
// system never falls quiet, and the optional Quiescent property (mcheck
// --check Quiescent) says so (see electedloop_test.go).
package electedloop

import (
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/changroberts"
)

// Algorithm is Chang-Roberts (its local state, messages, encoder and
// properties) with one handler changed.
type Algorithm struct{ changroberts.Algorithm }

// Receive is Chang-Roberts's, and the winner forwards its own ELECTED.
func (a Algorithm) Receive(c *model.Ctx[changroberts.Msg], l *changroberts.Local, from int, m changroberts.Msg) {
	a.Algorithm.Receive(c, l, from, m)
	if m.Kind == changroberts.Elected && m.J == c.ID() {
		c.SendNext(model.CW, m) // Chang-Roberts stops here
	}
}
