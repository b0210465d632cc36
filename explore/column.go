package explore

import "unsafe"

// column is an array that grows in blocks of colBlock elements: growing
// never copies and never holds an old and a new array at once. The graph's
// edges (hundreds of megabytes for a liveness check) live in columns; as
// slices grown by copying they cost several full copies and, at the peak,
// more than twice their size.
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

// grow makes the length n, adding blocks as needed; new elements are zero.
func (c *column[T]) grow(n int) {
	for len(c.blocks)*colBlock < n {
		c.blocks = append(c.blocks, make([]T, colBlock))
	}
	c.n = max(c.n, n)
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
