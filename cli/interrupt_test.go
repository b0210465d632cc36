package cli

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
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
