package bully

import (
	"fmt"

	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
)

// Properties are Bully's own claims (optional: --check NAME),
// docs/semantics.md section 2.10.
func (Algorithm) Properties() []model.Property[Local, Msg] {
	return []model.Property[Local, Msg]{{
		Name: "WaitingAfterOK", Kind: model.StepProperty, Optional: true,
		Doc:  "a process starts waiting for COORDINATOR only when it receives an OK",
		Step: waitsAfterOK, When: startsWaiting,
	}, {
		Name: "TakeOver", Kind: model.Sometimes, Optional: true, ElectedOnly: true,
		Doc:   "the largest ID is down and the next largest is a live leader (ids 1..4: p3 is leader after p4 crashed); the report shows a shortest such run",
		Holds: takenOver, Explain: explainTakeOver,
	}, properties.MessageBound[Local, Msg](properties.SendBound{
		Formula: "N(N-1)/2", Of: electionBound, Type: "ELECTION",
		Why: "the notes' worst case: N-1 + N-2 + ... + 1",
	})}
}

// electionBound is the notes' count of ELECTION messages when the process
// with the smallest ID detects the crash: each of the N-1 processes below
// the largest sends one to every process above it.
func electionBound(n int) int { return n * (n - 1) / 2 }

// topTwo are the largest and the next largest ID (0 if there is none).
func topTwo(v *model.View[Local, Msg]) (top, second int) {
	for p := 0; p < v.N(); p++ {
		switch id := v.ID(p); {
		case id > top:
			top, second = id, top
		case id < top && id > second:
			second = id
		}
	}
	return top, second
}

// takenOver: no process with the largest ID is live, and one with the next
// largest has elected itself.
func takenOver(v *model.View[Local, Msg]) bool {
	top, second := topTwo(v)
	if second == 0 || v.AliveID(top) {
		return false
	}
	for p := 0; p < v.N(); p++ {
		if v.ID(p) == second && v.Leader(p) {
			return true
		}
	}
	return false
}

func explainTakeOver(f *model.Failure[Local, Msg]) string {
	v := f.State
	top, second := topTwo(v)
	leader, down := "", ""
	for p := 0; p < v.N(); p++ {
		switch {
		case v.ID(p) == second && v.Leader(p) && leader == "":
			leader = v.Name(p)
		case v.ID(p) == top && down == "":
			down = v.Name(p)
		}
	}
	return fmt.Sprintf("after %s %s is leader while %s (ID %d) is down", plural.Count(f.Steps, "step"), leader, down, top)
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
