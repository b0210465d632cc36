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
// standard termination property is <>[]Stable). To check a property on every test and on the command
// line, declare it on the algorithm instead: a method Properties() returning
// []model.Property[L, M] (model.Propertied). A property is checked by default
// unless it is Optional; Config.Check selects by name or group. An optional
// Explain func gives the one-line explanation of a counterexample.
//
// Partial-order reduction is used only for properties marked ElectedOnly
// (they read nothing but liveness, IDs and elected values); for any other,
// the report says it was switched off.
package mchecktest

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
	"github.com/mcheck/mcheck/specs"
)

// DefaultMaxStates is the search limit when Config.MaxStates is 0: enough
// for every configuration of the course (N up to 4 or 5), small enough that
// a runaway model fails the test in seconds instead of hanging it.
const DefaultMaxStates = 2_000_000

// Config is a check's model and properties; the fields mean what the
// mcheck flags of the same names mean (see mcheck --help).
type Config struct {
	// Name is the algorithm's name in reports (default: its Go type, like
	// "ringdetect.Algorithm").
	Name string
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
	// Detector is model.Perfect (the zero value) or model.Unreliable.
	Detector model.Detector
	// Initiators: only these IDs initiate (nil: all). Down: these IDs are
	// crashed from the start.
	Initiators, Down []int
	// InitialLeader starts as if the largest ID had just been elected (the
	// algorithm must implement model.Leaderer).
	InitialLeader bool
	// MaxQueue bounds every channel (default 2N).
	MaxQueue int
	// Check is the properties: a comma list of property names and groups
	// ("safety"), or "all" (the default: every property not marked
	// Optional, including those of Properties).
	Check string
	// Properties adds properties for this test: model.Property values over
	// the algorithm's local state and message types.
	Properties []model.AnyProperty
	// MaxStates stops the search, which then fails the test as incomplete
	// (0: DefaultMaxStates; negative: no limit).
	MaxStates int64
	// FullStates prints the whole state after every step of a trace
	// instead of only the fields the step changed.
	FullStates bool
}

// request turns cfg into a check request for alg.
func request[L, M any](alg model.Algorithm[L, M], cfg Config) (check.Request, error) {
	name := cfg.Name
	if name == "" {
		name = fmt.Sprintf("%T", alg)
	}
	mc := model.Config{
		N: cfg.N, IDs: cfg.IDs, MaxCrashes: cfg.Crashes, MaxRestarts: cfg.Restarts,
		Detector: cfg.Detector, Initiators: cfg.Initiators, Down: cfg.Down,
		InitialLeader: cfg.InitialLeader, MaxQueue: cfg.MaxQueue,
	}
	if mc.N == 0 {
		mc.N = 3
		if mc.IDs != nil {
			mc.N = len(mc.IDs)
		}
	}
	if cfg.CrashAny {
		if cfg.Crashes != 0 && cfg.Crashes != mc.N-1 {
			return check.Request{}, fmt.Errorf("CrashAny means Crashes %d for N %d: give only one of them", mc.N-1, mc.N)
		}
		mc.MaxCrashes = mc.N - 1
	}
	var extra []model.Property[L, M]
	for _, p := range cfg.Properties {
		tp, ok := p.(model.Property[L, M])
		if !ok {
			return check.Request{}, fmt.Errorf("property %s is a %T, not a model.Property of %T's local state and message types", p.Info().Name, p, alg)
		}
		extra = append(extra, tp)
	}
	spec := specs.Spec{Name: name, Build: specs.Builder(alg, extra...)}
	sel, err := properties.Select(spec.Build.Properties(), cfg.Check)
	if err != nil {
		return check.Request{}, err
	}
	maxStates := cfg.MaxStates
	switch {
	case maxStates == 0:
		maxStates = DefaultMaxStates
	case maxStates < 0:
		maxStates = 0 // explore: no limit
	}
	if err := mc.WithDefaults().Validate(); err != nil {
		return check.Request{}, err
	}
	return check.Request{Spec: spec, Config: mc, Properties: sel, Continue: true, MaxStates: maxStates}, nil
}

// Run checks alg under cfg and returns the report; it fails nothing. The
// search always runs to the end (Continue), so the counts are complete and
// every violated property has its shortest counterexample.
func Run[L, M any](alg model.Algorithm[L, M], cfg Config) (*check.Report, error) {
	req, err := request(alg, cfg)
	if err != nil {
		return nil, err
	}
	return check.Run(req)
}

// Check model-checks alg under cfg. When a property is violated, or the
// search did not finish, it calls t.Errorf once with Failure's text: the
// violated properties with their one-line explanations, then the mcheck
// report with the readable counterexamples. Otherwise it passes silently
// (a one-line summary goes to t.Logf, shown with go test -v). A
// configuration that cannot be built is a t.Fatalf. The report is returned
// for further assertions (nil after a t.Fatalf that returned).
func Check[L, M any](t testing.TB, alg model.Algorithm[L, M], cfg Config) *check.Report {
	t.Helper()
	req, err := request(alg, cfg)
	if err != nil {
		t.Fatalf("mchecktest: %v", err)
		return nil
	}
	// Stop the search before go test's -timeout kills the whole binary, so
	// the failure says what happened.
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if dl, ok := d.Deadline(); ok {
			ctx, cancel := context.WithDeadline(context.Background(), dl.Add(-time.Until(dl)/10))
			defer cancel()
			req.Context = ctx
		}
	}
	rep, err := check.Run(req)
	if err != nil {
		t.Fatalf("mchecktest: %v", err)
		return nil
	}
	if msg := Failure(rep, cfg.FullStates); msg != "" {
		t.Errorf("%s", msg)
		return rep
	}
	t.Logf("mcheck %s: %d states, %d transitions: %s", rep.Algo, rep.Stats.States, rep.Stats.Transitions, held(rep))
	return rep
}

// held lists the properties that hold, for the success log line.
func held(r *check.Report) string {
	var names []string
	for _, v := range r.Verdicts {
		if v.Status == check.Holds {
			names = append(names, v.Name)
		}
	}
	s := strings.Join(names, ", ") + " hold"
	if r.Bounded() {
		s += fmt.Sprintf(" (up to %d messages per channel; %d successors beyond that were not explored)", r.Config.MaxQueue, r.Stats.Discarded)
	}
	return s
}

// Failure is the text Check fails with, or "" when every checked property
// holds on a complete search: one line per violated or undecided property
// (name, status, explanation), then the whole report as the mcheck command
// prints it, with every counterexample (fullStates: whole states).
func Failure(r *check.Report, fullStates bool) string {
	var head []string
	for _, v := range r.Verdicts {
		switch v.Status {
		case check.Violated:
			line := v.Name + " VIOLATED: " + v.Summary
			for _, a := range v.Also {
				line += "\n  also: " + a.Summary
			}
			head = append(head, line)
		case check.Unknown:
			head = append(head, v.Name+" unknown: "+v.Summary)
		}
	}
	if !r.Stats.Complete {
		head = append(head, "the search did not finish ("+r.Stats.Stopped+"), so no property can be said to hold: "+
			"make the model smaller (N, Crashes, MaxQueue) or raise Config.MaxStates")
	}
	if len(head) == 0 {
		return ""
	}
	var b bytes.Buffer
	b.WriteString(strings.Join(head, "\n"))
	b.WriteString("\n\n")
	cli.WriteText(&b, r, fullStates)
	return strings.TrimRight(b.String(), "\n")
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
