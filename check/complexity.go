package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/trace"
	"github.com/mcheck/mcheck/ts"
)

// Complexity is what a check with Request.Complexity measured
// (semantics.md section 5): message counts over all complete runs, and the
// synchronous schedule.
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
	// SyncBlocked is the label of the step the channel bound refused when
	// the schedule stopped at it (Sync.Overflow), else "".
	SyncBlocked string
}

// Witness names: "min" and "max" (total), "min:TYPE", "max:TYPE",
// "min:lost", "max:lost", and "sync".
func (c *Complexity) WitnessNames() []string {
	var names []string
	if c.Measures != nil && c.Measures.CompleteRuns {
		figs, _ := c.Measures.Figures()
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

// Witness returns the run a witness name stands for.
func (c *Complexity) Witness(name string) (*explore.Trace, error) {
	if name == "sync" && c.HasSync {
		return c.SyncTrace, nil
	}
	extreme, fig, _ := strings.Cut(name, ":")
	if fig == "" {
		fig = "total"
	}
	if c.Measures != nil && c.Measures.CompleteRuns && (extreme == "min" || extreme == "max") {
		names, figs := c.Measures.Figures()
		if i := slices.Index(names, fig); i >= 0 {
			if extreme == "min" {
				return &figs[i].MinRun, nil
			}
			return &figs[i].MaxRun, nil
		}
	}
	return nil, fmt.Errorf("no witness %q: use one of %s", name, strings.Join(c.WitnessNames(), ", "))
}

// WitnessFile is the witness as a trace file (for charts and --trace-out).
func (r *Report) WitnessFile(name string) (*trace.File, error) {
	t, err := r.Complexity.Witness(name)
	if err != nil {
		return nil, err
	}
	kind, summary := cex.Witness, ""
	if t.CycleStart >= 0 {
		kind = cex.Lasso
	}
	if c := r.Complexity; name == "sync" && c.Sync.Overflow {
		summary = fmt.Sprintf("the synchronous schedule stopped at the channel bound in round %d, before %s", c.Sync.Rounds-1, c.SyncBlocked)
	}
	return trace.New(r.Algo, r.Config, "messages."+name, kind, summary, t, r.Expander), nil
}

// measureComplexity fills r.Complexity from a search run with
// explore.Options.Measure.
func (r *Report) measureComplexity(sys model.System, res *explore.Result) {
	c := &Complexity{Measures: res.Measures, Skipped: res.MeasuresSkipped, Types: []string{"MSG"}}
	if m, ok := sys.(model.Messenger); ok {
		c.Types = m.MsgTypes()
	}
	if k, ok := sys.(interface{ Synchronous() model.SyncRun }); ok {
		c.HasSync, c.Sync = true, k.Synchronous()
		t := &explore.Trace{CycleStart: -1, Steps: []explore.Step{{State: c.Sync.Initial}}}
		for _, s := range c.Sync.Steps {
			prev := t.Final().State
			a := ts.Action(s.Action)
			t.Steps = append(t.Steps, explore.Step{Action: a, Label: r.Expander.Label(prev, a), State: s.State, Sent: s.Sent})
		}
		c.SyncTrace = t
		if c.Sync.Overflow {
			c.SyncBlocked = r.Expander.Label(t.Final().State, ts.Action(c.Sync.Blocked))
		}
	}
	r.Complexity = c
}
