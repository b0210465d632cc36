package prefetch

import (
	"testing"
	"unsafe"
)

// A prefetch changes nothing and never faults, even past the end of the
// data it was given.
func TestLineChangesNothing(t *testing.T) {
	b := []uint64{1, 2, 3}
	for i := range b {
		Line(unsafe.Pointer(&b[i]))
	}
	Line(unsafe.Pointer(uintptr(unsafe.Pointer(&b[0])) + 1<<20))
	if b[0] != 1 || b[1] != 2 || b[2] != 3 {
		t.Fatalf("prefetch changed memory: %v", b)
	}
}
