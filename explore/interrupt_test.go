package explore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
)

// cancelAtLastLevel runs sys with opt twice: in full, then with a Context
// that the Progress callback cancels (with cause) as the last level's batch
// starts, so that the search itself completes and only the work after it
// sees the Context done. (The levels of these systems fit in one batch.)
func cancelAtLastLevel(t *testing.T, sys model.System, opt explore.Options, cause error) (full, cut *explore.Result) {
	t.Helper()
	full = run(t, sys, opt)
	require.True(t, full.Complete)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	cancelled := false
	opt.Context, opt.ProgressEvery = ctx, 1
	opt.Progress = func(p explore.Progress) {
		if p.Depth == full.Depth {
			cancel(cause)
			cancelled = true
		}
	}
	cut = run(t, sys, opt)
	require.True(t, cancelled, "the last level was reached")
	return full, cut
}

// A fair-cycle check that the Context stops claims nothing: no lasso, and
// LivenessSkipped says that it was interrupted and by what; the search's
// own counts stand.
func TestFairCycleCheckInterrupted(t *testing.T) {
	sys := newCounter(t, mod5)
	full, cut := cancelAtLastLevel(t, sys, explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(zero)}, Liveness: true}, errors.New("SIGINT (Ctrl-C)"))
	require.NotNil(t, full.Violated(cex.FairCycle, zero))
	assert.Empty(t, full.LivenessSkipped)

	assert.True(t, cut.Complete, "the search itself finished")
	assert.Equal(t, full.States, cut.States)
	assert.Equal(t, full.Transitions, cut.Transitions)
	assert.Empty(t, cut.Violations, "a lasso exists, but the interrupted check may not claim one")
	assert.Equal(t, "the fair-cycle check was interrupted: SIGINT (Ctrl-C)", cut.LivenessSkipped)
}

// A stuck state found by the search stays a violation when the fair-cycle
// check after it is interrupted: it was found and replayed before.
func TestStuckStateSurvivesAnInterruptedFairCycleCheck(t *testing.T) {
	sys := newCounter(t, counter{k: 5, add: 1, mul: 2, noAdd: 3})
	full, cut := cancelAtLastLevel(t, sys, explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(even)}, Liveness: true, Continue: true}, errors.New("time limit of 1s reached"))
	require.NotNil(t, full.Violated(cex.FairCycle, even))
	require.Len(t, cut.Violations, 1)
	stuck := cut.Violated(cex.Stuck, even)
	require.NotNil(t, stuck)
	assert.Equal(t, []int{0, 1, 2, 3}, values(sys, stuck.Trace))
	requireReplays(t, sys, stuck.Trace)
	assert.Equal(t, "the fair-cycle check was interrupted: time limit of 1s reached", cut.LivenessSkipped)
}

// The measures' dynamic programs stop the same way: no measures, and
// MeasuresSkipped says why.
func TestMeasuresInterrupted(t *testing.T) {
	sys := newCounter(t, mod5)
	full, cut := cancelAtLastLevel(t, sys, explore.Options{Measure: true, Continue: true}, errors.New("SIGTERM"))
	require.NotNil(t, full.Measures, full.MeasuresSkipped)
	assert.True(t, cut.Complete)
	assert.Nil(t, cut.Measures)
	assert.Equal(t, "the measures were interrupted: SIGTERM", cut.MeasuresSkipped)
}

// The leads-to check after the search reports its progress over the
// states once for each leads-to.
func TestLeadsToCheckReportsProgress(t *testing.T) {
	sys := newCounter(t, counter{k: explore.RaceSize(200_003, 50_021), add: 1, mul: 2, noAdd: -1})
	var after []explore.Progress
	opt := explore.Options{Targets: explore.Targets{LeadsTo: []explore.LeadsTo{{From: nonZero, To: zero}, {From: zero, To: even}}}, Liveness: true, Continue: true, ProgressEvery: time.Nanosecond,
		Progress: func(p explore.Progress) {
			if p.Phase != explore.Searching {
				after = append(after, p)
			}
		}}
	res := run(t, sys, opt)
	require.True(t, res.Complete)
	require.NotEmpty(t, after)
	for _, p := range after {
		assert.Equal(t, explore.CheckingFairCycles, p.Phase)
		assert.Equal(t, 2*res.States, p.Of, "two leads-to, each over every state")
		assert.LessOrEqual(t, p.Done, p.Of)
	}
}

// After the search, the fair-cycle check reports its progress: how many
// of the states the SCC pass has finished, of all of them.
func TestFairCycleCheckReportsProgress(t *testing.T) {
	// Under -race about the fewest states that make three reports.
	sys := newCounter(t, counter{k: explore.RaceSize(200_003, 140_009), add: 1, mul: 2, noAdd: -1})
	var after []explore.Progress
	opt := explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(zero)}, Liveness: true, ProgressEvery: time.Nanosecond,
		Progress: func(p explore.Progress) {
			if p.Phase != explore.Searching {
				after = append(after, p)
			}
		}}
	res := run(t, sys, opt)
	require.True(t, res.Complete)
	require.GreaterOrEqual(t, len(after), 3, "one report at the start and one every 64K states")
	for i, p := range after {
		assert.Equal(t, explore.CheckingFairCycles, p.Phase)
		assert.Equal(t, res.States, p.Of)
		assert.Equal(t, res.States, p.States)
		assert.Positive(t, p.Done)
		assert.LessOrEqual(t, p.Done, p.Of)
		if i > 0 {
			assert.Greater(t, p.Done, after[i-1].Done)
		}
	}
}
