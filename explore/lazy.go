package explore

import (
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/mcheck/mcheck/internal/prefetch"
)

// Lazy expansion (ts.LazyExpander): a state's successors come with their
// fingerprints only. Each is looked up in the table as it comes; one seen in
// an earlier batch costs no more (without the graph it leaves no record).
// A new one is encoded only if no other successor of the batch encoded the
// same fingerprint first (the encoded set): a new state is typically reached
// several times within its BFS level, and each reach would otherwise pay for
// the encoding, the predicates and the copy. Which of the reaches encodes it
// depends on the workers' timing, but not the bytes: the encoding is a
// function of the state, so the search's results stay those of one worker.

// expandLazy expands the states of chunk ch (data holds them back to back)
// and records their successors. It is a pipeline of
// two: state i is expanded and its successors' table slots are prefetched,
// then state i-1, expanded in the other half, has its successors looked up
// and recorded, by which time their slots are in the cache. Records come in
// state order as in a plain loop.
func (s *search) expandLazy(w *worker, ch *chunk, data []byte) {
	var waiting *expansion
	off := 0 // of state i in data
	for i := ch.lo; i < ch.hi; i++ {
		x := w.x
		if x == waiting {
			x = w.alt
		}
		x.src = s.front.cur.base + uint32(i)
		n := int(s.front.cur.lens[i])
		s.expandAhead(x, ch, data[off:off+n])
		off += n
		if waiting != nil {
			s.recordLazy(w, ch, waiting)
		}
		waiting = x
	}
	if waiting != nil {
		s.recordLazy(w, ch, waiting)
	}
}

// expandAhead expands a state lazily into x, chooses the successors to
// follow (x.pick) and prefetches where their lookups will go.
func (s *search) expandAhead(x *expansion, ch *chunk, state []byte) {
	b := &x.batch
	pick := s.expandState(x, ch, state)
	if pick == nil {
		x.pick = x.pick[:0]
		for j := range b.Succs {
			x.pick = append(x.pick, int32(j))
		}
	}
	x.fps, x.keep = x.fps[:0], x.keep[:0]
	for _, j := range x.pick {
		y := &b.Succs[j]
		x.fps = append(x.fps, y.FP)
		x.keep = append(x.keep, s.graph.keeps(y))
		s.encoded.prefetch(y.FP)
	}
	s.visited.prefetchBlock(x.fps, x.keep)
}

// recordLazy looks up the successors x holds and records them: one seen in
// an earlier batch leaves only its edge, for the graph; a new one is encoded
// if no other successor of the batch encoded it first.
func (s *search) recordLazy(w *worker, ch *chunk, x *expansion) {
	b, src := &x.batch, x.src
	g := s.graph
	s.noteExpanded(ch, b, int(src-s.front.cur.base)-ch.lo, len(x.pick), src)
	e0 := len(ch.edges)
	// The lookups first, as one block (prefetched by expandAhead). An old
	// state's index is read for an edge only (x.keep).
	w.probes = slices.Grow(w.probes[:0], len(x.fps))[:len(x.fps)]
	s.visited.lookupBlock(x.fps, x.keep, w.probes)
	w.reach = w.reach[:0]
	rec := len(ch.recs) // the record the next new successor gets
	// One worker meets the successors in BFS order: the first reach (the
	// owner) comes first in that order too, and need not be read.
	inOrder := s.team.inOrder()
	for k, j := range x.pick {
		if w.probes[k].old {
			continue
		}
		y, pos := &b.Succs[j], claimPos(ch.id, rec)
		// Without an edge to resolve, a reach that cannot win its claim
		// has nothing to record.
		loses := !g.keeps(y)
		mine, earlier := s.encoded.add(y.FP, pos, loses && !inOrder)
		switch {
		case mine:
			w.reach = append(w.reach, reachEncodes)
			rec++
		case loses && (inOrder || earlier):
			// An earlier successor of the batch in BFS order reaches the
			// same state and wins the claim.
			w.reach = append(w.reach, reachDropped)
		default:
			w.reach = append(w.reach, reachBorrows)
			rec++
		}
	}
	m := 0
	for k, j := range x.pick {
		y, p := &b.Succs[j], &w.probes[k]
		if bad := s.found.stepMask &^ y.Props; bad != 0 {
			ch.recordSteps(bad, src, y.Action)
		}
		if p.old {
			if g.keeps(y) {
				ch.addEdge(g, p.idx, y)
			}
			continue
		}
		reach := w.reach[m]
		m++
		if reach == reachDropped {
			continue
		}
		if g.keeps(y) {
			ch.addEdge(g, newEdge|uint32(len(ch.recs)), y)
		}
		r := succRec{
			fp: y.FP, tslot: p.slot, action: y.Action, src: src,
			outcome: recLost,
		}
		if reach == reachEncodes {
			x.lazy.Materialize(b, int(j))
			off := len(ch.buf)
			ch.buf = append(ch.buf, b.State(int(j))...)
			r.off, r.end, r.props = uint32(off), uint32(len(ch.buf)), y.Props
		} else {
			r.borrowed = true
		}
		ch.recs = append(ch.recs, r)
	}
	ch.noteFanout(g, e0)
}

// What a lazily expanded successor that the table does not hold records.
const (
	reachBorrows = iota // a record, with another successor's encoding
	reachEncodes        // a record, with its own encoding: the first reach in time
	reachDropped        // nothing: an earlier reach in BFS order wins the claim
)

// probe is the outcome of a table lookup: found (old) with its index, or
// the slot where the state would go.
type probe struct {
	idx  uint32
	slot uint64
	old  bool
}

// encodingOf is the encoding of successor r of chunk ch and the predicates
// that hold in it; call it once expansion is over.
func (s *search) encodingOf(ch *chunk, r *succRec) ([]byte, uint64) {
	if r.borrowed {
		ch, r = s.recAt(s.encoded.owner(r.fp))
	}
	return ch.buf[r.off:r.end], r.props
}

// encoded maps, within one batch, the fingerprint of each new state to the
// successor that encoded it (its claimPos). It is open addressing over a
// power of two slots, cleared between batches. It only saves work: when a
// probe runs long (the set is crowded), add says "encode it yourself".
type encoded struct{ batchSlots }

const encodedProbes = 32

// reset empties the set, sized for about n successors.
func (e *encoded) reset(n int) { e.empty(2 * n) }

// add reports whether the successor at pos, which reaches fp, is to encode
// it: the first of the batch to reach fp is (and is then its owner), as is
// any successor that finds the set crowded. Otherwise, with order set, it
// also reports whether the owner is known to come before pos in BFS order
// (another worker may have stored fp and not yet its position; reading the
// position is another cache line). Safe for concurrent use.
func (e *encoded) add(fp uint64, pos uint32, order bool) (mine, earlier bool) {
	fp = fix(fp)
	i := fp & e.mask
	for range encodedProbes {
		k := atomic.LoadUint64(&e.keys[i])
		if k == 0 && atomic.CompareAndSwapUint64(&e.keys[i], 0, fp) {
			atomic.StoreUint32(&e.vals[i], pos|claimed)
			return true, false
		}
		if k == fp || k == 0 && atomic.LoadUint64(&e.keys[i]) == fp {
			if !order {
				return false, false
			}
			v := atomic.LoadUint32(&e.vals[i])
			return false, v&claimed != 0 && v&^claimed < pos
		}
		i = (i + 1) & e.mask
	}
	return true, false
}

// owner is the position of the successor that encoded fp; call it after
// every add of the batch, for a fingerprint whose add said false.
func (e *encoded) owner(fp uint64) uint32 {
	fp = fix(fp)
	for i := fp & e.mask; ; i = (i + 1) & e.mask {
		if atomic.LoadUint64(&e.keys[i]) == fp {
			// Stored by then: every add of the batch is over.
			return atomic.LoadUint32(&e.vals[i]) &^ claimed
		}
	}
}

// prefetch hints that fp's slot will be probed soon.
func (e *encoded) prefetch(fp uint64) {
	prefetch.Line(unsafe.Pointer(&e.keys[fix(fp)&e.mask]))
}
