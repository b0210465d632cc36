package ring

import (
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
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
	}, properties.MessageBound[Local, Msg](properties.SendBound{
		Formula: "3N-1", Of: func(n int) int { return 3*n - 1 },
		Why: "the notes' worst case of one initiator, the successor of the future leader",
	})}
}
