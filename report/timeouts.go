package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/trace"
)

// writeTimeouts lists the timeouts that the timeout search (check.Timeouts) tried, says what it
// found, and prints the counterexamples of the largest values that fail.
func writeTimeouts(w io.Writer, r *Result, full bool) {
	writeParamSearch(w, r, full)
	t := r.Timeouts
	if t == nil {
		return
	}
	fmt.Fprintf(w, "\ntimeout search (%s at delay %d, %s; the memory budget and %s apply to each search), %.2f s in all\n",
		r.set("Timeout", "auto"), t.Delay, limitWords(t.TimeLimit), r.set("MaxStates", ""), t.Elapsed.Seconds())
	for _, run := range t.Runs {
		if run.NotStarted {
			fmt.Fprintf(w, "  T %-3d T2 %-3d %s\n", run.Timeout, run.TimeoutCoord, runStatus(run))
			continue
		}
		fmt.Fprintf(w, "  T %-3d T2 %-3d %12s states  %8.2f s  %s\n", run.Timeout, run.TimeoutCoord, Commas(run.States), run.Elapsed.Seconds(), runStatus(run))
	}
	fmt.Fprintf(w, "  verdict: %s\n", timeoutsVerdict(r))
	for _, f := range []struct {
		rep  *check.Report
		what string
	}{{t.Failure, "T"}, {t.CoordFailure, "T2"}} {
		if f.rep == nil || f.rep == r.Report {
			continue // r's own are printed below it
		}
		c := f.rep.Config
		fmt.Fprintf(w, "\nat %s = %d, the largest %s that fails (delay %d, timeout %d, timeout-coord %d):\n", f.what, valueOf(f.what, f.rep), f.what, c.Delay, c.Timeout, c.TimeoutCoord)
		for _, file := range f.rep.Files() {
			fmt.Fprintln(w)
			trace.WriteText(w, file, full)
		}
	}
}

// writeParamSearch lists the values that the parameter search (check.ParamSearch) tried, says
// which parameter it searched and what it found, and prints the
// counterexamples of the largest value that fails.
func writeParamSearch(w io.Writer, r *Result, full bool) {
	p := r.ParamSearch
	if p == nil {
		return
	}
	name := p.Param.Name
	fmt.Fprintf(w, "\nparameter search: %s (%s, from %d; %s; the memory budget and %s apply to each search), %.2f s in all\n",
		name, r.set("Params", name+"=auto"), p.Param.Min, limitWords(p.TimeLimit), r.set("MaxStates", ""), p.Elapsed.Seconds())
	for _, run := range p.Runs {
		if run.NotStarted {
			fmt.Fprintf(w, "  %s %-4d not started: %s left, less than the search before took\n", name, run.Value, seconds(run.Left))
			continue
		}
		fmt.Fprintf(w, "  %s %-4d %12s states  %8.2f s  %s\n", name, run.Value, Commas(run.States), run.Elapsed.Seconds(), runStatus(check.TimeoutRun{Attempt: run.Attempt, Outcome: run.Outcome, Failed: run.Failed}))
	}
	fmt.Fprintf(w, "  verdict: %s\n", paramVerdict(r))
	if f := p.Failure; f != nil && f != r.Report {
		fmt.Fprintf(w, "\nat %s = %d, the largest %s that fails:\n", name, f.Config.Params[name], name)
		for _, file := range f.Files() {
			fmt.Fprintln(w)
			trace.WriteText(w, file, full)
		}
	}
}

// paramVerdict says in one sentence what the parameter search of r found.
func paramVerdict(r *Result) string {
	p := r.ParamSearch
	name, lo := p.Param.Name, p.Param.Min
	failed := func() string {
		f := p.Failure
		for _, v := range f.Verdicts {
			if v.Status == check.Violated || v.Status == check.Unreachable {
				return fmt.Sprintf("at %s = %d, %s: %s", name, f.Config.Params[name], v.Name, v.Summary)
			}
		}
		return ""
	}
	stopped := func() string {
		run := p.Stopped()
		if run == nil {
			return "no search was run"
		}
		if run.NotStarted {
			return fmt.Sprintf("%s = %d was not started with %s left, less than the search before took", name, run.Value, seconds(run.Left))
		}
		return fmt.Sprintf("%s = %d %s", name, run.Value, runStatus(check.TimeoutRun{Attempt: run.Attempt, Outcome: run.Outcome, Failed: run.Failed}))
	}
	switch {
	case p.Found && p.Failure == nil:
		return fmt.Sprintf("every property holds from %s = %d, the least value%s", name, p.Value, vacuousAt(r))
	case p.Found:
		return fmt.Sprintf("%s %s %s >= %d: %s%s", failedList(p.Failure), needs(p.Failure), name, p.Value, failed(), vacuousAt(r))
	case p.Longest > 0:
		return fmt.Sprintf("no %s from %d to %d makes every property hold (%s = %d gives a timer too long for the state encoding); %s", name, lo, p.Longest, name, p.Longest+1, failed())
	case p.AllFail:
		return fmt.Sprintf("no %s from %d to %d (its whole range) makes every property hold; %s", name, lo, p.Param.Max, failed())
	case p.Failure != nil:
		return fmt.Sprintf("every %s from %d to %d fails, but the search did not finish, so no %s can be said to be the smallest that holds: %s", name, lo, p.Failure.Config.Params[name], name, stopped())
	}
	return fmt.Sprintf("the search did not finish, so no %s can be said to be the smallest that holds: %s", name, stopped())
}

// valueOf is T or T2 of rep's configuration.
func valueOf(what string, rep *check.Report) int {
	if what == "T2" {
		return rep.Config.TimeoutCoord
	}
	return rep.Config.Timeout
}

// runStatus says what one search of the timeout search found.
func runStatus(run check.TimeoutRun) string {
	switch {
	case run.NotStarted:
		return fmt.Sprintf("not started: %s left, less than the search before took", seconds(run.Left))
	case run.Outcome == check.AllHold:
		return "every property holds"
	case run.Outcome == check.Fails:
		return "fails: " + strings.Join(run.Failed, ", ")
	case !run.Complete:
		return "stopped: " + run.Stopped
	case run.Undecided != "":
		return "finished, but not every property decided: " + run.Undecided
	case run.BoundedOnly:
		return "violated only where the channel bound cut a fair step"
	}
	return string(run.Outcome)
}

// timeoutsVerdict says in one sentence what the timeout search of r
// found, with what the answer rests on: a channel bound that left smaller
// values undecided, properties that hold vacuously at the values found.
func timeoutsVerdict(r *Result) string {
	t := r.Timeouts
	d := t.Delay
	switch {
	case t.NoneHolds():
		return fmt.Sprintf("no T from 1 to %d makes every property hold at D = %d (T = %d gives a timer too long for the state encoding); %s",
			t.Longest, d, t.Longest+1, failedAt("T", t.Failure))
	case t.Timeout == 0 && t.Failure != nil:
		return fmt.Sprintf("every T from 1 to %d fails at D = %d, but the timeout search did not finish, so no T can be said to be the smallest that holds: %s",
			t.Failure.Config.Timeout, d, stoppedRun(r, t))
	case t.Timeout == 0:
		return "the timeout search did not finish, so no T can be said to be the smallest that holds: " + stoppedRun(r, t)
	}
	coord := "T2 at its default 2T+2D"
	if t.CoordGiven {
		coord = "T2 as given"
	}
	var s string
	switch {
	case t.Failure == nil && t.Found() && r.Idle():
		s = fmt.Sprintf("every property holds vacuously from T = 1 at D = %d (%s)", d, coord)
	case t.Failure == nil:
		s = fmt.Sprintf("every property holds from T = 1 at D = %d (%s)", d, coord)
	default:
		s = fmt.Sprintf("%s %s T >= %d at D = %d (%s): %s", failedList(t.Failure), needs(t.Failure), t.Timeout, d, coord, failedAt("T", t.Failure))
	}
	bounded := t.CoordBoundedOnly()
	switch {
	case t.CoordGiven:
	case t.TimeoutCoord == 0:
		return s + fmt.Sprintf("; at T = %d the search for the smallest T2 did not finish, so none can be given: %s", t.Timeout, stoppedRun(r, t))
	case t.CoordFailure == nil && len(bounded) > 0:
		s += fmt.Sprintf("; at T = %d every property holds with T2 = %d", t.Timeout, t.TimeoutCoord)
	case t.CoordFailure == nil:
		s += fmt.Sprintf("; at T = %d every property holds already with T2 = %d", t.Timeout, t.TimeoutCoord)
	default:
		s += fmt.Sprintf("; at T = %d, %s %s T2 >= %d: %s", t.Timeout, failedList(t.CoordFailure), needs(t.CoordFailure), t.TimeoutCoord, failedAt("T2", t.CoordFailure))
	}
	if len(bounded) > 0 {
		s += fmt.Sprintf(", but %s violated only where the channel bound of %d messages cut a fair step, so a smaller T2 may hold: a larger %s decides",
			valuesAre("T2", bounded), r.Config.MaxQueue, r.set("MaxQueue", ""))
	}
	if t.Found() {
		s += vacuousAt(r)
	}
	return s
}

// valuesAre names the values vs of what: "T2 = 1 is", "T2 = 1, 2 and 4
// are", "T2 = 1 to 13 are".
func valuesAre(what string, vs []int) string {
	if len(vs) == 1 {
		return fmt.Sprintf("%s = %d is", what, vs[0])
	}
	if n := len(vs); n > 2 && vs[n-1]-vs[0] == n-1 {
		return fmt.Sprintf("%s = %d to %d are", what, vs[0], vs[n-1])
	}
	ns := make([]string, len(vs))
	for i, v := range vs {
		ns[i] = fmt.Sprint(v)
	}
	return fmt.Sprintf("%s = %s and %s are", what, strings.Join(ns[:len(ns)-1], ", "), ns[len(ns)-1])
}

// vacuousAt is the verdict's caveat when r, the check at the values found,
// holds vacuously: no step at all, or properties with nothing to hold of.
func vacuousAt(r *Result) string {
	if idle := idleLine(r); idle != "" {
		return "; " + idle
	}
	var vac []check.Verdict
	for _, v := range r.Verdicts {
		if v.Status == check.Holds && v.Vacuous != "" {
			vac = append(vac, v)
		}
	}
	switch len(vac) {
	case 0:
		return ""
	case 1:
		return "; " + vac[0].Name + " holds " + vacuityLine(r, vac[0])
	}
	names := make([]string, len(vac))
	for i, v := range vac {
		names[i] = v.Name
	}
	return fmt.Sprintf("; %s and %s hold vacuously (nothing they speak of happens at these values)", strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}

// failedAt says how rep, the check at the largest failing value, fails:
// its first counterexample's summary.
func failedAt(what string, rep *check.Report) string {
	for _, v := range rep.Verdicts {
		if v.Status == check.Violated || v.Status == check.Unreachable {
			return fmt.Sprintf("at %s = %d, %s: %s", what, valueOf(what, rep), v.Name, v.Summary)
		}
	}
	return ""
}

// stoppedRun says why the search that ended the timeout search decided
// nothing.
func stoppedRun(r *Result, t *check.Timeouts) string {
	run := t.Stopped()
	if run == nil {
		return "no search was run"
	}
	at := fmt.Sprintf("T = %d", run.Timeout)
	if run.Coord {
		at = fmt.Sprintf("T2 = %d", run.TimeoutCoord)
	}
	if run.NotStarted {
		return fmt.Sprintf("%s was not started with %s left, less than the search before took", at, seconds(run.Left))
	}
	if run.Complete && run.Undecided == "" && run.BoundedOnly {
		return at + " is violated only where the channel bound cut a fair step: give a larger " + r.set("MaxQueue", "")
	}
	return at + " " + runStatus(*run)
}

// failedNames are the properties rep finds violated.
func failedNames(rep *check.Report) []string {
	var ns []string
	for _, v := range rep.Verdicts {
		if v.Status == check.Violated || v.Status == check.Unreachable {
			ns = append(ns, v.Name)
		}
	}
	return ns
}

// failedList joins the failed properties of rep: "A", "A and B", "A, B and C".
func failedList(rep *check.Report) string {
	ns := failedNames(rep)
	if len(ns) < 2 {
		return strings.Join(ns, "")
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
}

func needs(rep *check.Report) string {
	if len(failedNames(rep)) == 1 {
		return "needs"
	}
	return "need"
}

type jsonTimeouts struct {
	TimeLimitSeconds float64 `json:"time_limit_seconds,omitempty"`
	Seconds          float64 `json:"seconds"`
	Delay            int     `json:"delay"`
	// Timeout and TimeoutCoord are the smallest values found (0: none).
	Timeout      int                 `json:"timeout"`
	TimeoutCoord int                 `json:"timeout_coord"`
	CoordGiven   bool                `json:"timeout_coord_given,omitempty"`
	Found        bool                `json:"found"`
	NoneHolds    bool                `json:"none_holds,omitempty"`
	Verdict      string              `json:"verdict"`
	Runs         []jsonTimeoutRun    `json:"runs"`
	Failure      *jsonTimeoutFailure `json:"failure,omitempty"`
	CoordFailure *jsonTimeoutFailure `json:"coord_failure,omitempty"`
}

type jsonTimeoutRun struct {
	Timeout      int      `json:"timeout"`
	TimeoutCoord int      `json:"timeout_coord"`
	Coord        bool     `json:"coord_search,omitempty"`
	Outcome      string   `json:"outcome"`
	Failed       []string `json:"failed,omitempty"`
	jsonAttempt
}

// jsonTimeoutFailure is the check at the largest value that fails: its
// configuration's timeouts and its verdicts with their counterexamples.
type jsonTimeoutFailure struct {
	Timeout      int            `json:"timeout"`
	TimeoutCoord int            `json:"timeout_coord"`
	Properties   []jsonProperty `json:"properties"`
}

func timeoutsJSON(r *Result) *jsonTimeouts {
	t := r.Timeouts
	if t == nil {
		return nil
	}
	out := &jsonTimeouts{TimeLimitSeconds: t.TimeLimit.Seconds(), Seconds: t.Elapsed.Seconds(), Delay: t.Delay,
		Timeout: t.Timeout, TimeoutCoord: t.TimeoutCoord, CoordGiven: t.CoordGiven, Found: t.Found(), NoneHolds: t.NoneHolds(),
		Verdict: timeoutsVerdict(r)}
	for _, run := range t.Runs {
		out.Runs = append(out.Runs, jsonTimeoutRun{Timeout: run.Timeout, TimeoutCoord: run.TimeoutCoord, Coord: run.Coord,
			Outcome: string(run.Outcome), Failed: run.Failed, jsonAttempt: attemptJSON(run.Attempt)})
	}
	failure := func(rep *check.Report) *jsonTimeoutFailure {
		if rep == nil {
			return nil
		}
		return &jsonTimeoutFailure{Timeout: rep.Config.Timeout, TimeoutCoord: rep.Config.TimeoutCoord, Properties: propertiesJSON(r.of(rep))}
	}
	out.Failure, out.CoordFailure = failure(t.Failure), failure(t.CoordFailure)
	return out
}

// jsonSweep is the parameter search in the JSON report.
type jsonSweep struct {
	Param            string  `json:"param"`
	TimeLimitSeconds float64 `json:"time_limit_seconds,omitempty"`
	Seconds          float64 `json:"seconds"`
	// Value is the smallest value found (Found false: none).
	Value   int               `json:"value"`
	Found   bool              `json:"found"`
	Verdict string            `json:"verdict"`
	Runs    []jsonParamRun    `json:"runs"`
	Failure *jsonParamFailure `json:"failure,omitempty"`
}

type jsonParamRun struct {
	Value   int      `json:"value"`
	Outcome string   `json:"outcome"`
	Failed  []string `json:"failed,omitempty"`
	jsonAttempt
}

// jsonParamFailure is the check at the largest value that fails.
type jsonParamFailure struct {
	Value      int            `json:"value"`
	Properties []jsonProperty `json:"properties"`
}

func paramSearchJSON(r *Result) *jsonSweep {
	p := r.ParamSearch
	if p == nil {
		return nil
	}
	out := &jsonSweep{Param: p.Param.Name, TimeLimitSeconds: p.TimeLimit.Seconds(), Seconds: p.Elapsed.Seconds(),
		Value: p.Value, Found: p.Found, Verdict: paramVerdict(r)}
	for _, run := range p.Runs {
		out.Runs = append(out.Runs, jsonParamRun{Value: run.Value, Outcome: string(run.Outcome), Failed: run.Failed, jsonAttempt: attemptJSON(run.Attempt)})
	}
	if f := p.Failure; f != nil {
		out.Failure = &jsonParamFailure{Value: f.Config.Params[p.Param.Name], Properties: propertiesJSON(r.of(f))}
	}
	return out
}
