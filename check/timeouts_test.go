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

// tried is one search of a timeout search, as the tests compare it.
type tried struct {
	t, t2   int
	coord   bool
	outcome check.Outcome
	states  int64
}

func tries(d *check.Timeouts) []tried {
	var out []tried
	for _, r := range d.Runs {
		out = append(out, tried{r.Timeout, r.TimeoutCoord, r.Coord, r.Outcome, r.States})
	}
	return out
}

func searchTimeouts(t *testing.T, req check.Request) *check.Report {
	t.Helper()
	spec, err := specs.Builtin().Lookup("bully")
	require.NoError(t, err)
	req.Spec = spec
	rep, err := check.SearchTimeouts(req, 0)
	require.NoError(t, err)
	require.NotNil(t, rep.Timeouts)
	return rep
}

// replays checks that each counterexample of rep replays in the system of
// its own file's configuration, not the report's.
func replays(t *testing.T, rep *check.Report) {
	t.Helper()
	spec, _ := specs.Builtin().Lookup("bully")
	require.NotEmpty(t, rep.Files())
	for _, f := range rep.Files() {
		cfg, err := f.Config.Model()
		require.NoError(t, err)
		sys, err := spec.Build.System(cfg, []string{f.Property})
		require.NoError(t, err)
		require.NoError(t, trace.Verify(sys, f), "%s at timeout %d", f.Property, cfg.Timeout)
	}
}

// In the synchronous model Bully is safe from T = 2D+1 and elects two
// coordinators at T = 2D (docs/semantics.md section 6), and the values between
// are each checked: the smallest T at D = 1 is 3, at D = 2 it is 5; the
// counterexample is the check at 2D, whose trace replays there; at that T
// a T2 of 1 already holds. Every count is that of a check at fixed values.
func TestSearchTimeoutsFindsTheSmallestT(t *testing.T) {
	for _, c := range []struct {
		delay int
		want  []tried
		steps int
	}{
		{1, []tried{{1, 4, false, check.Fails, 53}, {2, 6, false, check.Fails, 82}, {3, 8, false, check.AllHold, 124}, {3, 1, true, check.AllHold, 110}}, 8},
		{2, []tried{{1, 6, false, check.Fails, 60}, {2, 8, false, check.Fails, 94}, {3, 10, false, check.Fails, 147}, {4, 12, false, check.Fails, 170},
			{5, 14, false, check.AllHold, 277}, {5, 1, true, check.AllHold, 234}}, 10},
	} {
		cfg := model.Config{N: 3, MaxCrashes: 2, InitialLeader: true, Timing: model.Sync, Delay: c.delay}
		rep := searchTimeouts(t, check.Request{Config: cfg})
		d := rep.Timeouts
		assert.Equal(t, c.want, tries(d), "D = %d", c.delay)
		assert.True(t, d.Found())
		assert.Equal(t, []int{2*c.delay + 1, 1}, []int{d.Timeout, d.TimeoutCoord})
		assert.Equal(t, []int{2*c.delay + 1, 1}, []int{rep.Config.Timeout, rep.Config.TimeoutCoord}, "the report is the check at the values found")
		for _, v := range rep.Verdicts {
			assert.Equal(t, check.Holds, v.Status, v.Name)
		}
		require.NotNil(t, d.Failure)
		assert.Nil(t, d.CoordFailure, "T2 = 1 holds")
		assert.Equal(t, 2*c.delay, d.Failure.Config.Timeout)
		sl := verdict(t, d.Failure, "SingleLeader")
		assert.Equal(t, check.Violated, sl.Status)
		assert.Len(t, sl.File.Steps, c.steps+1, "D = %d", c.delay)
		replays(t, d.Failure)

		// The counts are those of checks at fixed values.
		fixed := cfg
		fixed.Timeout, fixed.TimeoutCoord = 2*c.delay+1, 1
		spec, _ := specs.Builtin().Lookup("bully")
		one, err := check.Run(check.Request{Spec: spec, Config: fixed})
		require.NoError(t, err)
		assert.Equal(t, c.want[len(c.want)-1].states, one.Stats.States)
	}
}

// With T2 given, only T is searched, with it.
func TestSearchTimeoutsWithTheCoordTimeoutGiven(t *testing.T) {
	rep := searchTimeouts(t, check.Request{Config: model.Config{N: 3, MaxCrashes: 2, InitialLeader: true, Timing: model.Sync, TimeoutCoord: 2}})
	d := rep.Timeouts
	assert.True(t, d.CoordGiven)
	assert.Equal(t, []tried{{1, 2, false, check.Fails, 53}, {2, 2, false, check.Fails, 82}, {3, 2, false, check.AllHold, 116}}, tries(d))
	assert.True(t, d.Found())
	assert.Equal(t, []int{3, 2}, []int{d.Timeout, d.TimeoutCoord})
}

// Where no T holds (the incomplete detector may never notice the leader's
// crash, so Termination fails at every T), the search goes on to the
// longest timer the state encoding holds (T2 = 2T+2D = 254 at T = 126)
// and says so; the failure is the check at T = 126.
func TestSearchTimeoutsWhereNoneHolds(t *testing.T) {
	rep := searchTimeouts(t, check.Request{Config: model.Config{N: 2, MaxCrashes: 1, InitialLeader: true, Timing: model.Sync, Detector: model.Incomplete}})
	d := rep.Timeouts
	assert.False(t, d.Found())
	assert.True(t, d.NoneHolds())
	assert.Equal(t, 126, d.Longest)
	require.Len(t, d.Runs, 126)
	for _, r := range d.Runs {
		assert.Equal(t, check.Fails, r.Outcome, "T = %d", r.Timeout)
		assert.Equal(t, []string{"Termination"}, r.Failed, "T = %d", r.Timeout)
	}
	assert.Equal(t, 126, d.Failure.Config.Timeout)
	assert.Same(t, d.Failure, rep, "the report is the check at the largest T")
	replays(t, rep)
}

// A search that does not finish ends the timeout search without an
// answer: no T is said to hold.
func TestSearchTimeoutsStopsAtTheBudget(t *testing.T) {
	rep := searchTimeouts(t, check.Request{Config: model.Config{N: 3, MaxCrashes: 2, InitialLeader: true, Timing: model.Sync}, MaxStates: 100})
	d := rep.Timeouts
	assert.Equal(t, []tried{{1, 4, false, check.Fails, 53}, {2, 6, false, check.Fails, 82}, {3, 8, false, check.Undecided, 100}}, tries(d))
	assert.False(t, d.Found())
	assert.False(t, d.NoneHolds())
	require.NotNil(t, d.Stopped())
	assert.Equal(t, 3, d.Stopped().Timeout)
	assert.Equal(t, "MaxStates 100 reached", d.Stopped().Stopped)
	assert.Equal(t, 0, d.Timeout)
	assert.False(t, rep.Stats.Complete, "the report is the search that stopped")
	assert.Equal(t, check.Unknown, verdict(t, rep, "SingleLeader").Status)
}

// Sweeping is told each configuration the search checks, in order, before
// the search starts: what the command line's progress lines name.
func TestSearchTimeoutsTellsEachSearch(t *testing.T) {
	cfg := model.Config{N: 3, MaxCrashes: 2, InitialLeader: true, Timing: model.Sync, Delay: 1}
	var told [][2]int
	rep := searchTimeouts(t, check.Request{Config: cfg, Sweeping: func(c model.Config) {
		told = append(told, [2]int{c.Timeout, c.TimeoutCoord})
	}})
	var ran [][2]int
	for _, r := range rep.Timeouts.Runs {
		ran = append(ran, [2]int{r.Timeout, r.TimeoutCoord})
	}
	assert.Equal(t, [][2]int{{1, 4}, {2, 6}, {3, 8}, {3, 1}}, told)
	assert.Equal(t, ran, told)
}

// Found needs both values: a timeout search stopped (by its time limit)
// after T was found but before T2 was has found nothing to report.
func TestTimeoutsFoundNeedsBoth(t *testing.T) {
	for _, c := range []struct {
		t, t2 int
		found bool
	}{{3, 1, true}, {3, 0, false}, {0, 1, false}, {0, 0, false}} {
		d := check.Timeouts{Timeout: c.t, TimeoutCoord: c.t2}
		assert.Equal(t, c.found, d.Found(), "T %d, T2 %d", c.t, c.t2)
	}
	assert.Nil(t, (&check.Timeouts{}).Stopped(), "no search, none stopped")
}

// Where even T = 1 does not fit the state encoding (T2 = 2T+2D = 256 at
// D = 127), the timeout search is an error, not "no T holds".
func TestSearchTimeoutsWhereNoTFits(t *testing.T) {
	spec, err := specs.Builtin().Lookup("bully")
	require.NoError(t, err)
	_, err = check.SearchTimeouts(check.Request{Spec: spec, Config: model.Config{N: 2, MaxCrashes: 1, InitialLeader: true, Timing: model.Sync, Delay: 127}}, 0)
	var wide *model.TimerWidthError
	require.ErrorAs(t, err, &wide)
	assert.ErrorContains(t, err, "timeout 1: ")
}

// Once T is found, a T2 violated only where the channel bound cut a fair
// step is passed over, not the end of the search: T2 at its default holds,
// so an answer is given, with the values passed over as its caveat. At
// D = 2 with 2 messages a channel, T2 = 1 is violated for the bounded
// model only (with 3 it holds) and T2 = 2 holds.
func TestSearchTimeoutsPassesOverACoordTimeoutTheBoundDecides(t *testing.T) {
	rep := searchTimeouts(t, check.Request{Config: model.Config{N: 4, MaxCrashes: 1, InitialLeader: true, Timing: model.Sync, Delay: 2, MaxQueue: 2}})
	d := rep.Timeouts
	var outcomes []check.Outcome
	for _, r := range d.Runs {
		outcomes = append(outcomes, r.Outcome)
	}
	assert.Equal(t, []check.Outcome{check.Fails, check.Fails, check.Fails, check.Fails, check.AllHold, check.Undecided, check.AllHold}, outcomes)
	require.Len(t, d.Runs, 7)
	assert.True(t, d.Runs[5].BoundOnly(), "T2 = 1 is violated for the bounded model only")
	assert.True(t, d.Found())
	assert.Equal(t, []int{5, 2}, []int{d.Timeout, d.TimeoutCoord})
	assert.Equal(t, []int{1}, d.CoordBoundedOnly())
	assert.Nil(t, d.CoordFailure, "T2 = 1 does not fail: it is undecided")
	assert.Equal(t, []int{5, 2}, []int{rep.Config.Timeout, rep.Config.TimeoutCoord}, "the report is the check at the values found")
}
