package explore

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// The table keeps every fingerprint (and index) through many growths, and
// stays within its load limit.
func TestTableGrowsWithoutLosingStates(t *testing.T) {
	for _, indexed := range []bool{false, true} {
		tab := newTable(0, indexed)
		rng := rand.New(rand.NewPCG(1, 2))
		var fps []uint64
		for i := range 1_000_000 {
			fp := rng.Uint64()
			if i%100_000 == 0 {
				fp = 0 // stored as 1
			}
			if _, ok := tab.lookup(fp); ok {
				continue
			}
			tab.reserve(1)
			tab.insert(fp, uint32(len(fps)))
			fps = append(fps, fp)
			if i%1000 == 0 {
				require.LessOrEqual(t, tab.used*100, int(tab.size)*maxLoad)
			}
		}
		require.Greater(t, tab.size, uint64(10*segSlots), "the table grew")
		for i, fp := range fps {
			idx, ok := tab.lookup(fp)
			require.True(t, ok, "fingerprint %d lost", i)
			if indexed {
				require.Equal(t, uint32(i), idx)
			}
		}
		for range 1000 {
			_, ok := tab.lookup(rng.Uint64())
			require.False(t, ok)
		}
		require.Empty(t, tab.spare, "growing leaves no spare segments")
	}
}
