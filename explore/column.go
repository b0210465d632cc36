package explore

import (
	"math"
	"sync"
	"unsafe"

	"github.com/mcheck/mcheck/internal/offheap"
)

// column is an array that grows in blocks of colBlock elements: growing
// never copies and never holds an old and a new array at once. The graph's
// edges (hundreds of megabytes for a liveness check) live in columns; as
// slices grown by copying they cost several full copies and, at the peak,
// more than twice their size.
//
// Blocks of plain integers (the edges' destinations and classes) are mapped
// outside the Go heap, populated at once: a liveness check touches hundreds
// of megabytes of them, and a page fault per 4 KiB page cost it seconds of
// system time. Such a column must be freed (free) once nothing reads it.
type column[T any] struct {
	blocks [][]T
	n      int
}

const (
	colShift = 16
	colBlock = 1 << colShift
	colMask  = colBlock - 1
)

func (c *column[T]) len() int { return c.n }

func (c *column[T]) at(i uint32) T { return c.blocks[i>>colShift][i&colMask] }

func (c *column[T]) ptr(i uint32) *T { return &c.blocks[i>>colShift][i&colMask] }

func (c *column[T]) set(i uint32, v T) { c.blocks[i>>colShift][i&colMask] = v }

// push appends v.
func (c *column[T]) push(v T) {
	c.grow(c.n + 1)
	c.set(uint32(c.n-1), v)
}

// grow makes the length n, adding blocks as needed; new elements are zero.
func (c *column[T]) grow(n int) {
	c.reserve(n)
	c.n = max(c.n, n)
}

// reserve adds blocks until n elements fit, without changing the length:
// a later grow up to n then maps nothing.
func (c *column[T]) reserve(n int) {
	for len(c.blocks)*colBlock < n {
		c.blocks = append(c.blocks, newBlock[T]())
	}
}

// growBytes is what grow(n) would allocate.
func (c *column[T]) growBytes(n int) int64 {
	blocks := (n + colBlock - 1) / colBlock
	if blocks <= len(c.blocks) {
		return 0
	}
	var zero T
	return int64(blocks-len(c.blocks)) * colBlock * int64(unsafe.Sizeof(zero))
}

func (c *column[T]) bytes() int64 {
	var zero T
	return int64(len(c.blocks)) * colBlock * int64(unsafe.Sizeof(zero))
}

// newBlock is a zeroed block: off the heap for plain integers.
func newBlock[T any]() []T {
	var zero T
	switch any(zero).(type) {
	case uint16:
		return any(offheap.Make[uint16](colBlock)).([]T)
	case uint32:
		return any(offheap.Make[uint32](colBlock)).([]T)
	case int32:
		return any(offheap.Make[int32](colBlock)).([]T)
	}
	return make([]T, colBlock)
}

// classes is the weak-fairness class of every edge in two bytes: class+1,
// 0 for none (ts.NoFairness). A system has few classes (the kernel N²+N
// plus one per process and timer), and an edge's two bytes instead of an
// int32's four take a fifth off the graph; a class that does not fit is
// kept in wide, by edge.
type classes struct {
	col  column[uint16]
	mu   sync.Mutex
	wide map[uint32]int32
}

// wideClass marks an edge whose class is in classes.wide.
const wideClass = math.MaxUint16

// at is edge e's class; call it once no set runs.
func (c *classes) at(e uint32) int32 {
	if v := c.col.at(e); v != wideClass {
		return int32(v) - 1
	}
	return c.wide[e]
}

// set gives edge e class cl. Safe for concurrent use on distinct edges.
func (c *classes) set(e uint32, cl int32) {
	if v := uint32(cl + 1); v < wideClass {
		c.col.set(e, uint16(v))
		return
	}
	c.mu.Lock()
	if c.wide == nil {
		c.wide = map[uint32]int32{}
	}
	c.wide[e] = cl
	c.mu.Unlock()
	c.col.set(e, wideClass)
}

func (c *classes) len() int              { return c.col.len() }
func (c *classes) grow(n int)            { c.col.grow(n) }
func (c *classes) growBytes(n int) int64 { return c.col.growBytes(n) }
func (c *classes) bytes() int64          { return c.col.bytes() + int64(len(c.wide))*16 }
func (c *classes) free()                 { c.col.free(); c.wide = nil }

// free gives back the blocks mapped outside the heap; the column is empty
// afterwards.
func (c *column[T]) free() {
	for _, b := range c.blocks {
		switch b := any(b).(type) {
		case []uint16:
			offheap.Free(b)
		case []uint32:
			offheap.Free(b)
		case []int32:
			offheap.Free(b)
		}
	}
	c.blocks, c.n = nil, 0
}
