package check_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/ts"
)

func TestProtoSim(t *testing.T) {
	spec, _ := specs.Builtin().Lookup("chang-roberts")
	sys, err := spec.Build.System(model.Config{N: 16, MaxCrashes: 1}, []string{"SingleLeader", "Agreement", "Termination"})
	if err != nil {
		t.Fatal(err)
	}
	for _, sch := range []explore.Scheduler{explore.Uniform, explore.Faults} {
		for _, w := range []int{1, 2} {
			start := time.Now()
			res, err := explore.Simulate(sys, explore.SimOptions{Invariants: []int{0, 1}, Goal: explore.GoalOf(2), Seed: 1, Depth: 1000, Duration: 5 * time.Second, Workers: w, Scheduler: sch,
				Kind: func(a ts.Action) int { return int(model.Action(a).Kind()) }, Kinds: 7})
			if err != nil {
				t.Fatal(err)
			}
			sim := res.Simulation
			fmt.Printf("%v w=%d %v runs=%d steps=%d distinct=%d ends=%v stop=%q len=%d/%.1f/%d\n", sch, w, time.Since(start), sim.Runs, res.Transitions, res.States, sim.Ends, res.Stopped, sim.MinLength, sim.MeanLength, sim.MaxLength)
			for i, v := range res.Violations {
				fmt.Printf("  kind %d pred %d steps %d cycle %d found %+v\n", v.Kind, v.Predicate, len(v.Trace.Steps)-1, v.Trace.CycleStart, sim.Found[i])
			}
		}
	}
}
