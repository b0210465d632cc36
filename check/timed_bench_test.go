package check_test

import (
	"testing"
	"time"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

var timedBenchConfigs = []struct {
	name string
	cfg  model.Config
}{
	{"bully-n4-crash-any", model.Config{N: 4, MaxCrashes: 3, InitialLeader: true}},
	{"bully-n4-crash-any-sync", model.Config{N: 4, MaxCrashes: 3, InitialLeader: true, Timing: model.Sync}},
	{"bully-n4-crash-any-sync-delay2", model.Config{N: 4, MaxCrashes: 3, InitialLeader: true, Timing: model.Sync, Delay: 2}},
}

// The cost of time: bully --n 4 --crash-any, untimed and with
// --timing sync (docs/semantics.md section 6), per state explored. The timed
// space is smaller (3,144 states against 27,390), so the per-state cost
// of the whole check carries more of its fixed cost; BenchmarkExpandTimed
// in package model compares the successor path alone.
func BenchmarkTimed(b *testing.B) {
	spec, err := specs.Builtin().Lookup("bully")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range timedBenchConfigs {
		b.Run(c.name, func(b *testing.B) {
			var states int64
			var search time.Duration
			for b.Loop() {
				rep, err := check.Run(check.Request{Spec: spec, Config: c.cfg, Continue: true, Workers: 1})
				if err != nil {
					b.Fatal(err)
				}
				states = rep.Stats.States
				search += rep.Stats.Elapsed
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(states)/float64(b.N), "ns/state")
			b.ReportMetric(search.Seconds()*1e9/float64(states)/float64(b.N), "search-ns/state")
		})
	}
}

// The search alone (explore.Run, every state's properties evaluated, no
// fair-cycle check, no determinism probe, no replay): the state space's
// cost per state, without the whole check's fixed costs.
func BenchmarkTimedSearch(b *testing.B) {
	spec, err := specs.Builtin().Lookup("bully")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range timedBenchConfigs {
		b.Run(c.name, func(b *testing.B) {
			sys, err := spec.Build.System(c.cfg, []string{"SingleLeader", "Agreement", "Termination"})
			if err != nil {
				b.Fatal(err)
			}
			var states int64
			for b.Loop() {
				res, err := explore.Run(sys, explore.Options{Continue: true, Workers: 1})
				if err != nil {
					b.Fatal(err)
				}
				states = res.States
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(states)/float64(b.N), "ns/state")
		})
	}
}
