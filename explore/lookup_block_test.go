package explore

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLookupBlock: the visited set's block lookup (the lazy path's) says
// for each fingerprint what a lookup of it alone says: old with its index
// (read only where asked), or the empty slot a store may start from.
func TestLookupBlock(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	in := make([]uint64, 500)
	for i := range in {
		in[i] = r.Uint64() | 1
	}
	in[0] = 0 // stored specially
	out := make([]uint64, 500)
	for i := range out {
		out[i] = r.Uint64() &^ 1
	}
	// A block of both, interleaved, each asking for its index or not.
	var block []uint64
	var index []bool
	for i := range in {
		block = append(block, in[i], out[i])
		index = append(index, i%3 != 0, i%2 == 0)
	}
	for _, indexed := range []bool{false, true} {
		set := NewFingerprintSet(16, indexed).(*tableSet)
		set.PutBlock(in, nil, 10, make([]bool, len(in)))
		got := make([]probe, len(block))
		set.prefetchBlock(block, index)
		set.lookupBlock(block, index, got)
		for k, fp := range block {
			idx, slot, old := set.t.lookupSlot(fp, nil, index[k])
			require.Equal(t, probe{idx, slot, old}, got[k], "fingerprint %d of the block (indexed %v)", k, indexed)
			require.Equal(t, k%2 == 0, old, "fingerprint %d", k)
			if old && indexed && index[k] {
				assert.Equal(t, uint32(10+k/2), idx, "fingerprint %d", k)
			}
		}
		// A store from the slots the block gave goes where a lookup finds it.
		set.t.reserve(len(out))
		for k := 1; k < len(block); k += 2 {
			set.t.insertFrom(got[k].slot, block[k], uint32(1000+k))
		}
		for k := 1; k < len(block); k += 2 {
			idx, ok := set.t.lookup(block[k], nil)
			require.True(t, ok, "fingerprint %d stored from its slot", k)
			if indexed {
				assert.Equal(t, uint32(1000+k), idx)
			}
		}
		set.free()
	}

	bits := NewBitSet(1<<20, 0).(*bitSet)
	bits.PutBlock(in, nil, 0, make([]bool, len(in)))
	got := make([]probe, len(block))
	bits.prefetchBlock(block, index)
	bits.lookupBlock(block, index, got)
	for k := range block {
		if k%2 == 0 {
			assert.Equal(t, probe{old: true}, got[k], "fingerprint %d", k)
		}
	}
}
