package prefetch

import "unsafe"

// Line hints that the cache line holding addr will be read soon. It never
// faults and changes no memory.
//
//go:noescape
func Line(addr unsafe.Pointer)
