//go:build (linux || darwin || freebsd) && !race

package offheap

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
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
	if b := huge.alloc(n); b != nil {
		tell(int64(n))
		return b
	}
	b, err := mmap(n, populate)
	if err != nil {
		// As make would: a program out of memory cannot go on.
		panic(fmt.Sprintf("offheap: mapping %d bytes: %v", n, err))
	}
	tell(int64(n))
	return b
}

func release(b []byte) {
	if huge.release(b) {
		tell(-int64(len(b)))
		return
	}
	if err := munmap(b); err != nil {
		panic(fmt.Sprintf("offheap: unmapping %d bytes: %v", len(b), err))
	}
	tell(-int64(len(b)))
}

// mmap maps n bytes of anonymous private memory with the extra flags.
// Through MmapPtr, not unix.Mmap: that one remembers each mapping by its
// start and unmaps only whole mappings, and mapHuge trims its own.
func mmap(n int, flags int) ([]byte, error) {
	p, err := unix.MmapPtr(-1, 0, nil, uintptr(n), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE|flags)
	if err != nil {
		return nil, err
	}
	return unsafe.Slice((*byte)(p), n), nil
}

func munmap(b []byte) error {
	return unix.MunmapPtr(unsafe.Pointer(unsafe.SliceData(b)), uintptr(len(b)))
}
