package bullynook_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"example.com/coursework/bullynook"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/bully"
)

// Under the perfect detector the variant without OK passes every check, as
// the real Bully does: a timeout fires only when every higher process has
// crashed, and then no OK could have come. The state spaces differ (no OK
// messages, no waiting status); the verdicts cannot.
func TestWithoutOKPassesUnderThePerfectDetector(t *testing.T) {
	for _, cfg := range []mchecktest.Config{
		{N: 3, Crashes: 1, InitialLeader: true},
		{N: 4, CrashAny: true, InitialLeader: true},
		{N: 3, CrashAny: true},
		// A restart breaks both alike (SingleLeader, as the notes say).
		{N: 3, Crashes: 1, Restarts: 1, InitialLeader: true, Check: "safety"},
	} {
		rep, err := mchecktest.Run(bullynook.Algorithm{}, cfg)
		require.NoError(t, err)
		real, err := mchecktest.Run(bully.Algorithm{}, cfg)
		require.NoError(t, err)
		for _, name := range []string{"SingleLeader", "Agreement", "Termination"} {
			assert.Equal(t, mchecktest.Status(real, name), mchecktest.Status(rep, name), "%s %+v", name, cfg)
		}
		if cfg.Restarts == 0 {
			mchecktest.Check(t, bullynook.Algorithm{}, cfg)
		} else {
			assert.Equal(t, check.Violated, mchecktest.Status(rep, "SingleLeader"))
		}
	}
	rep := mchecktest.Check(t, bullynook.Algorithm{}, mchecktest.Config{N: 4, CrashAny: true, InitialLeader: true})
	assert.Equal(t, int64(2368), rep.Stats.States)
	assert.Equal(t, int64(12072), rep.Stats.Transitions)
}

// With the unreliable detector a timeout may fire early, before anything
// could have come: the variant fails at once. (So does the real Bully, in
// this model: an early timeout is not prevented by an OK on its way. What OK
// changes is which runs exist: 44,698 states here against 407,379.)
func TestWithoutOKFailsUnderTheUnreliableDetector(t *testing.T) {
	cfg := mchecktest.Config{N: 3, Detector: model.Unreliable, InitialLeader: true, MaxQueue: 3, Check: "safety", Continue: true}
	rep, err := mchecktest.Run(bullynook.Algorithm{}, cfg)
	require.NoError(t, err)
	v := mchecktest.Verdict(rep, "SingleLeader")
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, "after 2 steps p1 and p3 each consider themselves leader", v.Summary)
	var actions []string
	for _, s := range v.Trace.Steps[1:] {
		actions = append(actions, s.Label)
	}
	assert.Equal(t, []string{"suspect p1", "early-timeout p1"}, actions)
	assert.Equal(t, int64(44698), rep.Stats.States)

	real, err := mchecktest.Run(bully.Algorithm{}, cfg)
	require.NoError(t, err)
	assert.Equal(t, check.Violated, mchecktest.Status(real, "SingleLeader"))
	assert.Equal(t, int64(407379), real.Stats.States)
}

// With time, OK does its job: the real Bully is safe at T = 2D + 1, and the
// variant without OK is not, because the higher process that would have
// answered is slower than the lower one's timer. (Without a Duration the
// variant could not run timed at all.)
func TestWithoutOKFailsWithTime(t *testing.T) {
	cfg := mchecktest.Config{N: 3, CrashAny: true, InitialLeader: true, Timing: model.Sync, Delay: 1, Timeout: 3, Check: "safety"}
	rep, err := mchecktest.Run(bullynook.Algorithm{}, cfg)
	require.NoError(t, err)
	v := mchecktest.Verdict(rep, "SingleLeader")
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, "after 9 steps p1 and p2 each consider themselves leader", v.Summary)
	mchecktest.Check(t, bully.Algorithm{}, cfg)
}
