package mchecktest_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
)

// runaway is a model a student could write by mistake: every hop of the
// token counts up, so no two states are alike and the search never ends. It
// has no Codec, so it is explored at the slow, generic speed.
type runaway struct{}

type runawayLocal struct{ Hops int }

type runawayMsg struct{ Hops int }

func (runaway) Init() runawayLocal          { return runawayLocal{} }
func (runaway) Elected(l *runawayLocal) int { return 0 }
func (runaway) CanInitiate(_ *model.Ctx[runawayMsg], l *runawayLocal, suspects bool) bool {
	return l.Hops == 0
}
func (runaway) Initiate(c *model.Ctx[runawayMsg], l *runawayLocal) {
	l.Hops = 1
	c.SendNext(model.CW, runawayMsg{Hops: 1})
}
func (runaway) Receive(c *model.Ctx[runawayMsg], l *runawayLocal, _ int, m runawayMsg) {
	l.Hops = m.Hops + 1
	c.SendNext(model.CW, runawayMsg{Hops: m.Hops + 1})
}
func (runaway) FormatMsg(m runawayMsg) string { return fmt.Sprintf("TOKEN(%d)", m.Hops) }

func TestTimeCapStopsARunawayModel(t *testing.T) {
	ft := &fakeTB{TB: t}
	rep := mchecktest.Check(ft, runaway{}, mchecktest.Config{N: 3, Check: "safety", MaxTime: 300 * time.Millisecond, MaxStates: -1})
	require.NotNil(t, rep)
	assert.False(t, rep.Stats.Complete)
	require.Len(t, ft.errors, 1)
	head, _, _ := strings.Cut(ft.errors[0], "\n")
	assert.Regexp(t, `^SingleLeader unknown: .*`, head)
	assert.Regexp(t, `\nthe search did not finish: stopped by the time cap of 300ms after \d+ states \(Config\.MaxTime, default 5m0s; -1: no cap\), so no property can be said to hold: raise that cap, make the model smaller`, ft.errors[0])
}

func TestStateCapSaysWhichCap(t *testing.T) {
	ft := &fakeTB{TB: t}
	rep := mchecktest.Check(ft, runaway{}, mchecktest.Config{N: 3, Check: "safety", MaxStates: 500})
	require.NotNil(t, rep)
	assert.False(t, rep.Stats.Complete)
	require.Len(t, ft.errors, 1)
	assert.Contains(t, ft.errors[0], "the search did not finish: stopped by the state cap of 500 states (Config.MaxStates, default 2000000; -1: no cap), so no property can be said to hold: raise that cap")
}

// Run says so when the search did not finish: its report has partial
// counts, and a table of counts built from it would be wrong.
func TestRunSaysWhenTheSearchDidNotFinish(t *testing.T) {
	rep, err := mchecktest.Run(runaway{}, mchecktest.Config{N: 3, Check: "safety", MaxStates: 500})
	require.NotNil(t, rep, "the partial report comes with the error")
	assert.False(t, rep.Stats.Complete)
	var inc *mchecktest.IncompleteError
	require.ErrorAs(t, err, &inc)
	assert.EqualError(t, err, "the search did not finish: stopped by the state cap of 500 states (Config.MaxStates, default 2000000; -1: no cap), so its counts are partial and no property can be said to hold")
	assert.Equal(t, "Config.MaxStates 500 reached", rep.Stats.Stopped, "the report names the cap as a test sets it, not as a flag")
	assert.Equal(t, "the search did not finish: Config.MaxStates 500 reached", rep.Verdicts[0].Summary)

	rep, err = mchecktest.Run(runaway{}, mchecktest.Config{N: 3, Check: "safety", MaxTime: 100 * time.Millisecond, MaxStates: -1})
	require.ErrorAs(t, err, &inc)
	assert.False(t, rep.Stats.Complete)
	assert.Contains(t, inc.Why, "stopped by the time cap of 100ms")
}
