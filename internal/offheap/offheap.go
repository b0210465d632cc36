// Package offheap hands out large zeroed arrays of plain integers outside
// the Go heap. The explorer's state table is most of a search's memory;
// allocated with make it sits on the heap, where the collector lets the
// heap grow by GOGC percent past what is live and the runtime's free spans
// fragment, so the process holds a good deal more than the table itself.
// Go has no other way to keep a large array outside the collector's reach
// than to map it from the operating system and give it back by hand.
//
// Only pointer-free element types are allowed (plain integers): the
// collector never scans this memory, so nothing in it may point into the
// heap, and a slice header pointing here is simply not followed.
//
// Under the race detector (and where no mapping is wired up) the arrays
// come from make instead: the detector watches only Go memory.
package offheap

import "sync/atomic"

// Word is what an off-heap array may hold: plain integers, no pointers.
type Word interface {
	~uint16 | ~int32 | ~uint32 | ~uint64
}

// listener hears of every mapping and unmapping; nil: nobody listens.
var listener atomic.Pointer[func(bytes int64)]

// Listen has f told the size of every array mapped from now on (bytes > 0)
// and of every one given back (bytes < 0); nil stops it. The mappings are
// the process's, and so is this: only a program calls it (membudget.Apply, to
// keep the Go runtime's memory limit, which counts the heap alone, below
// what is mapped), never a library, which changes no process-wide setting.
func Listen(f func(bytes int64)) {
	if f == nil {
		listener.Store(nil)
		return
	}
	listener.Store(&f)
}

// tell tells the listener of a mapping (bytes > 0) or an unmapping.
func tell(bytes int64) {
	if f := listener.Load(); f != nil {
		(*f)(bytes)
	}
}
