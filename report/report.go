package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/swarm"
	"github.com/mcheck/mcheck/trace"
)

// Counted is n with thousands separators and the noun, in the plural
// unless n is 1: "1 successor", "12,345 successors".
func Counted(n int64, noun string) string { return Commas(n) + " " + plural.Noun(n, noun) }

// Commas renders 1234567 as 1,234,567.
func Commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return "-" + Commas(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// PerSecond is n over d, per second (0 for no time).
func PerSecond(n int64, d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64(float64(n) / d.Seconds())
}

// boundNote says how the channel bound weakens the verdicts, or "".
func boundNote(r *check.Report) string {
	if !r.Bounded() {
		return ""
	}
	if r.Proof == check.Sampled {
		return fmt.Sprintf("the channel bound of %s discarded %s in the states explored; a violation marked for the bounded model only may need the bound",
			plural.Count(r.Config.MaxQueue, "message"), Counted(r.Stats.Discarded, "successor"))
	}
	if !r.Stats.Complete {
		return fmt.Sprintf("bounded at %s per channel; %s beyond that were not explored (and the search did not finish)",
			plural.Count(r.Config.MaxQueue, "message"), Counted(r.Stats.Discarded, "successor"))
	}
	return fmt.Sprintf("exhaustive up to %s per channel; %s beyond that were not explored",
		plural.Count(r.Config.MaxQueue, "message"), Counted(r.Stats.Discarded, "successor"))
}

// Text renders r as the mcheck command prints it: the configuration,
// the counts, the verdicts and every counterexample, each step with the
// fields it changed (with full, the whole state after every step).
// Test helpers such as mchecktest print failures with it.
func Text(w io.Writer, r *Result, full bool) {
	fmt.Fprintf(w, "mcheck %s\n\n", trace.ConfigOf(r.Algo, r.Config).Describe())
	if r.Simulation != nil {
		writeSimulation(w, r)
	} else {
		writeSearchCounts(w, r)
	}

	fmt.Fprintln(w, "properties")
	width := 13
	for _, v := range r.Verdicts {
		width = max(width, utf8.RuneCountInString(v.Name)+1)
	}
	for _, v := range r.Verdicts {
		fmt.Fprintln(w, verdictLine(r, v, width))
	}
	writeNotes(w, r)
	writeDeepening(w, r)
	writeTimeouts(w, r, full)
	writeCounterexamples(w, r.Replayed, full)
}

// statusWord is a verdict's status as the reports say it: what failed
// in capitals.
func statusWord(s check.Status) string {
	switch s {
	case check.Violated:
		return "VIOLATED"
	case check.Unreachable:
		return "UNREACHABLE"
	case check.Unchecked:
		return "not checked"
	}
	return string(s)
}

// verdictLine is a property's line (and its "also" lines) in the text
// report, its name padded to width.
func verdictLine(r *Result, v check.Verdict, width int) string {
	status := statusWord(v.Status)
	if v.Status == check.Holds && r.Idle() {
		status = "holds (vacuously: see the note below)"
	}
	// The caveats of safety verdicts and of unfinished searches are
	// the notes below (the same words for every property).
	if (v.Property.Kind == model.EventuallyAlways || v.Property.Kind == model.LeadsTo) && v.Caveat != "" && (v.Status == check.Holds || v.Status == check.Violated) {
		status += " (" + v.Caveat + ")"
	}
	line := fmt.Sprintf("  %-*s %s", width, v.Name, status)
	if v.Summary != "" {
		line += "  " + v.Summary
	}
	if vac := vacuityLine(r, v); vac != "" && !r.Idle() {
		line += "  " + vac
	}
	for _, a := range v.Also {
		bound := ""
		if a.Bounded {
			bound = " (" + check.CaveatRunBounded + ")"
		}
		line += fmt.Sprintf("\n  %-*s also: %s%s", width, "", a.Summary, bound)
	}
	return line
}

// writeNotes is what the verdicts rest on and leave open.
func writeNotes(w io.Writer, r *Result) {
	st := r.Stats
	if holds(r.Report) && !st.Exact {
		fmt.Fprintf(w, "  note: \"holds\" rests on 64-bit fingerprints; the odds that a collision hid a state are %s\n", odds(st.CollisionProbability))
	}
	if note := boundNote(r.Report); note != "" {
		fmt.Fprintf(w, "  note: %s\n", note)
	}
	if r.SendCap > 0 {
		fmt.Fprintf(w, "  note: the states count the sends since the initial state, each up to %d, for the properties that read them: states that differ only in what was sent are distinct, so there are more than without them\n", r.SendCap)
	}
	if idle := idleLine(r); idle != "" {
		fmt.Fprintf(w, "  note: %s\n", idle)
	}
	if !st.Complete && !r.Violated() && st.Stop != explore.StopExamples {
		fmt.Fprintln(w, "  note: the search did not finish, so no property can be said to hold (nor a Sometimes to be unreachable)")
	}
}

// writeCounterexamples prints each trace in full once: a trace whose steps
// are those of one printed before (SingleLeader's and Agreement's often
// are) gets its heading and the name of the other.
func writeCounterexamples(w io.Writer, files []*trace.File, full bool) {
	bodies := map[string]string{}
	for _, f := range files {
		var b strings.Builder
		trace.WriteText(&b, f, full)
		head, body, _ := strings.Cut(b.String(), "\n")
		fmt.Fprintln(w)
		if first, ok := bodies[body]; ok {
			fmt.Fprintf(w, "%s the same trace as %s's\n", head, first)
			continue
		}
		bodies[body] = trace.Printable(f.Property)
		fmt.Fprint(w, b.String())
	}
}

// writeSearchCounts renders what a search counted: states, transitions,
// depth, the channel bound, storage and time.
func writeSearchCounts(w io.Writer, r *Result) {
	st := r.Stats
	switch {
	case st.Complete:
		fmt.Fprintln(w, "search       complete")
	case st.Stop == explore.StopExamples:
		fmt.Fprintf(w, "search       %s, so the counts are partial (%s explores every state)\n", st.Stopped, r.set("Continue", ""))
	default:
		fmt.Fprintf(w, "search       INCOMPLETE: %s\n", st.Stopped)
	}
	if st.Reduced {
		fmt.Fprintf(w, "states       %s distinct, with partial-order reduction (%s states followed a stubborn set, %s were expanded in full by the cycle proviso); %s counts them all\n",
			Commas(st.States), Commas(st.ReducedStates), Commas(st.ProvisoFull), r.set("Reduce", "false"))
	} else {
		fmt.Fprintf(w, "states       %s distinct\n", Commas(st.States))
	}
	if r.ReductionOff != "" {
		fmt.Fprintf(w, "note         no partial-order reduction for this check: %s\n", r.ReductionOff)
	}
	switch {
	case r.RerunFull && r.Violated():
		fmt.Fprintln(w, "note         the reduced search found a violation; what follows is the full search, for a shortest counterexample")
	case r.RerunFull:
		fmt.Fprintln(w, "note         the reduced search found an example; what follows is the full search, for a shortest one")
	}
	if r.Arrangements > 1 {
		fmt.Fprintf(w, "initial      %s arrangements of the IDs, one initial state each\n", Commas(int64(r.Arrangements)))
	}
	fmt.Fprintf(w, "transitions  %s\n", Commas(st.Transitions))
	fmt.Fprintf(w, "depth        %d\n", st.Depth)
	if st.Discarded > 0 {
		fmt.Fprintf(w, "discarded    %s over %s\n", Counted(st.Discarded, "successor"), r.set("MaxQueue", strconv.Itoa(r.Config.MaxQueue)))
	} else if st.Complete {
		fmt.Fprintf(w, "discarded    0 (no channel ever needed more than %s)\n", plural.Count(r.Config.MaxQueue, "message"))
	} else {
		fmt.Fprintf(w, "discarded    0 so far (in the states explored, no channel needed more than %s)\n", plural.Count(r.Config.MaxQueue, "message"))
	}
	writeStorageAndTime(w, r)
}

// writeStorageAndTime is how the states were stored, and the time.
func writeStorageAndTime(w io.Writer, r *Result) {
	st := r.Stats
	if b := r.Bitstate; b != nil {
		// The coverage estimate counts only the states a hash collision
		// hid; a search that stopped early left others unexplored too.
		coverage := fmt.Sprintf("expected coverage at least %.4f%%", 100*b.Coverage)
		if !st.Complete {
			coverage = "the search did not finish, so how much of the state space it covered is unknown"
		}
		fmt.Fprintf(w, "bitstate     %s bit array, %d bits a state, %.1f%% set: a new state is taken for visited with a chance up to %.2g%%; %s (not exhaustive)\n",
			explore.FormatBytes(b.Bytes), b.Hashes, 100*b.Fill, 100*b.MissChance, coverage)
	}
	switch {
	case st.Exact:
		fmt.Fprintf(w, "storage      whole states (%s): no fingerprint collision can hide a state\n", r.set("Exact", ""))
	case r.Bitstate == nil:
		fmt.Fprintf(w, "storage      64-bit fingerprints: the chance that two of these states share one, so that one went unexplored, is %s (%s rules it out)\n",
			odds(st.CollisionProbability), r.set("Exact", ""))
	}
	if st.CycleCheck > 0 {
		// The total first: it is what the user waited for.
		fmt.Fprintf(w, "time         %.2f s: search %.2f s (%s states/s), fair-cycle check %.2f s; %s of bookkeeping\n\n",
			(st.Elapsed + st.CycleCheck).Seconds(), st.Elapsed.Seconds(), Commas(PerSecond(st.States, st.Elapsed)), st.CycleCheck.Seconds(), explore.FormatBytes(st.MemBytes))
	} else {
		fmt.Fprintf(w, "time         %.2f s, %s states/s, %s of bookkeeping\n\n",
			st.Elapsed.Seconds(), Commas(PerSecond(st.States, st.Elapsed)), explore.FormatBytes(st.MemBytes))
	}
}

// holds reports whether some property holds.
func holds(r *check.Report) bool {
	for _, v := range r.Verdicts {
		if v.Status == check.Holds {
			return true
		}
	}
	return false
}

// odds renders the small probability of a fingerprint collision:
// "about 3.1e-12", "about 0.0089"; exactly 0 only where fewer than two
// states were stored, which is said rather than rounded ("about 0").
func odds(p float64) string {
	if p == 0 {
		return "0, with fewer than two states to tell apart"
	}
	return "about " + strconv.FormatFloat(p, 'g', 2, 64)
}

// storage names how states were told apart, for the JSON report.
func storage(r *check.Report) string {
	switch {
	case r.Stats.Exact:
		return "exact"
	case r.Bitstate != nil:
		return "bitstate"
	}
	return "fingerprints"
}

// JSON output: the keys of the core issue, plus context. The configuration
// keys (algo, n, ids, crashes, ...) are those of a trace file's config.
type jsonReport struct {
	trace.Config
	// Strategy is how the states were searched; Proof what a property
	// without a violation means (check.Proof).
	Strategy        string  `json:"strategy"`
	Proof           string  `json:"proof"`
	States          int64   `json:"states"`
	Transitions     int64   `json:"transitions"`
	Depth           int     `json:"depth"`
	Discarded       int64   `json:"discarded"`
	Bounded         bool    `json:"bounded"`
	Complete        bool    `json:"complete"`
	Reduced         bool    `json:"partial_order_reduction"`
	ReducedStates   int64   `json:"reduced_states,omitempty"`
	ProvisoFull     int64   `json:"proviso_full_expansions,omitempty"`
	RerunFull       bool    `json:"rerun_in_full,omitempty"`
	ReductionOff    string  `json:"partial_order_reduction_off,omitempty"`
	Stopped         string  `json:"stopped,omitempty"`
	Seconds         float64 `json:"seconds"`
	StatesPerSecond int64   `json:"states_per_second"`
	MemoryBytes     int64   `json:"memory_bytes"`
	// SendCap is how far the states counted the sends, for the properties
	// that read them (check.Report.SendCap); absent when they did not.
	SendCap int `json:"send_cap,omitempty"`

	// FairCycleSeconds is the fair-cycle check's time after the search
	// (seconds is the search's), when one ran.
	FairCycleSeconds *float64 `json:"fair_cycle_seconds,omitempty"`
	// StateStorage is "fingerprints", "exact" or "bitstate";
	// CollisionProbability the chance that a fingerprint collision hid a
	// state (0 when exact; absent for bitstate, which has its own).
	StateStorage         string          `json:"state_storage"`
	CollisionProbability *float64        `json:"collision_probability,omitempty"`
	Bitstate             *jsonBitstate   `json:"bitstate,omitempty"`
	Properties           []jsonProperty  `json:"properties"`
	Deepening            *jsonDeepening  `json:"deepening,omitempty"`
	Timeouts             *jsonTimeouts   `json:"timeouts,omitempty"`
	ParamSearch          *jsonSweep      `json:"param_search,omitempty"`
	Simulation           *jsonSimulation `json:"simulation,omitempty"`
	// Vacuous says, when the search took no step at all, that every
	// property holds of the initial state alone, and what to change.
	Vacuous string `json:"vacuous,omitempty"`
	// Swarm is a swarm member's result, for merging (swarm.Result).
	Swarm *swarm.Result `json:"swarm,omitempty"`
	jsonMeasures
}

type jsonBitstate struct {
	Bytes      int64   `json:"bytes"`
	Hashes     int     `json:"hashes"`
	Fill       float64 `json:"fill"`
	MissChance float64 `json:"miss_chance"`
	// Coverage is absent when the search did not finish: the estimate
	// covers only the states hash collisions hid.
	Coverage *float64 `json:"expected_coverage_at_least,omitempty"`
}

type jsonProperty struct {
	Name    string   `json:"name"`
	Status  string   `json:"status"`
	Kind    cex.Kind `json:"kind,omitempty"`
	Summary string   `json:"summary,omitempty"`
	Bounded bool     `json:"bounded_only,omitempty"`
	// Proof is what the search behind the verdict proves, Caveat what
	// limits it (check.Verdict.Proof, Caveat); absent when not checked.
	Proof  string `json:"proof,omitempty"`
	Caveat string `json:"caveat,omitempty"`
	// Vacuity is why a property that holds had nothing to hold of
	// (check.Vacuity), and Vacuous the line that says it with what to
	// change.
	Vacuity    string `json:"vacuity,omitempty"`
	Vacuous    string `json:"vacuous,omitempty"`
	CycleStart *int   `json:"cycle_start,omitempty"`
	// Premise is, for a leads-to's counterexample, the step where its
	// premise holds (trace.File.Premise).
	Premise *int       `json:"premise,omitempty"`
	Trace   []jsonStep `json:"trace,omitempty"`
	// Also: further counterexamples of other kinds.
	Also []jsonCounterexample `json:"also,omitempty"`
}

type jsonCounterexample struct {
	Kind       cex.Kind   `json:"kind"`
	Summary    string     `json:"summary"`
	Bounded    bool       `json:"bounded_only,omitempty"`
	CycleStart *int       `json:"cycle_start,omitempty"`
	Premise    *int       `json:"premise,omitempty"`
	Trace      []jsonStep `json:"trace"`
}

// jsonTrace is a replayed trace file's steps, as the text shows them.
func jsonTrace(f *trace.File) []jsonStep {
	var steps []jsonStep
	for _, s := range f.Steps {
		steps = append(steps, jsonStep{Action: s.Label(), Step: s.Step, State: s.State.Fields()})
	}
	return steps
}

// jsonStep is a step of the JSON report: its label, the step as data (see
// model.StepInfo; absent for the initial state), and the state as fields
// rendered as text.
type jsonStep struct {
	Action string          `json:"action"`
	Step   *model.StepInfo `json:"step,omitempty"`
	State  fieldList       `json:"state"`
}

// fieldList marshals as a JSON object that keeps the fields' order, each
// value rendered as text ("⊥", "[ELECTION(9)]").
type fieldList []model.Field

func (fl fieldList) MarshalJSON() ([]byte, error) {
	var sb strings.Builder
	sb.WriteByte('{')
	for i, f := range fl {
		if i > 0 {
			sb.WriteByte(',')
		}
		k, _ := json.Marshal(f.Name)
		v, _ := json.Marshal(f.Value.String())
		sb.Write(k)
		sb.WriteByte(':')
		sb.Write(v)
	}
	sb.WriteByte('}')
	return []byte(sb.String()), nil
}

// JSON writes r as JSON, with a swarm member's result when it is one
// (member not nil).
func JSON(w io.Writer, r *Result, member *swarm.Result) error {
	c, st := r.Config, r.Stats
	out := jsonReport{
		Config: trace.ConfigOf(r.Algo, c), States: st.States, Transitions: st.Transitions, Depth: st.Depth,
		Reduced: st.Reduced, ReducedStates: st.ReducedStates, ProvisoFull: st.ProvisoFull, RerunFull: r.RerunFull, ReductionOff: r.ReductionOff,
		Discarded: st.Discarded, Bounded: r.Bounded(), Complete: st.Complete, Stopped: st.Stopped,
		Seconds: st.Elapsed.Seconds(), StatesPerSecond: PerSecond(st.States, st.Elapsed), MemoryBytes: st.MemBytes, SendCap: r.SendCap,
	}
	if st.CycleCheck > 0 {
		secs := st.CycleCheck.Seconds()
		out.FairCycleSeconds = &secs
	}
	out.Strategy, out.Proof, out.Simulation, out.Swarm = r.Strategy, string(r.Proof), simulationJSON(r), member
	out.StateStorage = storage(r.Report)
	if r.Bitstate == nil && r.Simulation == nil {
		p := st.CollisionProbability
		out.CollisionProbability = &p
	}
	if b := r.Bitstate; b != nil {
		out.Bitstate = &jsonBitstate{Bytes: b.Bytes, Hashes: b.Hashes, Fill: b.Fill, MissChance: b.MissChance}
		if st.Complete {
			c := b.Coverage
			out.Bitstate.Coverage = &c
		}
	}
	out.jsonMeasures = measuresJSON(r)
	out.Deepening = deepeningJSON(r)
	out.Timeouts = timeoutsJSON(r)
	out.ParamSearch = paramSearchJSON(r)
	out.Vacuous = idleLine(r)
	out.Properties = propertiesJSON(r)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// propertiesJSON is every verdict of r with its counterexamples.
func propertiesJSON(r *Result) []jsonProperty {
	var props []jsonProperty
	for _, v := range r.Verdicts {
		p := jsonProperty{Name: v.Name, Status: string(v.Status), Kind: v.Kind, Summary: v.Summary, Bounded: v.Bounded,
			Proof: string(v.Proof), Caveat: v.Caveat, Vacuity: string(v.Vacuous), Vacuous: vacuityLine(r, v)}
		if f := v.File; f != nil {
			p.Trace, p.CycleStart, p.Premise = jsonTrace(f), f.CycleStart, f.Premise
		}
		for _, a := range v.Also {
			p.Also = append(p.Also, jsonCounterexample{Kind: a.Kind, Summary: a.Summary, Bounded: a.Bounded,
				CycleStart: a.File.CycleStart, Premise: a.File.Premise, Trace: jsonTrace(a.File)})
		}
		props = append(props, p)
	}
	return props
}
