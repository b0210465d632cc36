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

// Word is what an off-heap array may hold: plain integers, no pointers.
type Word interface {
	~uint16 | ~int32 | ~uint32 | ~uint64
}
