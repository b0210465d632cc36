package model_test

import (
	"slices"
	"testing"

	"github.com/zeebo/xxh3"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
	"github.com/mcheck/mcheck/specs"
)

// The two configurations of the SPIN comparison (BENCHMARKS.md), then one
// of every other algorithm and a timed one (BenchmarkExpand).
var benchConfigs = []struct {
	name string
	algo string
	cfg  model.Config
}{
	{"bully-n4-boot", "bully", model.Config{N: 4}},
	{"chang-roberts-n4-crash-any", "chang-roberts", model.Config{N: 4, MaxCrashes: 3}},
}

var moreBenchConfigs = []struct {
	name string
	algo string
	cfg  model.Config
}{
	{"ring-n4-crash-any", "ring", model.Config{N: 4, MaxCrashes: 3}},
	{"lelann-n4-crash-any", "lelann", model.Config{N: 4, MaxCrashes: 3}},
	{"hirschberg-sinclair-n4-crash-1", "hirschberg-sinclair", model.Config{N: 4, MaxCrashes: 1}},
	{"bully-n4-crash-any-sync", "bully", model.Config{N: 4, MaxCrashes: 3, Timing: model.Sync}},
}

// benchStates is a fixed sample of a system's reachable states: the first
// n in breadth-first order.
func benchStates(b testing.TB, algo string, cfg model.Config, n int) (model.System, [][]byte) {
	b.Helper()
	spec, err := specs.Builtin().Lookup(algo)
	if err != nil {
		b.Fatal(err)
	}
	names, err := properties.Select(spec.Build.Properties(), "all")
	if err != nil {
		b.Fatal(err)
	}
	sys, err := spec.Build.System(cfg, names)
	if err != nil {
		b.Fatal(err)
	}
	x := sys.NewExpander()
	var batch model.Batch
	x.Initial(&batch)
	seen := map[string]bool{}
	var states [][]byte
	add := func() {
		for i := range batch.Succs {
			s := batch.State(i)
			if !seen[string(s)] && len(states) < n {
				seen[string(s)] = true
				states = append(states, slices.Clone(s))
			}
		}
	}
	add()
	for i := 0; i < len(states) && len(states) < n; i++ {
		x.Expand(states[i], &batch)
		add()
	}
	return sys, states
}

// Successor generation alone (decode, step, encode, fingerprint,
// predicates): the cost per transition, without the state table. The lazy
// variant is what the explorer pays for a successor it has seen before:
// the step and its incremental fingerprint, no encoding, no predicates.
func BenchmarkExpand(b *testing.B) {
	for _, c := range append(benchConfigs, moreBenchConfigs...) {
		b.Run(c.name, func(b *testing.B) { benchExpand(b, c.algo, c.cfg, false) })
		b.Run(c.name+"/lazy", func(b *testing.B) { benchExpand(b, c.algo, c.cfg, true) })
	}
	// The model's step as a safety search asks for it, the figure to hold
	// against a budget per step: lazy, and no predicates of the expanded
	// state (a search of invariants keeps none: explore's askPredicates).
	for _, c := range benchConfigs {
		b.Run(c.name+"/lazy-safety", func(b *testing.B) { benchExpand(b, c.algo, c.cfg, true, noStateProps) })
	}
}

// noStateProps asks for no predicates of the expanded state.
func noStateProps(s *model.Batch) { s.NoStateProps = true }

func benchExpand(b *testing.B, algo string, cfg model.Config, lazy bool, set ...func(*model.Batch)) {
	sys, states := benchStates(b, algo, cfg, 20_000)
	x := sys.NewExpander()
	var batch model.Batch
	batch.Lazy = lazy
	for _, f := range set {
		f(&batch)
	}
	var transitions int64
	for b.Loop() {
		for _, s := range states {
			x.Expand(s, &batch)
			transitions += int64(len(batch.Succs))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(transitions), "ns/transition")
	b.ReportMetric(float64(transitions)/float64(b.N)/float64(len(states)), "transitions/state")
}

// Fingerprinting a whole state from its encoding: decoding it and hashing
// its parts (model/fingerprint.go), which every expanded state pays once; a
// successor pays only the update for the parts its step changed, inside
// BenchmarkExpand's lazy variant. "whole-encoding" is one xxh3 over the
// encoding, the fingerprint computed from scratch, for comparison.
func BenchmarkFingerprint(b *testing.B) {
	for _, c := range benchConfigs {
		sys, states := benchStates(b, c.algo, c.cfg, 20_000)
		var bytes int64
		for _, s := range states {
			bytes += int64(len(s))
		}
		fp := sys.(interface{ Fingerprinter() func([]byte) uint64 }).Fingerprinter()
		for _, v := range []struct {
			name string
			f    func([]byte) uint64
		}{{"decode-and-parts", fp}, {"whole-encoding", xxh3.Hash}} {
			b.Run(c.name+"/"+v.name, func(b *testing.B) {
				b.SetBytes(bytes / int64(len(states)))
				var sink uint64
				n := 0
				for b.Loop() {
					sink ^= v.f(states[n%len(states)])
					n++
				}
				_ = sink
			})
		}
	}
}
