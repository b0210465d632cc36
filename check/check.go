// Package check runs one model-checking job: it builds the system of a spec
// under a configuration, explores it, and turns the explorer's findings into
// per-property verdicts with explained traces. It prints nothing; the CLI and
// the test helpers render its Report.
package check

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// Request is one check.
type Request struct {
	Spec         specs.Spec
	Config       model.Config
	Properties   properties.Selection
	Continue     bool
	MaxStates    int64
	MemoryBudget int64
	// Generic identifies states through hashstructure/v2 even when the
	// algorithm has a Codec (slow; for cross-checking the fast path).
	Generic bool
	// Bitstate, when positive, is the size in bytes of a bit array that
	// replaces the fingerprint table (supertrace): not exhaustive, so no
	// property can be said to hold after it.
	Bitstate int64
	// Reduce asks for partial-order reduction (explore.Options.Reduce). It
	// applies to safety-only checks (not with Termination, not with
	// Bitstate). If the reduced search finds a violation, the check is run
	// again in full, so that the reported counterexample is a shortest one.
	Reduce bool
	// Workers expand states in parallel (0: one per CPU); results do not
	// depend on it.
	Workers int
	// Exact compares states by their whole encodings, not fingerprints
	// alone (explore.Options.Exact).
	Exact    bool
	Context  context.Context
	Progress func(explore.Progress)
}

// Status is a property's verdict.
type Status string

const (
	Holds     Status = "holds"     // the search finished and found no violation
	Violated  Status = "violated"  // a counterexample was found (and replayed)
	Unchecked Status = "unchecked" // not selected with --check
	Unknown   Status = "unknown"   // selected, but the search did not finish
)

// Verdict is the result for one property.
type Verdict struct {
	Name   string
	Status Status
	// Kind of counterexample: "invariant", "stuck" or "fair-cycle".
	Kind string
	// Summary says in one line what goes wrong, or why the status is Unknown.
	Summary string
	Trace   *explore.Trace
	// File is the trace as a trace file, verified by replay.
	File *trace.File
	// Bounded: the counterexample may be an artefact of the channel bound
	// (see explore.Violation.Bounded).
	Bounded bool
	// Also holds further counterexamples of other kinds (Termination: a
	// stuck state besides a fair cycle).
	Also []Counterexample
}

// Counterexample is one way a property fails.
type Counterexample struct {
	Kind    string
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
	// Bitstate describes a bitstate search; nil for an exhaustive one.
	Bitstate *explore.Bitstate
	Verdicts []Verdict
	// RerunFull: the reduced search found a violation and the report is of
	// the full search run after it (for shortest counterexamples).
	RerunFull bool
	// Expander renders the states and actions of the traces.
	Expander model.Expander
}

// Bounded reports whether the channel bound cut successors off, so that the
// verdicts hold for the bounded model only.
func (r *Report) Bounded() bool { return r.Stats.Discarded > 0 }

// Violated reports whether any property is violated.
func (r *Report) Violated() bool {
	for _, v := range r.Verdicts {
		if v.Status == Violated {
			return true
		}
	}
	return false
}

// Run performs the check.
func Run(req Request) (*Report, error) {
	var opts []model.Option
	if req.Generic {
		opts = append(opts, model.WithGenericHashing())
	}
	sys, err := req.Spec.Build(req.Config, properties.Predicates(), opts...)
	if err != nil {
		return nil, err
	}
	sel := req.Properties
	eo := explore.Options{
		Goal: -1, Continue: req.Continue, MaxStates: req.MaxStates, MemoryBudget: req.MemoryBudget,
		Context: req.Context, Progress: req.Progress, Workers: req.Workers, Bitstate: req.Bitstate,
		Exact: req.Exact,
	}
	if sel.SingleLeader {
		eo.Invariants = append(eo.Invariants, properties.IdxSingleLeader)
	}
	if sel.Agreement {
		eo.Invariants = append(eo.Invariants, properties.IdxAgreement)
	}
	if sel.Termination {
		eo.Goal, eo.Liveness = properties.IdxStable, true
	}
	eo.Reduce = req.Reduce && !sel.Termination && req.Bitstate == 0
	res, err := explore.Run(sys, eo)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", req.Spec.Name, err)
	}
	rerun := false
	if res.Reduced && len(res.Violations) > 0 && (req.Context == nil || req.Context.Err() == nil) {
		// The reduced graph keeps every violation reachable, but not every
		// shortest path to one. (An interrupted check keeps the reduced
		// search's counterexample: a rerun would stop at once and lose it.)
		eo.Reduce, rerun = false, true
		first := res.Elapsed
		if res, err = explore.Run(sys, eo); err != nil {
			return nil, fmt.Errorf("%s: %w", req.Spec.Name, err)
		}
		res.Elapsed += first
	}
	rep := &Report{Algo: req.Spec.Name, Stats: res.Stats, Bitstate: res.Bitstate, Expander: sys.NewExpander(), RerunFull: rerun}
	if k, ok := sys.(interface{ Config() model.Config }); ok {
		rep.Config = k.Config()
	}
	rep.Verdicts = []Verdict{
		rep.invariant(res, sel.SingleLeader, properties.SingleLeader, properties.IdxSingleLeader),
		rep.invariant(res, sel.Agreement, properties.Agreement, properties.IdxAgreement),
		rep.termination(res, sel.Termination),
	}
	// Every counterexample is replayed through the transition function
	// before anyone sees it.
	for i := range rep.Verdicts {
		v := &rep.Verdicts[i]
		if v.Trace == nil {
			continue
		}
		if v.File, err = rep.verified(sys, v.Name, v.Kind, v.Summary, v.Trace); err != nil {
			return nil, err
		}
		for j := range v.Also {
			a := &v.Also[j]
			if a.File, err = rep.verified(sys, v.Name, a.Kind, a.Summary, a.Trace); err != nil {
				return nil, err
			}
		}
	}
	return rep, nil
}

func (r *Report) verified(sys model.System, property, kind, summary string, t *explore.Trace) (*trace.File, error) {
	f := trace.New(r.Algo, r.Config, property, kind, summary, t, r.Expander)
	if err := trace.Verify(sys, f); err != nil {
		return nil, fmt.Errorf("internal error: the %s counterexample of %s does not replay: %w", kind, property, err)
	}
	return f, nil
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

func (r *Report) unknown(name string) Verdict {
	why := "the search did not finish: " + r.Stats.Stopped
	if r.Stats.Stopped == "stopped at the first violation" {
		why = "the search stopped at the first violation; --continue decides it"
	}
	return Verdict{Name: name, Status: Unknown, Summary: why}
}

func (r *Report) invariant(res *explore.Result, on bool, name string, idx int) Verdict {
	switch v := res.Violated(explore.Invariant, idx); {
	case !on:
		return Verdict{Name: name, Status: Unchecked}
	case v != nil:
		return Verdict{Name: name, Status: Violated, Kind: "invariant", Trace: &v.Trace, Summary: r.explainInvariant(name, &v.Trace)}
	case !res.Complete:
		return r.unknown(name)
	}
	return r.holds(name)
}

// holds is the verdict of a property with no violation in a complete
// search; a bitstate search is not exhaustive, so there it stays unknown.
func (r *Report) holds(name string) Verdict {
	if b := r.Bitstate; b != nil {
		return Verdict{Name: name, Status: Unknown, Summary: fmt.Sprintf(
			"no violation in a bitstate search, which may miss states (expected coverage at least %.4f%%); not a proof", 100*b.Coverage)}
	}
	return Verdict{Name: name, Status: Holds}
}

func (r *Report) termination(res *explore.Result, on bool) Verdict {
	name := properties.Termination
	if !on {
		return Verdict{Name: name, Status: Unchecked}
	}
	// The lasso first (a run that goes on forever without a leader), then
	// the stuck state (a run that stops without one).
	var found []Counterexample
	if v := res.Violated(explore.FairCycle, properties.IdxStable); v != nil {
		found = append(found, Counterexample{Kind: "fair-cycle", Trace: &v.Trace, Summary: r.explainCycle(&v.Trace), Bounded: v.Bounded})
	}
	if v := res.Violated(explore.Stuck, properties.IdxStable); v != nil {
		found = append(found, Counterexample{Kind: "stuck", Trace: &v.Trace, Summary: r.explainStuck(&v.Trace), Bounded: v.Bounded})
	}
	if len(found) > 0 {
		first := found[0]
		return Verdict{Name: name, Status: Violated, Kind: first.Kind, Trace: first.Trace, Summary: first.Summary, Bounded: first.Bounded, Also: found[1:]}
	}
	if !res.Complete {
		return r.unknown(name)
	}
	if res.LivenessSkipped != "" {
		return Verdict{Name: name, Status: Unknown, Summary: "no stuck state, but fair cycles were not checked: " + res.LivenessSkipped}
	}
	return r.holds(name)
}

func (r *Report) view(s *explore.Step) model.Procs {
	if v, ok := r.Expander.(model.Viewer); ok {
		return v.View(s.State)
	}
	return model.Procs{}
}

func pname(v *model.Procs, p int) string { return "p" + strconv.Itoa(v.ID[p]) }

func (r *Report) explainInvariant(name string, t *explore.Trace) string {
	v := r.view(t.Final())
	if name == properties.SingleLeader {
		var leaders []string
		for p := 0; p < v.N; p++ {
			if v.IsAlive(p) && v.Elected[p] == v.ID[p] {
				leaders = append(leaders, pname(&v, p))
			}
		}
		return fmt.Sprintf("after %d steps %s each consider themselves leader", len(t.Steps)-1, strings.Join(leaders, " and "))
	}
	byLeader := map[int][]string{}
	var order []int
	for p := 0; p < v.N; p++ {
		if e := v.Elected[p]; v.IsAlive(p) && e != 0 && v.AliveID(e) {
			if byLeader[e] == nil {
				order = append(order, e)
			}
			byLeader[e] = append(byLeader[e], pname(&v, p))
		}
	}
	var parts []string
	for _, e := range order {
		parts = append(parts, strings.Join(byLeader[e], ", ")+" elected "+strconv.Itoa(e))
	}
	return fmt.Sprintf("after %d steps live processes disagree on a live leader: %s", len(t.Steps)-1, strings.Join(parts, "; "))
}

// notStable lists the live processes that have not elected the largest live ID.
func notStable(v *model.Procs) (string, int) {
	maxLive := 0
	for p := 0; p < v.N; p++ {
		if v.IsAlive(p) {
			maxLive = max(maxLive, v.ID[p])
		}
	}
	var parts []string
	for p := 0; p < v.N; p++ {
		if v.IsAlive(p) && v.Elected[p] != maxLive {
			e := "⊥"
			if v.Elected[p] != 0 {
				e = strconv.Itoa(v.Elected[p])
			}
			parts = append(parts, pname(v, p)+" elected="+e)
		}
	}
	return strings.Join(parts, ", "), maxLive
}

func (r *Report) explainStuck(t *explore.Trace) string {
	v := r.view(t.Final())
	who, maxLive := notStable(&v)
	return fmt.Sprintf("stuck without a leader: no fair step is enabled, and %s (Stable needs elected=%d)", who, maxLive)
}

var deliverMsg = regexp.MustCompile(`^deliver \S+ ([A-Z]+\((\d+)[^)]*\))`)

func (r *Report) explainCycle(t *explore.Trace) string {
	start := r.view(&t.Steps[t.CycleStart])
	// A message of a crashed process that keeps being delivered round the cycle.
	for _, s := range t.Steps[t.CycleStart+1:] {
		m := deliverMsg.FindStringSubmatch(s.Label)
		if m == nil {
			continue
		}
		id, _ := strconv.Atoi(m[2])
		if !start.AliveID(id) && slices.Contains(start.ID[:start.N], id) {
			who, maxLive := notStable(&start)
			return fmt.Sprintf("%s of crashed p%d circulates forever; Stable (elected=%d) is never reached: %s", m[1], id, maxLive, who)
		}
	}
	who, maxLive := notStable(&start)
	for _, s := range t.Steps[t.CycleStart+1:] {
		if strings.HasPrefix(s.Label, "suspect ") || strings.HasPrefix(s.Label, "early-") {
			return fmt.Sprintf("elections repeat forever: %s (an unreliable detector's false suspicion or early timeout) starts a new one each time round a fair cycle of %d steps; Stable (elected=%d) is not kept: %s",
				strings.TrimSpace(s.Label), len(t.Steps)-1-t.CycleStart, maxLive, who)
		}
	}
	return fmt.Sprintf("a fair cycle of %d steps repeats forever without reaching Stable (%s; Stable needs elected=%d)",
		len(t.Steps)-1-t.CycleStart, who, maxLive)
}
