package ring

import "github.com/mcheck/mcheck/model"

// Properties are the ring algorithm's own claims (optional: --check NAME).
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
	}}
}
