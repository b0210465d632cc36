//go:build linux && !race

package offheap

import (
	"math"
	"runtime/debug"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// mapped reports whether the pages of xs are mapped: mincore fails with
// ENOMEM on an address range that is not.
func mapped[T Word](t *testing.T, xs []T) bool {
	n := len(xs) * int(unsafe.Sizeof(T(0)))
	vec := make([]byte, (n+syscall.Getpagesize()-1)/syscall.Getpagesize())
	_, _, errno := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(unsafe.SliceData(xs))), uintptr(n), uintptr(unsafe.Pointer(unsafe.SliceData(vec))))
	if errno == syscall.ENOMEM {
		return false
	}
	require.Zero(t, errno)
	return true
}

func TestFreeUnmaps(t *testing.T) {
	require.True(t, Mapped)
	xs := Make[uint64](1 << 16)
	xs[len(xs)-1] = 7
	require.True(t, mapped(t, xs))
	Free(xs)
	require.False(t, mapped(t, xs))
}

// The runtime's limit is for the whole process: while an array is mapped,
// the heap gets that much less.
func TestMappingLowersTheRuntimeLimit(t *testing.T) {
	old := debug.SetMemoryLimit(1 << 30)
	defer debug.SetMemoryLimit(old)
	keys := Make[uint64](1 << 16)
	require.Equal(t, int64(1<<30-8<<16), debug.SetMemoryLimit(-1))
	vals := Make[uint32](1 << 16)
	require.Equal(t, int64(1<<30-12<<16), debug.SetMemoryLimit(-1))
	Free(keys)
	Free(vals)
	require.Equal(t, int64(1<<30), debug.SetMemoryLimit(-1))

	debug.SetMemoryLimit(math.MaxInt64)
	keys = Make[uint64](1 << 16)
	require.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1), "no limit stays no limit")
	Free(keys)
}
