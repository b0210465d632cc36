package explore

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/mcheck/mcheck/ts"
	"github.com/zeebo/xxh3"
)

// floorSystem is a synthetic state graph with the shape of
// bully --n 4 --initial-leader=false (7,077,654 states, about 5.5 steps a
// state, 4.5 of them to states seen before), whose successors cost next to
// nothing to compute: a search of it measures the engine alone (table,
// claims, frontier files, phases), the floor under any model's cost.
type floorSystem struct {
	n uint64
	// deg4 is the number of steps of every 4 states: 22 for bully's shape
	// (5.5 a state), 7 for chang-roberts' (1.76).
	deg4 uint64
}

func (s floorSystem) NewExpander() ts.Expander { return &floorExpander{n: s.n, deg4: s.deg4} }
func (floorSystem) Predicates() []string       { return nil }
func (floorSystem) FairClass(int32) string     { return "" }

type floorExpander struct {
	n, deg4 uint64
	succ    []uint64 // the last expansion's successors, for Materialize
}

// floorState is a state's encoding: 24 bytes, about a bully state's.
func floorState(b []byte, x uint64) []byte {
	b = binary.LittleEndian.AppendUint64(b, x)
	b = binary.LittleEndian.AppendUint64(b, x*0x9e3779b97f4a7c15)
	return binary.LittleEndian.AppendUint64(b, x^0xbf58476d1ce4e5b9)
}

func (e *floorExpander) Initial(out *ts.Batch) {
	out.Reset()
	out.Add(0, ts.NoFairness, 0, floorState(nil, 0))
}

// Expand: x+1 (so that every state is reached) and pseudo-random others,
// deg4 steps over 4 consecutive states.
func (e *floorExpander) Expand(state []byte, out *ts.Batch) {
	out.Reset()
	x := binary.LittleEndian.Uint64(state)
	e.succ = e.succ[:0]
	e.succ = append(e.succ, (x+1)%e.n)
	deg := (e.deg4*(x%4+1))/4 - (e.deg4*(x%4))/4
	for k := uint64(1); k < deg; k++ {
		h := (x + k*0x632be59bd9b4e019) * 0xd6e8feb86659fd93
		e.succ = append(e.succ, (h^h>>32)%e.n)
	}
	var buf [24]byte
	for k, y := range e.succ {
		enc := floorState(buf[:0], y)
		if out.Lazy {
			out.CommitLazy(ts.Action(k), ts.NoFairness, xxh3.Hash(enc), 0, ts.Sends{})
		} else {
			out.Add(ts.Action(k), ts.NoFairness, 0, enc) // the same fingerprint: xxh3 of the encoding
		}
	}
}

func (e *floorExpander) Materialize(out *ts.Batch, i int) {
	out.Fill(i, floorState(out.Tail(), e.succ[i]), 0)
}

func (e *floorExpander) Label(_ []byte, a ts.Action) string { return fmt.Sprintf("step %d", a) }

// BenchmarkEngineFloor is a full search of floorSystem: what the engine
// costs per transition when the model costs next to nothing (compare
// check's BenchmarkSpinConfigs/bully-n4-boot).
func BenchmarkEngineFloor(b *testing.B) {
	for _, c := range []struct {
		name string
		sys  floorSystem
	}{
		{"bully-n4-boot-shape", floorSystem{7_077_654, 22}},
		{"chang-roberts-n4-crash-any-shape", floorSystem{16_281_308, 7}},
	} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", c.name, workers), func(b *testing.B) {
				var res *Result
				for b.Loop() {
					var err error
					if res, err = Run(c.sys, Options{Workers: workers, Continue: true}); err != nil {
						b.Fatal(err)
					}
					if res.States != int64(c.sys.n) {
						b.Fatalf("%d states, want %d", res.States, c.sys.n)
					}
				}
				b.ReportMetric(float64(res.Transitions), "transitions")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(res.Transitions), "ns/transition")
			})
		}
	}
}
