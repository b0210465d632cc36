package webui

// The adapter: the one file of this package that reads the model, check,
// trace and msc packages. The rest of the package speaks the JSON types of
// api.go, so that when steps and traces become structured data only this
// file changes. Steps and states are data here (model.StepInfo,
// model.Value); labels and texts are rendered from them, never read back.

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/msc"
	"github.com/mcheck/mcheck/properties"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
	"github.com/mcheck/mcheck/ts"
)

// Model is a configuration to explore: an algorithm and its model
// configuration, as the command line gives them.
type Model struct {
	Spec   specs.Spec
	Config model.Config
	// Sends, when set, is how far the states count the sends since the
	// initial state (0: not at all), as those of a trace file did
	// (trace.File.SendCap); nil: as the Check button's check counts them,
	// for the properties it checks that read them. The counts are part of
	// the state, so a trace's path replays only with its own.
	Sends *int
	// SendTypes, with Sends, are the message types the states count the
	// sends of (a trace of properties that count some types only,
	// model.Property.CountTypes); nil: every type.
	SendTypes []string
}

// MaxProperties is how many properties the explorer evaluates in a state
// (the kernel's limit of one system): an algorithm with more is refused.
const MaxProperties = ts.MaxPredicates

// checkSends is how far the Check button's check counts the sends: the
// largest CountSends of the properties it checks (those "all" names).
func checkSends(spec specs.Spec) (int, error) {
	all := spec.Build.Properties()
	names, err := properties.Select(all, "all")
	if err != nil {
		return 0, err
	}
	c := 0
	for _, p := range all {
		if slices.Contains(names, p.Name) {
			c = max(c, p.CountSends)
		}
	}
	return c, nil
}

// sendsOf is how far m's states count the sends.
func sendsOf(m Model) (int, error) {
	if m.Sends != nil {
		return *m.Sends, nil
	}
	return checkSends(m.Spec)
}

// ModelOf is the model a trace file was found under. For a trace of every
// arrangement of the IDs (Perm), it is the arrangement the trace starts
// in: the explorer walks from one initial state.
func ModelOf(f *trace.File, reg *specs.Registry) (Model, error) {
	spec, err := reg.Lookup(f.Config.Algo)
	if err != nil {
		return Model{}, err
	}
	cfg, err := f.Config.Model()
	if err != nil {
		return Model{}, err
	}
	if cfg.Perm && len(f.Steps) > 0 {
		cfg.Perm, cfg.IDs = false, nil
		for _, p := range f.Steps[0].State.Processes {
			cfg.IDs = append(cfg.IDs, p.ID)
		}
	}
	m := Model{Spec: spec, Config: cfg}
	// The trace's states count the sends as the check that found it did,
	// which need not be the Check button's (replay builds its system so).
	def, err := checkSends(spec)
	if err != nil {
		return Model{}, err
	}
	if c, types := f.SendCap(), f.SendTypes(); c != def || types != nil {
		m.Sends, m.SendTypes = &c, types
	}
	return m, nil
}

// arrangementNote says which arrangement of the IDs a trace of every
// arrangement is shown in (ModelOf).
func arrangementNote(start Model) string {
	return "; shown in the arrangement it starts in, IDs " + model.IDList(start.Config.IDs) + " (the page walks one)"
}

// session is one model built for one request; not shared between
// goroutines (the expander holds scratch memory).
type session struct {
	m     Model
	sys   model.System
	exp   model.Expander
	cfg   model.Config         // with defaults filled in
	props []model.PropertyInfo // predicate i is props[i]
}

// open builds m's system with every property its states can evaluate:
// one that reads the sends further than they are counted cannot be.
func open(m Model) (*session, error) {
	sends, err := sendsOf(m)
	if err != nil {
		return nil, err
	}
	var props []model.PropertyInfo
	for _, p := range m.Spec.Build.Properties() {
		if p.CountSends <= sends {
			props = append(props, p)
		}
	}
	if len(props) > MaxProperties {
		return nil, fmt.Errorf("%s has %d properties, and the explorer evaluates at most %d in a state: check it with the command, which checks the properties it is given", m.Spec.Name, len(props), MaxProperties)
	}
	names := make([]string, len(props))
	for i, p := range props {
		names[i] = p.Name
	}
	var opts []model.Option
	if sends > 0 {
		opts = append(opts, model.WithSendCountsOf(sends, m.SendTypes...))
	}
	sys, err := m.Spec.Build.System(m.Config, names, opts...)
	if err != nil {
		return nil, err
	}
	exp, err := model.ExpanderOf(sys)
	if err != nil {
		return nil, err
	}
	s := &session{m: m, sys: sys, exp: exp, cfg: m.Config.WithDefaults(), props: props}
	if k, ok := sys.(model.Configured); ok {
		s.cfg = k.Config()
	}
	return s, nil
}

// walk is a path replayed from the initial state: the state after each
// step (states[0] is the initial state) and the step that led there.
type walk struct {
	states  [][]byte
	actions []ts.Action // actions[i]: the step into states[i]; actions[0] unused
	steps   []model.StepInfo
	index   []int // index[i]: the place of steps[i] among the steps enabled before it
	fair    []bool
}

// pathError is a step index that names no enabled step.
type pathError struct{ step, index, enabled int }

func (e *pathError) Error() string {
	return fmt.Sprintf("step %d of the path is index %d, but only %d steps are enabled there (0..%d)", e.step, e.index, e.enabled, e.enabled-1)
}

func (s *session) initial() ([]byte, error) {
	var b model.Batch
	s.exp.Initial(&b)
	if len(b.Succs) != 1 {
		return nil, fmt.Errorf("the model has %d initial states, want 1", len(b.Succs))
	}
	return slices.Clone(b.State(0)), nil
}

// walk replays path, the index of the chosen step in each state.
func (s *session) walk(path []int) (*walk, error) {
	init, err := s.initial()
	if err != nil {
		return nil, err
	}
	w := &walk{states: [][]byte{init}, actions: []ts.Action{0}, steps: []model.StepInfo{{}}, index: []int{0}, fair: []bool{false}}
	var b model.Batch
	for i, idx := range path {
		prev := w.states[i]
		s.exp.Expand(prev, &b)
		if idx < 0 || idx >= len(b.Succs) {
			return nil, &pathError{step: i + 1, index: idx, enabled: len(b.Succs)}
		}
		w.push(s.exp, prev, &b, idx)
	}
	return w, nil
}

func (w *walk) push(exp model.Expander, prev []byte, b *model.Batch, idx int) {
	succ := b.Succs[idx]
	w.states = append(w.states, slices.Clone(b.State(idx)))
	w.actions = append(w.actions, succ.Action)
	w.steps = append(w.steps, exp.Step(prev, succ.Action))
	w.index = append(w.index, idx)
	w.fair = append(w.fair, succ.Fair != model.NoFairness)
}

// checkCycle: a lasso's last state must be the state its cycle starts at.
func (w *walk) checkCycle(cycle int) error {
	last := len(w.states) - 1
	if cycle < 0 || cycle >= last {
		return fmt.Errorf("cycle %d is outside the steps 0..%d of the path", cycle, last-1)
	}
	if !bytes.Equal(w.states[cycle], w.states[last]) {
		return fmt.Errorf("the path does not return to the state of step %d at its end, so it has no cycle there", cycle)
	}
	return nil
}

// stepOf is a step for the page: its data, and its label rendered from it.
func stepOf(index int, info model.StepInfo, fair bool) Step {
	return Step{Index: index, Label: info.String(), Fair: fair, StepInfo: info}
}

// counterexample is what a URL says the path is: a counterexample of
// property, of kind kind ("" for a path walked by hand).
// counterexample is what a path is a counterexample (or an example) of:
// the property, the kind, and for a leads-to the step where its premise
// holds.
type counterexample struct {
	property string
	kind     cex.Kind
	premise  *int
}

// view renders the state after step at of w, the steps enabled there, and
// the whole path as a chart, titled with the property cx names.
func (s *session) view(w *walk, at int, cycle *int, cx counterexample) View {
	v := View{At: at, Cycle: cycle, Property: cx.property, Kind: cx.kind, Premise: cx.premise, History: []Step{}, Steps: []Step{}}
	f := s.file(w, cycle, cx)
	times := f.Times()
	for i := 1; i < len(w.states); i++ {
		st := stepOf(w.index[i], w.steps[i], w.fair[i])
		if s.cfg.Timed() {
			st.Time = &times[i]
		}
		v.History = append(v.History, st)
	}
	cur := f.Steps[at].State
	var prev *model.Snapshot
	if at > 0 {
		prev = &f.Steps[at-1].State
	}
	v.Processes, v.Channels, v.Counters = stateOf(cur, prev)
	if s.cfg.Timed() {
		// The time is the run's, not the state's: the ticks so far.
		v.Counters = append(v.Counters, valueOf("time", model.Int(times[at]), at > 0 && times[at] != times[at-1]))
	}

	var b model.Batch
	s.exp.Expand(w.states[at], &b)
	v.Quiescent = b.Quiescent()
	for i, succ := range b.Succs {
		fair := succ.Fair != model.NoFairness
		st := stepOf(i, s.exp.Step(w.states[at], succ.Action), fair)
		for j, p := range s.props {
			if p.Kind == model.StepProperty && succ.Props&(1<<j) == 0 {
				st.Violates = append(st.Violates, p.Name)
			}
		}
		v.Steps = append(v.Steps, st)
	}
	v.Discarded = b.Discarded
	infos := s.sys.(model.PropertySystem).Properties()
	shown := func(name string) bool {
		return slices.ContainsFunc(v.Properties, func(p Property) bool { return p.Name == name })
	}
	for i, p := range s.props {
		if p.Kind == model.StepProperty || p.Quiet {
			continue // a Quiet goal is the page's quiescent line, and more
		}
		// For an eventually-always or a leads-to property the bit is its
		// goal (Stable of the standard liveness property): whether this
		// state is one it must reach; each such predicate is shown once.
		name := p.Name
		if p.Kind == model.EventuallyAlways || p.Kind == model.LeadsTo {
			name = cmp.Or(p.Goal, "the goal of "+p.Name)
		}
		holds := b.Props&(1<<i) != 0
		if !shown(name) {
			v.Properties = append(v.Properties, Property{Name: name, Kind: p.Kind.String(), Holds: holds})
		}
		q := &v.Properties[slices.IndexFunc(v.Properties, func(q Property) bool { return q.Name == name })]
		if p.Kind != model.Invariant {
			q.Of = append(q.Of, p.Name)
		}
		// An invariant that does not hold is a violation in any state; so
		// is an eventually-always goal in a quiescent state (stuck outside
		// it: no fair step can reach it). Any goal is one where the path
		// shown is the counterexample of its property and has reached the
		// part of it that never leaves the goal's complement (a lasso's
		// cycle, the state a run is stuck in). Elsewhere a goal not (yet)
		// reached is no violation.
		violating := p.Kind == model.Invariant || p.Kind == model.EventuallyAlways && v.Quiescent ||
			p.Name == cx.property && cx.kind != cex.Example && (cycle != nil && at >= *cycle || cycle == nil && at == len(w.states)-1)
		if !holds && violating {
			q.Violated = true
		}
		if p.Kind == model.LeadsTo && p.Name == cx.property && i < len(infos) {
			// The premise of the leads-to the path is a counterexample of.
			name := cmp.Or(p.FromName, "the premise of "+p.Name)
			v.Properties = append(v.Properties, Property{Name: name, Kind: model.Premise.String(), Holds: b.Props&(1<<infos[i].Premise) != 0, Of: []string{p.Name}})
		}
	}
	v.Chart, v.ChartNote = chart(f)
	return v
}

// stateOf lays a snapshot out for the page, marking what changed since prev.
func stateOf(cur model.Snapshot, prev *model.Snapshot) ([]Process, []Channel, []Value) {
	var procs []Process
	for i, p := range cur.Processes {
		var old *model.ProcessSnapshot
		if prev != nil && i < len(prev.Processes) {
			old = &prev.Processes[i]
		}
		pr := Process{Name: p.Name(), ID: p.ID, Alive: p.Alive, AliveChanged: old != nil && old.Alive != p.Alive}
		for _, f := range p.Fields {
			changed := false
			if old != nil {
				was, ok := old.Field(f.Name)
				changed = !ok || !was.Equal(f.Value)
			}
			pr.Fields = append(pr.Fields, valueOf(f.Name, f.Value, changed))
		}
		if p.Timer != nil {
			t := valueOf("timer", *p.Timer, old != nil && (old.Timer == nil || !old.Timer.Equal(*p.Timer)))
			pr.Timer = &t
		}
		procs = append(procs, pr)
	}
	find := func(s *model.Snapshot, from, to int) (model.ChannelSnapshot, bool) {
		if s == nil {
			return model.ChannelSnapshot{}, false
		}
		j := slices.IndexFunc(s.Channels, func(c model.ChannelSnapshot) bool { return c.From == from && c.To == to })
		if j < 0 {
			return model.ChannelSnapshot{}, false
		}
		return s.Channels[j], true
	}
	chans := []Channel{}
	for _, c := range cur.Channels {
		old, _ := find(prev, c.From, c.To)
		changed := prev != nil && (!model.Seq(old.Messages...).Equal(model.Seq(c.Messages...)) || !slices.Equal(old.Ages, c.Ages))
		chans = append(chans, channelOf(c, changed))
	}
	if prev != nil {
		// A channel the last step emptied is shown empty and changed.
		for _, c := range prev.Channels {
			if _, ok := find(&cur, c.From, c.To); !ok {
				c.Messages, c.Ages = nil, nil
				chans = append(chans, channelOf(c, true))
			}
		}
	}
	counter := func(name string, v, old int) Value {
		return valueOf(name, model.Int(v), prev != nil && v != old)
	}
	var oc, or int
	if prev != nil {
		oc, or = prev.Crashes, prev.Restarts
	}
	counters := []Value{counter("crashes", cur.Crashes, oc), counter("restarts", cur.Restarts, or)}
	if cur.GST != nil {
		counters = append(counters, valueOf("gst", model.Bool(*cur.GST), prev != nil && prev.GST != nil && *prev.GST != *cur.GST))
	}
	return procs, chans, counters
}

func valueOf(name string, v model.Value, changed bool) Value {
	return Value{Name: name, Value: v, Text: v.String(), Changed: changed}
}

// channelOf lays a channel out, each message with its age in a timed run
// (as the text report writes it: "OK(3)@1").
func channelOf(ch model.ChannelSnapshot, changed bool) Channel {
	c := Channel{From: ch.From, To: ch.To, FromName: model.ProcName(ch.From), ToName: model.ProcName(ch.To), Messages: []model.Value{}, Text: []string{}, Ages: ch.Ages, Changed: changed}
	for i, m := range ch.Messages {
		c.Messages = append(c.Messages, m)
		text := m.String()
		if i < len(ch.Ages) {
			text = model.AgedText(text, ch.Ages[i])
		}
		c.Text = append(c.Text, text)
	}
	return c
}

// file is the path of w as a trace file; cx names its property, if any.
func (s *session) file(w *walk, cycle *int, cx counterexample) *trace.File {
	t := &explore.Trace{CycleStart: -1, Premise: cx.premise}
	if cycle != nil {
		t.CycleStart = *cycle
	}
	for i, st := range w.states {
		t.Steps = append(t.Steps, explore.Step{Action: w.actions[i], State: st})
	}
	kind := cx.kind
	if kind == 0 && cycle != nil {
		kind = cex.FairCycle // the chart names a walked lasso too
	}
	return trace.New(s.m.Spec.Name, s.cfg, cx.property, kind, "", t, s.exp)
}

// verify checks that w is what the URL says: a counterexample of cx's
// property, as trace.Verify checks a trace file.
func (s *session) verify(w *walk, cycle *int, cx counterexample) error {
	f := s.file(w, cycle, cx)
	if err := f.Validate(); err != nil {
		return err
	}
	if err := f.CheckProperty(s.props); err != nil {
		return err
	}
	return trace.Verify(s.sys, f)
}

// maxChartSteps bounds the paths drawn: the chart's layout grows faster
// than the path.
const maxChartSteps = 600

// chart draws the path, as a trace file (session.file), with the code of
// --msc, titled with its property when it is its counterexample.
func chart(f *trace.File) (svg, note string) {
	if len(f.Steps)-1 > maxChartSteps {
		return "", fmt.Sprintf("no chart: the path has %s, charts are drawn up to %d", plural.Count(len(f.Steps)-1, "step"), maxChartSteps)
	}
	var b strings.Builder
	if err := msc.SVG(&b, f); err != nil {
		return "", "no chart: " + err.Error()
	}
	return b.String(), ""
}

// random extends w from step at with a run of the simulation (explore.Walk,
// the uniform scheduler seeded with seed): to a state with no fair step
// enabled, taking one (unfair) step first if the walk starts in one, so
// that the button does something when a step is enabled; or to a
// violation, a fair cycle, or limit steps in all. Every state and step of
// the path and the walk is checked. It returns the new path, the
// counterexample it ends in (with a lasso's cycle), if any, and, unless it
// ended in a quiescent state, why not.
func (s *session) random(w *walk, path []int, at int, seed uint64, limit int) ([]int, *int, counterexample, string) {
	path = slices.Clone(path[:at])
	w.states, w.actions, w.steps, w.index, w.fair = w.states[:at+1], w.actions[:at+1], w.steps[:at+1], w.index[:at+1], w.fair[:at+1]
	var opt explore.WalkOptions
	var goals []int
	for i, p := range s.props {
		if p.Optional {
			continue // as the Check button: the properties "all" names
		}
		switch p.Kind {
		case model.Invariant:
			opt.Invariants = append(opt.Invariants, i)
		case model.StepProperty:
			opt.Steps = append(opt.Steps, i)
		case model.EventuallyAlways:
			goals = append(goals, i)
		}
	}
	if len(goals) > 0 {
		opt.Goal = explore.GoalOf(goals...)
	}
	opt.Depth = limit - at
	res, err := explore.Walk(s.sys, opt, w.actions[1:], seed)
	if err != nil {
		return path, nil, counterexample{}, "no random run: " + err.Error()
	}
	var b model.Batch
	for _, a := range res.Actions {
		cur := w.states[len(w.states)-1]
		s.exp.Expand(cur, &b)
		idx := slices.IndexFunc(b.Succs, func(x model.Succ) bool { return x.Action == a })
		w.push(s.exp, cur, &b, idx)
		path = append(path, idx)
	}
	switch res.End {
	case explore.EndViolation:
		v := res.Violations[0]
		cx := counterexample{property: s.props[v.Predicate].Name, kind: v.Kind}
		if res.At < at {
			return path, nil, counterexample{}, fmt.Sprintf("the path violates %s at step %d already (%s)", cx.property, res.At, cx.kind)
		}
		var cycle *int
		if v.Kind == cex.FairCycle {
			cycle = &v.CycleStart
		}
		note := fmt.Sprintf("the run violates %s (%s) at step %d", cx.property, cx.kind, res.At)
		if v.Bounded {
			note += ", for the bounded model only: the channel bound cut a fair step of it"
		}
		return path, cycle, cx, note
	case explore.EndStuck:
		s.exp.Expand(w.states[len(w.states)-1], &b)
		return path, nil, counterexample{}, fmt.Sprintf("the run stopped where the channel bound cut off %s and no fair step is left: not a quiescent state", plural.Count(b.Discarded, "step"))
	case explore.EndCycle:
		return path, nil, counterexample{}, "the run returned to one of its states on a fair cycle inside every goal: it can go round it for ever"
	case explore.EndDepth:
		return path, nil, counterexample{}, fmt.Sprintf("no quiescent state after %s: the run may go round a cycle for ever (Check finds such cycles)", plural.Count(len(path)-at, "random step"))
	}
	return path, nil, counterexample{}, ""
}

// pathOfFile finds the step indices of a trace file, matching its steps
// as data the way trace.Verify does, and says whether its end violates its
// property (nil) or why not.
func (s *session) pathOfFile(f *trace.File) (path []int, notViolated error, err error) {
	// trace.Read validates; a File built in code may not be (and Verify
	// indexes by its cycle start).
	if err := f.Validate(); err != nil {
		return nil, nil, err
	}
	if path, err = trace.Path(s.sys, f); err != nil {
		return nil, nil, err
	}
	if err := trace.Verify(s.sys, f); err != nil {
		var div *trace.DivergenceError
		if !errors.As(err, &div) || div.Step >= 0 {
			return nil, nil, err
		}
		return path, err, nil
	}
	return path, nil, nil
}

// runCheck is the check of the Check button: every property, until ctx
// ends. The memory budget is shared by the checks that may run at once.
func runCheck(ctx context.Context, m Model, lim Limits, progress func(Progress)) (*Result, error) {
	rep, err := check.Run(check.Request{
		Spec: m.Spec, Config: m.Config, Continue: true,
		MaxStates: lim.MaxStates, MemoryBudget: lim.MemoryBudget / maxRunning, Workers: lim.Workers, Reduce: true,
		Context: ctx, Name: lim.Name,
		Progress: func(p explore.Progress) {
			progress(Progress{States: p.States, Depth: p.Depth, Queue: p.Queue, Seconds: p.Elapsed.Seconds()})
		},
	})
	if err != nil {
		return nil, err
	}
	// The check counts the sends as a model without Sends does: its
	// counterexamples are paths of that model.
	m.Sends, m.SendTypes = nil, nil
	s, err := open(m)
	if err != nil {
		return nil, err
	}
	return s.resultOf(rep)
}

// resultOf turns the check's report into JSON. Each counterexample's
// path is found in its verified trace file, as for a file on disk.
func (s *session) resultOf(rep *check.Report) (*Result, error) {
	res := &Result{Complete: rep.Stats.Complete, Stopped: rep.Stats.Stopped, Proof: string(rep.Proof), Discarded: rep.Stats.Discarded, States: rep.Stats.States}
	if !rep.Stats.Complete && rep.Proof != check.Sampled {
		res.Proof = string(check.Incomplete)
	}
	add := func(f *trace.File, bounded bool) error {
		path, err := trace.Path(s.sys, f)
		if err != nil {
			return fmt.Errorf("internal error: the %s counterexample of %s: %w", f.Kind, f.Property, err)
		}
		res.Counterexamples = append(res.Counterexamples, Counterexample{
			Property: f.Property, Kind: f.Kind, Summary: f.Summary, Bounded: bounded, Path: path, Cycle: f.CycleStart, Premise: f.Premise,
		})
		return nil
	}
	for _, v := range rep.Verdicts {
		res.Verdicts = append(res.Verdicts, Verdict{Name: v.Name, Status: string(v.Status), Summary: v.Summary, Proof: string(v.Proof), Caveat: v.Caveat})
		if v.File != nil {
			if err := add(v.File, v.Bounded); err != nil {
				return nil, err
			}
		}
		for _, a := range v.Also {
			if err := add(a.File, a.Bounded); err != nil {
				return nil, err
			}
		}
	}
	return res, nil
}

// configOf is the configuration as the page shows it.
func (s *session) configOf() trace.Config { return trace.ConfigOf(s.m.Spec.Name, s.cfg) }
