package ring

import (
	"fmt"

	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/model"
)

// Properties are the ring algorithm's own claims (optional: --check NAME),
// docs/semantics.md section 2.10.
func (Algorithm) Properties() []model.Property[Local, Msg] {
	return []model.Property[Local, Msg]{{
		Name: "BusyElectsNobody", Kind: model.Invariant, Optional: true,
		Doc: "a process busy in an election has elected nobody (elected=⊥)",
		Holds: func(v *model.View[Local, Msg]) bool {
			for p := 0; p < v.N(); p++ {
				if l := v.Local(p); l.Busy && l.Elected != 0 {
					return false
				}
			}
			return true
		},
	}, {
		Name: "MessageBound", Kind: model.Invariant, Optional: true,
		Doc:        "at most 3N-1 messages are sent (the notes' worst case of one initiator, the successor of the future leader)",
		CountSends: 3*model.MaxN - 1 + 1, // a count stops there: one past any bound
		Holds:      func(v *model.View[Local, Msg]) bool { return v.Sent() <= 3*v.N()-1 },
		Explain: func(f *model.Failure[Local, Msg]) string {
			return fmt.Sprintf("after %s %d messages were sent, more than 3N-1 = %d", plural.Count(f.Steps, "step"), f.State.Sent(), 3*f.State.N()-1)
		},
	}}
}
