package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
	"github.com/mcheck/mcheck/ts"
)

// Complexity is what a check with Request.Complexity measured
// (docs/semantics.md section 5): message counts over all complete runs, and the
// synchronous schedule; in a timed mode (section 6) also the time of the
// complete runs in ticks (Measures.Time).
type Complexity struct {
	// Measures is nil when the search could not give them; Skipped says why.
	Measures *explore.Measures
	Skipped  string
	// Types names the message types (indices of model.Sends.ByType).
	Types []string
	// Sync is the synchronous schedule; SyncTrace is it as a trace (for
	// printing and charts). HasSync is false for systems without one.
	HasSync   bool
	Sync      model.SyncRun
	SyncTrace *explore.Trace
	// SyncConfig is the configuration the schedule is played on: the
	// check's, or in a timed mode its asynchronous model (section 6: D, T
	// and T2 play no part); syncExpander renders that model's states.
	SyncConfig   model.Config
	syncExpander model.Expander
	// SyncBlocked is the label of the step the channel bound refused when
	// the schedule stopped at it (Sync.Overflow), else "".
	SyncBlocked string
}

// The witness names: "min" and "max" (the messages' total), "min:TYPE",
// "max:TYPE", "min:lost", "max:lost", in a timed mode "min:time" and
// "max:time" (ticks), and "sync".
const timeFigure = "time"

// WitnessNamesOf lists the witness names a check of spec under cfg with
// Complexity can give (Complexity.WitnessNames after the search), known
// before it: the figures of the system's message types, time in a timed
// mode, and the synchronous schedule when the system plays one. An error
// when the system cannot be built (Run reports it the same way).
func WitnessNamesOf(spec specs.Spec, cfg model.Config) ([]string, error) {
	sys, err := spec.Build.System(cfg, nil)
	if err != nil {
		return nil, err
	}
	types := []string{"MSG"}
	if m, ok := sys.(model.Messenger); ok {
		types = m.MsgTypes()
	}
	_, hasSync := sys.(model.Synchronizer)
	c := Complexity{
		Measures: &explore.Measures{Types: types, ByType: make([]explore.Figure, len(types)), CompleteRuns: true},
		HasSync:  hasSync,
	}
	if cfg.Timed() {
		c.Measures.Time = &explore.Figure{}
	}
	return c.WitnessNames(), nil
}

// WitnessNames lists the runs a witness name can stand for.
func (c *Complexity) WitnessNames() []string {
	var names []string
	if m := c.Measures; m != nil && m.CompleteRuns {
		figs, _ := m.Figures()
		if m.Time != nil {
			figs = append(figs, timeFigure)
		}
		for _, f := range figs {
			if f == "total" {
				names = append(names, "min", "max")
			} else {
				names = append(names, "min:"+f, "max:"+f)
			}
		}
	}
	if c.HasSync {
		names = append(names, "sync")
	}
	return names
}

// figure is the figure a witness name stands for, and whether the name is
// its minimum.
func (c *Complexity) figure(name string) (*explore.Figure, bool) {
	m := c.Measures
	extreme, fig, _ := strings.Cut(name, ":")
	if m == nil || !m.CompleteRuns || extreme != "min" && extreme != "max" {
		return nil, false
	}
	f := (*explore.Figure)(nil)
	if names, figs := m.Figures(); fig == "" {
		f = figs[0]
	} else if i := slices.Index(names, fig); i > 0 {
		f = figs[i]
	} else if fig == timeFigure {
		f = m.Time
	}
	return f, extreme == "min"
}

// Witness returns the run a witness name stands for.
func (c *Complexity) Witness(name string) (*explore.Trace, error) {
	if name == "sync" && c.HasSync {
		return c.SyncTrace, nil
	}
	if f, isMin := c.figure(name); f != nil {
		if isMin {
			return &f.MinRun, nil
		}
		return &f.MaxRun, nil
	}
	return nil, fmt.Errorf("no witness %q: use one of %s", name, strings.Join(c.WitnessNames(), ", "))
}

// WitnessProperty is what a witness's trace file is about, the measure as
// section 5 and 6 name it: "messages.max", "messages.min:ELECTION",
// "time.max", "messages.sync".
func WitnessProperty(name string) string {
	if extreme, fig, _ := strings.Cut(name, ":"); fig == timeFigure {
		return "time." + extreme
	}
	return "messages." + name
}

// WitnessFile is the witness as a trace file (for charts and --trace-out).
func (r *Report) WitnessFile(name string) (*trace.File, error) {
	c := r.Complexity
	t, err := c.Witness(name)
	if err != nil {
		return nil, err
	}
	kind, summary := cex.Witness, ""
	if t.CycleStart >= 0 {
		kind = cex.Lasso
	}
	cfg, exp := r.Config, r.Expander
	if name == "sync" {
		cfg, exp = c.SyncConfig, c.syncExpander
		if c.Sync.Overflow {
			summary = fmt.Sprintf("the synchronous schedule stopped at the channel bound in round %d, before %s", c.Sync.Rounds-1, c.SyncBlocked)
		}
	}
	return trace.New(r.Algo, cfg, WitnessProperty(name), kind, summary, t, exp), nil
}

// asynchronous is cfg's asynchronous model: the same configuration
// without time. The detectors that need a clock (eventual, heartbeat)
// become the perfect one: the schedule is the same for every detector
// (docs/semantics.md section 6.5).
func asynchronous(cfg model.Config) model.Config {
	cfg.Timing, cfg.Delay, cfg.Timeout, cfg.TimeoutCoord = model.Async, 0, 0, 0
	if cfg.Detector == model.Eventual || cfg.Detector == model.Heartbeat {
		cfg.Detector, cfg.FalseSuspicions, cfg.HeartbeatPeriod, cfg.HeartbeatTimeout = model.Perfect, 0, 0, 0
	}
	return cfg
}

// measureComplexity fills r.Complexity from a search of sys run with
// explore.Options.Measure. The synchronous schedule is played on the
// asynchronous model of req's configuration (section 6), which in a timed
// mode is another system than sys.
func (r *Report) measureComplexity(req Request, sys model.System, res *explore.Result) error {
	c := &Complexity{Measures: res.Measures, Skipped: res.MeasuresSkipped, Types: []string{"MSG"}}
	if m, ok := sys.(model.Messenger); ok {
		c.Types = m.MsgTypes()
	}
	r.Complexity = c
	async, exp := sys, r.Expander
	if req.Config.Timed() {
		var err error
		if async, err = req.Spec.Build.System(asynchronous(req.Config), nil); err != nil {
			return fmt.Errorf("the asynchronous model of the synchronous schedule: %w", err)
		}
		if exp, err = model.ExpanderOf(async); err != nil {
			return err
		}
	}
	k, ok := async.(interface {
		model.Synchronizer
		model.Configured
	})
	if !ok {
		return nil
	}
	c.HasSync, c.Sync, c.SyncConfig, c.syncExpander = true, k.Synchronous(), k.Config(), exp
	t := &explore.Trace{CycleStart: -1, Steps: []explore.Step{{State: c.Sync.Initial}}}
	for _, s := range c.Sync.Steps {
		prev := t.Final().State
		a := ts.Action(s.Action)
		t.Steps = append(t.Steps, explore.Step{Action: a, Label: exp.Label(prev, a), State: s.State, Sent: s.Sent})
	}
	c.SyncTrace = t
	if c.Sync.Overflow {
		c.SyncBlocked = exp.Label(t.Final().State, ts.Action(c.Sync.Blocked))
	}
	return nil
}
