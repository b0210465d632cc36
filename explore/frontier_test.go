package explore

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// A level keeps each state's length and every chunkStates-th offset; the
// states of any chunk come back byte for byte, in memory and spilled, and a
// state too long for a length is refused, not cut. A spilled level written
// a batch at a time (batch, flush) and read a batch at a time (load) gives
// the same bytes, from the loaded window and around it.
func TestLevelStatesByChunk(t *testing.T) {
	t.Parallel()
	for _, mode := range []struct{ spill, batched bool }{{false, false}, {true, false}, {true, true}} {
		spill := mode.spill
		var l level
		l.dir, l.io = t.TempDir(), &batchBufs{}
		defer l.close()
		l.reset(0)
		n := 3*chunkStates + 5
		states := make([][]byte, n)
		size := int64(0)
		for i := range states {
			states[i] = bytes.Repeat([]byte{byte(i)}, 1+i%7)
			size += int64(len(states[i]))
		}
		// As the write phase does: room first, then each state at its offset.
		l.spillAfter = spillFrontierAfter
		if spill {
			l.spillAfter = 0
		}
		l.reserve(n, size)
		require.Equal(t, spill, l.onDisk)
		if mode.batched {
			l.batch(0, size)
		}
		off := int64(0)
		for i, s := range states {
			require.NoError(t, l.set(i, off, len(s)))
			require.NoError(t, l.write(off, s))
			off += int64(len(s))
		}
		require.NoError(t, l.flush())
		if mode.batched {
			// Chunks 1 and 2 come from the window, 0 and 3 from the file.
			require.NoError(t, l.load(chunkStates, 3*chunkStates))
			require.NotEmpty(t, l.win)
		}
		var buf []byte
		for lo := 0; lo < n; lo += chunkStates {
			hi := min(lo+chunkStates, n)
			data, err := l.states(lo, hi, &buf)
			require.NoError(t, err)
			at := 0
			for i := lo; i < hi; i++ {
				k := int(l.lens[i])
				require.Equal(t, states[i], data[at:at+k], "state %d (spilled %v)", i, spill)
				at += k
			}
			require.Equal(t, len(data), at)
		}
	}
	var l level
	require.ErrorIs(t, l.push(make([]byte, maxStateBytes+1)), errStateTooLong)
	l.reserve(1, maxStateBytes+1)
	require.ErrorIs(t, l.set(0, 0, maxStateBytes+1), errStateTooLong)
}
