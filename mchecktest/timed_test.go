package mchecktest_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
)

// echo is a student's algorithm with a timer of its own (docs/semantics.md
// section 6.4): the lowest process asks the highest for its ID and waits
// Config.Timeout ticks for the answer; if the timer runs out first, it
// takes the lead itself, as if the highest had crashed. A round trip takes
// up to 2D ticks, so a timeout of 2D races the answer.
type echo struct{}

type echoLocal struct {
	Waiting  bool // asked, no answer yet: the timer runs
	TimedOut bool
	Elected  int
}

type echoMsg struct {
	Kind string // ASK or ANSWER
	J    int
}

func (echo) Init() echoLocal          { return echoLocal{} }
func (echo) Elected(l *echoLocal) int { return l.Elected }
func (echo) CanInitiate(c *model.Ctx[echoMsg], l *echoLocal, suspects bool) bool {
	return c.Self() == c.ByID()[0] && !l.Waiting && suspects
}
func (echo) Initiate(c *model.Ctx[echoMsg], l *echoLocal) {
	l.Waiting, l.Elected = true, 0
	c.Send(c.ByID()[c.N()-1], echoMsg{"ASK", c.ID()})
}
func (echo) Receive(c *model.Ctx[echoMsg], l *echoLocal, from int, m echoMsg) {
	switch m.Kind {
	case "ASK":
		l.Elected = c.ID()
		c.Send(from, echoMsg{"ANSWER", c.ID()})
	case "ANSWER":
		if l.Waiting {
			l.Waiting, l.Elected = false, m.J
		}
	}
}
func (echo) FormatMsg(m echoMsg) string { return m.Kind }
func (echo) Timers() []model.Timer[echoLocal, echoMsg] {
	return []model.Timer[echoLocal, echoMsg]{{
		Name:  "timeout",
		Armed: func(l *echoLocal) bool { return l.Waiting },
		Justified: func(c *model.GuardCtx[echoMsg], _ *echoLocal) bool {
			return !c.Alive(c.ByID()[c.N()-1])
		},
		Fire:     func(c *model.Ctx[echoMsg], l *echoLocal) { l.Waiting, l.TimedOut, l.Elected = false, true, c.ID() },
		Duration: func(t model.Times) int { return t.Timeout },
	}}
}

// A too-short timeout is caught by go test: with delay D a timeout of 2D
// elects two leaders, the answer of age D racing the timer at 0; 2D+1
// (the default) is safe and live.
func TestATimerOfTheStudentsOwn(t *testing.T) {
	for _, d := range []int{1, 2} {
		rep, err := mchecktest.Run(echo{}, mchecktest.Config{N: 2, Timing: model.Sync, Delay: d, Timeout: 2 * d})
		require.NoError(t, err)
		v := mchecktest.Verdict(rep, "SingleLeader")
		require.Equal(t, check.Violated, v.Status, "timeout 2D at delay %d", d)
		last := v.File.Steps[len(v.File.Steps)-1]
		assert.Equal(t, "timeout p1", last.Label(), "the timeout breaks it")
		prev := v.File.Steps[len(v.File.Steps)-2].State
		require.Len(t, prev.Channels, 1)
		assert.Equal(t, "[ANSWER@"+strconv.Itoa(d)+"]", prev.Channels[0].Contents(), "while the answer, D ticks old, is on its way")

		ok := mchecktest.Check(t, echo{}, mchecktest.Config{N: 2, Timing: model.Sync, Delay: d})
		assert.Equal(t, check.Holds, mchecktest.Status(ok, "Termination"))
	}
}

func TestTimedConfigMistakesByFieldName(t *testing.T) {
	_, err := mchecktest.Run(selfish{}, mchecktest.Config{N: 2, Timing: model.Sync, Timeout: 3})
	assert.EqualError(t, err, "Config.Timeout: this algorithm has no timers, so there is no timeout to set: leave Config.Timeout out")
	_, err = mchecktest.Run(echo{}, mchecktest.Config{N: 2, Delay: 2})
	assert.EqualError(t, err, "Config.Delay needs Config.Timing sync or partial: the asynchronous model (Config.Timing async, the default) has no clocks")
	_, err = mchecktest.Run(untimedEcho{}, mchecktest.Config{N: 2, Timing: model.Partial})
	assert.EqualError(t, err, "Config.Timing partial: the algorithm's timer timeout has no Duration, so it cannot count ticks: give its model.Timer a Duration, such as func(t model.Times) int { return t.Timeout }")
}

// untimedEcho is echo with a timer that has no Duration.
type untimedEcho struct{ echo }

func (untimedEcho) Timers() []model.Timer[echoLocal, echoMsg] {
	ts := echo{}.Timers()
	ts[0].Duration = nil
	return ts
}
