// Package trace is the counterexample as a file that people read and CI
// keeps: a versioned JSON format (mcheck-trace/1) holding the configuration,
// the property, every step with the state after it, and where a lasso's
// cycle starts. Verify replays a trace through the transition function, so a
// trace file can be checked long after it was written.
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

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
	"github.com/mcheck/mcheck/specs"
)

// Format names this version of the file format.
const Format = "mcheck-trace/1"

// Kinds of counterexample.
const (
	KindInvariant = "invariant"  // the last state violates the invariant
	KindStep      = "step"       // the last step violates the step property
	KindStuck     = "stuck"      // the last state is not Stable and has no fair step
	KindFairCycle = "fair-cycle" // steps from CycleStart on repeat forever, fairly, without Stable
)

// Config is the configuration a trace was found under.
type Config struct {
	Algo          string `json:"algo"`
	N             int    `json:"n"`
	IDs           []int  `json:"ids"`
	Crashes       int    `json:"crashes"`
	Restarts      int    `json:"restarts"`
	Detector      string `json:"detector"`
	Initiators    []int  `json:"initiators,omitempty"`
	Down          []int  `json:"down,omitempty"`
	InitialLeader bool   `json:"initial_leader"`
	MaxQueue      int    `json:"max_queue"`
}

// ConfigOf records a model configuration (with defaults filled in).
func ConfigOf(algo string, c model.Config) Config {
	return Config{
		Algo: algo, N: c.N, IDs: c.IDs, Crashes: c.MaxCrashes, Restarts: c.MaxRestarts,
		Detector: c.Detector.String(), Initiators: c.Initiators, Down: c.Down,
		InitialLeader: c.InitialLeader, MaxQueue: c.MaxQueue,
	}
}

// Model is the model configuration of c.
func (c Config) Model() (model.Config, error) {
	d, err := model.ParseDetector(c.Detector)
	if err != nil {
		return model.Config{}, err
	}
	return model.Config{
		N: c.N, IDs: c.IDs, MaxCrashes: c.Crashes, MaxRestarts: c.Restarts, Detector: d,
		Initiators: c.Initiators, Down: c.Down, InitialLeader: c.InitialLeader, MaxQueue: c.MaxQueue,
	}, nil
}

// File is one counterexample.
type File struct {
	Format   string `json:"format"`
	Config   Config `json:"config"`
	Property string `json:"property"`
	Kind     string `json:"kind"`
	Summary  string `json:"summary,omitempty"`
	// CycleStart is the step whose state the last step returns to, for
	// fair-cycle traces; null otherwise.
	CycleStart *int   `json:"cycle_start"`
	Steps      []Step `json:"steps"`
}

// Step is an action and the state after it; the first step is the initial
// state, with the action "initial state".
type Step struct {
	Action string         `json:"action"`
	State  model.Snapshot `json:"state"`
}

// InitialAction labels the first step.
const InitialAction = "initial state"

// New builds the file of an explorer trace.
func New(algo string, cfg model.Config, property, kind, summary string, t *explore.Trace, exp model.Expander) *File {
	f := &File{Format: Format, Config: ConfigOf(algo, cfg), Property: property, Kind: kind, Summary: summary}
	if t.CycleStart >= 0 {
		cs := t.CycleStart
		f.CycleStart = &cs
	}
	for i, s := range t.Steps {
		label := s.Label
		if i == 0 {
			label = InitialAction
		}
		f.Steps = append(f.Steps, Step{Action: label, State: exp.Snapshot(s.State)})
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
type MalformedError struct{ Reason string }

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
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, malformed("not a JSON trace: %v", err)
	}
	if dec.More() {
		return nil, malformed("extra data after the JSON object")
	}
	return &f, f.validate()
}

func (f *File) validate() error {
	switch {
	case f.Format != Format:
		return malformed("format is %q, want %q", f.Format, Format)
	case f.Config.Algo == "":
		return malformed("config.algo is missing")
	case len(f.Steps) == 0:
		return malformed("no steps")
	case f.Steps[0].Action != InitialAction:
		return malformed("the first step must be %q", InitialAction)
	}
	switch {
	case f.Property == "":
		return malformed("property is missing")
	case !slices.Contains([]string{KindInvariant, KindStep, KindStuck, KindFairCycle}, f.Kind):
		return malformed("kind %q is none of %q, %q, %q, %q", f.Kind, KindInvariant, KindStep, KindStuck, KindFairCycle)
	case f.Kind == KindStep && len(f.Steps) < 2:
		return malformed("a %q counterexample needs a step after the initial state", KindStep)
	}
	if (f.Kind == KindFairCycle) != (f.CycleStart != nil) {
		return malformed("cycle_start must be given exactly for kind %q", KindFairCycle)
	}
	if cs := f.CycleStart; cs != nil && (*cs < 0 || *cs >= len(f.Steps)-1) {
		return malformed("cycle_start %d is outside the steps 0..%d", *cs, len(f.Steps)-2)
	}
	if _, err := f.Config.Model(); err != nil {
		return malformed("config.detector: %v", err)
	}
	return nil
}

// DivergenceError says where a trace stops being a run of the model, or why
// its end is not a violation.
type DivergenceError struct {
	Step   int // -1: the property is not violated at the end
	Reason string
}

func (e *DivergenceError) Error() string {
	if e.Step < 0 {
		return "not a counterexample: " + e.Reason
	}
	return fmt.Sprintf("not a counterexample: step %d: %s", e.Step, e.Reason)
}

// KindsOf lists the counterexample kinds of a property of kind k.
func KindsOf(k model.PropertyKind) []string {
	switch k {
	case model.Invariant:
		return []string{KindInvariant}
	case model.StepProperty:
		return []string{KindStep}
	}
	return []string{KindStuck, KindFairCycle}
}

// Replay rebuilds the configuration of f from reg and verifies it.
func Replay(f *File, reg *specs.Registry) error {
	spec, err := reg.Lookup(f.Config.Algo)
	if err != nil {
		return malformed("config.algo: %v", err)
	}
	all := spec.Build.Properties()
	i := slices.IndexFunc(all, func(p model.PropertyInfo) bool { return p.Name == f.Property })
	if i < 0 {
		return malformed("unknown property %q: %s has %s", f.Property, f.Config.Algo, strings.Join(properties.Words(all)[:len(all)], ", "))
	}
	if kinds := KindsOf(all[i].Kind); !slices.Contains(kinds, f.Kind) {
		return malformed("property %s goes with kind %s, not %q", f.Property, quoted(kinds), f.Kind)
	}
	cfg, _ := f.Config.Model()
	sys, err := spec.Build.System(cfg, []string{f.Property})
	if err != nil {
		return malformed("config: %v", err)
	}
	return Verify(sys, f)
}

func quoted(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = strconv.Quote(x)
	}
	return strings.Join(q, " or ")
}

// Verify replays f through sys: every step must be enabled in the state
// before it and lead to the recorded state, and the end must violate the
// property, found among sys's predicates by name: the invariant is false in
// the last state, or the step property is false of the last step, or the
// last state is stuck outside the property's goal, or the cycle returns to
// its start, is weakly fair and passes a state outside the goal.
func Verify(sys model.System, f *File) error {
	preds := sys.Predicates()
	p := slices.Index(preds, f.Property)
	if p < 0 {
		return fmt.Errorf("verify: the model does not check %s", f.Property)
	}
	exp := sys.NewExpander()
	var b model.Batch
	exp.Initial(&b)
	if len(b.Succs) != 1 {
		return fmt.Errorf("verify: the model has %d initial states", len(b.Succs))
	}
	states := [][]byte{slices.Clone(b.State(0))}
	props := []uint64{b.Succs[0].Props}
	fair := []int32{model.NoFairness}
	if err := sameState(exp.Snapshot(states[0]), f.Steps[0].State); err != nil {
		return &DivergenceError{Step: 0, Reason: "the initial state differs: " + err.Error()}
	}
	for i := 1; i < len(f.Steps); i++ {
		prev := states[i-1]
		exp.Expand(prev, &b)
		j := slices.IndexFunc(b.Succs, func(s model.Succ) bool { return exp.Label(prev, s.Action) == f.Steps[i].Action })
		if j < 0 {
			return &DivergenceError{Step: i, Reason: fmt.Sprintf("%q is not enabled", f.Steps[i].Action)}
		}
		next := slices.Clone(b.State(j))
		if err := sameState(exp.Snapshot(next), f.Steps[i].State); err != nil {
			return &DivergenceError{Step: i, Reason: fmt.Sprintf("%q leads to another state: %v", f.Steps[i].Action, err)}
		}
		states, props, fair = append(states, next), append(props, b.Succs[j].Props), append(fair, b.Succs[j].Fair)
	}
	last := len(states) - 1
	switch f.Kind {
	case KindInvariant:
		if props[last]&(1<<p) != 0 {
			return &DivergenceError{Step: -1, Reason: f.Property + " holds in the last state"}
		}
	case KindStep:
		if props[last]&(1<<p) != 0 {
			return &DivergenceError{Step: -1, Reason: f.Property + " holds of the last step"}
		}
	case KindStuck:
		exp.Expand(states[last], &b)
		if b.Props&(1<<p) != 0 {
			return &DivergenceError{Step: -1, Reason: "the last state satisfies the goal of " + f.Property}
		}
		for _, s := range b.Succs {
			if s.Fair != model.NoFairness {
				return &DivergenceError{Step: -1, Reason: fmt.Sprintf("the last state is not stuck: %q is enabled and fair", exp.Label(states[last], s.Action))}
			}
		}
	case KindFairCycle:
		return verifyCycle(sys, exp, f, states, props, fair, p)
	}
	return nil
}

func verifyCycle(sys model.System, exp model.Expander, f *File, states [][]byte, props []uint64, fair []int32, stable int) error {
	c, last := *f.CycleStart, len(states)-1
	if !bytes.Equal(states[c], states[last]) {
		return &DivergenceError{Step: -1, Reason: fmt.Sprintf("the last state is not the state of step %d, where the cycle starts", c)}
	}
	bad := false
	for i := c; i <= last; i++ {
		bad = bad || props[i]&(1<<stable) == 0
	}
	if !bad {
		return &DivergenceError{Step: -1, Reason: "every state of the cycle satisfies the goal of " + f.Property}
	}
	// Classes enabled in every state of the cycle must be taken in it.
	var b model.Batch
	var always []int32
	for i := c; i < last; i++ {
		exp.Expand(states[i], &b)
		var here []int32
		for _, s := range b.Succs {
			if s.Fair != model.NoFairness {
				here = append(here, s.Fair)
			}
		}
		if i == c {
			always = here
		} else {
			always = slices.DeleteFunc(always, func(x int32) bool { return !slices.Contains(here, x) })
		}
	}
	for _, cl := range always {
		if !slices.Contains(fair[c+1:], cl) {
			return &DivergenceError{Step: -1, Reason: fmt.Sprintf("the cycle is not fair: %s is enabled in all of its states but never taken", sys.FairClass(cl))}
		}
	}
	return nil
}

// sameState compares snapshots field by field and names the first difference.
func sameState(got, want model.Snapshot) error {
	g, w := got.Fields(), want.Fields()
	gm := map[string]string{}
	for _, f := range g {
		gm[f.Name] = f.Value
	}
	wm := map[string]string{}
	for _, f := range w {
		wm[f.Name] = f.Value
		if gm[f.Name] != f.Value {
			return fmt.Errorf("%s is %s, the trace says %s", f.Name, orEmpty(gm[f.Name]), f.Value)
		}
	}
	for _, f := range g {
		if _, ok := wm[f.Name]; !ok {
			return fmt.Errorf("%s is %s, the trace does not have it", f.Name, f.Value)
		}
	}
	if len(got.Processes) != len(want.Processes) {
		return errors.New("the number of processes differs")
	}
	return nil
}

func orEmpty(s string) string {
	if s == "" {
		return "absent"
	}
	return s
}
