package changroberts

import "github.com/mcheck/mcheck/model"

// Properties are Chang-Roberts's own claims (optional: --check NAME).
func (Algorithm) Properties() []model.Property[Local, Msg] {
	return []model.Property[Local, Msg]{{
		Name: "NonParticipantForwardsNoElection", Kind: model.StepProperty, Optional: true,
		Doc:  "a process that sends an ELECTION is a participant after the step",
		Step: onlyParticipantsSendElection, When: sendsElection,
	}}
}

// sendsElection: some process sends an ELECTION in the step, what
// NonParticipantForwardsNoElection speaks of.
func sendsElection(before *model.View[Local, Msg], _ model.Action, after *model.View[Local, Msg]) bool {
	for p := 0; p < after.N(); p++ {
		for q := 0; q < after.N(); q++ {
			if elections(after.Chan(p, q)) > elections(before.Chan(p, q)) {
				return true
			}
		}
	}
	return false
}

// Only the process taking a step can add to its outgoing channels, so more
// ELECTION messages on a channel out of p after the step than before it
// means that p sent one.
func onlyParticipantsSendElection(before *model.View[Local, Msg], _ model.Action, after *model.View[Local, Msg]) bool {
	for p := 0; p < after.N(); p++ {
		if after.Local(p).Participant {
			continue
		}
		for q := 0; q < after.N(); q++ {
			if elections(after.Chan(p, q)) > elections(before.Chan(p, q)) {
				return false
			}
		}
	}
	return true
}

func elections(ms []Msg) int {
	n := 0
	for _, m := range ms {
		if m.Kind == Election {
			n++
		}
	}
	return n
}
