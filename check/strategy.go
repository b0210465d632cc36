package check

import (
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
)

// Proof is what a search proves of a property it found no violation of.
// Every strategy's violations are real (replayed before anyone sees them);
// they differ in what their silence means.
type Proof string

const (
	// Exhaustive: every reachable state and step was checked, so a
	// property without a violation holds.
	Exhaustive Proof = "exhaustive"
	// UpToBound: every state was checked that the channel bound lets
	// through; the bound discarded steps, so a property holds of the
	// bounded model.
	UpToBound Proof = "exhaustive up to the channel bound"
	// Sampled: only some states were checked (random runs; a bitstate
	// search, which may take a new state for one seen), so no property
	// can be said to hold.
	Sampled Proof = "sampled"
	// Incomplete: the search stopped before it had seen every state it
	// would have (a budget, a signal, the first violation), so what it
	// did not find proves nothing. Only a verdict has it (Verdict.Proof),
	// never a strategy.
	Incomplete Proof = "incomplete"
)

// strategy is one way to search a system for violations: breadth-first
// over every state (exhaustive.go), the same with a bit array for a
// state table (bitstate.go), or random runs (simulate.go). Run checks a
// Request with one of them, and renders every one's result the same way.
type strategy interface {
	// name names the strategy for reports ("breadth-first").
	name() string
	// search explores sys for the properties of t. It may fill in parts of
	// rep that only it knows (a rerun in full, the measures).
	search(req Request, rep *Report, sys model.System, t targets) (*explore.Result, error)
	// proof is what res proves of a property it found no violation of, and
	// when that is nothing (Sampled), the verdict's summary saying why.
	proof(res *explore.Result) (Proof, string)
}

// targets are the properties of a check as the searches take them
// (explore.Targets), and whether partial-order reduction can keep them.
type targets struct {
	explore.Targets
	// reduceOff says why partial-order reduction cannot apply to these
	// properties ("" when it can).
	reduceOff string
}

// TargetsOf is what a search looks for in the checked properties, whose
// predicate i is checked[i]: the one place that sorts properties by kind,
// for every strategy and the explorer's walks.
func TargetsOf(checked []model.PropertyInfo) explore.Targets { return targetsOf(checked).Targets }

// targetsOf sorts the checked properties by kind.
func targetsOf(checked []model.PropertyInfo) targets {
	var t targets
	var goals, quiet []int
	for i, p := range checked {
		switch p.Kind {
		case model.Invariant:
			t.Invariants = append(t.Invariants, i)
		case model.StepProperty:
			t.Steps = append(t.Steps, i)
			if t.reduceOff == "" {
				t.reduceOff = "the step property " + p.Name + " needs every step"
			}
		case model.EventuallyAlways:
			goals = append(goals, i)
			if p.Quiet {
				quiet = append(quiet, i)
			}
		case model.Sometimes:
			t.Reach = append(t.Reach, i)
		case model.LeadsTo:
			t.LeadsTo = append(t.LeadsTo, explore.LeadsTo{From: p.Premise, To: i})
		}
		if !p.ElectedOnly && t.reduceOff == "" {
			t.reduceOff = p.Name + " may read more of a state than the elected values and liveness, which the reduction keeps visible"
		}
	}
	if len(goals) > 0 {
		t.Goal = explore.GoalOf(goals...)
	}
	if len(quiet) > 0 {
		t.Quiet = explore.GoalOf(quiet...)
	}
	return t
}

// liveness reports whether t needs the state graph: a goal or a leads-to.
func (t targets) liveness() bool { return t.Goal != explore.Goal{} || len(t.LeadsTo) > 0 }

// Strategy is a request's choice of search (Request.Strategy): one of
// BreadthFirst, Bitstate and *Simulate, each with its own settings.
type Strategy interface {
	strategy() strategy
}

// BreadthFirst searches every reachable state, breadth-first, so that
// every counterexample is a shortest one: the exhaustive search.
type BreadthFirst struct{}

// Bitstate is the breadth-first search with a bit array of Bytes bytes
// for its state table (SPIN's supertrace): not exhaustive, so no property
// can be said to hold after it. Seed, when not 0, remixes the
// fingerprints before they choose their bits (explore.Options.BitstateSeed),
// so that searches with other seeds miss other states.
type Bitstate struct {
	Bytes int64
	Seed  uint64
}

func (BreadthFirst) strategy() strategy { return breadthFirst{} }
func (Bitstate) strategy() strategy     { return bitstateSearch{} }
func (*Simulate) strategy() strategy    { return simulation{} }

// strategyOf is the strategy a request asks for.
func strategyOf(req Request) strategy {
	if req.Strategy == nil {
		return breadthFirst{}
	}
	return req.Strategy.strategy()
}

// bitstateOf is the request's bit array, the zero Bitstate when it
// asks for none.
func bitstateOf(req Request) Bitstate {
	b, _ := req.Strategy.(Bitstate)
	return b
}

// simulateOf is the request's simulation, nil when it asks for none.
func simulateOf(req Request) *Simulate {
	s, _ := req.Strategy.(*Simulate)
	return s
}
