package model_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
)

// Every rule of Config.Validate, at its boundary: the last value that is
// accepted and the first that is refused, with the message and the field.
func TestValidateRules(t *testing.T) {
	for _, c := range []struct {
		cfg   model.Config
		field string // "" when valid
		msg   string
	}{
		{model.Config{N: 2}, "", ""},
		{model.Config{N: model.MaxN}, "", ""},
		{model.Config{N: 1}, "N", "N 1 is out of range: use 2 to 16 processes"},
		{model.Config{N: model.MaxN + 1}, "N", "N 17 is out of range: use 2 to 16 processes"},
		{model.Config{N: 3, IDs: []int{1, 2}}, "IDs", "IDs has 2 IDs but N is 3: give exactly one ID per process"},
		{model.Config{N: 2, IDs: []int{1, 0}}, "IDs", "IDs: ID 0 is not positive: IDs are positive integers"},
		{model.Config{N: 2, IDs: []int{-4, 1}}, "IDs", "IDs: ID -4 is not positive: IDs are positive integers"},
		{model.Config{N: 2, IDs: []int{1, 1 << 20}}, "", ""},
		{model.Config{N: 2, IDs: []int{1, 1<<20 + 1}}, "IDs", "IDs: ID 1048577 is too large: use IDs up to 1048576"},
		{model.Config{N: 3, IDs: []int{4, 9, 4}}, "IDs", "IDs: ID 4 appears twice: IDs must be unique (or allow duplicates with Anonymous)"},
		{model.Config{N: 3, IDs: []int{4, 9, 4}, Anonymous: true}, "", ""},
		{model.Config{N: 3, IDs: []int{4, 9, 5}, Initiators: []int{9, 6}}, "Initiators", "Initiators: 6 is not the ID of a process (the IDs are 4,9,5)"},
		{model.Config{N: 3, IDs: []int{4, 9, 5}, Down: []int{3}}, "Down", "Down: 3 is not the ID of a process (the IDs are 4,9,5)"},
		{model.Config{N: 2, Detector: model.Incomplete}, "", ""},
		{model.Config{N: 2, Detector: model.Heartbeat + 1}, "Detector", "Detector 5 is not a detector: use model.Perfect, model.Incomplete, model.Unreliable, model.Eventual or model.Heartbeat"},
		{model.Config{N: 2, Detector: model.Eventual, Timing: model.Partial}, "", ""},
		{model.Config{N: 2, Detector: model.Eventual, Timing: model.Partial, FalseSuspicions: model.MaxFalseSuspicions}, "", ""},
		{model.Config{N: 2, Detector: model.Eventual}, "Detector", "Detector eventual needs Timing partial: its suspicions are exact from gst on, and only partial timing has a gst (for false suspicions at any time use Detector unreliable)"},
		{model.Config{N: 2, Detector: model.Eventual, Timing: model.Sync}, "Detector", "Detector eventual needs Timing partial: its suspicions are exact from gst on, and only partial timing has a gst (for false suspicions at any time use Detector unreliable)"},
		{model.Config{N: 2, Timing: model.Partial, FalseSuspicions: 2}, "FalseSuspicions", "FalseSuspicions counts the false suspicions of Detector eventual: give it with that detector or leave it out"},
		{model.Config{N: 2, Detector: model.Eventual, Timing: model.Partial, FalseSuspicions: -1}, "FalseSuspicions", "FalseSuspicions -1 is negative: use 1 or more"},
		{model.Config{N: 2, Detector: model.Eventual, Timing: model.Partial, FalseSuspicions: model.MaxFalseSuspicions + 1}, "FalseSuspicions", "FalseSuspicions 128 is too large: use at most 127"},
		{model.Config{N: 2, Timing: model.Partial}, "", ""},
		{model.Config{N: 2, Timing: model.Partial + 1}, "Timing", "Timing 3 is not a timing: use model.Async, model.Sync or model.Partial"},
		{model.Config{N: 2, Delay: 1}, "Delay", "Delay needs Timing sync or partial: the asynchronous model (Timing async, the default) has no clocks"},
		{model.Config{N: 2, Timeout: 3}, "Timeout", "Timeout needs Timing sync or partial: the asynchronous model (Timing async, the default) has no clocks"},
		{model.Config{N: 2, TimeoutCoord: 3}, "TimeoutCoord", "TimeoutCoord needs Timing sync or partial: the asynchronous model (Timing async, the default) has no clocks"},
		{model.Config{N: 2, Timing: model.Sync, Delay: -1}, "Delay", "Delay -1 is negative: a delay is 1 tick or more"},
		{model.Config{N: 2, Timing: model.Sync, TimeoutCoord: -2}, "TimeoutCoord", "TimeoutCoord -2 is negative: a timeout is 1 tick or more"},
		{model.Config{N: 2, Timing: model.Sync, Delay: 1 << 20, Timeout: 1 << 20, TimeoutCoord: 1 << 20}, "", ""},
		{model.Config{N: 2, Timing: model.Sync, Timeout: 1<<20 + 1}, "Timeout", "Timeout 1048577 is too large: use at most 1048576 ticks"},
		{model.Config{N: 2, Perm: true}, "", ""},
		{model.Config{N: 2, Perm: true, Anonymous: true}, "Perm", "Perm arranges the distinct IDs 1..N: not with Anonymous"},
		{model.Config{N: 3, Down: []int{1, 2}}, "", ""},
		{model.Config{N: 3, Down: []int{1, 2, 3}}, "Down", "Down names every process: at least one must start live"},
		{model.Config{N: 2, MaxQueue: 255, MaxRestarts: 255, MaxCrashes: 255}, "", ""},
		{model.Config{N: 2, MaxCrashes: -1}, "MaxCrashes", "MaxCrashes -1 is negative: use 0 or more"},
		{model.Config{N: 2, MaxRestarts: 256}, "MaxRestarts", "MaxRestarts 256 is too large: use at most 255"},
		{model.Config{N: 2, MaxQueue: -1}, "MaxQueue", "MaxQueue -1 is negative: use 0 or more"},
		{model.Config{N: 2, MaxQueue: 256}, "MaxQueue", "MaxQueue 256 is too large: use at most 255"},
		{model.Config{N: 4, MaxCrashes: 3}, "", ""},
		{model.Config{N: 4, MaxCrashes: 4}, "MaxCrashes", "MaxCrashes 4 can never happen with N 4 and MaxRestarts 0: one process always stays live, so at most 3 crashes (N-1, plus one per restart) can happen"},
		{model.Config{N: 4, MaxCrashes: 5, MaxRestarts: 2}, "", ""},
		{model.Config{N: 4, MaxCrashes: 6, MaxRestarts: 2}, "MaxCrashes", "MaxCrashes 6 can never happen with N 4 and MaxRestarts 2: one process always stays live, so at most 5 crashes (N-1, plus one per restart) can happen"},
		{model.Config{N: 3, Initiators: []int{1, 3}, Down: []int{1}}, "", ""},
		{model.Config{N: 3, Initiators: []int{1, 3}, Down: []int{1, 3}}, "Initiators", "Initiators: no initiator starts live (Down) and none can restart, so no election can ever start: name a process that is not down"},
		{model.Config{N: 3, Initiators: []int{1, 3}, Down: []int{1, 3}, MaxRestarts: 1}, "", ""},
		{model.Config{N: 3, Initiators: []int{}}, "Initiators", "Initiators: no initiator starts live (Down) and none can restart, so no election can ever start: name a process that is not down"},
	} {
		err := c.cfg.WithDefaults().Validate()
		if c.field == "" {
			assert.NoError(t, err, "%+v", c.cfg)
			continue
		}
		var fe *model.FieldError
		if assert.True(t, errors.As(err, &fe), "%+v: %v", c.cfg, err) {
			assert.Equal(t, c.field, fe.Field, "%+v", c.cfg)
			assert.Equal(t, c.msg, fe.Error(), "%+v", c.cfg)
		}
	}
}

// ValidateNamed says the fields as the caller names them, and Go's names
// where the caller has none.
func TestValidateNamed(t *testing.T) {
	flags := func(f string) string {
		return map[string]string{"MaxCrashes": "--crashes", "N": "--n", "MaxRestarts": "--restarts"}[f]
	}
	err := model.Config{N: 3, MaxCrashes: 3}.WithDefaults().ValidateNamed(flags)
	require.Error(t, err)
	assert.Equal(t, "--crashes 3 can never happen with --n 3 and --restarts 0: one process always stays live, so at most 2 crashes (N-1, plus one per restart) can happen", err.Error())
	err = model.Config{N: 2, Timing: model.Sync, Delay: -1}.WithDefaults().ValidateNamed(flags)
	assert.EqualError(t, err, "Delay -1 is negative: a delay is 1 tick or more")
}

// The defaults: IDs 1..N, a channel bound of 2N, and in a timed mode D 1,
// T 2D+1, T2 2T+2D, each computed from those given.
func TestWithDefaults(t *testing.T) {
	c := model.Config{N: 3}.WithDefaults()
	assert.Equal(t, []int{1, 2, 3}, c.IDs)
	assert.Equal(t, 6, c.MaxQueue)
	assert.Zero(t, c.Delay)
	assert.Zero(t, c.Timeout)
	assert.Equal(t, model.Config{N: 3, IDs: []int{7, 1, 2}, MaxQueue: 1}, model.Config{N: 3, IDs: []int{7, 1, 2}, MaxQueue: 1}.WithDefaults())
	assert.Equal(t, model.Times{Delay: 1, Timeout: 3, TimeoutCoord: 8}, model.Config{N: 2, Timing: model.Sync}.Times())
	assert.Equal(t, model.Times{Delay: 2, Timeout: 5, TimeoutCoord: 14}, model.Config{N: 2, Timing: model.Partial, Delay: 2}.Times())
	assert.Equal(t, model.Times{Delay: 3, Timeout: 4, TimeoutCoord: 14}, model.Config{N: 2, Timing: model.Sync, Delay: 3, Timeout: 4}.Times())
	assert.Equal(t, model.Times{Delay: 1, Timeout: 9, TimeoutCoord: 5}, model.Config{N: 2, Timing: model.Sync, Timeout: 9, TimeoutCoord: 5}.Times())
	assert.Equal(t, model.Times{}, model.Config{N: 2}.Times())
	assert.True(t, model.Config{Timing: model.Partial}.Timed())
	assert.False(t, model.Config{}.Timed())
}

func TestParseEnums(t *testing.T) {
	for _, d := range []model.Detector{model.Perfect, model.Unreliable, model.Incomplete, model.Eventual} {
		got, err := model.ParseDetector(d.String())
		require.NoError(t, err)
		assert.Equal(t, d, got)
	}
	_, err := model.ParseDetector("eventually-perfect")
	assert.EqualError(t, err, `unknown detector "eventually-perfect": use perfect, incomplete, unreliable, eventual or heartbeat`)
	assert.Equal(t, "eventual", model.Detector(3).String())
	assert.Equal(t, "Detector(5)", model.Detector(5).String())
	for _, tm := range []model.Timing{model.Async, model.Sync, model.Partial} {
		got, err := model.ParseTiming(tm.String())
		require.NoError(t, err)
		assert.Equal(t, tm, got)
	}
	_, err = model.ParseTiming("partial-sync")
	assert.EqualError(t, err, `unknown timing "partial-sync": use async, sync or partial`)
	assert.Equal(t, "Timing(3)", model.Timing(3).String())
}
