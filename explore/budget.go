package explore

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"unsafe"
)

// The memory budget (Options.MemoryBudget) bounds the whole process, not
// only the search's own arrays. What the search keeps is counted exactly
// (memBytes: table, links, frontier, graph, claims, batch buffers, and the
// workers: their buffers, and their expanders as measured when the first
// was made). On top
// of it come the arrays the next batch may allocate before the old ones are
// collected (a table growth, a larger graph or frontier index: nextBytes),
// the Tarjan arrays of the fair-cycle check after a complete search, and
// the Go runtime's own slack: garbage not yet collected, fragmentation,
// stacks. The search stops (after giving up the liveness graph) before
// what it keeps plus what the next batch may allocate passes
// searchShare of the budget; the rest is the runtime's, and the program
// (cmd/mcheck, never this library) tells the runtime the budget
// (SetMemoryLimit) so that its collector keeps garbage within it. The
// state table is mapped outside the Go heap (internal/offheap), and the
// program lowers the runtime's limit by what is mapped (offheap.Listen):
// the heap gets the budget less the table, and the table has no slack.
const (
	searchShare = 0.80
	// tarjanBytes is what the checks after the search allocate per state,
	// with room: the SCC pass's one array (4), a call frame (12), an open
	// entry and a component entry (4 each); afterwards the measures group
	// the states by component (8 beside the array's 4).
	tarjanBytes = 28
)

// SearchLimit is how far the search's own memory (Progress.MemBytes) may
// grow under a budget, before the forecast of its next batch.
func SearchLimit(budget int64) int64 { return int64(float64(budget) * searchShare) }

// MemoryLimit is the limit to give the Go runtime (debug.SetMemoryLimit)
// for a search with this budget: a little below it, for the program's code
// and the memory the runtime does not count.
func MemoryLimit(budget int64) int64 { return budget - min(budget/32, 64<<20) }

// growTo returns xs with length n and its contents. A new array gets a
// quarter more room than asked for, so that appending batch after batch
// copies rarely; growCap says how much, for the budget's forecast.
func growTo[T any](xs []T, n int) []T {
	if n <= cap(xs) {
		return xs[:n]
	}
	ys := make([]T, n, growCap(cap(xs), n))
	copy(ys, xs)
	return ys
}

func growCap(old, n int) int {
	if n <= old {
		return old
	}
	return max(n, old+old/4)
}

// growBytes is what growTo allocates to bring a slice of cap old, holding
// have elements, to have+more elements of size elem (0 if it fits).
func growBytes(old, have, more int, elem int64) int64 {
	if have+more <= old {
		return 0
	}
	return int64(growCap(old, have+more)) * elem
}

// nextBytes forecasts what the next batch may allocate beyond what the
// search keeps now, while the arrays it replaces are still in memory: it
// assumes the batch has twice as many successors as the largest so far,
// every one a new state.
func (s *search) nextBytes() int64 {
	succs := 2 * max(s.maxSuccs, chunkStates*batchChunks)
	var b int64
	b += s.visited.growBytes(succs)
	b += growBytes(cap(s.front.next.lens), len(s.front.next.lens), succs, 2) + growBytes(cap(s.front.next.offs), len(s.front.next.offs), succs/chunkStates+1, 8)
	if g := s.graph; g != nil {
		edges := 2 * max(s.maxEdges, chunkStates*batchChunks)
		b += g.starts.growBytes(g.starts.len()+succs) + g.dst.growBytes(g.dst.len()+edges) + g.class.growBytes(g.class.len()+edges) + g.sent.growBytes(g.sent.len()+edges)
		// The fair-cycle check after the search, with the graph still kept.
		b += int64(s.front.links.n+succs) * tarjanBytes
		// The batch's edge records.
		b += int64(edges) * int64(unsafe.Sizeof(edgeRec{}))
	}
	// The batch's successor records and encodings.
	b += int64(succs) * int64(unsafe.Sizeof(succRec{})+16)
	return b
}

// withinBudget enforces the memory budget before a batch: the liveness
// graph is given up first, then the search stops.
func (s *search) withinBudget() bool {
	budget := s.opt.MemoryBudget
	if budget <= 0 {
		return true
	}
	limit := SearchLimit(budget)
	if s.memBytes()+s.nextBytes() <= limit {
		return true
	}
	if s.graph != nil {
		s.livenessSkipped = fmt.Sprintf("the state graph outgrew the memory budget of %s at %d states", FormatBytes(budget), s.front.links.n)
		s.graph.free()
		s.graph = nil
		s.visited.dropIndex()
		runtime.GC()
		debug.FreeOSMemory()
		if s.found.anyStuck() && !s.opt.Continue {
			s.halt(StopFirstViolation, whyFirstViolation)
			return false
		}
	}
	if s.memBytes()+s.nextBytes() > limit {
		why := fmt.Sprintf("memory budget of %s reached", FormatBytes(budget))
		if err := s.front.spillFailed(); err != nil {
			why += fmt.Sprintf(" (temporary files failed, so the search used memory instead: %v)", err)
		}
		s.halt(StopMemory, why)
		return false
	}
	return true
}
