// Package apart keeps what one worker writes often off the cache lines
// that another worker uses. Two workers' small structs and arrays, made one
// after the other, sit side by side on the heap; when one writes a line
// the other reads, the line moves between the cores on every write (false
// sharing). In the search that cost 6-9% of the CPU time at two workers
// (BENCHMARKS.md, the thirteenth session).
package apart

import "unsafe"

// Span is the bytes a processor may move as one: two 64-byte lines, since
// the adjacent-line prefetcher of x86 processors fetches lines in pairs.
const Span = 128

// Pad, as a struct's last field, keeps the struct's fields at least Span
// bytes from whatever the allocator puts after it.
type Pad [Span]byte

// Make returns n zeroed elements in an array of a whole number of spans.
// The heap puts an object whose size is a multiple of Span at a multiple
// of its size class, itself a multiple of Span (every class from 128 bytes
// up that such a size rounds to is), so the array shares no span with
// another object.
func Make[T any](n int) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if size == 0 {
		return make([]T, n)
	}
	// unit elements fill whole spans: lcm(size, Span) bytes.
	unit := Span / gcd(size, Span)
	return make([]T, n, (max(n, 1)+unit-1)/unit*unit)
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
