// Package trace is the counterexample as a file that people read and CI
// keeps: a versioned JSON format (mcheck-trace/2) holding the configuration,
// the property, every step as data (model.StepInfo) with the state after it
// as data (model.Snapshot), where a lasso's cycle starts, and where a
// leads-to's premise held. Verify replays a trace through the transition
// function, so a trace file can be checked long after it was written. The
// run of a reachable Sometimes property is a trace too, of kind example:
// not a counterexample, and replayed the same way.
package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/modelopt"
	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
	"github.com/mcheck/mcheck/ts"
)

// Format names this version of the file format. Version 1 named each step
// by its printed label and each value by its printed text; it is refused
// (FormatV1), since reading it would mean parsing labels.
const Format = "mcheck-trace/2"

// FormatV1 is the first version of the format, no longer read.
const FormatV1 = "mcheck-trace/1"

// enumKey is how a trace file writes an enumeration left out at its zero
// value (the default): "" for it, else its name.
func enumKey[T interface {
	comparable
	fmt.Stringer
}](v T) string {
	var zero T
	if v == zero {
		return ""
	}
	return v.String()
}

// parseKey reads what enumKey wrote.
func parseKey[T any](s string, parse func(string) (T, error)) (T, error) {
	if s == "" {
		var zero T
		return zero, nil
	}
	return parse(s)
}

// Describe is the configuration in one line, as reports and charts head
// it: "chang-roberts, N=4, ids 1,2,3,4, up to 1 crash, perfect detector,
// max-queue 8".
func (c Config) Describe() string {
	parts := []string{c.Algo, "N=" + strconv.Itoa(c.N), "ids " + model.IDList(c.IDs)}
	if c.Perm {
		parts[2] = "ids: every arrangement of 1.." + strconv.Itoa(c.N)
	}
	switch {
	case c.Crashes == c.N-1 && c.Crashes > 0:
		parts = append(parts, "crash-any ("+upTo(c.Crashes, "crash")+")")
	case c.Crashes > 0:
		parts = append(parts, upTo(c.Crashes, "crash"))
	default:
		parts = append(parts, "no crashes")
	}
	if c.Restarts > 0 {
		parts = append(parts, upTo(c.Restarts, "restart"))
	}
	if c.FalseSuspicions > 0 {
		parts = append(parts, c.Detector+" detector ("+upTo(c.FalseSuspicions, "false suspicion")+" before gst)")
	} else if c.HeartbeatPeriod > 0 {
		parts = append(parts, fmt.Sprintf("%s detector (period %d, timeout %d)", c.Detector, c.HeartbeatPeriod, c.HeartbeatTimeout))
	} else {
		parts = append(parts, c.Detector+" detector")
	}
	if c.Initiators != nil {
		parts = append(parts, "initiators "+model.IDList(c.Initiators))
	}
	if c.Down != nil {
		parts = append(parts, "down "+model.IDList(c.Down))
	}
	if c.InitialLeader {
		parts = append(parts, "initial leader")
	}
	if c.Anonymous {
		parts = append(parts, "anonymous")
	}
	if timing := c.DescribeTiming(); timing != "" {
		parts = append(parts, timing)
	}
	if len(c.Params) > 0 {
		parts = append(parts, "params "+modelopt.ParamsArg(c.Params))
	}
	if c.Channels != "" {
		parts = append(parts, c.Channels+" channels")
	}
	parts = append(parts, c.describeRest(modelopt.Options)...)
	parts = append(parts, fmt.Sprintf("max-queue %d", c.MaxQueue))
	return strings.Join(parts, ", ")
}

// described are the fields that Describe words itself.
var described = []string{
	"N", "IDs", "Perm", "Anonymous", "MaxCrashes", "MaxRestarts", "Detector", "FalseSuspicions",
	"HeartbeatPeriod", "HeartbeatTimeout", "Initiators", "Down", "InitialLeader", "MaxQueue",
	"Timing", "Delay", "Timeout", "TimeoutCoord", "Params", "Channels",
}

// describeRest is every other option of tab that differs from its default,
// as its flag and argument ("jitter 2"), so that the heading shows an
// option before Describe has words of its own for it.
func (c Config) describeRest(tab modelopt.Table) []string {
	m, err := c.Model()
	if err != nil {
		return nil
	}
	m = m.WithDefaults()
	var parts []string
	for _, o := range tab {
		if slices.Contains(described, o.Field) {
			continue
		}
		if v, ok := o.Arg(m, c.InitialLeader); ok {
			parts = append(parts, o.Flag+" "+v)
		}
	}
	return parts
}

// DescribeTiming is the model of time as Describe says it, "timing sync,
// delay 1, timeout 2, timeout-coord 6", or "" in the asynchronous model.
func (c Config) DescribeTiming() string {
	if c.Timing == "" {
		return ""
	}
	timing := fmt.Sprintf("timing %s, delay %d", c.Timing, c.Delay)
	if c.Timeout != 0 {
		timing += fmt.Sprintf(", timeout %d, timeout-coord %d", c.Timeout, c.TimeoutCoord)
	}
	return timing
}

func upTo(n int, noun string) string { return "up to " + plural.Count(n, noun) }

// File is one counterexample.
type File struct {
	Format   string   `json:"format"`
	Config   Config   `json:"config"`
	Property string   `json:"property"`
	Kind     cex.Kind `json:"kind"`
	Summary  string   `json:"summary,omitempty"`
	// CycleStart is the step whose state the last step returns to, for
	// fair-cycle traces; null otherwise.
	CycleStart *int `json:"cycle_start"`
	// Premise is, for a leads-to property's counterexample, the step in
	// whose state the premise (P of P ~> Q) holds, Q never holding from
	// there on; absent otherwise.
	Premise *int   `json:"premise,omitempty"`
	Steps   []Step `json:"steps"`
}

// SendCap is how far f's states count the sends since the initial state
// (model.SendsSnapshot.Cap): a check whose properties read them counted
// them in every state, and a replay counts them alike (KernelOptions); 0
// when they are not counted.
func (f *File) SendCap() int {
	if len(f.Steps) == 0 || f.Steps[0].State.Sent == nil {
		return 0
	}
	return f.Steps[0].State.Sent.Cap
}

// KernelOptions are the kernel's options that f's states need beyond its
// configuration: the sends counted as f counts them (of the types it
// counts, when it counts some only).
func (f *File) KernelOptions() []model.Option {
	c := f.SendCap()
	if c == 0 {
		return nil
	}
	return []model.Option{model.WithSendCountsOf(c, f.SendTypes()...)}
}

// SendTypes are the message types whose sends f's states count, when they
// count some types only (model.Property.CountTypes); nil when they count
// every type, or none.
func (f *File) SendTypes() []string {
	if len(f.Steps) == 0 || f.Steps[0].State.Sent == nil || !f.Steps[0].State.Sent.Only {
		return nil
	}
	var types []string
	for _, t := range f.Steps[0].State.Sent.ByType {
		types = append(types, t.Type)
	}
	return types
}

// ClaimsProperty reports whether f claims something of its property: a
// counterexample or an example does, a measure's witness run does not.
func (f *File) ClaimsProperty() bool { return !f.Kind.Witnessing() }

// Times is the time after each step in a timed run (docs/semantics.md section
// 6): the number of tick steps so far, 0 in the initial state. Time is no
// part of the state (it grows without bound); it is the run's.
func (f *File) Times() []int {
	times := make([]int, len(f.Steps))
	for i := 1; i < len(f.Steps); i++ {
		times[i] = times[i-1]
		if s := f.Steps[i].Step; s != nil && s.Kind == model.KindTick {
			times[i]++
		}
	}
	return times
}

// Step is an action and the state after it, both as data; the first step
// is the initial state, whose Step is null.
type Step struct {
	Step  *model.StepInfo `json:"step"`
	State model.Snapshot  `json:"state"`
	// Sends are the messages the step sends, as the model's data (nil in
	// the initial state). They are the kernel's, not the file's (the
	// states show them there): a file read has them once replayed
	// (Replayed), as New records them.
	Sends []model.Send `json:"-"`
}

// InitialAction labels the first step.
const InitialAction = "initial state"

// Label renders the step's action: "deliver p2→p3 ELECTION(9)", or
// InitialAction for the first step.
func (s Step) Label() string {
	if s.Step == nil {
		return InitialAction
	}
	return s.Step.String()
}

// New builds the file of an explorer trace.
func New(algo string, cfg model.Config, property string, kind cex.Kind, summary string, t *explore.Trace, exp model.Expander) *File {
	f := &File{Format: Format, Config: ConfigOf(algo, cfg), Property: property, Kind: kind, Summary: summary}
	if t.CycleStart >= 0 {
		cs := t.CycleStart
		f.CycleStart = &cs
	}
	if t.Premise != nil {
		m := *t.Premise
		f.Premise = &m
	}
	for i, s := range t.Steps {
		st := Step{State: exp.Snapshot(s.State)}
		if i > 0 {
			info := exp.Step(t.Steps[i-1].State, s.Action)
			st.Step = &info
			if sn, ok := exp.(model.Sender); ok {
				st.Sends = sn.Sends(t.Steps[i-1].State, s.Action)
			}
		}
		f.Steps = append(f.Steps, st)
	}
	return f
}

// Write writes f as indented JSON.
func (f *File) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(f)
}

// MalformedError is a trace file that cannot be read as one.
type MalformedError struct {
	Reason string
	// Old marks a file of the first format (FormatV1): only a new check
	// can write it again, which a front end can say in its own words.
	Old bool
}

func (e *MalformedError) Error() string { return "malformed trace file: " + e.Reason }

func malformed(format string, args ...any) error {
	return &MalformedError{Reason: fmt.Sprintf(format, args...)}
}

// maxFileBytes bounds what Read accepts: no counterexample comes near it.
const maxFileBytes = 64 << 20

// Read parses and validates a trace file. Any input gives either a File
// or a *MalformedError, never a panic.
func Read(r io.Reader) (*File, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading trace: %w", err)
	}
	if len(data) > maxFileBytes {
		return nil, malformed("larger than %d MiB", maxFileBytes>>20)
	}
	var head struct {
		Format string `json:"format"`
	}
	if json.Unmarshal(data, &head) == nil && head.Format == FormatV1 {
		return nil, &MalformedError{Old: true, Reason: fmt.Sprintf("%s is the old format, which this mcheck no longer reads: run the check again to write it as %s", FormatV1, Format)}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		if unknown := (*cex.UnknownError)(nil); errors.As(err, &unknown) {
			return nil, malformed("%v", unknown)
		}
		return nil, malformed("not a JSON trace: %v", err)
	}
	if dec.More() {
		return nil, malformed("extra data after the JSON object")
	}
	return &f, f.Validate()
}

// Validate checks that f is well formed: a known format, a configuration,
// steps that start with the initial state, a property that goes with its
// kind, and a cycle start inside the steps.
func (f *File) Validate() error {
	switch {
	case f.Format != Format:
		return malformed("format is %q, want %q", f.Format, Format)
	case f.Config.Algo == "":
		return malformed("config.algo is missing")
	case len(f.Steps) == 0:
		return malformed("no steps")
	case f.Steps[0].Step != nil:
		return malformed("the first step is the initial state: its step must be null")
	}
	for i, s := range f.Steps[1:] {
		if s.Step == nil {
			return malformed("step %d has no action", i+1)
		}
	}
	if f.SendCap() < 0 {
		return malformed("the sends are counted up to %d: a cap is 1 or more", f.SendCap())
	}
	for i, s := range f.Steps {
		if c := s.State.Sent; (c == nil) != (f.SendCap() == 0) || c != nil && c.Cap != f.SendCap() {
			return malformed("step %d counts the sends otherwise than the initial state: every state counts them up to one cap, or none does", i)
		}
	}
	switch {
	case f.Property == "":
		return malformed("property is missing")
	case !slices.Contains(cex.Kinds, f.Kind):
		return malformed("%v", &cex.UnknownError{Name: f.Kind.String()})
	case f.Kind == cex.Step && len(f.Steps) < 2:
		return malformed("a %q counterexample needs a step after the initial state", cex.Step)
	}
	if f.Kind.Cyclic() != (f.CycleStart != nil) {
		return malformed("cycle_start must be given exactly for kinds %q and %q", cex.FairCycle, cex.Lasso)
	}
	if cs := f.CycleStart; cs != nil && (*cs < 0 || *cs >= len(f.Steps)-1) {
		return malformed("cycle_start %d is outside the steps 0..%d", *cs, len(f.Steps)-2)
	}
	if m := f.Premise; m != nil {
		switch {
		case f.Kind != cex.Stuck && f.Kind != cex.FairCycle:
			return malformed("premise goes with kinds %q and %q (a leads-to's counterexample), not %q", cex.Stuck, cex.FairCycle, f.Kind)
		case *m < 0 || *m >= len(f.Steps):
			return malformed("premise %d is outside the steps 0..%d", *m, len(f.Steps)-1)
		}
	}
	if _, err := model.ParseDetector(f.Config.Detector); err != nil {
		return malformed("config.detector: %v", err)
	}
	if _, err := f.Config.Model(); err != nil {
		return malformed("config.timing: %v", err)
	}
	return nil
}

// DivergenceError says where a trace stops being a run of the model, or why
// its end is not a violation (for an example: why it reaches no state where
// the property holds).
type DivergenceError struct {
	Step    int // -1: the property is not violated at the end
	Reason  string
	Example bool // the trace claims to be an example
}

func (e *DivergenceError) Error() string {
	what := "not a counterexample"
	if e.Example {
		what = "not an example"
	}
	if e.Step < 0 {
		return what + ": " + e.Reason
	}
	return fmt.Sprintf("%s: step %d: %s", what, e.Step, e.Reason)
}

// KindsOf lists the counterexample kinds of a property of kind k.
func KindsOf(k model.PropertyKind) []cex.Kind {
	switch k {
	case model.Invariant:
		return []cex.Kind{cex.Invariant}
	case model.StepProperty:
		return []cex.Kind{cex.Step}
	case model.Sometimes:
		return []cex.Kind{cex.Example}
	}
	return []cex.Kind{cex.Stuck, cex.FairCycle}
}

// Algorithms builds the algorithms that trace files name (*specs.Registry
// is one). The caller passes it in so that trace does not depend on every
// algorithm there is.
type Algorithms interface {
	// Properties lists every property of the algorithm named algo, or
	// says that no algorithm has that name.
	Properties(algo string) ([]model.PropertyInfo, error)
	// System composes algo under cfg, evaluating the properties named in
	// check.
	System(algo string, cfg model.Config, check []string, opts ...model.Option) (model.System, error)
}

// Replay rebuilds the configuration of f from algs and verifies it.
func Replay(f *File, algs Algorithms) error {
	_, err := Replayed(f, algs)
	return err
}

// Replayed replays f as Replay does and returns the run as the model
// renders it: the configuration, every step and every state rebuilt from
// the replayed run. Replay compares steps and states as data, so the
// file's own text (a message's text, the summary) is never checked: what
// people are shown of a replayed file must come from here. The summary,
// which replay cannot check, is left out.
func Replayed(f *File, algs Algorithms) (*File, error) {
	sys, err := replaySystem(f, algs)
	if err != nil {
		return nil, err
	}
	if err := Verify(sys, f); err != nil {
		return nil, err
	}
	return rendered(sys, f.Config.Algo, f)
}

// replaySystem builds the system f's configuration names, checking the
// property f claims.
func replaySystem(f *File, algs Algorithms) (model.System, error) {
	all, err := algs.Properties(f.Config.Algo)
	if err != nil {
		return nil, malformed("config.algo: %v", err)
	}
	// A measure's witness run claims no property: it only has to replay.
	check := []string{f.Property}
	if !f.ClaimsProperty() {
		check = nil
	} else if err := f.CheckProperty(all); err != nil {
		return nil, err
	}
	cfg, _ := f.Config.Model()
	sys, err := algs.System(f.Config.Algo, cfg, check, f.KernelOptions()...)
	if err != nil {
		return nil, malformed("config: %v", err)
	}
	return sys, nil
}

// Run is the run of the model that f's steps replay as through sys (as
// Verify follows them, without looking at the property): the model's own
// states and actions, from which to render or explain it.
func Run(sys model.System, f *File) (*explore.Trace, error) {
	exp, err := model.ExpanderOf(sys)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	r, err := follow(exp, f)
	if err != nil {
		return nil, err
	}
	t := &explore.Trace{CycleStart: -1}
	if f.CycleStart != nil {
		t.CycleStart = *f.CycleStart
	}
	if f.Premise != nil {
		m := *f.Premise
		t.Premise = &m
	}
	for i, st := range r.states {
		s := explore.Step{State: st}
		if i > 0 {
			s.Action = r.actions[i-1]
		}
		t.Steps = append(t.Steps, s)
	}
	return t, nil
}

// rendered is f followed through sys, as the model renders it.
func rendered(sys model.System, algo string, f *File) (*File, error) {
	exp, err := model.ExpanderOf(sys)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	t, err := Run(sys, f)
	if err != nil {
		return nil, err
	}
	cfg := model.Config{}
	if k, ok := sys.(model.Configured); ok {
		cfg = k.Config()
	} else if cfg, err = f.Config.Model(); err != nil {
		return nil, err
	}
	return New(algo, cfg, f.Property, f.Kind, "", t, exp), nil
}

// CheckProperty checks that f's property is one of all (an algorithm's
// properties) and that its kind of counterexample fits that property.
func (f *File) CheckProperty(all []model.PropertyInfo) error {
	i := slices.IndexFunc(all, func(p model.PropertyInfo) bool { return p.Name == f.Property })
	if i < 0 {
		return malformed("unknown property %q: %s has %s", f.Property, f.Config.Algo, strings.Join(properties.Words(all)[:len(all)], ", "))
	}
	if kinds := KindsOf(all[i].Kind); !slices.Contains(kinds, f.Kind) {
		return malformed("property %s goes with kind %s, not %q", f.Property, quoted(kinds), f.Kind)
	}
	if leads := all[i].Kind == model.LeadsTo; leads != (f.Premise != nil) {
		if leads {
			return malformed("property %s is a leads-to: its counterexample gives the step where its premise holds (premise)", f.Property)
		}
		return malformed("premise goes with a leads-to property, and %s is a %s", f.Property, all[i].Kind)
	}
	return nil
}

func quoted(ks []cex.Kind) string {
	q := make([]string, len(ks))
	for i, k := range ks {
		q[i] = strconv.Quote(k.String())
	}
	return strings.Join(q, " or ")
}

// Verify replays f through sys: every step must be enabled in the state
// before it and lead to the recorded state, and the end must violate the
// property, found among sys's predicates by name: the invariant is false in
// the last state, or the step property is false of the last step, or the
// last state is stuck outside the property's goal, or the cycle returns to
// its start, is weakly fair and passes a state outside the goal. For a
// leads-to, the premise holds at its step and the goal in no state from
// there (or from the cycle's start) on; an example ends in a state where
// its Sometimes property holds.
func Verify(sys model.System, f *File) error {
	exp, err := model.ExpanderOf(sys)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if !f.ClaimsProperty() {
		// A measure's witness run claims no violation: it must replay.
		_, err := follow(exp, f)
		return err
	}
	preds := sys.Predicates()
	p := slices.Index(preds, f.Property)
	if p < 0 {
		return fmt.Errorf("verify: the model does not check %s", f.Property)
	}
	info, err := propertyInfo(sys, p)
	if err != nil {
		return err
	}
	r, err := follow(exp, f)
	if err != nil {
		if d, ok := err.(*DivergenceError); ok {
			d.Example = f.Kind == cex.Example
		}
		return err
	}
	states, props, fair := r.states, r.props, r.fair
	var b model.Batch
	last := len(states) - 1
	if info.Kind == model.LeadsTo {
		if err := verifyPremise(f, info, props, p); err != nil {
			return err
		}
	}
	switch f.Kind {
	case cex.Example:
		if props[last]&(1<<p) == 0 {
			return &DivergenceError{Step: -1, Reason: f.Property + " does not hold in the last state", Example: true}
		}
	case cex.Invariant:
		if props[last]&(1<<p) != 0 {
			return &DivergenceError{Step: -1, Reason: f.Property + " holds in the last state"}
		}
	case cex.Step:
		if props[last]&(1<<p) != 0 {
			return &DivergenceError{Step: -1, Reason: f.Property + " holds of the last step"}
		}
	case cex.Stuck:
		exp.Expand(states[last], &b)
		if b.Props&(1<<p) != 0 {
			return &DivergenceError{Step: -1, Reason: "the last state satisfies the goal of " + f.Property}
		}
		for _, s := range b.Succs {
			if s.Fair != model.NoFairness {
				return &DivergenceError{Step: -1, Reason: fmt.Sprintf("the last state is not stuck: %q is enabled and fair", exp.Label(states[last], s.Action))}
			}
		}
	case cex.FairCycle:
		return verifyCycle(sys, exp, f, states, props, fair, p, info)
	}
	return nil
}

// propertyInfo is what sys says of its predicate p, when it describes its
// properties (the kernel does); a bare system's are plain goals.
func propertyInfo(sys model.System, p int) (model.PropertyInfo, error) {
	ps, ok := sys.(model.PropertySystem)
	if !ok {
		return model.PropertyInfo{Name: sys.Predicates()[p]}, nil
	}
	infos := ps.Properties()
	if p >= len(infos) {
		return model.PropertyInfo{}, fmt.Errorf("verify: the model describes %d properties, not predicate %d", len(infos), p)
	}
	return infos[p], nil
}

// verifyPremise checks a leads-to's counterexample: the premise holds at
// its step, and from there (or from the cycle's start, if earlier) the goal
// holds in no state.
func verifyPremise(f *File, info model.PropertyInfo, props []uint64, goal int) error {
	if f.Premise == nil {
		return malformed("property %s is a leads-to: its counterexample gives the step where its premise holds (premise)", f.Property)
	}
	m := *f.Premise
	if m < 0 || m >= len(props) {
		return malformed("premise %d is outside the steps 0..%d", m, len(props)-1)
	}
	if props[m]&(1<<info.Premise) == 0 {
		return &DivergenceError{Step: -1, Reason: fmt.Sprintf("the premise of %s does not hold at step %d", f.Property, m)}
	}
	from := m
	if f.CycleStart != nil {
		from = min(from, *f.CycleStart)
	}
	for i := from; i < len(props); i++ {
		if props[i]&(1<<goal) != 0 {
			return &DivergenceError{Step: -1, Reason: fmt.Sprintf("the goal of %s holds at step %d, after its premise held", f.Property, i)}
		}
	}
	return nil
}

// sameArrangement: the same IDs at the same ring positions.
func sameArrangement(a, b model.Snapshot) bool {
	return slices.EqualFunc(a.Processes, b.Processes, func(x, y model.ProcessSnapshot) bool { return x.ID == y.ID })
}

// Path replays the steps of f through sys as Verify does, without looking
// at the property, and gives the index of each step among the successors
// Expand lists in the state before it.
func Path(sys model.System, f *File) ([]int, error) {
	exp, err := model.ExpanderOf(sys)
	if err != nil {
		return nil, fmt.Errorf("path: %w", err)
	}
	r, err := follow(exp, f)
	if err != nil {
		return nil, err
	}
	return r.index, nil
}

// replayed is a trace file followed through a model: the state after each
// step, the predicates and fairness class of each, and which successor of
// the state before it each step is.
type replayed struct {
	states [][]byte
	props  []uint64
	fair   []int32
	index  []int // index[i-1]: step i's place in Expand's batch
	// actions[i-1] is step i's action.
	actions []ts.Action
}

// follow matches each step of f as data (model.StepInfo.Equal) against the
// steps enabled before it, and checks the state it leads to.
func follow(exp model.Expander, f *File) (*replayed, error) {
	var b model.Batch
	exp.Initial(&b)
	// Several initial states (every arrangement of IDs): the trace starts
	// from one of them.
	j0, firstErr := -1, error(nil)
	for j := range b.Succs {
		snap := exp.Snapshot(b.State(j))
		err := sameState(snap, f.Steps[0].State)
		if err == nil && !sameArrangement(snap, f.Steps[0].State) {
			err = errors.New("the IDs are arranged otherwise")
		}
		if err == nil {
			j0 = j
			break
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if j0 < 0 {
		return nil, &DivergenceError{Step: 0, Reason: "the initial state differs: " + firstErr.Error()}
	}
	r := &replayed{states: [][]byte{slices.Clone(b.State(j0))}, props: []uint64{b.Succs[j0].Props}, fair: []int32{model.NoFairness}}
	for i := 1; i < len(f.Steps); i++ {
		prev := r.states[i-1]
		exp.Expand(prev, &b)
		want := f.Steps[i].Step
		j := slices.IndexFunc(b.Succs, func(s model.Succ) bool { return exp.Step(prev, s.Action).Equal(*want) })
		if j < 0 {
			return nil, &DivergenceError{Step: i, Reason: fmt.Sprintf("%q is not enabled", f.Steps[i].Label())}
		}
		next := slices.Clone(b.State(j))
		if err := sameState(exp.Snapshot(next), f.Steps[i].State); err != nil {
			return nil, &DivergenceError{Step: i, Reason: fmt.Sprintf("%q leads to another state: %v", f.Steps[i].Label(), err)}
		}
		r.states, r.props, r.fair = append(r.states, next), append(r.props, b.Succs[j].Props), append(r.fair, b.Succs[j].Fair)
		r.index, r.actions = append(r.index, j), append(r.actions, b.Succs[j].Action)
	}
	return r, nil
}

// verifyCycle checks a lasso: the cycle returns to its start, is weakly
// fair, and (for an eventually-always) passes a state outside the goal,
// which for a Quiet goal is also a state with a fair step enabled. (A
// leads-to's cycle is outside its goal throughout: verifyPremise.)
func verifyCycle(sys model.System, exp model.Expander, f *File, states [][]byte, props []uint64, fair []int32, stable int, info model.PropertyInfo) error {
	c, last := *f.CycleStart, len(states)-1
	if c < 0 || c >= last {
		// Read validates this; a File built in code may not be.
		return malformed("cycle_start %d is outside the steps 0..%d", c, last-1)
	}
	if !bytes.Equal(states[c], states[last]) {
		return &DivergenceError{Step: -1, Reason: fmt.Sprintf("the last state is not the state of step %d, where the cycle starts", c)}
	}
	// Classes enabled in every state of the cycle must be taken in it.
	var b model.Batch
	var always []int32
	bad := info.Kind == model.LeadsTo
	for i := c; i < last; i++ {
		exp.Expand(states[i], &b)
		var here []int32
		for _, s := range b.Succs {
			if s.Fair != model.NoFairness {
				here = append(here, s.Fair)
			}
		}
		bad = bad || props[i]&(1<<stable) == 0 || info.Quiet && len(here) > 0
		if i == c {
			always = here
		} else {
			always = slices.DeleteFunc(always, func(x int32) bool { return !slices.Contains(here, x) })
		}
	}
	if !bad {
		return &DivergenceError{Step: -1, Reason: "every state of the cycle satisfies the goal of " + f.Property}
	}
	for _, cl := range always {
		if !slices.Contains(fair[c+1:], cl) {
			return &DivergenceError{Step: -1, Reason: fmt.Sprintf("the cycle is not fair: %s is enabled in all of its states but never taken", sys.FairClass(cl))}
		}
	}
	return nil
}

// sameState compares snapshots as data, field by field, and names the
// first difference.
func sameState(got, want model.Snapshot) error {
	g, w := got.Fields(), want.Fields()
	gm := make(map[string]model.Value, len(g))
	for _, f := range g {
		gm[f.Name] = f.Value
	}
	wm := make(map[string]bool, len(w))
	for _, f := range w {
		wm[f.Name] = true
		v, ok := gm[f.Name]
		if !ok {
			return fmt.Errorf("%s is absent, the trace says %s", f.Name, f.Value)
		}
		if !v.Equal(f.Value) {
			return fmt.Errorf("%s is %s, the trace says %s", f.Name, v, f.Value)
		}
	}
	for _, f := range g {
		if !wm[f.Name] {
			return fmt.Errorf("%s is %s, the trace does not have it", f.Name, f.Value)
		}
	}
	if len(got.Processes) != len(want.Processes) {
		return errors.New("the number of processes differs")
	}
	return nil
}
