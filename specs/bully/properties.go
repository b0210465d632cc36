package bully

import "github.com/mcheck/mcheck/model"

// Properties are Bully's own claims (optional: --check NAME).
func (Algorithm) Properties() []model.Property[Local, Msg] {
	return []model.Property[Local, Msg]{{
		Name: "WaitingAfterOK", Kind: model.StepProperty, Optional: true,
		Doc:  "a process starts waiting for COORDINATOR only when it receives an OK",
		Step: waitsAfterOK, When: startsWaiting,
	}}
}

// startsWaiting: some process starts waiting in the step, what
// WaitingAfterOK speaks of.
func startsWaiting(before *model.View[Local, Msg], _ model.Action, after *model.View[Local, Msg]) bool {
	for p := 0; p < after.N(); p++ {
		if after.Local(p).Status == Waiting && (before.Local(p).Status != Waiting || !before.Alive(p)) {
			return true
		}
	}
	return false
}

func waitsAfterOK(before *model.View[Local, Msg], a model.Action, after *model.View[Local, Msg]) bool {
	for p := 0; p < after.N(); p++ {
		if after.Local(p).Status != Waiting || before.Local(p).Status == Waiting && before.Alive(p) {
			continue
		}
		if a.Kind() != model.KindDeliver || a.Q() != p {
			return false
		}
		if ch := before.Chan(a.P(), p); len(ch) == 0 || ch[0].Kind != OK {
			return false
		}
	}
	return true
}
