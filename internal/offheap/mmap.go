//go:build (linux || darwin || freebsd) && !race

package offheap

import (
	"fmt"
	"math"
	"runtime/debug"
	"sync"
	"syscall"
	"unsafe"
)

// Mapped reports whether Make maps its arrays outside the Go heap here.
const Mapped = true

// Make returns n zeroed elements. Give them back with Free once nothing
// refers to them any more.
func Make[T Word](n int) []T {
	if n <= 0 {
		return nil
	}
	b := alloc(n * int(unsafe.Sizeof(T(0))))
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// Free gives back an array from Make, whole (as Make returned it). Using
// it afterwards is an error: it may fault, or read another array's memory.
func Free[T Word](xs []T) {
	if cap(xs) == 0 {
		return
	}
	xs = xs[:cap(xs)]
	release(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(xs))), len(xs)*int(unsafe.Sizeof(T(0)))))
}

// alloc maps n bytes of anonymous private memory: zeroed by the kernel,
// and taking physical memory only as its pages are first written.
func alloc(n int) []byte {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE|populate)
	if err != nil {
		// As make would: a program out of memory cannot go on.
		panic(fmt.Sprintf("offheap: mapping %d bytes: %v", n, err))
	}
	adjustLimit(int64(n))
	return b
}

func release(b []byte) {
	if err := syscall.Munmap(b); err != nil {
		panic(fmt.Sprintf("offheap: unmapping %d bytes: %v", len(b), err))
	}
	adjustLimit(-int64(len(b)))
}

// limitMu serialises the read-modify-write of the runtime's memory limit.
var limitMu sync.Mutex

// adjustLimit lowers the Go runtime's memory limit by what is mapped here
// (raises it by what is unmapped), when a limit is set. The limit
// (debug.SetMemoryLimit) is meant for the whole process but the runtime
// counts only its own memory: without this the heap would be allowed to
// grow into the room the mapped arrays already take. A caller that sets the
// limit while arrays are mapped sets it for the heap alone; the CLI sets it
// once before any search.
func adjustLimit(mapped int64) {
	limitMu.Lock()
	defer limitMu.Unlock()
	cur := debug.SetMemoryLimit(-1)
	if cur == math.MaxInt64 {
		return // no limit
	}
	// The search keeps its own data (these arrays among it) within a share
	// of the budget, so the limit stays well above zero; 0 would still be
	// a valid limit (collect all the time) rather than a negative one,
	// which the runtime ignores.
	debug.SetMemoryLimit(max(cur-mapped, 0))
}
