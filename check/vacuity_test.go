package check_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

func vacuityRun(t *testing.T, sp specs.Spec, cfg model.Config, props ...string) *check.Report {
	t.Helper()
	req := check.Request{Spec: sp, Config: cfg, Continue: true}
	if props != nil {
		req.Properties = props
	}
	rep, err := check.Run(req)
	require.NoError(t, err)
	require.True(t, rep.Stats.Complete)
	return rep
}

// Bully's default starts from an elected leader that never fails: no step
// is enabled, so every property holds of the one initial state.
func TestIdleSearchIsVacuous(t *testing.T) {
	rep := vacuityRun(t, spec(t, "bully"), model.Config{N: 8, InitialLeader: true})
	assert.Equal(t, int64(1), rep.Stats.States)
	assert.True(t, rep.Idle())
	assert.False(t, rep.Violated())
	assert.Equal(t, check.AlwaysInGoal, mchecktest.Verdict(rep, "Termination").Vacuous)

	rep = vacuityRun(t, spec(t, "bully"), model.Config{N: 3, InitialLeader: true, MaxCrashes: 2})
	assert.False(t, rep.Idle())
	rep = vacuityRun(t, spec(t, "chang-roberts"), model.Config{N: 3})
	assert.False(t, rep.Idle())
	v := mchecktest.Verdict(rep, "Termination")
	assert.Equal(t, check.Holds, v.Status)
	assert.Empty(t, v.Vacuous, "the ring elects: Termination had work to do")
}

// A step property whose antecedent (Property.When) never occurs holds
// vacuously: with only p3 allowed to detect and one crash, nobody ever
// starts waiting for a COORDINATOR.
func TestStepPropertyNeverTriggered(t *testing.T) {
	rep := vacuityRun(t, spec(t, "bully"), model.Config{N: 3, InitialLeader: true, MaxCrashes: 1, Initiators: []int{3}}, "WaitingAfterOK")
	assert.False(t, rep.Idle())
	v := mchecktest.Verdict(rep, "WaitingAfterOK")
	assert.Equal(t, check.Holds, v.Status)
	assert.Equal(t, check.NeverTriggered, v.Vacuous)

	rep = vacuityRun(t, spec(t, "bully"), model.Config{N: 3}, "WaitingAfterOK")
	v = mchecktest.Verdict(rep, "WaitingAfterOK")
	assert.Equal(t, check.Holds, v.Status)
	assert.Empty(t, v.Vacuous, "an election without a leader has processes wait")

	rep = vacuityRun(t, spec(t, "chang-roberts"), model.Config{N: 3}, "NonParticipantForwardsNoElection", "LeaderNotDemoted")
	for _, name := range []string{"NonParticipantForwardsNoElection", "LeaderNotDemoted"} {
		v := mchecktest.Verdict(rep, name)
		assert.Equal(t, check.Holds, v.Status, name)
		assert.Empty(t, v.Vacuous, name)
	}
}

// ticker: a leader elected from the start and a timer that fires once at
// every process: steps happen, and every state is Stable.
type ticker struct{}

type tLocal struct {
	Elected int
	Ticked  bool
}
type tMsg struct{ ID int }

func (ticker) Init() tLocal                                     { return tLocal{} }
func (ticker) InitLeader(leader int) tLocal                     { return tLocal{Elected: leader} }
func (ticker) Elected(l *tLocal) int                            { return l.Elected }
func (ticker) CanInitiate(*model.Ctx[tMsg], *tLocal, bool) bool { return false }
func (ticker) Initiate(*model.Ctx[tMsg], *tLocal)               {}
func (ticker) Receive(*model.Ctx[tMsg], *tLocal, int, tMsg)     {}
func (ticker) FormatMsg(tMsg) string                            { return "M" }
func (ticker) Timers() []model.Timer[tLocal, tMsg] {
	return []model.Timer[tLocal, tMsg]{{
		Name:      "tick",
		Armed:     func(l *tLocal) bool { return !l.Ticked },
		Justified: func(*model.GuardCtx[tMsg], *tLocal) bool { return true },
		Fire:      func(_ *model.Ctx[tMsg], l *tLocal) { l.Ticked = true },
	}}
}

func TestTerminationWithNothingToDo(t *testing.T) {
	// A step property without When speaks of every step.
	anyStep := model.Property[tLocal, tMsg]{Name: "AnyStep", Kind: model.StepProperty,
		Step: func(*model.View[tLocal, tMsg], model.Action, *model.View[tLocal, tMsg]) bool { return true }}
	sp := specs.Spec{Name: "ticker", Build: specs.Builder[tLocal, tMsg](ticker{}, anyStep)}
	rep := vacuityRun(t, sp, model.Config{N: 3, InitialLeader: true}, "SingleLeader", "Termination", "AnyStep")
	assert.Empty(t, mchecktest.Verdict(rep, "AnyStep").Vacuous)
	assert.Equal(t, check.Holds, mchecktest.Verdict(rep, "AnyStep").Status)

	assert.Equal(t, int64(8), rep.Stats.States, "each of 3 processes ticks once")
	assert.False(t, rep.Idle())
	v := mchecktest.Verdict(rep, "Termination")
	assert.Equal(t, check.Holds, v.Status)
	assert.Equal(t, check.AlwaysInGoal, v.Vacuous)
	assert.Empty(t, mchecktest.Verdict(rep, "SingleLeader").Vacuous, "invariants are never vacuous")
}
