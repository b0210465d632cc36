// Package properties defines the correctness properties of leader election
// (docs/semantics.md section 2) as model.Property values over the typed view of a
// global state, and the selection of properties by name or group. Nothing
// else in mcheck names them: algorithms and tests add their own the same way.
package properties

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcheck/mcheck/model"
)

// Standard returns the properties every algorithm is checked against: at
// most one leader, agreement on a live leader, and Termination (<>[]Stable),
// checked by default; and the optional ones: the step property that a live
// leader is never demoted, recovery from a leader's crash
// (LeaderCrashed ~> Stable), and quiescence (<>[] no message in flight and
// no fair step enabled).
func Standard[L, M any]() []model.Property[L, M] {
	return []model.Property[L, M]{
		{
			Name: "SingleLeader", Kind: model.Invariant, Groups: []string{"safety"}, ElectedOnly: true,
			Doc:   "at most one live process has elected itself",
			Holds: SingleLeader[L, M], Explain: explainLeaders[L, M],
		},
		{
			Name: "Agreement", Kind: model.Invariant, Groups: []string{"safety"}, ElectedOnly: true,
			Doc:   "live processes whose elected value names a live process agree on it",
			Holds: Agreement[L, M], Explain: explainDisagreement[L, M],
		},
		{
			Name: "Termination", Kind: model.EventuallyAlways, Groups: []string{"liveness"}, ElectedOnly: true,
			Doc:   "<>[]Stable under weak fairness: eventually every live process has elected the largest live ID, for good",
			Holds: Stable[L, M], Goal: "Stable", Explain: explainUnstable[L, M],
		},
		{
			Name: "LeaderNotDemoted", Kind: model.StepProperty, Optional: true, ElectedOnly: true,
			Doc:  "a live leader stays leader while it is alive",
			Step: NotDemoted[L, M], When: LeaderStaysAlive[L, M], Explain: explainDemoted[L, M],
		},
		{
			Name: "LeaderCrashRecovered", Kind: model.LeadsTo, Optional: true, ElectedOnly: true,
			Doc: "LeaderCrashed ~> Stable under weak fairness: from every state where a live process's elected leader has crashed " +
				"(the state right after the leader's crash, while anybody still names it), every fair run reaches a state where every live process has elected the largest live ID",
			From: LeaderCrashed[L, M], FromName: "LeaderCrashed", Holds: Stable[L, M], Goal: "Stable", Explain: explainNotRecovered[L, M],
		},
		{
			Name: "Quiescent", Kind: model.EventuallyAlways, Optional: true, Quiet: true,
			Doc: "<>[]Quiet under weak fairness: eventually no message is in flight and no fair step is enabled, for good " +
				"(stricter than Termination: an ELECTED that circulates forever after everybody agrees passes Termination, not Quiescent)",
			Holds: NoMessageInFlight[L, M], Goal: "Quiet", Explain: explainNotQuiet[L, M],
		},
	}
}

// LeaderCrashed is the premise of LeaderCrashRecovered: some live process
// has elected a process that has crashed (no live process carries the ID
// it elected). A state holds no record of the step that led to it, so "the
// leader has just crashed" is read from what the crash leaves behind: the
// processes that knew the leader still name it. That is also the condition
// on which the failure detector makes them suspect it, the very situation
// that recovery must repair; it holds from the crash step of a leader that
// anybody had elected until the last of them has moved on (or the leader
// has restarted), and it also holds when an ELECTED of a process that has
// since crashed is delivered. A leader that crashes before anybody else has
// heard of it leaves no such trace: nobody has a leader to lose then.
func LeaderCrashed[L, M any](v *model.View[L, M]) bool {
	for p := 0; p < v.N(); p++ {
		if e := v.Elected(p); v.Alive(p) && e != 0 && !v.AliveID(e) {
			return true
		}
	}
	return false
}

// NoMessageInFlight: every channel is empty. With Quiet (no fair step
// enabled) it is the goal of Quiescent.
func NoMessageInFlight[L, M any](v *model.View[L, M]) bool {
	for from := 0; from < v.N(); from++ {
		for to := 0; to < v.N(); to++ {
			if len(v.Chan(from, to)) > 0 {
				return false
			}
		}
	}
	return true
}

// SingleLeader: leader(p) ≡ alive[p] ∧ elected[p] = ids[p] for at most one p.
func SingleLeader[L, M any](v *model.View[L, M]) bool {
	leaders := 0
	for p := 0; p < v.N(); p++ {
		if v.Leader(p) {
			leaders++
		}
	}
	return leaders <= 1
}

// Agreement: live processes whose elected values are set and name live
// processes agree.
func Agreement[L, M any](v *model.View[L, M]) bool {
	seen := 0
	for p := 0; p < v.N(); p++ {
		if !v.Alive(p) {
			continue
		}
		e := v.Elected(p)
		if e == 0 || !v.AliveID(e) {
			continue
		}
		if seen != 0 && e != seen {
			return false
		}
		seen = e
	}
	return true
}

// MaxLive is the largest live ID (0 when every process is down).
func MaxLive[L, M any](v *model.View[L, M]) int {
	m := 0
	for p := 0; p < v.N(); p++ {
		if v.Alive(p) {
			m = max(m, v.ID(p))
		}
	}
	return m
}

// Stable: every live process has elected the largest live ID.
func Stable[L, M any](v *model.View[L, M]) bool {
	m := MaxLive(v)
	for p := 0; p < v.N(); p++ {
		if v.Alive(p) && v.Elected(p) != m {
			return false
		}
	}
	return true
}

// LeaderStaysAlive is what LeaderNotDemoted speaks of: a step after which
// a process that was a live leader before it is still alive.
func LeaderStaysAlive[L, M any](before *model.View[L, M], _ model.Action, after *model.View[L, M]) bool {
	for p := 0; p < before.N(); p++ {
		if before.Leader(p) && after.Alive(p) {
			return true
		}
	}
	return false
}

// NotDemoted: a process that is leader before a step and alive after it is
// still leader.
func NotDemoted[L, M any](before *model.View[L, M], _ model.Action, after *model.View[L, M]) bool {
	for p := 0; p < before.N(); p++ {
		if before.Leader(p) && after.Alive(p) && !after.Leader(p) {
			return false
		}
	}
	return true
}

func explainLeaders[L, M any](f *model.Failure[L, M]) string {
	v := f.State
	var leaders []string
	for p := 0; p < v.N(); p++ {
		if v.Leader(p) {
			leaders = append(leaders, v.Name(p))
		}
	}
	return fmt.Sprintf("after %d steps %s each consider themselves leader", f.Steps, strings.Join(leaders, " and "))
}

func explainDisagreement[L, M any](f *model.Failure[L, M]) string {
	v := f.State
	return fmt.Sprintf("after %d steps live processes disagree on a live leader: %s", f.Steps, byElected(v, v.AliveID, " elected "))
}

// byElected groups the live processes whose elected value e is set and
// keep(e) by that value, in order of first appearance: "p1, p2 elected 4;
// p3 elected 3" (with verb " elected ").
func byElected[L, M any](v *model.View[L, M], keep func(e int) bool, verb string) string {
	byLeader := map[int][]string{}
	var order []int
	for p := 0; p < v.N(); p++ {
		if e := v.Elected(p); v.Alive(p) && e != 0 && keep(e) {
			if byLeader[e] == nil {
				order = append(order, e)
			}
			byLeader[e] = append(byLeader[e], v.Name(p))
		}
	}
	var parts []string
	for _, e := range order {
		parts = append(parts, strings.Join(byLeader[e], ", ")+verb+strconv.Itoa(e))
	}
	return strings.Join(parts, "; ")
}

// notStable lists the live processes that have not elected the largest
// live ID.
// notStable lists the live processes that have not elected the highest live
// id; none reports whether every one listed has elected nobody (⊥), which is
// what tells "without a leader" from "with the wrong leader".
func notStable[L, M any](v *model.View[L, M]) (who string, m int, none bool) {
	m = MaxLive(v)
	none = true
	var parts []string
	for p := 0; p < v.N(); p++ {
		if e := v.Elected(p); v.Alive(p) && e != m {
			s := "⊥"
			if e != 0 {
				s = strconv.Itoa(e)
				none = false
			}
			parts = append(parts, v.Name(p)+" elected="+s)
		}
	}
	return strings.Join(parts, ", "), m, none
}

func explainUnstable[L, M any](f *model.Failure[L, M]) string {
	who, m, none := notStable(f.State)
	c := f.Cycle
	switch {
	case c == nil:
		stuck := "stuck with the wrong leader"
		if none {
			stuck = "stuck without a leader"
		}
		return fmt.Sprintf("%s: no fair step is enabled, and %s (Stable needs elected=%d)", stuck, who, m)
	case c.Orphan != "":
		return fmt.Sprintf("%s of crashed p%d circulates forever; Stable (elected=%d) is never reached: %s", c.Orphan, c.OrphanID, m, who)
	case c.Unreliable != "":
		return fmt.Sprintf("elections repeat forever: %s (an unreliable detector's false suspicion or early timeout) starts a new one each time round a fair cycle of %d steps; Stable (elected=%d) is not kept: %s",
			c.Unreliable, c.Steps, m, who)
	}
	return fmt.Sprintf("a fair cycle of %d steps repeats forever without reaching Stable (%s; Stable needs elected=%d)", c.Steps, who, m)
}

func explainDemoted[L, M any](f *model.Failure[L, M]) string {
	var who []string
	for p := 0; p < f.Before.N(); p++ {
		if f.Before.Leader(p) && f.State.Alive(p) && !f.State.Leader(p) {
			e := "⊥"
			if x := f.State.Elected(p); x != 0 {
				e = strconv.Itoa(x)
			}
			who = append(who, f.State.Name(p)+" (now elected="+e+")")
		}
	}
	return fmt.Sprintf("step %d, %s, demotes the live leader %s", f.Steps, f.Label, strings.Join(who, " and "))
}

func explainNotRecovered[L, M any](f *model.Failure[L, M]) string {
	if f.Premise == nil {
		return explainUnstable(f)
	}
	v := f.Premise
	crashed := byElected(v, func(e int) bool { return !v.AliveID(e) }, " elected the crashed ")
	return fmt.Sprintf("after step %d the leader has crashed (%s); then %s", f.PremiseStep, crashed, explainUnstable(f))
}

func explainNotQuiet[L, M any](f *model.Failure[L, M]) string {
	v := f.State
	var busy []string
	for from := 0; from < v.N(); from++ {
		for to := 0; to < v.N(); to++ {
			for _, m := range v.Chan(from, to) {
				busy = append(busy, fmt.Sprintf("%s→%s %s", v.Name(from), v.Name(to), v.FormatMsg(m)))
			}
		}
	}
	agreed := ""
	if Stable(v) {
		agreed = fmt.Sprintf(", although every live process has elected %d", MaxLive(v))
	}
	if f.Cycle == nil {
		return fmt.Sprintf("stuck after %d steps with messages in flight that no fair step delivers: %s", f.Steps, strings.Join(busy, ", "))
	}
	inFlight := ""
	if len(busy) > 0 {
		inFlight = " (in flight where it starts: " + strings.Join(busy, ", ") + ")"
	}
	return fmt.Sprintf("a fair cycle of %d steps repeats forever, so the system never falls quiet%s%s", f.Cycle.Steps, inFlight, agreed)
}
