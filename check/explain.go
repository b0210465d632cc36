package check

import (
	"fmt"
	"slices"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// summary is the one-line explanation of counterexample t of checked
// property i, of the given kind (cex.Invariant, ...).
func (r *Report) summary(i int, kind cex.Kind, t *explore.Trace) string {
	var ev model.Evidence
	switch kind {
	case cex.FairCycle:
		ev = model.Evidence{Steps: t.CycleStart, State: t.Steps[t.CycleStart].State, Cycle: r.explainCycle(t)}
	case cex.Stuck:
		ev = model.Evidence{Steps: len(t.Steps) - 1, State: t.Final().State, Stuck: true}
	default:
		ev = r.evidence(t, kind == cex.Step)
	}
	if t.Premise != nil {
		ev.PremiseStep, ev.Premise = *t.Premise, t.Steps[*t.Premise].State
	}
	return r.sys.Explain(i, ev)
}

// Summary explains a counterexample file in one line as the check that
// found it did (Verdict.Summary), from the run the file replays as: what
// replay shows of a file comes from the model, never from the file's own
// text. f must replay (trace.Replayed); a witness run has no summary.
func Summary(spec specs.Spec, f *trace.File) (string, error) {
	if !f.ClaimsProperty() {
		return "", nil
	}
	cfg, err := f.Config.Model()
	if err != nil {
		return "", err
	}
	sys, err := spec.Build.System(cfg, []string{f.Property}, f.KernelOptions()...)
	if err != nil {
		return "", err
	}
	ps, ok := sys.(model.PropertySystem)
	if !ok {
		return "", fmt.Errorf("%s: the system does not describe its properties", spec.Name)
	}
	i := slices.IndexFunc(ps.Properties(), func(p model.PropertyInfo) bool { return p.Name == f.Property })
	if i < 0 {
		return "", fmt.Errorf("%s does not check %s", spec.Name, f.Property)
	}
	exp, err := model.ExpanderOf(sys)
	if err != nil {
		return "", err
	}
	t, err := trace.Run(sys, f)
	if err != nil {
		return "", err
	}
	r := &Report{Algo: spec.Name, Expander: exp, sys: ps}
	return r.summary(i, f.Kind, t), nil
}
