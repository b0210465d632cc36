package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/report"
)

// A timeout search that ran out of time between two searches: the report
// is the last search run, which finished (it holds, or fails), but the
// question asked, the smallest values, has no answer, so the exit status
// says incomplete and the verdict says why, from data.
func TestTimeoutSearchNotStarted(t *testing.T) {
	failing := &check.Report{Config: model.Config{Timing: model.Sync, Delay: 1, Timeout: 2, TimeoutCoord: 6}, Stats: explore.Stats{Complete: true},
		Verdicts: []check.Verdict{{Name: "SingleLeader", Status: check.Violated, Summary: "after 8 steps p2 and p3 each consider themselves leader"}}}
	holding := &check.Report{Config: model.Config{Timing: model.Sync, Delay: 1, Timeout: 3, TimeoutCoord: 8}, Stats: explore.Stats{Complete: true},
		Verdicts: []check.Verdict{{Name: "SingleLeader", Status: check.Holds}}}
	run := func(t, t2 int, coord bool, o check.Outcome) check.TimeoutRun {
		return check.TimeoutRun{Timeout: t, TimeoutCoord: t2, Coord: coord, Outcome: o, Attempt: check.Attempt{Complete: true, Elapsed: 3 * time.Second}}
	}
	notStarted := func(t, t2 int, coord bool) check.TimeoutRun {
		return check.TimeoutRun{Timeout: t, TimeoutCoord: t2, Coord: coord, Outcome: check.Undecided, Attempt: check.Attempt{NotStarted: true, Left: 1200 * time.Millisecond}}
	}

	failing.Timeouts = &check.Timeouts{Delay: 1, Failure: failing, Runs: []check.TimeoutRun{run(1, 4, false, check.Fails), run(2, 6, false, check.Fails), notStarted(3, 8, false)}}
	assert.Equal(t, ExitIncomplete, exitStatus(failing), "a violation at T = 2 is no answer")
	assert.Equal(t, "every T from 1 to 2 fails at D = 1, but the timeout search did not finish, so no T can be said to be the smallest that holds: T = 3 was not started with 1.2 s left, less than the search before took",
		timeoutsVerdict(failing))

	holding.Timeouts = &check.Timeouts{Delay: 1, Timeout: 3, Failure: failing, Runs: []check.TimeoutRun{run(1, 4, false, check.Fails), run(2, 6, false, check.Fails), run(3, 8, false, check.AllHold), notStarted(3, 1, true)}}
	assert.Equal(t, ExitIncomplete, exitStatus(holding), "T = 3 holds at T2 = 8, but the smallest T2 is not known")
	assert.Equal(t, "SingleLeader needs T >= 3 at D = 1 (T2 at its default 2T+2D): at T = 2, SingleLeader: after 8 steps p2 and p3 each consider themselves leader; at T = 3 the search for the smallest T2 did not finish, so none can be given: T2 = 1 was not started with 1.2 s left, less than the search before took",
		timeoutsVerdict(holding))

	holding.Timeouts.TimeoutCoord = 1
	holding.Timeouts.Runs[3] = run(3, 1, true, check.AllHold)
	assert.Equal(t, ExitHolds, exitStatus(holding))
}

// A property that holds vacuously at the values found (here Termination:
// every state already in its goal) is named on the verdict line, with why.
func TestTimeoutsVerdictNamesAVacuousProperty(t *testing.T) {
	holding := &check.Report{Config: model.Config{Timing: model.Sync, Delay: 1, Timeout: 1, TimeoutCoord: 1, MaxCrashes: 1}, Stats: explore.Stats{Complete: true, States: 2, Transitions: 1},
		Verdicts: []check.Verdict{{Name: "SingleLeader", Status: check.Holds},
			{Name: "Termination", Status: check.Holds, Vacuous: check.AlwaysInGoal, Property: model.PropertyInfo{Kind: model.EventuallyAlways, Goal: "Stable"}}}}
	holding.Timeouts = &check.Timeouts{Delay: 1, Timeout: 1, TimeoutCoord: 1, Runs: []check.TimeoutRun{
		{Timeout: 1, TimeoutCoord: 4, Outcome: check.AllHold, Attempt: check.Attempt{Complete: true}},
		{Timeout: 1, TimeoutCoord: 1, Coord: true, Outcome: check.AllHold, Attempt: check.Attempt{Complete: true}}}}
	assert.Equal(t, "every property holds from T = 1 at D = 1 (T2 at its default 2T+2D); at T = 1 every property holds already with T2 = 1; "+
		"Termination holds vacuously: every reachable state is already Stable, so no run has anything to do; change the configuration so that it happens",
		timeoutsVerdict(holding))
}

// timeoutsVerdict is the verdict line of r's timeout search in the text
// report.
func timeoutsVerdict(r *check.Report) string {
	var b strings.Builder
	report.Text(&b, reportOf(r), false)
	_, verdict, _ := strings.Cut(b.String(), "\n  verdict: ")
	verdict, _, _ = strings.Cut(verdict, "\n")
	return verdict
}
