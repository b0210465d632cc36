// Package check runs one model-checking job: it builds the system of a spec
// under a configuration, explores it, and turns the explorer's findings into
// per-property verdicts with explained traces. It prints nothing; the CLI and
// the test helpers render its Report.
package check

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// Request is one check.
type Request struct {
	Spec   specs.Spec
	Config model.Config
	// Properties names the properties to check, as properties.Select
	// returns them; nil checks the default ones ("all").
	Properties   []string
	Continue     bool
	MaxStates    int64
	MemoryBudget int64
	// Generic identifies states as for an algorithm without a Codec even
	// when the algorithm has one (slower; for cross-checking the Codec).
	Generic bool
	// Strategy is how the states are searched: BreadthFirst (nil means
	// it too), Bitstate or a *Simulate.
	Strategy Strategy
	// Reduce asks for partial-order reduction (explore.Options.Reduce). It
	// applies to checks of invariants that read only the elected values and
	// liveness (model.Property.ElectedOnly), not with Bitstate; otherwise
	// Report.ReductionOff says why not (eventually-always properties turn it
	// off silently: the fair-cycle check needs the full graph). If the reduced search finds a violation, the check is run
	// again in full, so that the reported counterexample is a shortest one.
	Reduce bool
	// Complexity measures messages over all complete runs and plays the
	// synchronous schedule (Report.Complexity); the search is then full
	// (no reduction) and goes on after violations.
	Complexity bool
	// Workers expand states in parallel (0: one per CPU); results do not
	// depend on it.
	Workers int
	// Exact compares states by their whole encodings, not fingerprints
	// alone (explore.Options.Exact).
	Exact bool
	// Name names a field of Request or of model.Config ("Continue",
	// "MaxQueue") in the report's words (Stats.Stopped, the verdicts'
	// summaries); nil or "" keeps the field name. The command line passes
	// its flags.
	Name     func(field string) string
	Context  context.Context
	Progress func(explore.Progress)
	// ProgressEvery is how often Progress is called (0: the engine's
	// default, explore.Options.ProgressEvery).
	ProgressEvery time.Duration
	// Sweeping, if set, is told the configuration of each search a sweep
	// (Deepen, SearchTimeouts) starts, with its defaults applied, before
	// its first Progress.
	Sweeping func(model.Config)
}

// Status is a property's verdict.
type Status string

const (
	Holds     Status = "holds"     // the search finished and found no violation
	Violated  Status = "violated"  // a counterexample was found (and replayed)
	Unchecked Status = "unchecked" // not selected with --check
	Unknown   Status = "unknown"   // selected, but the search did not finish
	// A Sometimes property is reachable (an example was found and
	// replayed; Verdict.Trace is a shortest one) or unreachable (a search
	// that proves what it did not find finished without one).
	Reachable   Status = "reachable"
	Unreachable Status = "unreachable"
)

// Verdict is the result for one property.
type Verdict struct {
	Name string
	// Property is what the verdict is about.
	Property model.PropertyInfo
	Status   Status
	// Kind of counterexample: cex.Invariant, Step, Stuck or FairCycle;
	// cex.Example for the run of a reachable Sometimes.
	Kind cex.Kind
	// Summary says in one line what goes wrong (what the example reaches),
	// or why the status is Unknown or Unreachable.
	Summary string
	Trace   *explore.Trace
	// File is the trace as a trace file, verified by replay.
	File *trace.File
	// Bounded: the counterexample may be an artefact of the channel bound
	// (see explore.Violation.Bounded).
	Bounded bool
	// Also holds further counterexamples of other kinds (eventually-always: a
	// stuck state besides a fair cycle).
	Also []Counterexample
	// Vacuous is set when the property holds only because what it speaks
	// of never happened in the search ("" otherwise).
	Vacuous Vacuity
	// Proof is what the search behind this verdict proves (the strategy's
	// proof, or Incomplete when the search did not finish), and Caveat
	// what limits this verdict in words ("" when nothing does): the one
	// place every output (text, JSON, JUnit, the explorer, merge) takes
	// them from, so that none can drop them. Set by Run for every checked
	// property (see qualify).
	Proof  Proof
	Caveat string
}

// Vacuity says why a property that holds had nothing to hold of.
type Vacuity string

const (
	// NeverTriggered: no step of the search was one the step property
	// speaks of (model.Property.When), or no step was taken at all.
	NeverTriggered Vacuity = "never-triggered"
	// AlwaysInGoal: every reachable state already satisfies the goal of
	// the eventually-always property, so no run had anything to do.
	AlwaysInGoal Vacuity = "always-in-goal"
)

// Counterexample is one way a property fails.
type Counterexample struct {
	Kind    cex.Kind
	Summary string
	Trace   *explore.Trace
	File    *trace.File
	Bounded bool
}

// Report is the outcome of a check.
type Report struct {
	Algo   string
	Config model.Config // with defaults filled in
	Stats  explore.Stats
	// Strategy names how the states were searched ("breadth-first",
	// "bitstate", "simulation"); Proof is what its result proves of a
	// property without a violation, and notProven says why, when that is
	// nothing.
	Strategy  string
	Proof     Proof
	notProven string
	// Bitstate describes a bitstate search; nil for an exhaustive one.
	Bitstate *explore.Bitstate
	// Simulation describes a simulation; nil for a search. Found says
	// which runs found its counterexamples.
	Simulation *explore.SimStats
	Found      []Found
	// Kinds are the kinds of step the configuration can take (nil when
	// the system does not say), so that a report names only those never
	// taken that could have been.
	Kinds    []model.Kind
	Verdicts []Verdict
	// RerunFull: the reduced search found a violation and the report is of
	// the full search run after it (for shortest counterexamples).
	RerunFull bool
	// Expander renders the states and actions of the traces.
	Expander model.Expander
	// Complexity is set with Request.Complexity.
	Complexity *Complexity
	// Arrangements is the number of arrangements of IDs explored, one
	// initial state each (model.Config.Perm); 1 otherwise.
	Arrangements int
	// ReductionOff says why partial-order reduction, asked for, was not
	// used ("" when it was, or was not asked for).
	ReductionOff string
	// SendCap is how far the states counted the sends since the initial
	// state, for the properties that read them (model.Property.CountSends);
	// 0 when they did not.
	SendCap int
	sys     model.PropertySystem
	name    func(field string) string // Request.Name
	// Deepening is set by Deepen: the bounds tried before this report.
	Deepening *Deepening
	// Timeouts is set by SearchTimeouts: the timeouts tried before this
	// report.
	Timeouts *Timeouts
	// ParamSearch, for a search over one of the algorithm's parameters
	// (SearchParam), says how it arrived at this report.
	ParamSearch *ParamSearch
}

// Bounded reports whether the channel bound cut successors off, so that the
// verdicts hold for the bounded model only.
func (r *Report) Bounded() bool { return r.Stats.Discarded > 0 }

// Idle reports whether the search finished without a single step: no step
// is enabled in any initial state (or the channel bound refused them all),
// so every property holds of the initial states alone.
func (r *Report) Idle() bool { return r.Stats.Complete && r.Stats.Transitions == 0 }

// Violated reports whether any property is violated.
func (r *Report) Violated() bool {
	for _, v := range r.Verdicts {
		if v.Status == Violated {
			return true
		}
	}
	return false
}

// Failed reports whether any property is violated or, for a Sometimes,
// unreachable: an example that should exist does not.
func (r *Report) Failed() bool {
	for _, v := range r.Verdicts {
		if v.Status == Violated || v.Status == Unreachable {
			return true
		}
	}
	return false
}

// determinismProbe is how many states CheckDeterminism looks at before a
// search: a few milliseconds with a Codec, a fraction of a second without.
const determinismProbe = 1000

// Run performs the check.
func Run(req Request) (rep *Report, err error) {
	defer algorithmFault(req.Spec.Name, &rep, &err)
	sys, ps, exp, err := buildSystem(req)
	if err != nil {
		return nil, err
	}
	checked := ps.Properties()
	st := strategyOf(req)
	rep = &Report{Algo: req.Spec.Name, Expander: exp, Strategy: st.name(), sys: ps, name: req.Name}
	res, err := st.search(req, rep, sys, targetsFor(req, checked))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", req.Spec.Name, err)
	}
	rep.describe(sys, st, res)
	rep.judge(res, req.Spec.Build.Properties(), checked)
	rep.qualify()
	if err := rep.replayAll(sys); err != nil {
		return nil, err
	}
	return rep, nil
}

// buildSystem builds the system that req checks (every property when it
// names none) with its expander, and probes its handlers for determinism.
func buildSystem(req Request) (model.System, model.PropertySystem, model.Expander, error) {
	var opts []model.Option
	if req.Generic {
		opts = append(opts, model.WithGenericHashing())
	}
	names := req.Properties
	if names == nil {
		var err error
		if names, err = properties.Select(req.Spec.Build.Properties(), "all"); err != nil {
			return nil, nil, nil, err
		}
	}
	sys, err := req.Spec.Build.System(req.Config, names, opts...)
	if err != nil {
		return nil, nil, nil, err
	}
	ps, ok := sys.(model.PropertySystem)
	if !ok {
		return nil, nil, nil, fmt.Errorf("%s: the system does not describe its properties", req.Spec.Name)
	}
	exp, err := model.ExpanderOf(sys)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", req.Spec.Name, err)
	}
	// A handler that is not a function of its inputs makes the search and
	// the replay of its counterexamples see different systems: a look at
	// the first states before the search reports it as the algorithm's
	// fault, where the replay could only call it mcheck's.
	if err := probeDeterminism(req.Context, sys, determinismProbe); err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", req.Spec.Name, err)
	}
	return sys, ps, exp, nil
}

// targetsFor is what the search looks for in the checked properties; a
// timed mode turns the reduction off.
func targetsFor(req Request, checked []model.PropertyInfo) targets {
	t := targetsOf(checked)
	if req.Config.Timed() && t.reduceOff == "" {
		t.reduceOff = "a timed mode: a tick ages every channel and counts every timer down at once, a step of every process, which the reduction's soundness argument (steps of one process each) does not cover"
	}
	return t
}

// describe records what the search did and what it proves, and the
// configuration as the system ran it.
func (r *Report) describe(sys model.System, st strategy, res *explore.Result) {
	r.Stats, r.Bitstate, r.Simulation = res.Stats, res.Bitstate, res.Simulation
	r.Proof, r.notProven = st.proof(res)
	if k, ok := sys.(model.Configured); ok {
		r.Config = k.Config()
	}
	if k, ok := sys.(model.Kinded); ok {
		r.Kinds = k.Kinds()
	}
	r.Arrangements = 1
	if k, ok := sys.(model.Arranged); ok {
		r.Arrangements = k.Arrangements()
	}
	if k, ok := sys.(model.SendCounter); ok {
		r.SendCap = k.SendCap()
	}
}

// judge gives every property of the algorithm (all) its verdict: from the
// search for the checked ones, Unchecked for the others that are not
// optional.
func (r *Report) judge(res *explore.Result, all, checked []model.PropertyInfo) {
	for _, p := range all {
		i := slices.IndexFunc(checked, func(c model.PropertyInfo) bool { return c.Name == p.Name })
		switch {
		case i >= 0:
			r.Verdicts = append(r.Verdicts, r.verdict(res, i, p))
		case !p.Optional:
			r.Verdicts = append(r.Verdicts, Verdict{Name: p.Name, Property: p, Status: Unchecked})
		}
	}
}

// Caveats of a verdict (Verdict.Caveat). The bound's words are those of
// explore.Violation.Bounded: a liveness verdict of a bounded model may be
// an artefact of the bound, a safety one is a real run (the bound only
// removes steps), and silence is silence up to the bound.
const (
	CaveatLivenessBounded = "for the bounded model only: a channel bound can hide and create stuck states"
	CaveatRunBounded      = "for the bounded model only: the bound cut a step of this run"
	CaveatRunUnbounded    = "also without the bound: it cut no step of this run"
)

// qualify gives every checked verdict what its search proves and its
// caveat: the rule, written once, of what a result proves.
func (r *Report) qualify() {
	for i := range r.Verdicts {
		v := &r.Verdicts[i]
		if v.Status == Unchecked {
			continue
		}
		v.Proof = r.Proof
		if !r.Stats.Complete && r.Proof != Sampled {
			v.Proof = Incomplete
		}
		v.Caveat = r.caveat(*v)
	}
}

// caveat is what limits verdict v ("" when nothing does).
func (r *Report) caveat(v Verdict) string {
	liveness := v.Property.Kind == model.EventuallyAlways || v.Property.Kind == model.LeadsTo
	switch {
	case v.Status == Violated && liveness && v.Bounded:
		return CaveatRunBounded
	case v.Status == Violated && liveness && r.Bounded():
		return CaveatRunUnbounded
	case v.Status == Violated || v.Status == Reachable:
		return ""
	case v.Proof == Incomplete:
		return "the search did not finish: " + r.Stats.Stopped
	case v.Proof == Sampled:
		return "sampled: " + r.notProven
	case !r.Bounded():
		return ""
	case liveness:
		return CaveatLivenessBounded
	}
	return fmt.Sprintf("for the bounded model only: exhaustive up to %s per channel; the bound discarded %s", plural.Count(r.Config.MaxQueue, "message"), plural.Count(r.Stats.Discarded, "successor"))
}

// replayAll replays every counterexample through the transition function
// before anyone sees it, and keeps it as a trace file.
func (r *Report) replayAll(sys model.System) error {
	var err error
	for i := range r.Verdicts {
		v := &r.Verdicts[i]
		if v.Trace == nil {
			continue
		}
		if v.File, err = r.verified(sys, v.Name, v.Kind, v.Summary, v.Trace); err != nil {
			return err
		}
		for j := range v.Also {
			a := &v.Also[j]
			if a.File, err = r.verified(sys, v.Name, a.Kind, a.Summary, a.Trace); err != nil {
				return err
			}
		}
	}
	return nil
}

// algorithmFault turns a fault of the algorithm that the kernel raises
// from inside a step (two timers armed at once in a timed mode), or of a
// property (one that reads sends it did not declare, or of a message type
// the algorithm does not name), on a worker or not, into Run's error; any
// other panic goes on.
func algorithmFault(algo string, rep **Report, err *error) {
	v := recover()
	if v == nil {
		return
	}
	fault := v
	if wp, ok := v.(*explore.WorkerPanic); ok {
		fault = wp.Value
	}
	switch f := fault.(type) {
	case *model.TimerConflictError, *model.UnknownMsgTypeError, *model.UncountedError:
		*rep, *err = nil, fmt.Errorf("%s: %w", algo, f.(error))
		return
	}
	if fault == model.ErrSendsNotCounted {
		*rep, *err = nil, fmt.Errorf("%s: %w", algo, model.ErrSendsNotCounted)
		return
	}
	panic(v)
}

func (r *Report) verified(sys model.System, property string, kind cex.Kind, summary string, t *explore.Trace) (*trace.File, error) {
	f := trace.New(r.Algo, r.Config, property, kind, summary, t, r.Expander)
	if err := trace.Verify(sys, f); err != nil {
		if c, ok := sys.(model.StepChecker); ok {
			for _, s := range t.Steps {
				if fault := c.CheckSteps(s.State); fault != nil {
					return nil, fmt.Errorf("%s: %w", r.Algo, fault)
				}
			}
		}
		return nil, fmt.Errorf("internal error: the %s counterexample of %s does not replay: %w", kind, property, err)
	}
	return f, nil
}

// named is field in the words of Request.Name.
func (r *Report) named(field string) string {
	if r.name != nil {
		if n := r.name(field); n != "" {
			return n
		}
	}
	return field
}

// Files lists every verified counterexample, primary ones first.
func (r *Report) Files() []*trace.File {
	var fs []*trace.File
	for _, v := range r.Verdicts {
		if v.File != nil {
			fs = append(fs, v.File)
		}
		for _, a := range v.Also {
			fs = append(fs, a.File)
		}
	}
	return fs
}

func (r *Report) unknown(v Verdict) Verdict {
	v.Status, v.Summary = Unknown, "the search did not finish: "+r.Stats.Stopped
	if r.Stats.Stop == explore.StopFirstViolation {
		v.Summary = "the search stopped at the first violation; " + r.named("Continue") + " decides it"
	}
	return v
}

// verdict is the verdict of checked property i.
func (r *Report) verdict(res *explore.Result, i int, p model.PropertyInfo) Verdict {
	base := Verdict{Name: p.Name, Property: p}
	switch p.Kind {
	case model.EventuallyAlways:
		return r.eventually(res, i, base, true)
	case model.LeadsTo:
		return r.leadsTo(res, i, base)
	case model.Sometimes:
		return r.sometimes(res, i, base)
	}
	kind := cex.Invariant
	if p.Kind == model.StepProperty {
		kind = cex.Step
	}
	if v := res.Violated(kind, i); v != nil {
		base.Status, base.Kind, base.Trace = Violated, kind, &v.Trace
		base.Summary = r.summary(i, kind, &v.Trace)
		return base
	}
	if !res.Complete {
		return r.unknown(base)
	}
	base = r.holds(base)
	if k, ok := r.sys.(model.Triggerer); ok && base.Status == Holds && p.Kind == model.StepProperty && k.Triggered()&(1<<i) == 0 {
		base.Vacuous = NeverTriggered
	}
	return base
}

// evidence is what a property's explanation sees of a safety counterexample.
func (r *Report) evidence(t *explore.Trace, step bool) model.Evidence {
	ev := model.Evidence{Steps: len(t.Steps) - 1, State: t.Final().State}
	if step {
		ev.Before, ev.Action = t.Steps[len(t.Steps)-2].State, model.Action(t.Final().Action)
	}
	return ev
}

// holds is the verdict of a property with no violation in a complete
// search; a sampled one proves nothing, so there it stays unknown.
func (r *Report) holds(v Verdict) Verdict {
	if r.Proof == Sampled {
		v.Status, v.Summary = Unknown, r.notProven
		return v
	}
	v.Status = Holds
	return v
}

// sometimes is the verdict of a Sometimes: reachable with its example
// (from any search: the example replays), unreachable only when a search
// that proves what it did not find finished without one.
func (r *Report) sometimes(res *explore.Result, i int, base Verdict) Verdict {
	if v := res.Violated(cex.Example, i); v != nil {
		base.Status, base.Kind, base.Trace = Reachable, cex.Example, &v.Trace
		base.Summary = r.summary(i, cex.Example, &v.Trace)
		return base
	}
	if !res.Complete {
		return r.unknown(base)
	}
	switch r.Proof {
	case Sampled:
		base.Status, base.Summary = Unknown, "no example found, and a sampled search never says unreachable: "+r.notProven
	case UpToBound:
		base.Status = Unreachable
		base.Summary = fmt.Sprintf("no reachable state satisfies it within the channel bound of %d messages (the bound discarded %d successors; a larger %s may reach one)",
			r.Config.MaxQueue, res.Discarded, r.named("MaxQueue"))
	default:
		base.Status, base.Summary = Unreachable, "no reachable state satisfies it (the search was exhaustive)"
	}
	return base
}

// leadsTo is the verdict of P ~> Q: its counterexamples are those of an
// eventually-always (stuck states and lassos, marked where P held), and it
// holds vacuously when P held in no state.
func (r *Report) leadsTo(res *explore.Result, i int, base Verdict) Verdict {
	v := r.eventually(res, i, base, false)
	if v.Status == Holds && res.PremiseHeld&(1<<i) == 0 {
		v.Vacuous = NeverTriggered
	}
	return v
}

// eventually is the verdict of <>[]P, checked with P as the goal (goal:
// then it holds vacuously when P held everywhere).
func (r *Report) eventually(res *explore.Result, i int, base Verdict, goal bool) Verdict {
	// The lasso first (a run that goes on forever outside the goal), then
	// the stuck state (a run that stops outside it).
	var found []Counterexample
	if v := res.Violated(cex.FairCycle, i); v != nil {
		found = append(found, Counterexample{Kind: cex.FairCycle, Trace: &v.Trace, Summary: r.summary(i, cex.FairCycle, &v.Trace), Bounded: v.Bounded})
	}
	if v := res.Violated(cex.Stuck, i); v != nil {
		found = append(found, Counterexample{Kind: cex.Stuck, Trace: &v.Trace, Summary: r.summary(i, cex.Stuck, &v.Trace), Bounded: v.Bounded})
	}
	if len(found) > 0 {
		first := found[0]
		base.Status, base.Kind, base.Trace, base.Summary, base.Bounded, base.Also = Violated, first.Kind, first.Trace, first.Summary, first.Bounded, found[1:]
		if first.Kind == cex.Stuck && res.Complete && res.LivenessSkipped != "" {
			// A stuck state is a violation whatever the cycles, but the
			// report must not pass for a finished check.
			base.Summary += "; fair cycles were not checked: " + res.LivenessSkipped
		}
		return base
	}
	if !res.Complete {
		return r.unknown(base)
	}
	if res.LivenessSkipped != "" {
		base.Status, base.Summary = Unknown, "no stuck state, but fair cycles were not checked: "+res.LivenessSkipped
		return base
	}
	base = r.holds(base)
	if goal && base.Status == Holds && res.OutsideGoal&(1<<i) == 0 {
		base.Vacuous = AlwaysInGoal
	}
	return base
}

// cycleSteps are the steps of a lasso's cycle, as data.
func (r *Report) cycleSteps(t *explore.Trace) []model.StepInfo {
	var out []model.StepInfo
	for i := t.CycleStart + 1; i < len(t.Steps); i++ {
		out = append(out, r.Expander.Step(t.Steps[i-1].State, t.Steps[i].Action))
	}
	return out
}

// explainCycle finds what keeps a fair cycle going: a message of a crashed
// process that keeps being delivered round the cycle, or else a step of
// the unreliable detector.
func (r *Report) explainCycle(t *explore.Trace) *model.Cycle {
	c := &model.Cycle{Steps: len(t.Steps) - 1 - t.CycleStart}
	start := r.Expander.Snapshot(t.Steps[t.CycleStart].State)
	crashed := func(name string) bool {
		i := slices.IndexFunc(start.Processes, func(p model.ProcessSnapshot) bool { return p.Name() == name })
		return i >= 0 && !start.Processes[i].Alive
	}
	steps := r.cycleSteps(t)
	origins := r.origins(t)
	for k, s := range steps {
		if s.Kind != model.KindDeliver || s.Msg == nil {
			continue
		}
		if o, ok := origins[t.CycleStart+1+k]; ok && crashed(o.name) {
			c.Orphan, c.OrphanID = s.Msg.String(), o.id
			return c
		}
	}
	for _, s := range steps {
		if s.Kind == model.KindSuspect || s.Kind == model.KindEarlyTimeout {
			c.Unreliable = s.String()
			return c
		}
	}
	return c
}

// origin is the process a message comes from.
type origin struct {
	id   int
	name string // "p9", or its alias
}

// origins are, for each delivery step of t (by its index), the process
// its message comes from: the one that sent it, or, where that step
// passed on the message it had delivered (sent the same value on), where
// that one came from; a message in a channel initially comes from its
// sender. They are worked out from the steps' data (model.Sender), not
// from what a message says; nil when the expander does not say what a
// step sends.
func (r *Report) origins(t *explore.Trace) map[int]origin {
	sender, ok := r.Expander.(model.Sender)
	if !ok {
		return nil
	}
	type inFlight struct {
		val  model.Value
		from origin
	}
	type ends struct{ from, to string } // a channel, by its processes' names
	queues := map[ends][]inFlight{}
	for _, ch := range r.Expander.Snapshot(t.Steps[0].State).Channels {
		k := ends{ch.FromName(), ch.ToName()}
		for _, v := range ch.Messages {
			queues[k] = append(queues[k], inFlight{v, origin{ch.From, ch.FromName()}})
		}
	}
	out := map[int]origin{}
	for i := 1; i < len(t.Steps); i++ {
		prev, a := t.Steps[i-1].State, t.Steps[i].Action
		s := r.Expander.Step(prev, a)
		var got *inFlight
		switch s.Kind {
		case model.KindDeliver:
			k := ends{s.PeerName(), s.ProcessName()}
			if q := queues[k]; len(q) > 0 {
				got, queues[k] = &q[0], q[1:]
				out[i] = got.from
			}
		case model.KindCrash:
			// The messages on their way to the crashed process are lost.
			for k := range queues {
				if k.to == s.ProcessName() {
					delete(queues, k)
				}
			}
		}
		for _, m := range sender.Sends(prev, a) {
			if m.Lost {
				continue
			}
			from := origin{m.From, m.FromName()}
			if got != nil && m.Msg.Equal(got.val) {
				from = got.from // passed on
			}
			k := ends{m.FromName(), m.ToName()}
			queues[k] = append(queues[k], inFlight{m.Msg, from})
		}
	}
	return out
}
