package properties_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
	"github.com/mcheck/mcheck/specs"
)

// bounded is the scripted algorithm with a MessageBound of its own, and a
// second message type that the typed bound does not count.
type bounded struct {
	scripted
	b properties.SendBound
}

func (a bounded) Properties() []model.Property[sLocal, sMsg] {
	return []model.Property[sLocal, sMsg]{properties.MessageBound[sLocal, sMsg](a.b)}
}

func (bounded) MsgTypes() []string { return []string{"ONE", "OTHER"} }

func (bounded) MsgType(m *sMsg) int {
	if m.V == 1 {
		return 0
	}
	return 1
}

// boundVerdict checks a bound on two processes that each send one token,
// which every receiver passes on for ever: ID 1's tokens are ONE, ID 2's
// OTHER.
func boundVerdict(t *testing.T, b properties.SendBound, script ...[]act) check.Verdict {
	t.Helper()
	if script == nil {
		script = [][]act{{{elect: 2, send: true}}, {{elect: 2, send: true}}}
	}
	alg := bounded{scripted{script}, b}
	spec := specs.Spec{Name: "bounded", Build: specs.Builder[sLocal, sMsg](alg)}
	rep, err := check.Run(check.Request{Spec: spec, Config: model.Config{N: 2}, Properties: []string{"MessageBound"}, Workers: 1})
	require.NoError(t, err)
	for _, v := range rep.Verdicts {
		if v.Name == "MessageBound" {
			return v
		}
	}
	t.Fatal("no verdict of MessageBound")
	return check.Verdict{}
}

func TestMessageBound(t *testing.T) {
	// Two initial sends and forwarding for ever: 2N = 4 sends are
	// exceeded by the shortest run of five sends.
	v := boundVerdict(t, properties.SendBound{Formula: "2N", Of: func(n int) int { return 2 * n }, Why: "a test"})
	assert.Equal(t, check.Violated, v.Status)
	assert.Len(t, v.Trace.Steps, 6) // the initial state and 5 steps
	assert.Contains(t, v.Summary, "after 5 steps 5 messages were sent, more than 2N = 4")

	// A bound called by a name in the explanation.
	v = boundVerdict(t, properties.SendBound{Formula: "2N", Of: func(n int) int { return 2 * n }, Called: "the bound"})
	assert.Contains(t, v.Summary, "more than the bound 4")

	// Counting only ONE: the first violation needs ID 1's token to go
	// round three times, whatever OTHER does.
	v = boundVerdict(t, properties.SendBound{Formula: "N", Of: func(n int) int { return n }, Type: "ONE"})
	assert.Equal(t, check.Violated, v.Status)
	assert.Len(t, v.Trace.Steps, 4)
	assert.Contains(t, v.Summary, "after 3 steps 3 ONE messages were sent, more than N = 2")

	// Only ID 2 sends, and only OTHER: no ONE is ever sent.
	quiet := [][]act{{{elect: 2}}, {{elect: 2, send: true}}}
	assert.Equal(t, check.Holds, boundVerdict(t, properties.SendBound{Formula: "0", Of: func(int) int { return 0 }, Type: "ONE"}, quiet...).Status)
	assert.Equal(t, check.Violated, boundVerdict(t, properties.SendBound{Formula: "0", Of: func(int) int { return 0 }}, quiet...).Status)
}

func TestMessageBoundDoc(t *testing.T) {
	p := properties.MessageBound[sLocal, sMsg](properties.SendBound{Formula: "3N-1", Of: func(n int) int { return 3*n - 1 }, Type: "ELECTION", Why: "the notes"})
	assert.Equal(t, "at most 3N-1 ELECTION messages are sent (the notes)", p.Doc)
	assert.Equal(t, 3*model.MaxN, p.CountSends)
	assert.Equal(t, []string{"ELECTION"}, p.CountTypes)
	assert.True(t, p.Optional)
}
