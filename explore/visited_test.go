package explore_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/explore"
)

// visitedSets are every VisitedSet of the engine, new for each test: the
// suite below runs against each one (TLC's FPSetTest for its FPSets).
var visitedSets = []struct {
	name string
	make func() explore.VisitedSet
}{
	{"fingerprints", func() explore.VisitedSet { return explore.NewFingerprintSet(16, false) }},
	{"fingerprints-indexed", func() explore.VisitedSet { return explore.NewFingerprintSet(16, true) }},
	{"exact", func() explore.VisitedSet { return explore.NewExactSet(16) }},
	{"bits", func() explore.VisitedSet { return explore.NewBitSet(64<<20, 0) }},
	{"bits-seeded", func() explore.VisitedSet { return explore.NewBitSet(64<<20, 7) }},
	// The same sets as a search's batches use them: claimed a chunk at a
	// time, then placed and stored (explore.ClaimPath).
	{"fingerprints-claims", func() explore.VisitedSet { return explore.ClaimPath(explore.NewFingerprintSet(16, false), false) }},
	{"fingerprints-claims-lazy", func() explore.VisitedSet { return explore.ClaimPath(explore.NewFingerprintSet(16, false), true) }},
	{"fingerprints-indexed-claims", func() explore.VisitedSet { return explore.ClaimPath(explore.NewFingerprintSet(16, true), false) }},
	{"exact-claims", func() explore.VisitedSet { return explore.ClaimPath(explore.NewExactSet(16), false) }},
	{"bits-claims", func() explore.VisitedSet { return explore.ClaimPath(explore.NewBitSet(64<<20, 0), false) }},
}

// fps are n distinct pseudo-random fingerprints (and 0, which the table
// stores specially), with encodings that tell them apart.
func fps(n int, seed uint64) ([]uint64, [][]byte) {
	r := rand.New(rand.NewPCG(seed, 1))
	seen := map[uint64]bool{}
	out := []uint64{0}
	for len(out) < n {
		fp := r.Uint64()
		if fp != 0 && !seen[fp] {
			seen[fp] = true
			out = append(out, fp)
		}
	}
	encs := make([][]byte, n)
	for i, fp := range out {
		encs[i] = fmt.Appendf(nil, "state-%x", fp)
	}
	return out, encs
}

func TestVisitedSets(t *testing.T) {
	for _, vs := range visitedSets {
		t.Run(vs.name, func(t *testing.T) {
			t.Run("empty", func(t *testing.T) {
				set := vs.make()
				all, encs := fps(1000, 1)
				seen := make([]bool, len(all))
				set.ContainsBlock(all, encs, seen)
				assert.NotContains(t, seen, true)
				assert.Zero(t, set.Len())
			})
			t.Run("put, then contains", func(t *testing.T) {
				set := vs.make()
				all, encs := fps(300_000, 2)
				added := make([]bool, 1000)
				total := 0
				for lo := 0; lo < len(all); lo += 1000 {
					// Past the table's initial capacity many times: it grows.
					total += set.PutBlock(all[lo:lo+1000], encs[lo:lo+1000], uint32(total), added)
				}
				seen := make([]bool, len(all))
				set.ContainsBlock(all, encs, seen)
				for i, s := range seen {
					if !s {
						t.Fatalf("lost state %d of %d (fingerprint %x)", i, len(all), all[i])
					}
				}
				if set.Exhaustive() {
					assert.Equal(t, len(all), total)
					assert.Equal(t, int64(len(all)), set.Len())
				} else {
					assert.LessOrEqual(t, total, len(all))
					assert.Greater(t, total, len(all)*99/100, "a 64 MiB bit array takes few new states for seen")
				}
				assert.Positive(t, set.Bytes())
			})
			t.Run("put twice", func(t *testing.T) {
				set := vs.make()
				all, encs := fps(100, 3)
				added := make([]bool, len(all))
				n := set.PutBlock(all, encs, 0, added)
				assert.Equal(t, 100, n)
				assert.Equal(t, 0, set.PutBlock(all, encs, 100, added))
				assert.NotContains(t, added, true, "nothing is new the second time")
				assert.Equal(t, int64(100), set.Len())
			})
			t.Run("twice in one block", func(t *testing.T) {
				set := vs.make()
				all, encs := fps(10, 4)
				block := append(append([]uint64{}, all...), all...)
				blockEncs := append(append([][]byte{}, encs...), encs...)
				added := make([]bool, len(block))
				assert.Equal(t, 10, set.PutBlock(block, blockEncs, 0, added))
				assert.Equal(t, append(trues(10), make([]bool, 10)...), added, "each at its first place only")
			})
		})
	}
}

func trues(n int) []bool {
	b := make([]bool, n)
	for i := range b {
		b[i] = true
	}
	return b
}

// Two states with one fingerprint: the exact set keeps both, the others
// take the second for the first (what Options.Exact is for).
func TestExactSetTellsCollisionsApart(t *testing.T) {
	fp := []uint64{42, 42}
	encs := [][]byte{[]byte("a"), []byte("b")}
	added := make([]bool, 2)
	assert.Equal(t, 2, explore.NewExactSet(16).PutBlock(fp, encs, 0, added))
	assert.Equal(t, []bool{true, true}, added)
	assert.Equal(t, 1, explore.NewFingerprintSet(16, false).PutBlock(fp, encs, 0, added))
	assert.Equal(t, []bool{true, false}, added)

	set := explore.NewExactSet(16)
	require.Equal(t, 1, set.PutBlock(fp[:1], encs[:1], 0, added))
	seen := make([]bool, 2)
	set.ContainsBlock(fp, encs, seen)
	assert.Equal(t, []bool{true, false}, seen)
}
