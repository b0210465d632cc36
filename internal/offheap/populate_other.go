//go:build (darwin || freebsd) && !race

package offheap

// populate: no such flag here; pages are faulted in as they are touched.
const populate = 0
