//go:build !(linux || darwin || freebsd) || race

package offheap

// Mapped reports whether Make maps its arrays outside the Go heap here.
const Mapped = false

// Make returns n zeroed elements, here from the Go heap.
func Make[T Word](n int) []T { return make([]T, n) }

// Free leaves the array to the collector.
func Free[T Word]([]T) {}
