package electedloop_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"example.com/coursework/electedloop"
	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/mchecktest"
)

// Termination is not quiescence: everybody agrees on p3 for good, so
// Termination holds; but ELECTED(3) goes round the ring for ever, a fair
// cycle of three deliveries that Quiescent (<>[] no message in flight and
// no fair step enabled) rejects. Chang-Roberts itself passes both.
func TestTerminationHoldsQuiescentFails(t *testing.T) {
	rep, err := mchecktest.Run(electedloop.Algorithm{}, mchecktest.Config{N: 3, Check: "all,Quiescent"})
	require.NoError(t, err)
	t.Log(mchecktest.Failure(rep, false))
	assert.EqualValues(t, 26, rep.Stats.States, "Chang-Roberts has 25")
	assert.Equal(t, check.Holds, mchecktest.Status(rep, "SingleLeader"))
	assert.Equal(t, check.Holds, mchecktest.Status(rep, "Agreement"))
	assert.Equal(t, check.Holds, mchecktest.Status(rep, "Termination"))
	q := mchecktest.Verdict(rep, "Quiescent")
	require.Equal(t, check.Violated, q.Status)
	assert.Equal(t, cex.FairCycle, q.Kind)
	assert.Equal(t, "a fair cycle of 3 steps repeats forever, so the system never falls quiet (in flight where it starts: p2→p3 ELECTED(3)), although every live process has elected 3", q.Summary)
	var cycle []string
	for _, s := range q.File.Steps[*q.File.CycleStart+1:] {
		cycle = append(cycle, s.Label())
	}
	assert.Equal(t, []string{"deliver p2→p3 ELECTED(3)", "deliver p3→p1 ELECTED(3)", "deliver p1→p2 ELECTED(3)"}, cycle)

	// Chang-Roberts, the same check: both hold.
	mchecktest.Check(t, electedloop.Algorithm{}.Algorithm, mchecktest.Config{N: 3, Check: "all,Quiescent"})
}
