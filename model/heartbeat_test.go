package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// The heartbeat detector (docs/semantics.md section 6.5) on Bully: exact
// counts and verdicts of small configurations. With TO = P + D (the
// default) a live process is never suspected and every property holds;
// with TO = P + D - 1 a live leader is timed out for ever.
func TestHeartbeatCountsAndVerdicts(t *testing.T) {
	for _, c := range []struct {
		name                string
		cfg                 model.Config
		states, transitions int64
		safety, termination check.Status
	}{
		// Silences (s21, s12) in 0..1: tick waits for the heartbeat due at 1.
		{"n2 sync default", model.Config{N: 2, Timing: model.Sync, Detector: model.Heartbeat}, 4, 5, check.Holds, check.Holds},
		{"n2 sync TO=1", model.Config{N: 2, Timing: model.Sync, Detector: model.Heartbeat, HeartbeatTimeout: 1}, 24, 41, check.Holds, check.Violated},
		// The bound TO >= P + D is exact in P and in D. P=2: silences 0..2,
		// 4 ticks and 12 heartbeats.
		{"n2 sync P=2", model.Config{N: 2, Timing: model.Sync, Detector: model.Heartbeat, HeartbeatPeriod: 2}, 9, 16, check.Holds, check.Holds},
		{"n2 sync P=2 TO=2", model.Config{N: 2, Timing: model.Sync, Detector: model.Heartbeat, HeartbeatPeriod: 2, HeartbeatTimeout: 2}, 45, 94, check.Holds, check.Violated},
		{"n2 sync D=2 TO=2", model.Config{N: 2, Timing: model.Sync, Delay: 2, Detector: model.Heartbeat, HeartbeatTimeout: 2}, 108, 252, check.Holds, check.Violated},
		{"n3 sync crash-any", model.Config{N: 3, MaxCrashes: 2, Timing: model.Sync, Detector: model.Heartbeat}, 548, 1746, check.Holds, check.Holds},
		{"n3 sync crash-any P=2", model.Config{N: 3, MaxCrashes: 2, Timing: model.Sync, Detector: model.Heartbeat, HeartbeatPeriod: 2}, 1929, 9323, check.Holds, check.Holds},
		// Before gst heartbeats may be late: p1 times out the live p2, and
		// p2's OK, late too, lets p1's timeout-ok make it a second leader.
		{"n2 partial crash-any", model.Config{N: 2, MaxCrashes: 1, Timing: model.Partial, Detector: model.Heartbeat}, 7788, 41317, check.Violated, check.Violated},
	} {
		t.Run(c.name, func(t *testing.T) {
			spec, err := specs.Builtin().Lookup("bully")
			require.NoError(t, err)
			c.cfg.InitialLeader = true
			rep, err := check.Run(check.Request{Spec: spec, Config: c.cfg, Properties: []string{"SingleLeader", "Agreement", "Termination"}, Continue: true, Workers: 1, MaxStates: 1_000_000})
			require.NoError(t, err)
			require.True(t, rep.Stats.Complete)
			assert.Equal(t, []any{c.states, c.transitions}, []any{rep.Stats.States, rep.Stats.Transitions}, "states, transitions")
			assert.Equal(t, c.safety, rep.Verdicts[0].Status, "SingleLeader")
			assert.Equal(t, c.safety, rep.Verdicts[1].Status, "Agreement")
			assert.Equal(t, c.termination, rep.Verdicts[2].Status, "Termination")
		})
	}
}

// The options are refused where the model has no place for them.
func TestHeartbeatOptionErrors(t *testing.T) {
	for _, c := range []struct {
		cfg   model.Config
		field string
	}{
		{model.Config{N: 2, Detector: model.Heartbeat}, "Detector"},
		{model.Config{N: 2, Timing: model.Sync, HeartbeatPeriod: 2}, "HeartbeatPeriod"},
		{model.Config{N: 2, Timing: model.Sync, Detector: model.Eventual, HeartbeatTimeout: 2}, "Detector"},
		{model.Config{N: 2, Timing: model.Partial, Detector: model.Perfect, HeartbeatTimeout: 2}, "HeartbeatTimeout"},
		{model.Config{N: 2, Timing: model.Sync, Detector: model.Heartbeat, HeartbeatTimeout: model.MaxHeartbeat + 1}, "HeartbeatTimeout"},
		{model.Config{N: 2, MaxCrashes: 1, MaxRestarts: 1, Timing: model.Sync, Detector: model.Heartbeat}, "MaxRestarts"},
	} {
		err := c.cfg.WithDefaults().Validate()
		var fe *model.FieldError
		require.ErrorAs(t, err, &fe, "%+v", c.cfg)
		assert.Equal(t, c.field, fe.Field, "%+v: %v", c.cfg, err)
	}
}

// --complexity in a timed mode plays the synchronous schedule on the
// asynchronous model, where a detector that needs a clock is the perfect
// one; with the heartbeat detector the complete runs are those that end
// with one process live.
func TestHeartbeatComplexity(t *testing.T) {
	spec, err := specs.Builtin().Lookup("bully")
	require.NoError(t, err)
	for _, cfg := range []model.Config{
		{N: 2, MaxCrashes: 1, InitialLeader: true, Timing: model.Sync, Detector: model.Heartbeat},
		{N: 2, MaxCrashes: 1, InitialLeader: true, Timing: model.Partial, Detector: model.Eventual},
	} {
		rep, err := check.Run(check.Request{Spec: spec, Config: cfg, Properties: []string{"SingleLeader"}, Continue: true, Workers: 1, MaxStates: 1_000_000, Complexity: true})
		require.NoError(t, err, "%+v", cfg)
		require.NotNil(t, rep.Complexity)
	}
}
