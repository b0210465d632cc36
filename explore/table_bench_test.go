package explore

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The fingerprint table's cost per successor: a lookup of a fingerprint
// that is mostly already stored (4.5 of 5.5 successors are not new in
// bully --n 4), in a table too large for the caches, as in a real search.
func BenchmarkTableLookup(b *testing.B) {
	const stored = 8 << 20
	tab := newTable(stored, false)
	defer tab.free()
	rng := rand.New(rand.NewPCG(1, 2))
	fps := make([]uint64, stored)
	for i := range fps {
		fps[i] = rng.Uint64()
		tab.insert(fps[i], uint32(i))
	}
	probe := make([]uint64, 1<<20)
	for i := range probe {
		if i%11 < 9 {
			probe[i] = fps[rng.IntN(stored)] // a state already stored
		} else {
			probe[i] = rng.Uint64() // a new one
		}
	}
	found, n := 0, 0
	for b.Loop() {
		if _, ok := tab.lookup(probe[n&(len(probe)-1)], nil); ok {
			found++
		}
		n++
	}
	b.ReportMetric(float64(found)/float64(n), "hit-rate")
}

// Inserting new fingerprints, growth included, per state.
func BenchmarkTableInsert(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	tab := newTable(0, false)
	defer func() { tab.free() }()
	n := 0
	for b.Loop() {
		if n == 1<<24 {
			b.StopTimer()
			tab.free()
			tab, n = newTable(0, false), 0
			b.StartTimer()
		}
		tab.reserve(1)
		tab.insert(rng.Uint64(), uint32(n))
		n++
	}
}

// One growth of a table of 8 M fingerprints at its load limit (as a search
// grows it: by half), on one goroutine and in two parts at once.
func BenchmarkTableGrow(b *testing.B) {
	const stored = 8 << 20
	rng := rand.New(rand.NewPCG(5, 6))
	fps := make([]uint64, stored)
	for i := range fps {
		fps[i] = rng.Uint64()
	}
	for _, parts := range []int{1, 2} {
		b.Run(fmt.Sprintf("parts=%d", parts), func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				tab := newTable(stored, true)
				tab.parts, tab.run = parts, onGoroutines
				for i, fp := range fps {
					tab.insert(fp, uint32(i))
				}
				tab.used = stored
				b.StartTimer()
				tab.grow(slotsFor(stored * 3 / 2))
				b.StopTimer()
				tab.free()
			}
		})
	}
}
