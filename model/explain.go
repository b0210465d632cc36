package model

import (
	"cmp"
	"fmt"

	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/ts"
)

// Explain implements PropertySystem: it decodes the states of ev and asks
// property i's Explain, or says generically what fails.
func (k *Kernel[L, M]) Explain(i int, ev Evidence) string {
	p := &k.props[i]
	e := k.newExpander()
	f := &Failure[L, M]{Steps: ev.Steps, Action: ev.Action, Stuck: ev.Stuck, Cycle: ev.Cycle, PremiseStep: ev.PremiseStep}
	var after, before, premise world[L, M]
	k.initWorld(&after)
	if err := e.decode(ev.State, &after, nil); err != nil {
		return fmt.Sprintf("%s fails (the state does not decode: %v)", p.Name, err)
	}
	f.State = &View[L, M]{k: k, w: &after}
	if ev.Before != nil {
		k.initWorld(&before)
		if err := e.decode(ev.Before, &before, nil); err != nil {
			return fmt.Sprintf("%s fails (the state does not decode: %v)", p.Name, err)
		}
		f.Before = &View[L, M]{k: k, w: &before}
		f.Label = e.Label(ev.Before, ts.Action(ev.Action))
	}
	if ev.Premise != nil {
		k.initWorld(&premise)
		if err := e.decode(ev.Premise, &premise, nil); err != nil {
			return fmt.Sprintf("%s fails (the state does not decode: %v)", p.Name, err)
		}
		f.Premise = &View[L, M]{k: k, w: &premise}
	}
	if p.Explain != nil {
		return p.Explain(f)
	}
	return genericExplanation(p.Info(), f.Steps, f.Label, ev)
}

func genericExplanation(p PropertyInfo, steps int, label string, ev Evidence) string {
	what := p.Name
	if p.Doc != "" {
		what += " (" + p.Doc + ")"
	}
	from := ""
	if p.Kind == LeadsTo {
		from = fmt.Sprintf("after step %d %s holds; then ", ev.PremiseStep, cmp.Or(p.FromName, "its premise"))
	}
	switch {
	case p.Kind == Sometimes:
		return fmt.Sprintf("after %s %s holds", plural.Count(steps, "step"), what)
	case p.Kind == LeadsTo && ev.Cycle != nil:
		return fmt.Sprintf("%sa fair cycle of %s repeats forever, and %s is never reached", from, plural.Count(ev.Cycle.Steps, "step"), what)
	case p.Kind == LeadsTo:
		return fmt.Sprintf("%sstuck after %s (no fair step is enabled), and %s is never reached", from, plural.Count(steps, "step"), what)
	case ev.Cycle != nil:
		return fmt.Sprintf("a fair cycle of %s repeats forever through a state where %s does not hold", plural.Count(ev.Cycle.Steps, "step"), what)
	case ev.Stuck:
		return fmt.Sprintf("stuck after %s: no fair step is enabled, and %s does not hold", plural.Count(steps, "step"), what)
	case ev.Before != nil:
		return fmt.Sprintf("step %d, %s, breaks %s", steps, label, what)
	}
	return fmt.Sprintf("after %s %s does not hold", plural.Count(steps, "step"), what)
}
