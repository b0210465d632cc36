package changroberts

import (
	"fmt"
	"strings"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
)

// Properties are Chang-Roberts's own claims (optional: --check NAME),
// docs/semantics.md sections 2.5 and 2.10.
func (Algorithm) Properties() []model.Property[Local, Msg] {
	return []model.Property[Local, Msg]{{
		Name: "NonParticipantForwardsNoElection", Kind: model.StepProperty, Optional: true,
		Doc:  "a process that sends an ELECTION is a participant after the step",
		Step: onlyParticipantsSendElection, When: sendsElection,
	}, {
		Name: "NoEarlyAnnounce", Kind: model.StepProperty, Optional: true,
		Doc:  "when a process announces itself (sends ELECTED with its own ID), no ELECTION is left in any channel (the other runs were eliminated before)",
		Step: noElectionLeft, When: announces,
		Explain: func(f *model.Failure[Local, Msg]) string {
			left, verb := electionsLeft(f.State), "is"
			if strings.Contains(left, ", ") {
				verb = "are"
			}
			return fmt.Sprintf("step %d, %s, announces %s while %s %s still on its way",
				f.Steps, f.Label, f.State.Name(announcer(f.Before, f.State)), left, verb)
		},
	}, properties.MessageBound[Local, Msg](properties.SendBound{
		Formula: "N(N+1)/2 + N", Of: worst,
		Why: "the notes' worst case with every process an initiator",
	})}
}

// worst is the notes' count for Chang-Roberts with every process an
// initiator: n + (n-1) + ... + 1 ELECTION messages, then n ELECTED.
func worst(n int) int { return n*(n+1)/2 + n }

// announcer is the process that announces itself in the step: it sends an
// ELECTED carrying its own ID, which Chang-Roberts does only on receiving
// its own ELECTION back (docs/semantics.md section 3.2); -1 if none. Only
// the process taking a step adds to its outgoing channels, so more such
// messages on them after the step than before means that it sent one
// (whichever message the step delivered, in whatever order channels
// deliver).
func announcer(before *model.View[Local, Msg], after *model.View[Local, Msg]) int {
	for q := 0; q < after.N(); q++ {
		own := func(m Msg) bool { return m.Kind == Elected && m.J == after.ID(q) }
		for r := 0; r < after.N(); r++ {
			if count(after.Chan(q, r), own) > count(before.Chan(q, r), own) {
				return q
			}
		}
	}
	return -1
}

func count(ms []Msg, f func(Msg) bool) int {
	n := 0
	for _, m := range ms {
		if f(m) {
			n++
		}
	}
	return n
}

func announces(before *model.View[Local, Msg], _ model.Action, after *model.View[Local, Msg]) bool {
	return announcer(before, after) >= 0
}

// noElectionLeft: a step that announces leaves no ELECTION in a channel
// (every other step satisfies the property).
func noElectionLeft(before *model.View[Local, Msg], _ model.Action, after *model.View[Local, Msg]) bool {
	return announcer(before, after) < 0 || electionsLeft(after) == ""
}

// electionsLeft lists the ELECTION messages in the channels of v, in
// channel order ("ELECTION(3) on p3→p4"; "" if none).
func electionsLeft(v *model.View[Local, Msg]) string {
	var out []string
	for p := 0; p < v.N(); p++ {
		for q := 0; q < v.N(); q++ {
			for _, m := range v.Chan(p, q) {
				if m.Kind == Election {
					out = append(out, fmt.Sprintf("%s on %s→%s", v.FormatMsg(m), v.Name(p), v.Name(q)))
				}
			}
		}
	}
	return strings.Join(out, ", ")
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
