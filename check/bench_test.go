package check_test

import (
	"fmt"
	"testing"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/myring"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// Whole checks: the numbers that users wait on.
func BenchmarkCheck(b *testing.B) {
	for _, c := range []struct {
		name string
		algo string
		cfg  model.Config
		sel  []string
	}{
		{"bully-n4-crash-any", "bully", model.Config{N: 4, MaxCrashes: 3, InitialLeader: true}, nil},
		{"bully-n4-crash-any-safety", "bully", model.Config{N: 4, MaxCrashes: 3, InitialLeader: true}, []string{"SingleLeader", "Agreement"}},
		{"chang-roberts-n3-crash-any", "chang-roberts", model.Config{N: 3, MaxCrashes: 2}, nil},
		{"ring-n3-crash-any-safety", "ring", model.Config{N: 3, MaxCrashes: 2}, []string{"SingleLeader", "Agreement"}},
		{"ring-n3-crash-any", "ring", model.Config{N: 3, MaxCrashes: 2}, nil},
		{"hirschberg-sinclair-n4", "hirschberg-sinclair", model.Config{N: 4}, nil},
	} {
		spec, err := specs.Builtin().Lookup(c.algo)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			var states int64
			for b.Loop() {
				rep, err := check.Run(check.Request{Spec: spec, Config: c.cfg, Properties: c.sel, Continue: true})
				if err != nil {
					b.Fatal(err)
				}
				states = rep.Stats.States
			}
			b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
		})
	}
}

// The generic path (no Codec: values numbered by the kernel) against the
// spec's Codec, same model.
func BenchmarkHashingPath(b *testing.B) {
	spec, _ := specs.Builtin().Lookup("chang-roberts")
	cfg := model.Config{N: 3, MaxCrashes: 2}
	for _, generic := range []bool{false, true} {
		name := "fast"
		if generic {
			name = "generic"
		}
		b.Run(name, func(b *testing.B) {
			var states int64
			for b.Loop() {
				rep, err := check.Run(check.Request{Spec: spec, Config: cfg, Continue: true, Generic: generic})
				if err != nil {
					b.Fatal(err)
				}
				states = rep.Stats.States
			}
			b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
		})
	}
}

// The tutorial's student algorithm (internal/myring, a copy of the page's
// code): no Codec, so every local state and message goes through the
// kernel's generic path, which is what a student's check waits on.
func BenchmarkTutorialRing(b *testing.B) {
	spec := specs.Spec{Name: "myring", Build: specs.Builder(myring.Algorithm{})}
	cfg := model.Config{N: 4, MaxCrashes: 2}
	var states int64
	for b.Loop() {
		rep, err := check.Run(check.Request{Spec: spec, Config: cfg, Continue: true})
		if err != nil {
			b.Fatal(err)
		}
		states = rep.Stats.States
	}
	if states != 220_890 {
		b.Fatalf("%d states, want 220,890", states)
	}
	b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
}

// The same check at 1 and 2 workers (results are identical; only time differs).
func BenchmarkWorkers(b *testing.B) {
	for _, c := range []struct {
		name string
		algo string
		cfg  model.Config
	}{
		{"ring-n3-crash-any", "ring", model.Config{N: 3, MaxCrashes: 2}},
		{"hirschberg-sinclair-n6", "hirschberg-sinclair", model.Config{N: 6}},
	} {
		spec, _ := specs.Builtin().Lookup(c.algo)
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", c.name, workers), func(b *testing.B) {
				var states int64
				for b.Loop() {
					rep, err := check.Run(check.Request{Spec: spec, Config: c.cfg, Properties: []string{"SingleLeader", "Agreement"}, Continue: true, Workers: workers})
					if err != nil {
						b.Fatal(err)
					}
					states = rep.Stats.States
				}
				b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
			})
		}
	}
}

// The two configurations of the side-by-side comparison with ../shared/spin
// (bench/spin/run-shared.sh): full safety searches without reduction, at one
// worker (the cost per CPU second) and at two.
func BenchmarkSpinConfigs(b *testing.B) {
	for _, c := range []struct {
		name string
		algo string
		cfg  model.Config
	}{
		{"bully-n4-boot", "bully", model.Config{N: 4}},
		{"chang-roberts-n4-crash-any", "chang-roberts", model.Config{N: 4, MaxCrashes: 3}},
	} {
		spec, _ := specs.Builtin().Lookup(c.algo)
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", c.name, workers), func(b *testing.B) {
				var rep *check.Report
				for b.Loop() {
					var err error
					rep, err = check.Run(check.Request{Spec: spec, Config: c.cfg, Properties: []string{"SingleLeader", "Agreement"}, Continue: true, Workers: workers})
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(rep.Stats.States)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rep.Stats.Transitions), "ns/transition")
			})
		}
	}
}

// What Termination costs: chang-roberts --n 4 --crash-any with
// Termination checked (the liveness graph and the fair-cycle check) against
// the safety-only search, at one and two workers.
func BenchmarkTermination(b *testing.B) {
	spec, _ := specs.Builtin().Lookup("chang-roberts")
	cfg := model.Config{N: 4, MaxCrashes: 3}
	for _, c := range []struct {
		name string
		sel  []string
	}{
		{"safety", []string{"SingleLeader", "Agreement"}},
		{"termination", []string{"SingleLeader", "Agreement", "Termination"}},
	} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", c.name, workers), func(b *testing.B) {
				for b.Loop() {
					rep, err := check.Run(check.Request{Spec: spec, Config: cfg, Properties: c.sel, Continue: true, Workers: workers})
					if err != nil {
						b.Fatal(err)
					}
					if rep.Stats.States != 16_281_308 {
						b.Fatalf("%d states, want 16,281,308", rep.Stats.States)
					}
				}
			})
		}
	}
}

// The simulation's throughput: --simulate on chang-roberts --n 16
// --crashes 1 at one worker, in steps per second of wall time and per
// second of the process's CPU time (per core). Runs go on after
// violations (Continue) so that every op takes the same 2,000 runs.
func BenchmarkSimulate(b *testing.B) {
	spec, _ := specs.Builtin().Lookup("chang-roberts")
	cfg := model.Config{N: 16, MaxCrashes: 1}
	for _, sched := range []explore.Scheduler{explore.Uniform, explore.Faults} {
		b.Run(sched.String(), func(b *testing.B) {
			var steps int64
			cpu0 := cpuTime()
			for b.Loop() {
				rep, err := check.Run(check.Request{Spec: spec, Config: cfg, Continue: true, Workers: 1,
					Strategy: &check.Simulate{Seed: 1, Runs: 2000, Depth: 1000, Scheduler: sched}})
				if err != nil {
					b.Fatal(err)
				}
				steps += rep.Stats.Transitions
			}
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
			if cpu := cpuTime() - cpu0; cpu > 0 {
				b.ReportMetric(float64(steps)/cpu.Seconds(), "steps/cpu-s")
			}
		})
	}
}
