package properties

import (
	"fmt"

	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/model"
)

// SendBound is a claim on how many messages a run sends at most, as a
// function of N: the notes' message complexity of an algorithm.
type SendBound struct {
	Formula string          // how the texts write it, e.g. "3N-1"
	Of      func(n int) int // its value for N processes
	Type    string          // count only messages of this type ("" counts all)
	Why     string          // where the bound comes from, for the property's doc
	// Called names the bound in a violation's explanation, for a formula
	// too long to repeat there ("the notes' bound"); "" repeats Formula.
	Called string
}

// MessageBound is the invariant "at most b messages are sent" (optional:
// checked when named). The kernel counts sends up to one past the bound at
// model.MaxN, so that a count stops there and the state space stays
// finite; a run that sends more is a violation at its first excess send.
func MessageBound[L, M any](b SendBound) model.Property[L, M] {
	what := "messages"
	var types []string
	if b.Type != "" {
		what, types = b.Type+" messages", []string{b.Type}
	}
	sent := func(v *model.View[L, M]) int {
		if b.Type != "" {
			return v.SentOf(b.Type)
		}
		return v.Sent()
	}
	doc := fmt.Sprintf("at most %s %s are sent", b.Formula, what)
	if b.Why != "" {
		doc += " (" + b.Why + ")"
	}
	return model.Property[L, M]{
		Name: "MessageBound", Kind: model.Invariant, Optional: true, Doc: doc,
		CountSends: b.Of(model.MaxN) + 1, CountTypes: types,
		Holds: func(v *model.View[L, M]) bool { return sent(v) <= b.Of(v.N()) },
		Explain: func(f *model.Failure[L, M]) string {
			bound := fmt.Sprintf("%s = %d", b.Formula, b.Of(f.State.N()))
			if b.Called != "" {
				bound = fmt.Sprintf("%s %d", b.Called, b.Of(f.State.N()))
			}
			return fmt.Sprintf("after %s %d %s were sent, more than %s", plural.Count(f.Steps, "step"), sent(f.State), what, bound)
		},
	}
}
