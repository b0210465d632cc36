//go:build (linux || darwin || freebsd) && !race

package offheap

import (
	"fmt"
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
	tell(int64(n))
	return b
}

func release(b []byte) {
	if err := syscall.Munmap(b); err != nil {
		panic(fmt.Sprintf("offheap: unmapping %d bytes: %v", len(b), err))
	}
	tell(-int64(len(b)))
}
