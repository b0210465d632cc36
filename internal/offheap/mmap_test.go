//go:build linux && !race

package offheap

import (
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

// A mapping changes no setting of the process (the runtime's memory limit
// among them): it is told to the listener, which only a program installs.
func TestMappingIsToldNotApplied(t *testing.T) {
	old := debug.SetMemoryLimit(1 << 30)
	defer debug.SetMemoryLimit(old)
	var told []int64
	Listen(func(bytes int64) { told = append(told, bytes) })
	defer Listen(nil)
	keys := Make[uint64](1 << 16)
	vals := Make[uint32](1 << 16)
	require.Equal(t, int64(1<<30), debug.SetMemoryLimit(-1), "the limit is the program's to set")
	Free(keys)
	Free(vals)
	require.Equal(t, []int64{8 << 16, 4 << 16, -8 << 16, -4 << 16}, told)

	Listen(nil)
	keys = Make[uint64](1 << 16)
	Free(keys)
	require.Len(t, told, 4, "nobody listens")
}
