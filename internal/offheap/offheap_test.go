package offheap

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMakeIsZeroedAndWritable(t *testing.T) {
	for round := range 3 {
		keys, vals := Make[uint64](1<<16), Make[uint32](1<<16)
		require.Len(t, keys, 1<<16)
		require.Len(t, vals, 1<<16)
		for i := range keys {
			// Zero even where the last round wrote, if the memory came back.
			require.Zero(t, keys[i], "round %d slot %d", round, i)
			require.Zero(t, vals[i], "round %d slot %d", round, i)
			keys[i], vals[i] = uint64(i)<<40|uint64(round+1), uint32(i+1)
		}
		for i := range keys {
			require.Equal(t, uint64(i)<<40|uint64(round+1), keys[i])
			require.Equal(t, uint32(i+1), vals[i])
		}
		Free(keys)
		Free(vals)
	}
	require.Empty(t, Make[uint64](0))
	Free[uint64](nil)
}
