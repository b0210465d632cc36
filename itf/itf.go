// Package itf writes and reads counterexamples in the Informal Trace Format
// of Apalache and Quint (Apalache ADR-015), so that their tools can show
// and replay what mcheck found.
//
// A trace is one JSON object: "#meta" (format, source, description, and
// under "mcheck" everything replay needs: the configuration, the property,
// the kind, and which variable is which), "vars", "states" and, for a lasso,
// "loop". Every process field is a variable ("p3_elected"), and so is every
// channel ("chan_p3_p4", a sequence of messages head first) and the fault
// counters; in a timed mode (docs/semantics.md section 6.2) also every process's
// timer ("p3_timer": its ticks left, or "off"), every channel's ages
// ("ages_p3_p4", head first) and, with partial timing, "gst"; when the
// check counted the sends (a property read them), "sent", one
// "sent_ELECTION" per message type and "lost", each up to the cap that
// #meta.mcheck.sent gives. Each state's "#meta" holds its index and the step that led to it
// (model.StepInfo as mcheck writes it, plus its label). Values: integers are
// {"#bigint": "9"}, booleans and strings themselves, sets {"#set": [...]},
// sequences arrays, ⊥ the variant {"tag": "None", "value": {"#tup": []}},
// and a message the variant {"tag": "ELECTION", "value": {"#tup": [args]}}.
//
// For a lasso, "loop" is the index of the state where the cycle starts; the
// cycle ends in the last state, whose successor is the state at "loop"
// again (as the ADR says). mcheck's trace repeats that state as its last
// step, so the ITF file leaves the repetition out and keeps the step that
// closes the cycle in #meta.mcheck.loop_step.
package itf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/trace"
)

// FormatDescription is where the format is defined.
const FormatDescription = "https://apalache-mc.org/docs/adr/015adr-trace.html"

// Trace is an ITF trace as mcheck writes it.
type Trace struct {
	Meta   Meta                         `json:"#meta"`
	Vars   []string                     `json:"vars"`
	States []map[string]json.RawMessage `json:"states"`
	Loop   *int                         `json:"loop,omitempty"`
}

// Meta is the trace's "#meta".
type Meta struct {
	Format            string  `json:"format"`
	FormatDescription string  `json:"format-description"`
	Source            string  `json:"source"`
	Description       string  `json:"description"`
	Mcheck            *Mcheck `json:"mcheck"`
}

// Mcheck is what replay needs besides the states: the trace file's header
// and the map from variables to processes, fields and channels.
type Mcheck struct {
	Format   string       `json:"format"` // trace.Format
	Config   trace.Config `json:"config"`
	Property string       `json:"property"`
	Kind     cex.Kind     `json:"kind"`
	Summary  string       `json:"summary,omitempty"`
	// LoopStep is the step from the last state back to the state at
	// "loop", for a lasso.
	LoopStep *model.StepInfo `json:"loop_step,omitempty"`
	// Premise is the index of the state where a leads-to's premise holds
	// (trace.File.Premise).
	Premise    *int          `json:"premise,omitempty"`
	Processes  []ProcessVars `json:"processes"`
	Channels   []ChannelVar  `json:"channels"`
	CrashesVar string        `json:"crashes"`
	RestartVar string        `json:"restarts"`
	// GSTVar names gst, with partial timing.
	GSTVar string `json:"gst,omitempty"`
	// Sent names the counts of the sends, when the states count them.
	Sent *SentVars `json:"sent,omitempty"`
}

// SentVars name the variables of the sends counted (model.SendsSnapshot),
// each count up to Cap.
type SentVars struct {
	Cap    int       `json:"cap"`
	Total  string    `json:"total"`
	ByType []TypeVar `json:"by_type"`
	Lost   string    `json:"lost"`
}

// TypeVar is the variable of one message type's count.
type TypeVar struct {
	Type string `json:"type"`
	Var  string `json:"var"`
}

// ProcessVars names the variables of one process.
type ProcessVars struct {
	ID int `json:"id"`
	// Alias names the process when its ID is shared (--anonymous).
	Alias  string     `json:"alias,omitempty"`
	Alive  string     `json:"alive"`
	Fields []FieldVar `json:"fields"`
	// Timer names the process's timer, in a timed mode.
	Timer string `json:"timer,omitempty"`
}

// FieldVar is the variable of one local field.
type FieldVar struct {
	Name string `json:"name"`
	Var  string `json:"var"`
}

// ChannelVar is the variable of chan(From, To), by process IDs (and
// aliases, when IDs are shared).
type ChannelVar struct {
	From      int    `json:"from"`
	To        int    `json:"to"`
	FromAlias string `json:"from_alias,omitempty"`
	ToAlias   string `json:"to_alias,omitempty"`
	Var       string `json:"var"`
	// Ages names the variable of its messages' ages, in a timed mode.
	Ages string `json:"ages,omitempty"`
}

// snapshot is the empty channel of cv, which names its ends.
func (cv ChannelVar) snapshot() model.ChannelSnapshot {
	return model.ChannelSnapshot{From: cv.From, To: cv.To, FromAlias: cv.FromAlias, ToAlias: cv.ToAlias}
}

// varName is a process's name in variable names: "p2", or "p2_at1" for
// the alias p2@1 of an anonymous process.
func varName(name string) string { return strings.ReplaceAll(name, "@", "_at") }

// stateMeta is a state's "#meta".
type stateMeta struct {
	Index  int             `json:"index"`
	Step   *model.StepInfo `json:"step,omitempty"`
	Action string          `json:"action"` // the step's label, for people
	// Due and Late name the timed messages of age D in the state, for
	// people (trace.AgeMark), "p3→p2 OK(3)": a due one is delivered
	// before the next tick, a late one (partial, before gst) may wait.
	// Derived from the ages and gst; a reader ignores them.
	Due  []string `json:"due,omitempty"`
	Late []string `json:"late,omitempty"`
}

// ageMarks lists the messages of s that are due and late at delay delay.
func ageMarks(s model.Snapshot, delay int) (due, late []string) {
	for _, c := range s.Channels {
		for j, a := range c.Ages {
			if j >= len(c.Messages) {
				break
			}
			switch trace.AgeMark(a, delay, s.GST) {
			case trace.MarkDue:
				due = append(due, c.Ends()+" "+c.Messages[j].String())
			case trace.MarkLate:
				late = append(late, c.Ends()+" "+c.Messages[j].String())
			}
		}
	}
	return due, late
}

// Write writes f as an ITF trace.
func Write(w io.Writer, f *trace.File) error {
	t, err := FromFile(f)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(t)
}

// FromFile converts a trace file into ITF.
func FromFile(f *trace.File) (*Trace, error) {
	if len(f.Steps) == 0 {
		return nil, fmt.Errorf("itf: the trace has no steps")
	}
	m := &Mcheck{Format: trace.Format, Config: f.Config, Property: f.Property, Kind: f.Kind, Summary: f.Summary,
		CrashesVar: "crashes", RestartVar: "restarts", Premise: f.Premise}
	what := "violated"
	if f.Kind == cex.Example {
		what = "reachable, an example"
	}
	t := &Trace{
		Meta: Meta{Format: "ITF", FormatDescription: FormatDescription, Source: "mcheck",
			Description: fmt.Sprintf("%s %s (%s): %s", f.Property, what, f.Kind, f.Summary), Mcheck: m},
		Loop: f.CycleStart,
	}
	first := f.Steps[0].State
	for _, p := range first.Processes {
		pv := ProcessVars{ID: p.ID, Alias: p.Alias, Alive: varName(p.Name()) + "_alive"}
		t.Vars = append(t.Vars, pv.Alive)
		for _, fl := range p.Fields {
			fv := FieldVar{Name: fl.Name, Var: varName(p.Name()) + "_" + fl.Name}
			pv.Fields = append(pv.Fields, fv)
			t.Vars = append(t.Vars, fv.Var)
		}
		if p.Timer != nil {
			pv.Timer = varName(p.Name()) + "_timer"
			t.Vars = append(t.Vars, pv.Timer)
		}
		m.Processes = append(m.Processes, pv)
	}
	timed := f.Config.Timing != ""
	for _, a := range first.Processes {
		for _, b := range first.Processes {
			ends := varName(a.Name()) + "_" + varName(b.Name())
			cv := ChannelVar{From: a.ID, To: b.ID, FromAlias: a.Alias, ToAlias: b.Alias, Var: "chan_" + ends}
			t.Vars = append(t.Vars, cv.Var)
			if timed {
				cv.Ages = "ages_" + ends
				t.Vars = append(t.Vars, cv.Ages)
			}
			m.Channels = append(m.Channels, cv)
		}
	}
	t.Vars = append(t.Vars, m.CrashesVar, m.RestartVar)
	if first.GST != nil {
		m.GSTVar = "gst"
		t.Vars = append(t.Vars, m.GSTVar)
	}
	if c := first.Sent; c != nil {
		m.Sent = &SentVars{Cap: c.Cap, Total: "sent", Lost: "lost"}
		t.Vars = append(t.Vars, m.Sent.Total)
		for _, tc := range c.ByType {
			tv := TypeVar{Type: tc.Type, Var: "sent_" + tc.Type}
			m.Sent.ByType = append(m.Sent.ByType, tv)
			t.Vars = append(t.Vars, tv.Var)
		}
		t.Vars = append(t.Vars, m.Sent.Lost)
	}
	steps := f.Steps
	if f.CycleStart != nil {
		last := len(steps) - 1
		if *f.CycleStart < 0 || *f.CycleStart >= last {
			return nil, fmt.Errorf("itf: cycle start %d is outside the steps 0..%d", *f.CycleStart, last-1)
		}
		m.LoopStep = steps[last].Step
		steps = steps[:last]
	}
	for i, s := range steps {
		st, err := m.encodeState(i, s)
		if err != nil {
			return nil, err
		}
		t.States = append(t.States, st)
	}
	return t, nil
}

func (m *Mcheck) encodeState(i int, s trace.Step) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	due, late := ageMarks(s.State, m.Config.Delay)
	meta, err := json.Marshal(stateMeta{Index: i, Step: s.Step, Action: s.Label(), Due: due, Late: late})
	if err != nil {
		return nil, err
	}
	out["#meta"] = meta
	put := func(name string, v model.Value) {
		out[name] = encodeValue(v)
	}
	if len(s.State.Processes) != len(m.Processes) {
		return nil, fmt.Errorf("itf: step %d has %d processes, step 0 has %d", i, len(s.State.Processes), len(m.Processes))
	}
	for j, p := range s.State.Processes {
		pv := m.Processes[j]
		put(pv.Alive, model.Bool(p.Alive))
		for _, fv := range pv.Fields {
			v, ok := p.Field(fv.Name)
			if !ok {
				return nil, fmt.Errorf("itf: step %d: %s has no field %s", i, p.Name(), fv.Name)
			}
			put(fv.Var, v)
		}
		if pv.Timer != "" {
			if p.Timer == nil {
				return nil, fmt.Errorf("itf: step %d: %s has no timer", i, p.Name())
			}
			put(pv.Timer, *p.Timer)
		}
	}
	chans := map[string]model.ChannelSnapshot{}
	for _, c := range s.State.Channels {
		chans[c.Ends()] = c
	}
	for _, cv := range m.Channels {
		c := chans[cv.snapshot().Ends()]
		put(cv.Var, model.Seq(c.Messages...))
		if cv.Ages != "" {
			ages := make([]model.Value, len(c.Ages))
			for j, a := range c.Ages {
				ages[j] = model.Int(a)
			}
			put(cv.Ages, model.Seq(ages...))
		}
	}
	put(m.CrashesVar, model.Int(s.State.Crashes))
	put(m.RestartVar, model.Int(s.State.Restarts))
	if m.GSTVar != "" {
		if s.State.GST == nil {
			return nil, fmt.Errorf("itf: step %d has no gst", i)
		}
		put(m.GSTVar, model.Bool(*s.State.GST))
	}
	if sv := m.Sent; sv != nil {
		c := s.State.Sent
		if c == nil || len(c.ByType) != len(sv.ByType) {
			return nil, fmt.Errorf("itf: step %d does not count the sends as step 0 does", i)
		}
		put(sv.Total, model.Int(c.Total))
		for j, tv := range sv.ByType {
			put(tv.Var, model.Int(c.ByType[j].Count))
		}
		put(sv.Lost, model.Int(c.Lost))
	}
	return out, nil
}

// encodeValue renders v in ITF (see the package comment).
func encodeValue(v model.Value) json.RawMessage {
	var b bytes.Buffer
	writeValue(&b, v)
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, v model.Value) {
	list := func(vs []model.Value) {
		b.WriteByte('[')
		for i, e := range vs {
			if i > 0 {
				b.WriteByte(',')
			}
			writeValue(b, e)
		}
		b.WriteByte(']')
	}
	variant := func(tag string, args []model.Value) {
		t, _ := json.Marshal(tag)
		b.WriteString(`{"tag":`)
		b.Write(t)
		b.WriteString(`,"value":{"#tup":`)
		list(args)
		b.WriteString(`}}`)
	}
	switch v.Kind() {
	case model.KindNone:
		variant("None", nil)
	case model.KindInt:
		n, _ := v.Int()
		b.WriteString(`{"#bigint":"` + strconv.Itoa(n) + `"}`)
	case model.KindBool:
		x, _ := v.Bool()
		b.WriteString(strconv.FormatBool(x))
	case model.KindStr:
		s, _ := v.Str()
		t, _ := json.Marshal(s)
		b.Write(t)
	case model.KindSet:
		b.WriteString(`{"#set":`)
		list(v.Elems())
		b.WriteByte('}')
	case model.KindSeq:
		list(v.Elems())
	case model.KindMsg:
		variant(v.Type(), v.Elems())
	}
}

// Detect reports whether data looks like an ITF trace (a JSON object with
// "vars" and "states") rather than an mcheck trace file.
func Detect(data []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return false
	}
	_, vars := top["vars"]
	_, states := top["states"]
	return vars && states
}

func malformed(format string, args ...any) error {
	return &trace.MalformedError{Reason: "ITF: " + fmt.Sprintf(format, args...)}
}

// Read parses an ITF trace written by mcheck back into a trace file (to
// replay it). Any input gives either a valid File or a
// *trace.MalformedError, never a panic.
func Read(data []byte) (*trace.File, error) {
	var t Trace
	if err := json.Unmarshal(data, &t); err != nil {
		if unknown := (*cex.UnknownError)(nil); errors.As(err, &unknown) {
			return nil, malformed("#meta.mcheck: %v", unknown)
		}
		return nil, malformed("not a JSON trace: %v", err)
	}
	m := t.Meta.Mcheck
	if m == nil {
		return nil, malformed(`#meta has no "mcheck" object, so this trace was not written by mcheck and its configuration is unknown`)
	}
	if m.Format != trace.Format {
		return nil, malformed("#meta.mcheck.format is %q, want %q", m.Format, trace.Format)
	}
	f := &trace.File{Format: trace.Format, Config: m.Config, Property: m.Property, Kind: m.Kind, Summary: m.Summary, CycleStart: t.Loop, Premise: m.Premise}
	for i, st := range t.States {
		s, err := m.decodeState(i, st)
		if err != nil {
			return nil, err
		}
		f.Steps = append(f.Steps, s)
	}
	if t.Loop != nil {
		// The cycle closes: its last step leads back to the state at loop.
		if m.LoopStep == nil {
			return nil, malformed(`"loop" is given, but #meta.mcheck.loop_step (the step back to it) is not`)
		}
		if *t.Loop < 0 || *t.Loop >= len(f.Steps) {
			return nil, malformed("loop %d is outside the states 0..%d", *t.Loop, len(f.Steps)-1)
		}
		f.Steps = append(f.Steps, trace.Step{Step: m.LoopStep, State: f.Steps[*t.Loop].State})
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return f, nil
}

func (m *Mcheck) decodeState(i int, st map[string]json.RawMessage) (trace.Step, error) {
	var s trace.Step
	var meta stateMeta
	if raw, ok := st["#meta"]; ok {
		if err := json.Unmarshal(raw, &meta); err != nil {
			return s, malformed("state %d: #meta: %v", i, err)
		}
	}
	if meta.Index != i {
		return s, malformed("state %d has index %d", i, meta.Index)
	}
	s.Step = meta.Step
	get := func(name string, msgs bool) (model.Value, error) {
		raw, ok := st[name]
		if !ok {
			return model.Value{}, malformed("state %d has no variable %s", i, name)
		}
		v, err := decodeValue(raw, msgs)
		if err != nil {
			return model.Value{}, malformed("state %d: %s: %v", i, name, err)
		}
		return v, nil
	}
	for _, pv := range m.Processes {
		alive, err := get(pv.Alive, false)
		if err != nil {
			return s, err
		}
		a, ok := alive.Bool()
		if !ok {
			return s, malformed("state %d: %s is not a boolean", i, pv.Alive)
		}
		p := model.ProcessSnapshot{ID: pv.ID, Alias: pv.Alias, Alive: a}
		for _, fv := range pv.Fields {
			v, err := get(fv.Var, false)
			if err != nil {
				return s, err
			}
			p.Fields = append(p.Fields, model.Field{Name: fv.Name, Value: v})
		}
		if pv.Timer != "" {
			v, err := get(pv.Timer, false)
			if err != nil {
				return s, err
			}
			if _, isInt := v.Int(); !isInt && !v.Equal(model.Str("off")) {
				return s, malformed("state %d: %s is neither a number of ticks nor \"off\"", i, pv.Timer)
			}
			p.Timer = &v
		}
		s.State.Processes = append(s.State.Processes, p)
	}
	for _, cv := range m.Channels {
		v, err := get(cv.Var, true)
		if err != nil {
			return s, err
		}
		if v.Kind() != model.KindSeq {
			return s, malformed("state %d: %s is not a sequence", i, cv.Var)
		}
		if len(v.Elems()) == 0 {
			continue
		}
		c := cv.snapshot()
		c.Messages = v.Elems()
		if cv.Ages != "" {
			ages, err := get(cv.Ages, false)
			if err != nil {
				return s, err
			}
			if ages.Kind() != model.KindSeq || len(ages.Elems()) != len(c.Messages) {
				return s, malformed("state %d: %s is not a sequence of one age per message of %s", i, cv.Ages, cv.Var)
			}
			for _, a := range ages.Elems() {
				n, ok := a.Int()
				if !ok {
					return s, malformed("state %d: %s has an age that is not an integer", i, cv.Ages)
				}
				c.Ages = append(c.Ages, n)
			}
		}
		s.State.Channels = append(s.State.Channels, c)
	}
	type count struct {
		name string
		to   *int
	}
	counts := []count{{m.CrashesVar, &s.State.Crashes}, {m.RestartVar, &s.State.Restarts}}
	if sv := m.Sent; sv != nil {
		c := &model.SendsSnapshot{Cap: sv.Cap, ByType: make([]model.TypeCount, len(sv.ByType))}
		counts = append(counts, count{sv.Total, &c.Total}, count{sv.Lost, &c.Lost})
		for j, tv := range sv.ByType {
			c.ByType[j].Type = tv.Type
			counts = append(counts, count{tv.Var, &c.ByType[j].Count})
		}
		s.State.Sent = c
	}
	for _, c := range counts {
		v, err := get(c.name, false)
		if err != nil {
			return s, err
		}
		n, ok := v.Int()
		if !ok {
			return s, malformed("state %d: %s is not an integer", i, c.name)
		}
		*c.to = n
	}
	if m.GSTVar != "" {
		v, err := get(m.GSTVar, false)
		if err != nil {
			return s, err
		}
		gst, ok := v.Bool()
		if !ok {
			return s, malformed("state %d: %s is not a boolean", i, m.GSTVar)
		}
		s.State.GST = &gst
	}
	return s, nil
}

// decodeValue reads an ITF value; in a channel (msgs) a variant is a
// message, elsewhere the variant None is ⊥.
func decodeValue(raw json.RawMessage, msgs bool) (model.Value, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return model.Value{}, fmt.Errorf("empty value")
	}
	switch raw[0] {
	case 't', 'f':
		var b bool
		if err := json.Unmarshal(raw, &b); err != nil {
			return model.Value{}, err
		}
		return model.Bool(b), nil
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return model.Value{}, err
		}
		return model.Str(s), nil
	case '[':
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			return model.Value{}, err
		}
		vs, err := decodeList(elems, msgs)
		return model.Seq(vs...), err
	case '{':
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			return model.Value{}, err
		}
		if b, ok := obj["#bigint"]; ok {
			var s string
			if err := json.Unmarshal(b, &s); err != nil {
				return model.Value{}, fmt.Errorf("#bigint: %w", err)
			}
			n, err := strconv.Atoi(s)
			if err != nil {
				return model.Value{}, fmt.Errorf("#bigint %q is not an integer mcheck can hold", s)
			}
			return model.Int(n), nil
		}
		if set, ok := obj["#set"]; ok {
			var elems []json.RawMessage
			if err := json.Unmarshal(set, &elems); err != nil {
				return model.Value{}, fmt.Errorf("#set: %w", err)
			}
			vs, err := decodeList(elems, false)
			return model.Set(vs...), err
		}
		tagRaw, ok := obj["tag"]
		if !ok {
			return model.Value{}, fmt.Errorf("an object that is neither #bigint, #set nor a variant")
		}
		var tag string
		if err := json.Unmarshal(tagRaw, &tag); err != nil {
			return model.Value{}, fmt.Errorf("tag: %w", err)
		}
		var val struct {
			Tup []json.RawMessage `json:"#tup"`
		}
		if v, ok := obj["value"]; ok {
			if err := json.Unmarshal(v, &val); err != nil {
				return model.Value{}, fmt.Errorf("variant %s: %w", tag, err)
			}
		}
		args, err := decodeList(val.Tup, false)
		if err != nil {
			return model.Value{}, err
		}
		if !msgs && tag == "None" && len(args) == 0 {
			return model.None(), nil
		}
		return model.Msg(tag, args...), nil
	}
	var n int
	if err := json.Unmarshal(raw, &n); err != nil {
		return model.Value{}, fmt.Errorf("not an ITF value: %s", raw)
	}
	return model.Int(n), nil
}

func decodeList(raws []json.RawMessage, msgs bool) ([]model.Value, error) {
	var vs []model.Value
	for _, r := range raws {
		v, err := decodeValue(r, msgs)
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
	}
	return vs, nil
}
