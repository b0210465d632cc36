package report

import (
	"strings"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
)

// Vacuity in words: the library reports that nothing happened
// (check.Report.Idle, check.Verdict.Vacuous); these lines say so in the
// CLI's terms, with the flags that would make something happen.

// idleLine is the report's line for a search that took no step, or "".
func idleLine(r *Result) string {
	if !r.Idle() {
		return ""
	}
	what := "no step is enabled in the initial state"
	if r.Arrangements > 1 {
		what = "no step is enabled in any initial state"
	}
	if r.Stats.Discarded > 0 {
		what = "the channel bound refused every step of the initial state"
	}
	return "vacuous: " + what + ", so every property holds of the initial state alone; " + changes(r)
}

// vacuityLine is a property's line when it holds vacuously, or "".
func vacuityLine(r *Result, v check.Verdict) string {
	switch v.Vacuous {
	case check.NeverTriggered:
		if v.Property.Kind == model.LeadsTo {
			premise := "its premise"
			if v.Property.FromName != "" {
				premise += " " + v.Property.FromName
			}
			return "vacuously: " + premise + " holds in no reachable state; " + changes(r)
		}
		return "vacuously: no step of the search is one it speaks of; " + changes(r)
	case check.AlwaysInGoal:
		goal := v.Property.Goal
		if goal == "" {
			goal = "in its goal"
		}
		return "vacuously: every reachable state is already " + goal + ", so no run has anything to do; " + changes(r)
	}
	return ""
}

// changes says what would give the check something to do.
func changes(r *Result) string {
	c := r.Config
	var tips []string
	if r.Idle() && r.Stats.Discarded > 0 {
		tips = append(tips, "a larger "+r.set("MaxQueue", ""))
	}
	if c.InitialLeader {
		tips = append(tips, r.set("InitialLeader", "false")+" (start with an election)")
	}
	if c.MaxCrashes == 0 {
		tips = append(tips, r.set("CrashAny", "")+" or "+r.set("MaxCrashes", "K")+" (let processes fail)")
	}
	if len(c.Initiators) > 0 {
		tips = append(tips, "more "+r.set("Initiators", ""))
	}
	if len(tips) == 0 {
		return "change the configuration so that it happens"
	}
	return "to change that, try " + strings.Join(tips, ", or ")
}
