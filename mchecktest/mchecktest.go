// Package mchecktest model-checks an algorithm inside go test:
//
//	func TestMyRing(t *testing.T) {
//		mchecktest.Check(t, myring.Algorithm{}, mchecktest.Config{N: 4, CrashAny: true})
//	}
//
// The test passes silently when every checked property holds on a complete
// search. Otherwise it fails with the violated property, the one-line
// explanation and the shortest counterexample, printed exactly as the mcheck
// command prints them; an incomplete search fails too, because nothing can
// be said to hold after it. Check returns the report, so a test can go on to
// assert counts or verdicts (with testify or without).
//
// # Properties of your own
//
// Besides the standard properties of leader election (properties.Standard;
// mcheck --check list shows them), a check can cover claims about your own
// local state. A property is a model.Property over model.View, which shows
// every process's liveness, ID and local state (View.Local), the channels'
// messages (View.Chan) and the fault counters:
//
//	noLeaderWhileBusy := model.Property[myring.Local, myring.Msg]{
//		Name: "BusyElectsNobody", Kind: model.Invariant,
//		Doc:  "a process busy in an election has elected nobody",
//		Holds: func(v *model.View[myring.Local, myring.Msg]) bool {
//			for p := 0; p < v.N(); p++ {
//				if l := v.Local(p); l.Busy && l.Elected != 0 {
//					return false
//				}
//			}
//			return true
//		},
//	}
//	mchecktest.Check(t, myring.Algorithm{}, mchecktest.Config{N: 4,
//		Properties: []model.AnyProperty{noLeaderWhileBusy}})
//
// Kind model.StepProperty checks a predicate Step(before, action, after) on
// every step instead (the counterexample ends in the offending step), and
// model.EventuallyAlways checks <>[]Holds under weak fairness (the
// standard termination property is <>[]Stable). model.Sometimes asks for a
// run to a state where Holds holds (the test passes with the shortest such
// example, and fails when a finished search finds none), and
// model.LeadsTo checks From ~> Holds under the same weak fairness (its
// counterexample marks the step where From held). To check a property on every test and on the command
// line, declare it on the algorithm instead: a method Properties() returning
// []model.Property[L, M] (model.Propertied). A property is checked by default
// unless it is Optional; Config.Check selects by name or group. An optional
// Explain func gives the one-line explanation of a counterexample.
//
// Partial-order reduction is used only for properties marked ElectedOnly
// (they read nothing but liveness, IDs and elected values); for any other,
// the report says it was switched off.
//
// # On a violation
//
// Check and Run stop at the first definite violation, as the mcheck
// command does: an invariant or step property broken, or a stuck state
// outside Termination's (or a leads-to's) goal, found breadth-first, so its
// counterexample is a shortest one. A broken variant fails within the
// states up to that depth, not at a cap; the other properties are then
// unknown. Config.Continue searches on to the end (or to a cap), so that
// every violated property has its own shortest counterexample, fair cycles
// (lassos) are looked for, and a finished search has complete counts.
// Check then calls t.Errorf once, with every violated property, and the
// test goes on; Run returns the report, whose verdicts say Violated, and a
// nil error (a violation is a finding, not an error of Run).
//
// Config.Simulate takes random runs instead (mcheck --simulate), for a
// configuration too large to search: a violation it finds fails the test
// as above (shortened and replayed; the same seed finds it again), and a
// sample that finds none passes, its log line saying that it proves
// nothing, with every property unknown in the report.
//
// # A misbehaving algorithm
//
// A panic of the algorithm (a handler, a guard, a timer's Duration, a
// formatter, a property) fails the test with t.Fatalf naming the value, the
// method that raised it, and the first state (breadth first) where a step
// raises it with the steps to it; Run returns it as a *PanicError. The caps
// hold even when the algorithm does not return: a search that does not
// stop shortly after Config.MaxTime (a handler that loops forever), or
// after the Go heap passed Config.MaxMemory, is abandoned, its goroutine
// left running, and the test fails with t.Fatalf (Run: an *AbandonedError).
package mchecktest

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/modelopt"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
	"github.com/mcheck/mcheck/report"
	"github.com/mcheck/mcheck/specs"
)

// The default caps of a search, when Config.MaxStates and Config.MaxTime
// are 0. The state cap is the guard: whether a search reaches it does not
// depend on the machine, so a test either finishes under it or fails the
// same way everywhere; two million states cover every configuration of the
// course (N up to 4 or 5) and a runaway model stops there. The time cap is
// only a safety valve, far beyond the state cap's time even for a model
// without a Codec on a loaded machine (some 50,000 states a second
// unloaded, 40 s to the state cap; the valve allows 10,000 a second).
const (
	DefaultMaxStates = 2_000_000
	DefaultMaxTime   = 5 * time.Minute
)

// Config is a check's model and properties; the fields mean what the
// mcheck flags of the same names mean (docs/model.md of mcheck defines the
// model). Mistakes are reported by field name: "Config.Crashes 3 can never
// happen with Config.N 3 ...".
type Config struct {
	// Name is the algorithm's name in reports (default: its Go type, like
	// "ringdetect.Algorithm").
	Name string
	// The model's options: written from internal/modelopt's table by go
	// generate ./internal/modelopt (edit the table, not these fields).

	// N is the number of processes (default 3, or len(IDs)).
	N int
	// IDs are the processes' IDs in ring order (default 1..N).
	IDs []int
	// Crashes is the most crashes in a run; CrashAny means N-1 (any process
	// may crash at any step, one stays live).
	Crashes  int
	CrashAny bool
	// Restarts is the most restarts (with the same ID) in a run.
	Restarts int
	// Detector is model.Perfect (the zero value), model.Incomplete,
	// model.Unreliable, model.Eventual (with Timing model.Partial) or
	// model.Heartbeat (with Timing model.Sync or model.Partial).
	Detector model.Detector
	// Initiators: only these IDs initiate (nil: all).
	Initiators []int
	// Down: these IDs are crashed from the start.
	Down []int
	// InitialLeader starts as if the largest ID had just been elected (the
	// algorithm must implement model.Leaderer or model.LeaderSelfer).
	InitialLeader bool
	// MaxQueue bounds every channel (default 2N).
	MaxQueue int
	// Anonymous allows duplicate IDs; an ID in Initiators or Down then
	// names every process that carries it.
	Anonymous bool
	// Perm explores every arrangement of the IDs 1..N on the ring, as
	// separate initial states of one search (IDs nil or 1..N).
	Perm bool
	// Timing is model.Async (the zero value: no clocks), model.Sync or
	// model.Partial (docs/semantics.md section 6.1). In a timed mode every
	// timer of the algorithm needs a Duration.
	Timing model.Timing
	// Delay is D, the worst one-way latency in ticks (default 1); only with
	// Timing model.Sync or model.Partial, as are Timeout and TimeoutCoord.
	Delay int
	// Timeout is the T that timers' Durations read (default 2D+1).
	Timeout int
	// TimeoutCoord is the T2 (T') that timers' Durations read (default
	// 2T+2D).
	TimeoutCoord int
	// Params sets the algorithm's parameters (model.Parameterized) by name,
	// as mcheck --param NAME=V: map[string]int{"H": 2, "L": 5}; one not
	// named takes its default, and a name the algorithm does not declare or
	// a value out of its range fails the test.
	Params map[string]int
	// Channels is model.FIFO (the zero value) or model.Unordered
	// (multisets: a delivery takes any message in the channel).
	Channels model.Channels
	// FalseSuspicions bounds model.Eventual's false suspicions before gst
	// (default 1).
	FalseSuspicions int
	// HeartbeatPeriod is model.Heartbeat's P in ticks (default 1), as
	// --heartbeat-period.
	HeartbeatPeriod int
	// HeartbeatTimeout is model.Heartbeat's TO in ticks (default P+D), as
	// --heartbeat-timeout.
	HeartbeatTimeout int

	// The end of the model's options.

	// Complexity measures messages over all complete runs and plays the
	// synchronous schedule (the report's Complexity), as --complexity.
	Complexity bool
	// Check is the properties: a comma list of property names and groups
	// ("safety"), or "all" (the default: every property not marked
	// Optional, including those of Properties).
	Check string
	// Properties adds properties for this test: model.Property values over
	// the algorithm's local state and message types.
	Properties []model.AnyProperty
	// MaxStates and MaxTime stop the search, which then fails the test as
	// incomplete (0: DefaultMaxStates, DefaultMaxTime; negative: no limit).
	// MaxTime is a hard cap: a search that does not stop soon after it (a
	// handler that loops forever) is abandoned and the test fails.
	MaxStates int64
	MaxTime   time.Duration
	// MaxMemory caps the memory of the search, in bytes (0:
	// DefaultMaxMemory; negative: no limit): the search's own memory, as the
	// mcheck flag --memory, and the whole Go heap of the test binary while
	// the check runs, so that a local state that grows without bound fails
	// the test (abandoning the search if it does not stop) instead of
	// ending the binary out of memory.
	MaxMemory int64
	// Continue searches on after the first violation (mcheck --continue):
	// every property decided, lassos beside stuck states, full counts.
	Continue bool
	// FullStates prints the whole state after every step of a trace
	// instead of only the fields the step changed.
	FullStates bool
	// Simulate, when set, takes random runs instead of searching every
	// state (mcheck --simulate): for configurations too large to search,
	// such as a bug that shows only at N >= 10. MaxStates does not apply.
	Simulate *Simulation
}

// Simulation is Config.Simulate: random runs, as mcheck --simulate with
// --runs, --depth, --seed and --scheduler. The same seed gives the same
// runs and the same report on any machine. A sample proves nothing: a
// violation found is a real one (shortened and replayed as any other),
// and Check fails the test with it; when none is found every property is
// unknown, and Check passes, saying in its log line that nothing is
// proven.
type Simulation struct {
	// Runs is how many runs (0: DefaultRuns); Depth the most steps of one
	// (0: DefaultDepth).
	Runs  int64
	Depth int
	// Seed is the master seed of the runs.
	Seed uint64
	// Scheduler picks each run's next step: "faults" or "uniform" (""
	// is mcheck --simulate's default).
	Scheduler string
}

// The defaults of Config.Simulate, those of mcheck --simulate.
const (
	DefaultRuns  = check.DefaultRuns
	DefaultDepth = check.DefaultDepth
)

// simulate is the check.Simulate of s.
func (s *Simulation) simulate() (*check.Simulate, error) {
	name := s.Scheduler
	if name == "" {
		name = explore.DefaultScheduler.String()
	}
	sched, ok := explore.ParseScheduler(name)
	switch {
	case !ok:
		return nil, fmt.Errorf("Config.Simulate.Scheduler: no scheduler %q: use %s", s.Scheduler, strings.Join(explore.SchedulerNames(), " or "))
	case s.Runs < 0:
		return nil, fmt.Errorf("Config.Simulate.Runs %d would take no run: give 1 or more (0: %d)", s.Runs, DefaultRuns)
	case s.Depth < 0:
		return nil, fmt.Errorf("Config.Simulate.Depth %d would take no step: give 1 or more (0: %d)", s.Depth, DefaultDepth)
	}
	return &check.Simulate{Seed: s.Seed, Runs: cmp.Or(s.Runs, DefaultRuns), Depth: cmp.Or(s.Depth, DefaultDepth), Scheduler: sched}, nil
}

// errTimeCap is the cause of a search stopped by Config.MaxTime.
var errTimeCap = errors.New("the time cap (Config.MaxTime) was reached")

// request turns cfg into a check request for alg, and the time cap.
func request[L, M any](alg model.Algorithm[L, M], cfg Config) (check.Request, time.Duration, error) {
	if err := model.CheckMethods(alg); err != nil {
		return check.Request{}, 0, err
	}
	name := cfg.Name
	if name == "" {
		name = fmt.Sprintf("%T", alg)
	}
	mc, err := modelConfig(cfg)
	if err := model.ValidateTimers(alg, mc, modelopt.APIName); err != nil {
		return check.Request{}, 0, err // the timers first, as on the command line
	}
	if err != nil {
		return check.Request{}, 0, err
	}
	var extra []model.Property[L, M]
	for _, p := range cfg.Properties {
		tp, ok := p.(model.Property[L, M])
		if !ok {
			return check.Request{}, 0, fmt.Errorf("Config.Properties: %s is a %T, not a model.Property of %T's local state and message types", p.Info().Name, p, alg)
		}
		extra = append(extra, tp)
	}
	spec := specs.Spec{Name: name, Build: specs.Builder(alg, extra...)}
	sel, err := properties.Select(spec.Build.Properties(), cfg.Check)
	if err != nil {
		return check.Request{}, 0, fmt.Errorf("Config.Check: %w", err)
	}
	maxStates := cfg.MaxStates
	switch {
	case maxStates == 0:
		maxStates = DefaultMaxStates
	case maxStates < 0:
		maxStates = 0 // explore: no limit
	}
	maxTime := cfg.MaxTime
	switch {
	case maxTime == 0:
		maxTime = DefaultMaxTime
	case maxTime < 0:
		maxTime = 0
	}
	_, ok := any(alg).(model.Leaderer[L])
	if _, self := any(alg).(model.LeaderSelfer[L]); cfg.InitialLeader && !ok && !self {
		var l L
		return check.Request{}, 0, fmt.Errorf("Config.InitialLeader needs the method InitLeader(leader int) %T on %T (model.Leaderer), or InitLeaderAs(leader, id int) %T (model.LeaderSelfer): the local state of a process right after leader was elected", l, alg, l)
	}
	maxMemory := cfg.MaxMemory
	switch {
	case maxMemory == 0:
		maxMemory = DefaultMaxMemory
	case maxMemory < 0:
		maxMemory = 0
	}
	req := check.Request{Spec: spec, Config: mc, Properties: sel, Continue: cfg.Continue, MaxStates: maxStates, MemoryBudget: maxMemory, Complexity: cfg.Complexity, Name: apiName}
	if cfg.Simulate != nil {
		sim, err := cfg.Simulate.simulate()
		if err != nil {
			return check.Request{}, 0, err
		}
		req.Strategy, req.MaxStates = sim, 0
	}
	return req, maxTime, nil
}

// apiName names a field of check.Request or of model.Config by Config's
// field, so that the report speaks of what a test sets.
func apiName(field string) string {
	if n := modelopt.APIName(field); n != "" {
		return n
	}
	switch field {
	case "MaxStates", "Continue":
		return "Config." + field
	}
	return ""
}

// safeRequest is request with a panic of the algorithm (a timer's
// Duration, read to validate the timers) as a *PanicError.
func safeRequest[L, M any](alg model.Algorithm[L, M], cfg Config) (req check.Request, maxTime time.Duration, err error) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		name := cfg.Name
		if name == "" {
			name = fmt.Sprintf("%T", alg)
		}
		pkg, typ := algType(alg)
		pe := &PanicError{Algo: name, Value: v, Stack: panicStack(string(debug.Stack()))}
		pe.Func = panicFrame(pe.Stack, pkg, typ)
		if t := panickingTimer(alg, cfg); t != "" {
			pe.Func = strings.TrimSuffix("the Duration of the timer "+t+", "+pe.Func, ", ")
		}
		req, maxTime, err = check.Request{}, 0, pe
	}()
	return request(alg, cfg)
}

// panickingTimer is the name of the first timer of alg whose Duration
// panics under cfg, or "".
func panickingTimer[L, M any](alg model.Algorithm[L, M], cfg Config) (name string) {
	td, ok := any(alg).(model.Timed[L, M])
	if !ok {
		return ""
	}
	mc, _ := modelConfig(cfg)
	times := model.TimesOf(model.ParamsOf(alg), mc)
	for _, t := range td.Timers() {
		if t.Duration != nil && panics(func() { t.Duration(times) }) {
			return t.Name
		}
	}
	return ""
}

// panics says whether f panics.
func panics(f func()) (did bool) {
	defer func() { did = recover() != nil }()
	f()
	return false
}

// modelConfig is cfg's model configuration, with the defaults and rules of
// the command line's options (modelopt), named by Config's fields.
func modelConfig(cfg Config) (model.Config, error) {
	g := cfg.given()
	g.InitialLeader = modelopt.OptBool{Given: true, Value: cfg.InitialLeader}
	// A zero field is not given: its default applies.
	given := func(field string) bool { return !reflect.ValueOf(g.Config).FieldByName(field).IsZero() }
	return g.Resolve(given, modelopt.APIName, false)
}

// whyStopped says, in Config's words, which cap stopped an incomplete
// search and how to raise it; "" when the search finished or when it was
// stopped by something else (the report's own reason then stands).
func whyStopped(req check.Request, maxTime time.Duration, rep *check.Report) string {
	switch {
	case rep.Stats.Complete:
		return ""
	case errors.Is(context.Cause(req.Context), errTimeCap):
		return fmt.Sprintf("stopped by the time cap of %s after %d states (Config.MaxTime, default %s; -1: no cap)", maxTime, rep.Stats.States, DefaultMaxTime)
	case errors.Is(context.Cause(req.Context), errMemCap) || rep.Stats.Stop == explore.StopMemory:
		return fmt.Sprintf("stopped by the memory cap of %s after %d states (Config.MaxMemory, default %s; -1: no cap)",
			explore.FormatBytes(req.MemoryBudget), rep.Stats.States, explore.FormatBytes(DefaultMaxMemory))
	case req.MaxStates > 0 && rep.Stats.States >= req.MaxStates:
		return fmt.Sprintf("stopped by the state cap of %d states (Config.MaxStates, default %d; -1: no cap)", req.MaxStates, DefaultMaxStates)
	}
	return ""
}

// answered reports whether the search stopped because it had its answer (a
// violation, every example), not because something cut it short.
func answered(r *check.Report) bool {
	return r.Stats.Stop == explore.StopFirstViolation || r.Stats.Stop == explore.StopExamples
}

// Run checks alg under cfg and returns the report; it fails nothing. The
// search stops at the first violation (Config.Continue goes on, so that
// every violated property has its shortest counterexample and, when the
// search finishes, the counts are complete); a violation gives a nil error. When it does not
// finish (a cap stopped it), or the measures of Config.Complexity could not
// be computed, Run returns the partial report with an *IncompleteError
// that says why. A panic of the algorithm is a *PanicError, a search that
// a cap could not stop an *AbandonedError (both without a report).
func Run[L, M any](alg model.Algorithm[L, M], cfg Config) (*check.Report, error) {
	req, maxTime, err := safeRequest(alg, cfg)
	if err != nil {
		return nil, err
	}
	rep, err := guarded(alg, &req, caps{maxTime: maxTime, maxMemory: req.MemoryBudget})
	if err != nil {
		return nil, err
	}
	if why := incomplete(req, maxTime, rep); why != "" {
		return rep, &IncompleteError{Why: why}
	}
	return rep, nil
}

// measuresSkipped says why a complete search of Config.Complexity has no
// measures.
func measuresSkipped(r *check.Report) string {
	return "the measures of Config.Complexity were not computed: " + r.Complexity.Skipped
}

// IncompleteError is Run's error when the search did not finish or gave
// no measures: the report that comes with it has partial counts, and no
// property of it holds.
type IncompleteError struct {
	// Why says what stopped it and how to raise that cap.
	Why string
}

func (e *IncompleteError) Error() string {
	return "the search did not finish: " + e.Why + ", so its counts are partial and no property can be said to hold"
}

// incomplete says why rep is not a finished check, in Config's words, or
// "" when it is.
func incomplete(req check.Request, maxTime time.Duration, rep *check.Report) string {
	switch {
	case answered(rep):
		return ""
	case !rep.Stats.Complete:
		if why := whyStopped(req, maxTime, rep); why != "" {
			return why
		}
		return rep.Stats.Stopped
	case rep.Complexity != nil && rep.Complexity.Measures == nil:
		return measuresSkipped(rep)
	}
	return ""
}

// Check model-checks alg under cfg. When a property is violated, or the
// search did not finish, it calls t.Errorf once with Failure's text: the
// violated properties with their one-line explanations, then the mcheck
// report with the readable counterexamples. Otherwise it passes silently
// (a one-line summary goes to t.Logf, shown with go test -v). A
// configuration that cannot be built is a t.Fatalf. The report is returned
// for further assertions (nil after a t.Fatalf that returned). A panic of
// the algorithm, or a search that a cap could not stop, is a t.Fatalf
// (package doc).
func Check[L, M any](t testing.TB, alg model.Algorithm[L, M], cfg Config) *check.Report {
	t.Helper()
	req, maxTime, err := safeRequest(alg, cfg)
	if err != nil {
		t.Fatalf("mchecktest: %v", err)
		return nil
	}
	c := caps{maxTime: maxTime, maxMemory: req.MemoryBudget}
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if dl, ok := d.Deadline(); ok {
			c.deadline = dl
		}
	}
	rep, err := guarded(alg, &req, c)
	if err != nil {
		t.Fatalf("mchecktest: %v", err)
		return nil
	}
	if msg := failure(rep, cfg.FullStates, whyStopped(req, maxTime, rep)); msg != "" {
		t.Errorf("%s", msg)
		return rep
	}
	if sim := rep.Simulation; sim != nil {
		t.Logf("mcheck %s: %d random runs, %d distinct states, no violation: a sample, so no property is shown to hold", rep.Algo, sim.Runs, rep.Stats.States)
		return rep
	}
	t.Logf("mcheck %s: %d states, %d transitions: %s", rep.Algo, rep.Stats.States, rep.Stats.Transitions, held(rep))
	return rep
}

// held lists the properties that hold, and the Sometimes properties with
// an example, for the success log line.
func held(r *check.Report) string {
	var names, reached []string
	for _, v := range r.Verdicts {
		switch v.Status {
		case check.Holds:
			names = append(names, v.Name)
		case check.Reachable:
			reached = append(reached, v.Name)
		}
	}
	s := strings.Join(names, ", ") + " hold"
	switch {
	case len(names) == 0 && len(reached) > 0:
		s = strings.Join(reached, ", ") + " reachable"
	case len(reached) > 0:
		s += "; " + strings.Join(reached, ", ") + " reachable"
	}
	if r.Bounded() {
		s += fmt.Sprintf(" (up to %d messages per channel; %d successors beyond that were not explored)", r.Config.MaxQueue, r.Stats.Discarded)
	}
	return s
}

// Failure is the text Check fails with, or "" when every checked property
// holds on a complete search: one line per violated or undecided property
// (name, status, explanation), then the whole report as the mcheck command
// prints it, with every counterexample (fullStates: whole states).
func Failure(r *check.Report, fullStates bool) string { return failure(r, fullStates, "") }

// failure is Failure with why, when not "", saying why the search stopped.
func failure(r *check.Report, fullStates bool, why string) string {
	// What failed first; after a search that stopped at its first
	// violation, the properties it left undecided in one line.
	var head, unknown []string
	first := r.Stats.Stop == explore.StopFirstViolation
	for _, v := range r.Verdicts {
		switch v.Status {
		case check.Violated:
			line := v.Name + " VIOLATED: " + v.Summary
			for _, a := range v.Also {
				line += "\n  also: " + a.Summary
			}
			head = append(head, line)
		case check.Unreachable:
			head = append(head, v.Name+" UNREACHABLE: "+v.Summary)
		case check.Unknown:
			if sampled(r) {
				continue // a finished sample decides only what it found
			}
			if first {
				unknown = append(unknown, v.Name)
			} else {
				unknown = append(unknown, v.Name+" unknown: "+v.Summary)
			}
		}
	}
	if !first {
		head = append(head, unknown...)
	}
	switch {
	case r.Stats.Complete && r.Complexity != nil && r.Complexity.Measures == nil:
		head = append(head, measuresSkipped(r))
	case r.Stats.Complete:
	case r.Stats.Stop == explore.StopExamples:
	case first && len(unknown) > 0:
		head = append(head, "the search stopped at the first violation, so "+strings.Join(unknown, ", ")+" "+isAre(len(unknown))+" unknown: Config.Continue decides them")
	case first:
	case why != "":
		head = append(head, "the search did not finish: "+why+", so no property can be said to hold: raise that cap, "+
			"make the model smaller (Config.N, Config.Crashes, Config.MaxQueue), or give the algorithm a Codec (model.Codec) to explore faster")
	default:
		head = append(head, "the search did not finish ("+r.Stats.Stopped+"), so no property can be said to hold: "+
			"make the model smaller (Config.N, Config.Crashes, Config.MaxQueue) or raise Config.MaxStates and Config.MaxTime")
	}
	if len(head) == 0 {
		return ""
	}
	var b bytes.Buffer
	b.WriteString(strings.Join(head, "\n"))
	b.WriteString("\n\n")
	report.Text(&b, report.Of(r, configSetting), fullStates)
	return strings.TrimRight(b.String(), "\n")
}

// configSetting names an option the report suggests as a test sets it:
// the field of Config ("Config.MaxQueue = 2"), else the library's field.
func configSetting(field, value string) string {
	name := modelopt.APIName(field)
	switch field {
	case "Continue", "CrashAny", "MaxStates":
		name = "Config." + field
	case "Properties":
		name = "Config.Check"
	}
	if name == "" || value == "" {
		return name
	}
	return name + " = " + value
}

// sampled reports whether r is of a simulation that took all its runs:
// what it did not find is unknown, as a sample must leave it, and no
// failure.
func sampled(r *check.Report) bool {
	return r.Proof == check.Sampled && r.Stats.Complete
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// Verdict is the verdict of the named property in r; Status is "" for a
// name r has no verdict for.
func Verdict(r *check.Report, property string) check.Verdict {
	for _, v := range r.Verdicts {
		if v.Name == property {
			return v
		}
	}
	return check.Verdict{Name: property}
}

// Status is Verdict(r, property).Status.
func Status(r *check.Report, property string) check.Status { return Verdict(r, property).Status }
