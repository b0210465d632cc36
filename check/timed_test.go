package check_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
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
		_, err := check.Run(check.Request{Spec: spec, Config: model.Config{N: 2, Initiators: []int{1}, Timing: model.Sync}, Workers: workers})
		var tc *model.TimerConflictError
		require.ErrorAs(t, err, &tc, "%d workers", workers)
		assert.Equal(t, "two-timers: the algorithm arms two timers of p1 at once (a and b, in local state {C:1500 A:true B:true}): in a timed mode a process has one timer, so disarm one before arming the other", err.Error())
	}
	rep, err := check.Run(check.Request{Spec: spec, Config: model.Config{N: 2, Initiators: []int{1}}})
	require.NoError(t, err)
	assert.True(t, rep.Stats.Complete)
}

func TestTimedComplexityNotYet(t *testing.T) {
	spec, err := specs.Builtin().Lookup("bully")
	require.NoError(t, err)
	_, err = check.Run(check.Request{Spec: spec, Config: model.Config{N: 3, Timing: model.Sync}, Complexity: true})
	assert.EqualError(t, err, "bully: the measures (complexity) are not computed in a timed mode yet: check without them, or measure the asynchronous model")
}
