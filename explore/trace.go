package explore

import (
	"fmt"
	"slices"

	"github.com/mcheck/mcheck/ts"
)

// Step is one step of a trace: the action taken (empty Label for the initial
// state) and the state after it.
type Step struct {
	Action ts.Action
	Label  string
	State  []byte
	Props  uint64   // predicates that hold in State
	Sent   ts.Sends // the messages the step sent and lost
}

// Trace is a run from the initial state. CycleStart is the index of the step
// where a lasso's cycle begins (the last step returns to it), or -1.
// Premise, for a leads-to's counterexample, is the index of the step after
// which its From held (the run from there on never reaches its To); nil
// otherwise.
type Trace struct {
	Steps      []Step
	CycleStart int
	Premise    *int
}

// Final is the last step.
func (t *Trace) Final() *Step { return &t.Steps[len(t.Steps)-1] }

// replayFault explains a replay that went another way than the search
// did along tr: a system that can check its own steps (the kernel's
// CheckSteps) is asked about each state of tr, last first, and a step that
// is not a function of its inputs is the algorithm's fault, reported as
// such; otherwise err, mcheck's own, stands.
func replayFault(sys ts.System, tr *Trace, err error) error {
	c, ok := sys.(ts.StepChecker)
	if !ok {
		return err
	}
	for i := len(tr.Steps) - 1; i >= 0; i-- {
		if fault := c.CheckSteps(tr.Steps[i].State); fault != nil {
			return fault
		}
	}
	return err
}

// trace rebuilds the shortest path to state idx by replaying the recorded
// actions from the initial state through the transition function, checking
// at each step that the successor is the state the search stored.
func (s *search) trace(idx uint32) (Trace, error) {
	var path []uint32
	var via []ts.Action
	for i := idx; i != noParent; {
		parent, a, err := s.front.links.get(i)
		if err != nil {
			return Trace{}, err
		}
		path, via = append(path, i), append(via, a)
		if len(path) > s.front.links.n {
			return Trace{}, fmt.Errorf("internal error: the parent links of state %d loop", idx)
		}
		i = parent
	}
	slices.Reverse(path)
	slices.Reverse(via)
	exp := s.sys.NewExpander()
	var b ts.Batch
	exp.Initial(&b)
	// Initial states are told apart by their action (an arrangement of
	// IDs) and, where the table knows, by their index.
	j0 := -1
	for j := range b.Succs {
		if x := &b.Succs[j]; x.Action == via[0] {
			if s.visited.isState(x.FP, b.State(j), path[0]) {
				j0 = j
				break
			}
		}
	}
	if j0 < 0 {
		return Trace{}, fmt.Errorf("internal error: no initial state %d among %d", path[0], len(b.Succs))
	}
	steps := []Step{{State: slices.Clone(b.State(j0)), Props: b.Succs[j0].Props}}
	for k, i := range path[1:] {
		a := via[k+1]
		prev := steps[len(steps)-1].State
		exp.Expand(prev, &b)
		j := slices.IndexFunc(b.Succs, func(x ts.Succ) bool { return x.Action == a })
		if j < 0 {
			return Trace{}, replayFault(s.sys, &Trace{Steps: steps}, fmt.Errorf("internal error: replay: action %#x not enabled", uint32(a)))
		}
		if !s.visited.isState(b.Succs[j].FP, b.State(j), i) {
			return Trace{}, replayFault(s.sys, &Trace{Steps: steps}, fmt.Errorf("internal error: replay reached another state than the search"))
		}
		steps = append(steps, Step{
			Action: a, Label: exp.Label(prev, a),
			State: slices.Clone(b.State(j)), Props: b.Succs[j].Props, Sent: b.Succs[j].Sent,
		})
	}
	return Trace{Steps: steps, CycleStart: -1}, nil
}

// stepTrace is the shortest trace to the state at.src followed by the step
// at.action, which must violate step predicate p.
func (s *search) stepTrace(at stepAt, p int) (Trace, error) {
	tr, err := s.trace(at.src)
	if err != nil {
		return Trace{}, err
	}
	exp := s.sys.NewExpander()
	var b ts.Batch
	prev := tr.Final().State
	exp.Expand(prev, &b)
	j := slices.IndexFunc(b.Succs, func(x ts.Succ) bool { return x.Action == at.action })
	if j < 0 {
		return Trace{}, replayFault(s.sys, &tr, fmt.Errorf("internal error: replay: action %#x not enabled", uint32(at.action)))
	}
	if b.Succs[j].Props&(1<<p) != 0 {
		return Trace{}, fmt.Errorf("internal error: replayed step does not violate predicate %d", p)
	}
	tr.Steps = append(tr.Steps, Step{
		Action: at.action, Label: exp.Label(prev, at.action),
		State: slices.Clone(b.State(j)), Props: b.Succs[j].Props,
	})
	return tr, nil
}
