package check

import (
	"fmt"
	"time"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/ts"
)

// Simulate asks for random runs instead of a search (explore.Simulate).
type Simulate struct {
	// Seed is the master seed of the runs; with One, the seed of the one
	// run to replay (explore.RunSeed gives run i's).
	Seed uint64
	One  bool
	// Runs is how many runs (0: until TimeLimit or the Context ends);
	// TimeLimit the time to spend (0: none). Reaching either ends the
	// simulation as asked; the Context interrupts it.
	Runs      int64
	TimeLimit time.Duration
	// Depth is the most steps of a run.
	Depth     int
	Scheduler explore.Scheduler
}

// The defaults of a simulation that gives no number of runs or time, and
// no depth (mcheck --simulate, mchecktest's Config.Simulate): a fixed
// number of runs, so that the same seed gives the same report on any
// machine.
const (
	DefaultRuns  = 10_000
	DefaultDepth = 1000
)

// simulation is the sampling strategy: random runs, each checked on every
// state and step, their violations shortened and replayed. It proves
// nothing when it finds nothing.
type simulation struct{}

func (simulation) name() string { return "simulation" }

func (simulation) search(req Request, rep *Report, sys model.System, t targets) (*explore.Result, error) {
	sim := simulateOf(req)
	res, err := explore.Simulate(sys, explore.SimOptions{Targets: t.Targets, Seed: sim.Seed, One: sim.One, Runs: sim.Runs, Duration: sim.TimeLimit, Depth: sim.Depth, Scheduler: sim.Scheduler,
		Continue: req.Continue, Workers: req.Workers, Context: req.Context, MemoryBudget: req.MemoryBudget,
		Measure: req.Complexity, Kind: kindOf, Kinds: len(KindNames()),
		Progress: req.Progress, ProgressEvery: req.ProgressEvery,
	})
	if err != nil {
		return nil, err
	}
	preds := sys.Predicates()
	for i, v := range res.Violations {
		rep.Found = append(rep.Found, Found{
			Property: preds[v.Predicate], Kind: v.Kind, Steps: len(v.Trace.Steps) - 1, FoundBy: res.Simulation.Found[i],
		})
	}
	return res, nil
}

// Found is a counterexample of a simulation: which property it violates,
// how, in how many steps, and the run that found it.
type Found struct {
	Property string
	Kind     cex.Kind
	Steps    int
	explore.FoundBy
}

func (simulation) proof(res *explore.Result) (Proof, string) {
	runs := int64(0)
	if s := res.Simulation; s != nil {
		runs = s.Runs
	}
	return Sampled, fmt.Sprintf("no violation in %s; a simulation samples runs, so this is not a proof", plural.Count(runs, "random run"))
}

// kindOf sorts the kernel's actions by kind (model.Action.Kind) for the
// simulation's statistics.
func kindOf(a ts.Action) int { return int(model.Action(a).Kind()) }

// KindNames names the kinds of SimStats.Taken, in order.
func KindNames() []string {
	var names []string
	for k := model.Kind(0); ; k++ {
		name, err := k.MarshalText()
		if err != nil {
			return names
		}
		names = append(names, string(name))
	}
}
