package cli

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/report"
	"github.com/mcheck/mcheck/specs"
)

// A check whose search finished but whose fair-cycle check was stopped
// (here by a cancel as the last level starts, deterministically) exits
// with status 2, and Termination is unknown, never "holds".
func TestInterruptedFairCycleCheckExitsIncomplete(t *testing.T) {
	spec, err := specs.Builtin().Lookup("bully")
	require.NoError(t, err)
	cfg := model.Config{N: 4, MaxCrashes: 3, InitialLeader: true, MaxQueue: 2}
	full, err := check.Run(check.Request{Spec: spec, Config: cfg})
	require.NoError(t, err)
	require.Equal(t, ExitHolds, exitStatus(full))

	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	rep, err := check.Run(check.Request{Spec: spec, Config: cfg, Context: ctx, ProgressEvery: 1, Progress: func(p explore.Progress) {
		if p.Depth == full.Stats.Depth {
			cancel(errors.New(signalName(stopSignals[0])))
		}
	}})
	require.NoError(t, err)
	assert.Equal(t, ExitIncomplete, exitStatus(rep))
	var b strings.Builder
	writeText(&b, rep, false)
	var term string
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "  Termination") {
			term = line
		}
	}
	assert.Equal(t, "  Termination   unknown  no stuck state, but fair cycles were not checked: the fair-cycle check was interrupted: SIGINT (Ctrl-C)", term)
}

// A stuck state found by the search is a violation whatever the fair-cycle
// check finds, but when that check is then interrupted the report says so
// (it said nothing, and read as a finished check).
func TestInterruptedFairCycleCheckAfterAStuckStateIsSaid(t *testing.T) {
	spec, err := specs.Builtin().Lookup("chang-roberts")
	require.NoError(t, err)
	ctx, stop := stopAt(t)
	req := check.Request{Spec: spec, Config: model.Config{N: 5, MaxCrashes: 1, MaxQueue: 10}, Continue: true, Context: ctx, ProgressEvery: 1,
		Progress: func(p explore.Progress) {
			if p.Phase == explore.CheckingFairCycles {
				stop()
			}
		}}
	rep, err := runCheck(req, &options{})
	require.NoError(t, err)
	assert.Equal(t, ExitViolation, exitStatus(rep))
	var b strings.Builder
	writeText(&b, rep, false)
	assert.Contains(t, b.String(), "\n  Termination   VIOLATED  stuck without a leader: no fair step is enabled, and p1 elected=⊥, p2 elected=⊥, p3 elected=⊥, p4 elected=⊥ (Stable needs elected=4); fair cycles were not checked: the fair-cycle check was interrupted: SIGTERM\n")
}

// stopAt is a stop signal (as stopOnSignal gives it) that a test sends
// from a hook: the context it cancels, and cancel.
func stopAt(t *testing.T) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	t.Cleanup(func() { cancel(nil) })
	return ctx, func() { cancel(errors.New(signalName(syscall.SIGTERM))) }
}

// smallDeepening is a check whose bounds 1 and 2 discard steps, so that
// --max-queue auto goes on to bound 3.
func smallDeepening(t *testing.T, ctx context.Context) (check.Request, *options) {
	spec, err := specs.Builtin().Lookup("bully")
	require.NoError(t, err)
	return check.Request{Spec: spec, Config: model.Config{N: 3, MaxCrashes: 2, InitialLeader: true}, Context: ctx, ProgressEvery: 1},
		func() *options { o := &options{}; o.model.AutoQueue = true; return o }()
}

// A signal while --max-queue auto runs is an incomplete check, whether it
// comes between two bounds or within one: exit status 2, and nothing
// holds, though an earlier bound finished.
func TestSignalDuringDeepeningIsIncomplete(t *testing.T) {
	for _, c := range []struct {
		name string
		hook func(req *check.Request, stop func())
	}{
		{"between bounds", func(req *check.Request, stop func()) {
			req.Sweeping = func(c model.Config) {
				if c.MaxQueue == 2 {
					stop()
				}
			}
		}},
		{"within a bound", func(req *check.Request, stop func()) {
			bound := 0
			req.Sweeping = func(c model.Config) { bound = c.MaxQueue }
			req.Progress = func(explore.Progress) {
				if bound == 2 {
					stop()
				}
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, stop := stopAt(t)
			req, o := smallDeepening(t, ctx)
			c.hook(&req, stop)
			rep, err := runCheck(req, o)
			require.NoError(t, err)
			assert.Equal(t, ExitIncomplete, exitStatus(rep))
			var b strings.Builder
			writeText(&b, rep, false)
			out := b.String()
			assert.Contains(t, out, "search       INCOMPLETE: interrupted: SIGTERM at bound 2; the counts are those of bound 1, which finished\n")
			assert.Contains(t, out, "  SingleLeader  unknown  no violation with at most 1 message per channel (bound 1), but the check was interrupted at bound 2\n")
			assert.Contains(t, out, "  max-queue 2   ")
			assert.Contains(t, out, "stopped: interrupted: SIGTERM\n")
			assert.NotContains(t, out, " holds")
			assert.Contains(t, out, "deepening did not finish, so no property can be said to hold\n")
		})
	}
	// Without a signal the same deepening finishes and holds.
	req, o := smallDeepening(t, context.Background())
	rep, err := runCheck(req, o)
	require.NoError(t, err)
	assert.Equal(t, ExitHolds, exitStatus(rep))
	assert.Equal(t, 3, rep.Deepening.Verdicts)
}

// A signal while --complexity computes the measures over the complete
// graph: exit status 2, no measures and no witnesses, and the report says
// why.
func TestSignalDuringMeasuresIsIncomplete(t *testing.T) {
	spec, err := specs.Builtin().Lookup("bully")
	require.NoError(t, err)
	ctx, stop := stopAt(t)
	req := check.Request{Spec: spec, Config: model.Config{N: 3, MaxCrashes: 2, InitialLeader: true}, Complexity: true, Context: ctx, ProgressEvery: 1,
		Progress: func(p explore.Progress) {
			if p.Phase == explore.ComputingMeasures {
				stop()
			}
		}}
	rep, err := runCheck(req, &options{})
	require.NoError(t, err)
	assert.Equal(t, ExitIncomplete, exitStatus(rep))
	require.NotNil(t, rep.Complexity)
	assert.Nil(t, rep.Complexity.Measures)
	assert.Equal(t, []string{"sync"}, rep.Complexity.WitnessNames(), "no min or max witness from measures that were not computed")
	var b strings.Builder
	require.NoError(t, report.Complexity(&b, reportOf(rep), "", false))
	assert.Contains(t, b.String(), "  not measured: the measures were interrupted: SIGTERM\n")
}

// A signal during a bitstate search: exit status 2, the search says it
// was interrupted.
func TestSignalDuringBitstateIsIncomplete(t *testing.T) {
	spec, err := specs.Builtin().Lookup("bully")
	require.NoError(t, err)
	ctx, stop := stopAt(t)
	req := check.Request{Spec: spec, Config: model.Config{N: 4, MaxCrashes: 3, InitialLeader: true}, Strategy: check.Bitstate{Bytes: 1 << 20}, Context: ctx, ProgressEvery: 1,
		Progress: func(p explore.Progress) {
			if p.Depth >= 3 {
				stop()
			}
		}}
	rep, err := runCheck(req, &options{})
	require.NoError(t, err)
	assert.Equal(t, ExitIncomplete, exitStatus(rep))
	assert.False(t, rep.Stats.Complete)
	assert.Equal(t, "interrupted: SIGTERM", rep.Stats.Stopped)
}

// A signal during the full search that follows a reduced search's
// violation (for a shortest counterexample) keeps the violation found:
// exit status 1 with its counterexample, not an empty incomplete report.
func TestSignalDuringShortestTraceRerunKeepsTheViolation(t *testing.T) {
	spec, err := specs.Builtin().Lookup("lelann")
	require.NoError(t, err)
	cfg := model.Config{N: 4, MaxCrashes: 1}
	safety := []string{"SingleLeader", "Agreement"}
	full, err := check.Run(check.Request{Spec: spec, Config: cfg, Properties: safety, Reduce: true})
	require.NoError(t, err)
	require.True(t, full.RerunFull, "the check this test interrupts reruns in full")

	ctx, stop := stopAt(t)
	var searches int
	var last time.Duration
	req := check.Request{Spec: spec, Config: cfg, Properties: safety, Reduce: true, Context: ctx, ProgressEvery: 1,
		Progress: func(p explore.Progress) {
			// Each search's time starts again from zero.
			if searches == 0 || p.Elapsed < last {
				searches++
			}
			last = p.Elapsed
			if searches == 2 {
				stop()
			}
		}}
	rep, err := runCheck(req, &options{})
	require.NoError(t, err)
	require.Equal(t, 2, searches, "the rerun started")
	assert.False(t, rep.RerunFull)
	assert.True(t, rep.Stats.Reduced, "the report is the reduced search's")
	assert.Equal(t, ExitViolation, exitStatus(rep))
	require.NotEmpty(t, rep.Files())
}
