package check_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
)

// relay is Chang-Roberts with a round number before the ID in its
// message: ELECT(0,3). A message's first integer is no process's ID.
type relay struct{}

type relayLocal struct {
	Started bool
	Leader  int
}

type relayMsg struct{ Round, ID int }

func (relay) Init() relayLocal            { return relayLocal{} }
func (relay) Elected(l *relayLocal) int   { return l.Leader }
func (relay) FormatMsg(m relayMsg) string { return fmt.Sprintf("ELECT(%d,%d)", m.Round, m.ID) }
func (relay) CanInitiate(_ *model.Ctx[relayMsg], l *relayLocal, suspects bool) bool {
	return suspects && !l.Started && l.Leader == 0
}
func (relay) Initiate(c *model.Ctx[relayMsg], l *relayLocal) {
	l.Started = true
	c.SendNext(model.CW, relayMsg{0, c.ID()})
}
func (relay) Receive(c *model.Ctx[relayMsg], l *relayLocal, _ int, m relayMsg) {
	switch {
	case m.ID == c.ID():
		l.Leader = c.ID()
	case m.ID > c.ID():
		l.Started = true
		c.SendNext(model.CW, m)
	}
}

// The message that circulates is known by where it came from (the steps'
// sends), not by what it says: ELECT(0,3) is p3's, whatever its first
// integer.
func TestOrphanIsKnownByItsOrigin(t *testing.T) {
	rep, err := mchecktest.Run(relay{}, mchecktest.Config{Name: "relay", N: 3, Crashes: 1, Continue: true})
	require.NoError(t, err)
	v := mchecktest.Verdict(rep, "Termination")
	require.Equal(t, check.Violated, v.Status)
	require.Equal(t, cex.FairCycle, v.Kind)
	assert.Contains(t, v.Summary, "ELECT(0,3) of crashed p3 circulates forever")
}
