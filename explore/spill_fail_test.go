package explore

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// A spilled level whose file stops taking writes (a full TMPDIR) comes
// back to memory at its next flush: nothing is lost, the states read back
// byte for byte, and the level says why it stays in memory.
func TestLevelComesBackToMemoryWhenItsFileFails(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("reopens the unlinked file through /proc/self/fd")
	}
	var l level
	l.dir, l.io = t.TempDir(), &batchBufs{}
	defer l.close()
	l.reset(0)
	n := 4*chunkStates + 3
	states := make([][]byte, n)
	for i := range states {
		states[i] = bytes.Repeat([]byte{byte(i)}, 1+i%5)
	}
	// Two batches: the first is written to the file, the second's flush
	// fails.
	l.spillAfter = 0
	off, i := int64(0), 0
	writeBatch := func(upTo int) error {
		from := off
		end := from
		for _, s := range states[i:upTo] {
			end += int64(len(s))
		}
		l.reserve(upTo, end)
		l.batch(from, end)
		for ; i < upTo; i++ {
			require.NoError(t, l.set(i, off, len(states[i])))
			require.NoError(t, l.write(off, states[i]))
			off += int64(len(states[i]))
		}
		return l.flush()
	}
	require.NoError(t, writeBatch(2*chunkStates))
	require.True(t, l.onDisk)
	// The same file, open for reading only: every write fails from now on.
	ro, err := os.Open(fmt.Sprintf("/proc/self/fd/%d", l.file.Fd()))
	require.NoError(t, err)
	l.file.Close()
	l.file = ro
	require.NoError(t, writeBatch(n), "the level goes on in memory")
	require.False(t, l.onDisk)
	require.ErrorContains(t, l.err, "the frontier stays in memory: write ")
	var buf []byte
	for lo := 0; lo < n; lo += chunkStates {
		hi := min(lo+chunkStates, n)
		data, err := l.states(lo, hi, &buf)
		require.NoError(t, err)
		require.Equal(t, bytes.Join(states[lo:hi], nil), data, "states %d-%d", lo, hi)
	}
	// The next level of this search stays in memory.
	l.reset(uint32(n))
	l.reserve(1, 10)
	require.False(t, l.onDisk)
}
