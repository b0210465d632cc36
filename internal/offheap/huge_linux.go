//go:build !race

package offheap

import (
	"slices"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The state table's probes land on random slots: with 4 KiB pages nearly
// every probe of a table larger than the TLB's reach (a few MiB) also
// walks the page tables, with 2 MiB pages a 1 GiB table needs 512 TLB
// entries. So arrays of a size that divides 2 MiB (the table's segments)
// are cut from 2 MiB chunks, aligned and advised as transparent huge
// pages, and arrays of a multiple of 2 MiB are such chunks themselves.
// Where the kernel has no THP (or it is "never") the advice does nothing
// and the pages stay small; the arrays are the same either way.

// hugePage is the size of a transparent huge page on amd64 and arm64
// (with 4 KiB base pages).
const hugePage = 2 << 20

// hugePool cuts pieces of one size from chunks of hugePage: a chunk is
// unmapped once all its pieces are free, so freeing arrays still gives
// their memory back (a growing table frees its old segments as it goes).
type hugePool struct {
	mu     sync.Mutex
	free   map[int][]piece        // free pieces, by size
	chunks map[uintptr]*hugeChunk // by address
}

// piece is a free piece; used: handed out before, so it holds old bytes
// (a fresh chunk's pieces are zero already).
type piece struct {
	mem  []byte
	used bool
}

type hugeChunk struct {
	mem          []byte
	piece, inUse int
}

// huge is the process's pool: the mappings are the process's too.
var huge = hugePool{free: map[int][]piece{}, chunks: map[uintptr]*hugeChunk{}}

// alloc returns n zeroed bytes backed by huge pages where the kernel has
// them, or nil when n is not a size that a chunk divides or is made of.
func (h *hugePool) alloc(n int) []byte {
	switch {
	case n >= hugePage && n%hugePage == 0:
		return mapHuge(n)
	case n < 64<<10 || hugePage%n != 0:
		return nil // small: a chunk would hold too many kinds of lifetimes
	}
	p := h.take(n)
	if p.used {
		clear(p.mem) // outside the lock: parts of a growth allocate at once
	}
	return p.mem
}

// take hands out a free piece of n bytes, from a new chunk if none is
// free; its mem is nil when no chunk can be mapped.
func (h *hugePool) take(n int) piece {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.free[n]) == 0 {
		c := mapHuge(hugePage)
		if c == nil {
			return piece{}
		}
		h.chunks[chunkOf(c)] = &hugeChunk{mem: c, piece: n}
		for off := hugePage - n; off >= 0; off -= n {
			h.free[n] = append(h.free[n], piece{mem: c[off : off+n : off+n]})
		}
	}
	free := h.free[n]
	p := free[len(free)-1]
	h.free[n] = free[:len(free)-1]
	h.chunks[chunkOf(p.mem)].inUse++
	return p
}

// release takes back b if the pool handed it out, and unmaps its chunk
// once no piece of it is in use; it reports whether b was the pool's.
func (h *hugePool) release(b []byte) bool {
	if len(b) >= hugePage {
		return false // a chunk of its own: unmapped as any mapping
	}
	base := chunkOf(b)
	h.mu.Lock()
	defer h.mu.Unlock()
	c, ok := h.chunks[base]
	if !ok || c.piece != len(b) {
		return false
	}
	n := c.piece
	if c.inUse--; c.inUse > 0 {
		h.free[n] = append(h.free[n], piece{mem: b, used: true})
		return true
	}
	h.free[n] = slices.DeleteFunc(h.free[n], func(p piece) bool { return chunkOf(p.mem) == base })
	delete(h.chunks, base)
	if err := munmap(c.mem); err != nil {
		panic("offheap: unmapping a chunk: " + err.Error())
	}
	return true
}

func chunkOf(b []byte) uintptr {
	return uintptr(unsafe.Pointer(unsafe.SliceData(b))) &^ (hugePage - 1)
}

// mapHuge maps n bytes, a multiple of hugePage, aligned to hugePage,
// advised as huge pages and faulted in at once; nil if the mapping fails.
func mapHuge(n int) []byte {
	b, err := mmap(n+hugePage, 0)
	if err != nil {
		return nil
	}
	skip := int((hugePage - uintptr(unsafe.Pointer(unsafe.SliceData(b)))%hugePage) % hugePage)
	if skip > 0 {
		_ = munmap(b[:skip])
	}
	if tail := b[skip+n:]; len(tail) > 0 {
		_ = munmap(tail)
	}
	b = b[skip : skip+n : skip+n]
	// Advice only: without THP the pages stay small.
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
	if unix.Madvise(b, unix.MADV_POPULATE_WRITE) != nil {
		touchPages(b) // Linux before 5.14
	}
	return b
}

// touchPages faults in every page of b at once, as MAP_POPULATE would have:
// the table touches its pages at random, one fault at a time otherwise.
func touchPages(b []byte) {
	for i := 0; i < len(b); i += pageSize {
		b[i] = 0
	}
}

// pageSize is the smallest page: a write to each faults in all of them.
const pageSize = 4 << 10
