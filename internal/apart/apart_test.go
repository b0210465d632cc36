package apart

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// Make's arrays start on a span and fill whole spans: what it is for.
func TestMakeFillsWholeSpans(t *testing.T) {
	for _, n := range []int{0, 1, 3, 16, 17, 100} {
		xs := Make[uint32](n)
		require.Len(t, xs, n)
		require.Zero(t, cap(xs)*4%Span, "n=%d: cap %d", n, cap(xs))
		require.GreaterOrEqual(t, cap(xs)*4, Span)
		require.Zero(t, uintptr(unsafe.Pointer(unsafe.SliceData(xs)))%Span, "n=%d: not on a span", n)
		for _, x := range xs {
			require.Zero(t, x)
		}
	}
	// Elements whose size does not divide a span, nor a span theirs.
	for _, n := range []int{1, 5, 9} {
		type odd [3]byte
		xs := Make[odd](n)
		require.Len(t, xs, n)
		require.Zero(t, cap(xs)*3%Span)
		require.Zero(t, uintptr(unsafe.Pointer(unsafe.SliceData(xs)))%Span, "[3]byte, n=%d", n)
		type slices [24]byte // a slice header's size
		ys := Make[slices](n)
		require.Zero(t, cap(ys)*24%Span)
		require.Zero(t, uintptr(unsafe.Pointer(unsafe.SliceData(ys)))%Span, "[24]byte, n=%d", n)
		type wide [65]byte
		zs := Make[wide](n)
		require.Zero(t, uintptr(unsafe.Pointer(unsafe.SliceData(zs)))%Span, "[65]byte, n=%d", n)
	}
	require.Empty(t, Make[struct{}](4)[0])
}
