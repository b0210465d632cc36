package explore_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/explore"
)

// The sketch counts distinct fingerprints within a few percent, small
// counts almost exactly, and two sketches merge into the count of the
// union (their overlap counted once).
func TestSketchEstimatesAndMerges(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	fps := make([]uint64, 300_000)
	for i := range fps {
		fps[i] = rng.Uint64()
	}
	for _, n := range []int{0, 10, 1000, 20_000, 300_000} {
		s := explore.NewSketch()
		for _, fp := range fps[:n] {
			s.Add(fp)
			s.Add(fp) // twice: distinct ones count
		}
		assert.InDelta(t, float64(n), s.Estimate(), 0.04*float64(n)+1, "n=%d", n)
	}
	a, b := explore.NewSketch(), explore.NewSketch()
	for _, fp := range fps[:200_000] {
		a.Add(fp)
	}
	for _, fp := range fps[100_000:] {
		b.Add(fp)
	}
	a.Merge(b)
	assert.InDelta(t, 300_000, a.Estimate(), 0.04*300_000)
}
