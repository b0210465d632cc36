package explore

import (
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/mcheck/mcheck/internal/offheap"
	"github.com/mcheck/mcheck/internal/prefetch"
)

// table is the set of stored states: their 64-bit fingerprints and, when
// the liveness graph needs them, their indices. It is open addressing with
// linear probing. A fingerprint's home slot is the high half of fp*size
// ("fastrange"), so the size need not be a power of two: the table grows by
// half at a time and stays between 53% and 80% full.
//
// Slots live in segments of segSlots. Growing rehashes the old segments in
// order and recycles each one as soon as it is empty, so the old and the new
// table are never both whole in memory: the peak is the new table plus a
// few segments, not old plus new. That, and keys without indices for a
// safety-only search, keeps the table at 10 to 15 bytes per state.
//
// The table changes only between phases of a batch (growing) and in the
// write phase, where workers insert distinct fingerprints with atomic
// compare-and-swap. Fingerprint 0 marks an empty slot, so a state whose
// fingerprint is 0 is stored as 1 (one more way to collide, at 2^-64).
//
// Segments are mapped outside the Go heap (internal/offheap), so that the
// collector's slack and the heap's fragmentation do not come on top of the
// table: free gives them back when the search ends, and a segment the
// table drops is unmapped at once (with its 2 MiB chunk, once the chunk's
// other segments are gone too). On Linux the chunks are transparent huge
// pages, so that a probe's random slot costs no page walk (offheap).
type table struct {
	keys    [][]uint64
	vals    [][]uint32 // idx+1 per slot; nil unless indexed
	size    uint64     // slots; a multiple of segSlots
	gen     int        // growths so far
	used    int
	indexed bool
	spare   [][]uint64 // emptied segments, for reuse while growing
	spareV  [][]uint32
	mu      sync.Mutex // the segments, while parts of a growth run at once
	// run, if set, runs f(i) for i in [0, n) on parts goroutines at once
	// (the search's crew): a growth then moves parts of the table at once.
	run      func(n int, f func(i int))
	parts    int
	partSegs int // the fewest old segments a part moves (minPartSegs)
	leftOver int // fingerprints the parts of growths left to the end, in all
	// enc, in an exact search, holds every stored state's encoding: a
	// fingerprint matches only a state with the same encoding, and equal
	// fingerprints of distinct states both stay in the table.
	enc *encStore
}

const (
	segShift = 16
	segSlots = 1 << segShift
	segMask  = segSlots - 1
	// maxLoad is the fill (in 1/100) above which the table grows.
	maxLoad = 80
)

// maxStates is the most states a search can number: indices are uint32, the
// table stores them +1 (0 is no index), and the graph's edge records keep
// the top bit for a possibly new state's record (newEdge).
const maxStates = 1<<31 - 2

// newTable returns a table for about capacity states; indexed tables also
// map each fingerprint to its state index.
func newTable(capacity int, indexed bool) *table {
	t := &table{indexed: indexed, partSegs: minPartSegs}
	t.alloc(slotsFor(capacity))
	return t
}

// slotsFor is the size, in whole segments, that holds n states under the
// load limit.
func slotsFor(n int) uint64 {
	segs := (uint64(n)*100/maxLoad + segSlots) / segSlots
	return max(segs, 1) * segSlots
}

func (t *table) alloc(size uint64) {
	t.size = size
	t.keys = make([][]uint64, size/segSlots)
	if t.indexed {
		t.vals = make([][]uint32, size/segSlots)
	}
	for s := range t.keys {
		t.segment(s)
	}
}

// segment makes sure segment s exists, reusing a spare one if there is one.
func (t *table) segment(s int) {
	if t.keys[s] != nil {
		return
	}
	if n := len(t.spare); n > 0 {
		t.keys[s], t.spare = t.spare[n-1], t.spare[:n-1]
	} else {
		t.keys[s] = offheap.Make[uint64](segSlots)
	}
	if !t.indexed {
		return
	}
	if n := len(t.spareV); n > 0 {
		t.vals[s], t.spareV = t.spareV[n-1], t.spareV[:n-1]
	} else {
		t.vals[s] = offheap.Make[uint32](segSlots)
	}
}

func fix(fp uint64) uint64 {
	if fp == 0 {
		return 1
	}
	return fp
}

func (t *table) home(fp uint64) uint64 {
	hi, _ := bits.Mul64(fp, t.size)
	return hi
}

func (t *table) next(i uint64) uint64 {
	if i++; i == t.size {
		return 0
	}
	return i
}

// prefetch hints that fp's home slot will be probed soon, and with index
// set that the index of a state found there will be read.
func (t *table) prefetch(fp uint64, index bool) {
	i := t.home(fix(fp))
	prefetch.Line(unsafe.Pointer(&t.keys[i>>segShift][i&segMask]))
	if index && t.indexed {
		// A state found is read with its index: another line.
		prefetch.Line(unsafe.Pointer(&t.vals[i>>segShift][i&segMask]))
	}
}

// prefetchSlot hints that slot i will be written soon: its key and, in an
// indexed table, its index (another line, as costly a miss as the key's).
func (t *table) prefetchSlot(i uint64) {
	prefetch.Line(unsafe.Pointer(&t.keys[i>>segShift][i&segMask]))
	if t.indexed {
		prefetch.Line(unsafe.Pointer(&t.vals[i>>segShift][i&segMask]))
	}
}

// find returns the slot of the state with fingerprint fp and encoding enc
// (enc counts only in an exact table), or the empty slot where it would go.
func (t *table) find(fp uint64, enc []byte) (i uint64, ok bool) {
	for i = t.home(fp); ; i = t.next(i) {
		switch atomic.LoadUint64(&t.keys[i>>segShift][i&segMask]) {
		case fp:
			if t.enc == nil || t.enc.equal(atomic.LoadUint32(&t.vals[i>>segShift][i&segMask])-1, enc) {
				return i, true
			}
		case 0:
			return i, false
		}
	}
}

// lookup returns whether the state (fingerprint fp, encoding enc) is
// stored and, in an indexed table, its index.
func (t *table) lookup(fp uint64, enc []byte) (idx uint32, ok bool) {
	idx, _, ok = t.lookupSlot(fp, enc, true)
	return idx, ok
}

// lookupSlot is lookup that also returns where the state is, or the empty
// slot where it would go: a later insert can start there, as long as the
// table has not grown in between (gen). The index of a state found is read
// only with index set (another cache line).
func (t *table) lookupSlot(fp uint64, enc []byte, index bool) (idx uint32, slot uint64, ok bool) {
	i, ok := t.find(fix(fp), enc)
	if ok && index && t.indexed {
		idx = atomic.LoadUint32(&t.vals[i>>segShift][i&segMask]) - 1
	}
	return idx, i, ok
}

// insert stores a fingerprint that is not in the table yet, with its index.
// Safe for concurrent use with other inserts of other fingerprints; the
// caller has reserved room.
func (t *table) insert(fp uint64, idx uint32) { t.insertFrom(t.home(fix(fp)), fp, idx) }

// insertFrom is insert starting the probe at slot from, which must lie on
// fp's probe sequence with every slot before it taken (lookupSlot's slot,
// in the same generation: slots are never freed).
func (t *table) insertFrom(from, fp uint64, idx uint32) {
	fp = fix(fp)
	for i := from; ; i = t.next(i) {
		k := &t.keys[i>>segShift][i&segMask]
		if atomic.LoadUint64(k) == 0 && atomic.CompareAndSwapUint64(k, 0, fp) {
			if t.indexed {
				atomic.StoreUint32(&t.vals[i>>segShift][i&segMask], idx+1)
			}
			return
		}
	}
}

// reserve grows the table, when no worker runs, so that extra more states
// fit under the load limit; then counts them as used.
func (t *table) reserve(extra int) {
	if (t.used+extra)*100 > int(t.size)*maxLoad {
		t.grow(slotsFor(max(t.used+extra, (t.used+extra)*3/2)))
	}
	t.used += extra
}

// grow rehashes into size slots, segment by segment (see table). With run
// set and a table of some size, parts of it grow at once (see part).
func (t *table) grow(size uint64) {
	old, oldV, oldSize := t.keys, t.vals, t.size
	t.size = size
	t.gen++
	t.keys = make([][]uint64, size/segSlots)
	if t.indexed {
		t.vals = make([][]uint32, size/segSlots)
	}
	parts := 1
	if t.run != nil && len(old) >= t.partSegs*t.parts {
		parts = t.parts
	}
	// Part p moves the old segments from bounds[p] on into the new slots
	// from its start on: where the home of the first of them now falls,
	// down to a whole segment, so that no two parts share a segment.
	bounds, starts := make([]int, parts+1), make([]uint64, parts+1)
	for p := range parts {
		bounds[p] = p * len(old) / parts
		hi, lo := bits.Mul64(uint64(bounds[p])*segSlots, size)
		q, _ := bits.Div64(hi, lo, oldSize)
		starts[p] = q &^ segMask
	}
	bounds[parts], starts[parts] = len(old), size
	left := make([][]moved, parts)
	movePart := func(p int) {
		left[p] = t.part(old, oldV, bounds[p], bounds[p+1], starts[p], starts[p+1])
	}
	if parts == 1 {
		movePart(0)
	} else {
		t.run(parts, movePart)
	}
	for _, ms := range left {
		t.leftOver += len(ms)
		for _, m := range ms {
			t.insertFrom(t.home(m.key), m.key, m.val-1)
		}
	}
	for s := range t.keys {
		t.segment(s)
	}
	freeAll(t.spare)
	freeAll(t.spareV)
	t.spare, t.spareV = nil, nil
}

// minPartSegs is the fewest old segments per part for a growth in parts:
// below it the parts' start costs more than they save.
const minPartSegs = 4

// moved is a fingerprint and its slot's value (index+1, or 0), moved by a
// growth.
type moved struct {
	key uint64
	val uint32
}

// part moves the fingerprints of old segments [from, to) into the new slots
// [lo, hi), and returns those it left: the ones whose home is outside, or
// whose probe runs past hi. Linear probing is right for any order of
// insertion, so grow inserts those afterwards. Old slots come in order of
// home, so the new ones fill in order too: the loop is sequential writes.
// Each old segment is recycled as soon as it is empty, so the old and the
// new table are never both whole in memory. Parts run at once: each writes
// only its own segments, and the segments change hands under the lock.
func (t *table) part(old [][]uint64, oldV [][]uint32, from, to int, lo, hi uint64) []moved {
	var left []moved
	for s := from; s < to; s++ {
		seg := old[s]
		for j, k := range seg {
			if k == 0 {
				continue
			}
			var v uint32
			if t.indexed {
				v = oldV[s][j]
			}
			i := t.home(k)
			for i >= lo && i < hi {
				ns := t.keys[i>>segShift]
				if ns == nil {
					t.lockedSegment(int(i >> segShift))
					ns = t.keys[i>>segShift]
				}
				if ns[i&segMask] == 0 {
					break
				}
				i++
			}
			if i < lo || i >= hi {
				left = append(left, moved{k, v})
				continue
			}
			t.keys[i>>segShift][i&segMask] = k
			if t.indexed {
				t.vals[i>>segShift][i&segMask] = v
			}
		}
		clear(seg)
		t.mu.Lock()
		t.spare, old[s] = append(t.spare, seg), nil
		if t.indexed {
			clear(oldV[s])
			t.spareV, oldV[s] = append(t.spareV, oldV[s]), nil
		}
		t.mu.Unlock()
	}
	return left
}

// lockedSegment is segment for parts of a growth that run at once.
func (t *table) lockedSegment(s int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.segment(s)
}

// dropIndex forgets the indices (the graph that needed them is gone),
// unless the exact comparison needs them.
func (t *table) dropIndex() {
	if t.enc == nil {
		freeAll(t.vals)
		freeAll(t.spareV)
		t.indexed, t.vals, t.spareV = false, nil, nil
	}
}

// free gives the table's memory back; the table is empty and unusable
// afterwards.
func (t *table) free() {
	freeAll(t.keys)
	freeAll(t.vals)
	freeAll(t.spare)
	freeAll(t.spareV)
	t.keys, t.vals, t.spare, t.spareV, t.size, t.used = nil, nil, nil, nil, 0, 0
}

func freeAll[T offheap.Word](segs [][]T) {
	for _, seg := range segs {
		offheap.Free(seg)
	}
}

func (t *table) bytes() int64 {
	per := int64(8)
	if t.indexed {
		per += 4
	}
	b := int64(t.size+uint64(len(t.spare))*segSlots) * per
	if t.enc != nil {
		b += t.enc.bytes()
	}
	return b
}

// claims decides, within one batch, which successor first reaches each new
// state: the one at the smallest sequential position, whatever the order in
// which workers got there. It is open addressing over a power of two slots,
// sized for the batch and cleared between batches.
//
// A slot's value is claimed|pos: the earliest position that claimed it.
type claims struct{ batchSlots }

// batchSlots is open addressing over a power of two slots, each a
// fingerprint and a 32-bit value, emptied between batches: the claims and
// the encoded set (lazy.go).
type batchSlots struct {
	keys []uint64
	vals []uint32
	mask uint64
}

// empty clears the slots, at least n of them (a power of two, at least
// 1024), keeping their memory when it is enough.
func (b *batchSlots) empty(n int) {
	size := 1024
	for size < n {
		size *= 2
	}
	if size > len(b.keys) {
		b.keys, b.vals = make([]uint64, size), make([]uint32, size)
	} else {
		b.keys, b.vals = b.keys[:size], b.vals[:size]
		clear(b.keys)
		clear(b.vals)
	}
	b.mask = uint64(size - 1)
}

func (b *batchSlots) bytes() int64 { return int64(cap(b.keys))*8 + int64(cap(b.vals))*4 }

// claimed marks a claims slot's value, so that position 0 is not read as
// no claim at all.
const claimed = uint32(1) << 31

// claimPos is the sequential position of record j of chunk c within a batch
// (batchChunks <= 64 chunks of fewer than 2^25 successors).
func claimPos(c, j int) uint32 { return uint32(c)<<25 | uint32(j) }

// claimAt is the chunk and the record of claim position pos.
func claimAt(pos uint32) (c, j int) { return int(pos >> 25), int(pos & (1<<25 - 1)) }

// reset empties the table and makes room for n claims.
func (c *claims) reset(n int) { c.empty((n*5 + 3) / 4) } // at most 80% full, even if every claim is new

// claim records that the successor at position pos reaches fp, and returns
// fp's slot. Safe for concurrent use.
func (c *claims) claim(fp uint64, pos uint32) uint64 {
	fp = fix(fp)
	i := fp & c.mask
	for {
		k := atomic.LoadUint64(&c.keys[i])
		if k == fp {
			break
		}
		if k == 0 && atomic.CompareAndSwapUint64(&c.keys[i], 0, fp) {
			break
		}
		if atomic.LoadUint64(&c.keys[i]) == fp {
			break
		}
		i = (i + 1) & c.mask
	}
	want := claimed | pos
	for {
		v := atomic.LoadUint32(&c.vals[i])
		if v != 0 && v <= want {
			return i
		}
		if atomic.CompareAndSwapUint32(&c.vals[i], v, want) {
			return i
		}
	}
}

// prefetch hints that fp's claim will be made soon.
func (c *claims) prefetch(fp uint64) {
	prefetch.Line(unsafe.Pointer(&c.keys[fix(fp)&c.mask]))
}

// won reports whether the claim at pos is the earliest of its slot; call it
// after every claim of the batch has been made.
func (c *claims) won(slot uint64, pos uint32) bool {
	return atomic.LoadUint32(&c.vals[slot]) == claimed|pos
}

// winner is the position of the earliest claim of a slot; call it after
// every claim of the batch has been made.
func (c *claims) winner(slot uint64) uint32 { return atomic.LoadUint32(&c.vals[slot]) &^ claimed }
