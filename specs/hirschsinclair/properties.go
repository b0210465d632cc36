package hirschsinclair

import "github.com/mcheck/mcheck/model"

// Properties are Hirschberg-Sinclair's own claims (optional: --check NAME).
func (Algorithm) Properties() []model.Property[Local, Msg] {
	return []model.Property[Local, Msg]{{
		Name: "LogPhases", Kind: model.Invariant, Optional: true,
		Doc: "a candidate in phase k has 2^(k-1) < N: a probe of N hops comes back, so there are at most ⌈log2 N⌉+1 phases",
		Holds: func(v *model.View[Local, Msg]) bool {
			for p := 0; p < v.N(); p++ {
				if l := v.Local(p); l.Status == Candidate && l.Phase > 0 && 1<<(l.Phase-1) >= v.N() {
					return false
				}
			}
			return true
		},
	}}
}
