package maxring_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"example.com/coursework/maxring"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
)

// messageBound: no run sends more than bound messages. The view counts
// the sends since the initial state once a property declares CountSends;
// counting one past the bound is enough to see it broken (every count
// stops at CountSends).
func messageBound(bound int) model.Property[maxring.Local, maxring.Msg] {
	return model.Property[maxring.Local, maxring.Msg]{
		Name: "MessageBound", Kind: model.Invariant,
		Doc:        fmt.Sprintf("no run sends more than %d messages", bound),
		CountSends: bound + 1,
		Holds:      func(v *model.View[maxring.Local, maxring.Msg]) bool { return v.Sent() <= bound },
	}
}

// The maxID rule sends at most N(N+1)/2 + N messages, Chang-Roberts'
// worst case in the notes, from every arrangement of the IDs on the ring
// (Perm): the bound holds, and one message less is broken by a run that
// the counterexample ends where the bound-th plus one message is sent.
func TestMessageBound(t *testing.T) {
	for n := 3; n <= 5; n++ {
		worst := n*(n+1)/2 + n
		rep := mchecktest.Check(t, maxring.Algorithm{}, mchecktest.Config{N: n, Perm: true,
			Properties: []model.AnyProperty{messageBound(worst)}})
		require.NotNil(t, rep)
		assert.Equal(t, check.Holds, mchecktest.Status(rep, "MessageBound"), "N=%d", n)

		rep, err := mchecktest.Run(maxring.Algorithm{}, mchecktest.Config{N: n, Perm: true,
			Properties: []model.AnyProperty{messageBound(worst - 1)}})
		require.NoError(t, err)
		v := mchecktest.Verdict(rep, "MessageBound")
		require.Equal(t, check.Violated, v.Status, "N=%d", n)
		last := v.File.Steps[len(v.File.Steps)-1].State
		assert.Equal(t, worst, last.Sent.Total, "N=%d", n)
		var ids []int
		for _, p := range v.File.Steps[0].State.Processes {
			ids = append(ids, p.ID)
		}
		assert.Equal(t, 1, ids[0], "N=%d: the worst arrangement starts at 1 and decreases clockwise: %v", n, ids)
	}
}
