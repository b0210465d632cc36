package check_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// twoTimers counts its initiations and at the 1500th arms both of its
// timers: in a timed mode, where a process has one timer, that is the
// algorithm's error. (So deep that the look at the first states before the
// search does not reach it: the search's workers do.)
type twoTimers struct{}

type ttLocal struct {
	C    int
	A, B bool
}

type ttMsg struct{}

func (twoTimers) Init() ttLocal        { return ttLocal{} }
func (twoTimers) Elected(*ttLocal) int { return 0 }
func (twoTimers) CanInitiate(_ *model.Ctx[ttMsg], l *ttLocal, _ bool) bool {
	return l.C < 1600 && !l.A
}
func (twoTimers) Initiate(_ *model.Ctx[ttMsg], l *ttLocal) {
	l.C++
	l.A, l.B = l.C == 1500, l.C == 1500
}
func (twoTimers) Receive(*model.Ctx[ttMsg], *ttLocal, int, ttMsg) {}
func (twoTimers) FormatMsg(ttMsg) string                          { return "M" }
func (twoTimers) Timers() []model.Timer[ttLocal, ttMsg] {
	timer := func(name string, armed func(*ttLocal) bool) model.Timer[ttLocal, ttMsg] {
		return model.Timer[ttLocal, ttMsg]{Name: name, Armed: armed,
			Justified: func(*model.GuardCtx[ttMsg], *ttLocal) bool { return true },
			Fire:      func(_ *model.Ctx[ttMsg], l *ttLocal) { l.A, l.B = false, false },
			Duration:  func(model.Times) int { return 1 }}
	}
	return []model.Timer[ttLocal, ttMsg]{
		timer("a", func(l *ttLocal) bool { return l.A }),
		timer("b", func(l *ttLocal) bool { return l.B }),
	}
}

// The kernel raises two armed timers from inside a step, on whatever
// worker takes it; the check returns it as the algorithm's error. The
// asynchronous model, where each timer is a step of its own, has none.
func TestTwoTimersArmedIsAnError(t *testing.T) {
	spec := specs.Spec{Name: "two-timers", Build: specs.Builder(twoTimers{})}
	for _, workers := range []int{1, 4} {
		_, err := check.Run(check.Request{Spec: spec, Config: model.Config{N: 2, Initiators: []int{1}, Timing: model.Sync}, Workers: workers, Continue: true})
		var tc *model.TimerConflictError
		require.ErrorAs(t, err, &tc, "%d workers", workers)
		assert.Equal(t, "two-timers: the algorithm arms two timers of p1 at once (a and b, in local state {C:1500 A:true B:true}): in a timed mode a process has one timer, so disarm one before arming the other", err.Error())
	}
	rep, err := check.Run(check.Request{Spec: spec, Config: model.Config{N: 2, Initiators: []int{1}}, Continue: true})
	require.NoError(t, err)
	assert.True(t, rep.Stats.Complete)
}

// In a timed mode --complexity measures time beside the messages, and the
// synchronous schedule is the asynchronous model's (section 6): the same
// run as the asynchronous configuration plays, whatever D, T and T2 are.
// Every witness is a trace file that replays: time's in the timed model,
// the schedule's in the asynchronous one.
func TestTimedComplexity(t *testing.T) {
	spec, err := specs.Builtin().Lookup("bully")
	require.NoError(t, err)
	async := model.Config{N: 4, Down: []int{4}, Initiators: []int{1}, InitialLeader: true}
	base, err := check.Run(check.Request{Spec: spec, Config: async, Complexity: true})
	require.NoError(t, err)
	assert.Nil(t, base.Complexity.Measures.Time)
	assert.NotContains(t, base.Complexity.WitnessNames(), "max:time")
	timed := async
	timed.Timing, timed.Delay, timed.Timeout = model.Sync, 2, 7
	rep, err := check.Run(check.Request{Spec: spec, Config: timed, Complexity: true})
	require.NoError(t, err)
	c := rep.Complexity
	require.NotNil(t, c.Measures.Time)
	assert.Equal(t, base.Complexity.Sync.Latency, c.Sync.Latency)
	assert.Equal(t, base.Complexity.Sync.Sent, c.Sync.Sent)
	assert.Equal(t, base.Complexity.SyncTrace.Steps, c.SyncTrace.Steps)
	assert.Equal(t, base.Config, c.SyncConfig, "the schedule is played on the asynchronous model")
	assert.Equal(t, []string{"min", "max", "min:ELECTION", "max:ELECTION", "min:OK", "max:OK", "min:COORDINATOR", "max:COORDINATOR",
		"min:lost", "max:lost", "min:time", "max:time", "sync"}, c.WitnessNames())
	for _, name := range c.WitnessNames() {
		f, err := rep.WitnessFile(name)
		require.NoError(t, err, name)
		cfg, err := f.Config.Model()
		require.NoError(t, err, name)
		assert.Equal(t, name != "sync", cfg.Timed(), name)
		sys, err := spec.Build.System(cfg, nil)
		require.NoError(t, err, name)
		require.NoError(t, trace.Verify(sys, f), name)
	}
	f, err := rep.WitnessFile("max:time")
	require.NoError(t, err)
	assert.Equal(t, "time.max", f.Property)
	ticks := 0
	for _, s := range f.Steps[1:] {
		if s.Step.Kind == model.KindTick {
			ticks++
		}
	}
	assert.Equal(t, c.Measures.Time.Max, ticks)
	_, err = c.Witness("max:TIME")
	assert.EqualError(t, err, `no witness "max:TIME": use one of min, max, min:ELECTION, max:ELECTION, min:OK, max:OK, min:COORDINATOR, max:COORDINATOR, min:lost, max:lost, min:time, max:time, sync`)
}

// A simulation with the measures samples the ticks of the complete runs it
// passes, beside their messages: samples of the exhaustive figures, so
// within time.min and time.max.
func TestTimedSimulationSamplesTime(t *testing.T) {
	spec, err := specs.Builtin().Lookup("bully")
	require.NoError(t, err)
	cfg := model.Config{N: 3, MaxCrashes: 2, InitialLeader: true, Timing: model.Sync}
	full, err := check.Run(check.Request{Spec: spec, Config: cfg, Complexity: true})
	require.NoError(t, err)
	exact := full.Complexity.Measures.Time
	for _, workers := range []int{1, 3} {
		rep, err := check.Run(check.Request{Spec: spec, Config: cfg, Complexity: true, Workers: workers,
			Strategy: &check.Simulate{Seed: 7, Runs: 300, Depth: 200}})
		require.NoError(t, err)
		m := rep.Simulation.Messages
		require.NotNil(t, m.Time)
		assert.Positive(t, m.Samples)
		assert.GreaterOrEqual(t, m.Time.Min, int64(exact.Min))
		assert.LessOrEqual(t, m.Time.Max, int64(exact.Max))
		assert.Positive(t, m.Time.Max, "some sampled run takes time")
	}
	cfg.Timing = model.Async
	rep, err := check.Run(check.Request{Spec: spec, Config: cfg, Complexity: true, Strategy: &check.Simulate{Seed: 7, Runs: 50, Depth: 200}})
	require.NoError(t, err)
	assert.Nil(t, rep.Simulation.Messages.Time, "no clock, no time")
}
