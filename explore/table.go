package explore

import "sync/atomic"

// table maps 64-bit state fingerprints to state indices. It is open
// addressing with linear probing over two parallel arrays (16 bytes a slot,
// kept at most three quarters full), written concurrently with atomic
// compare-and-swap while a batch of successors is being claimed, and grown
// between batches, when no worker runs. A slot is 12 bytes.
//
// A slot's value is 0 while unset, idx+1 once the state has its index, or
// pending|pos while successors of the current batch claim it: pos is the
// claimant's place in the sequential order of the batch, and the smallest
// pos wins, so the outcome does not depend on which worker came first.
// Fingerprint 0 marks an empty slot, so a state whose fingerprint is 0 is
// stored as 1 (one more way to collide, at 2^-64).
type table struct {
	keys []uint64
	vals []uint32
	mask uint64
	used int // slots in use; updated between batches
}

const pending = uint32(1) << 31

// maxStates is the most states the table can number: indices are stored
// +1 below the pending bit.
const maxStates = 1<<31 - 2

// claimPos is the sequential position of record j of chunk c within a batch
// (batchChunks <= 64 chunks of fewer than 2^25 successors).
func claimPos(c, j int) uint32 { return uint32(c)<<25 | uint32(j) }

func newTable(capacity int) *table {
	t := &table{}
	t.alloc(sizeFor(capacity))
	return t
}

func sizeFor(capacity int) int {
	size := 1024
	for size*3/4 < capacity {
		size *= 2
	}
	return size
}

func (t *table) alloc(size int) {
	t.keys, t.vals, t.mask = make([]uint64, size), make([]uint32, size), uint64(size-1)
}

func fix(fp uint64) uint64 {
	if fp == 0 {
		return 1
	}
	return fp
}

// slot finds or takes the slot of fp; newSlot says it was taken now.
func (t *table) slot(fp uint64) (i uint64, newSlot bool) {
	for i = fp & t.mask; ; i = (i + 1) & t.mask {
		k := atomic.LoadUint64(&t.keys[i])
		if k == fp {
			return i, false
		}
		if k == 0 {
			if atomic.CompareAndSwapUint64(&t.keys[i], 0, fp) {
				return i, true
			}
			if atomic.LoadUint64(&t.keys[i]) == fp {
				return i, false
			}
		}
	}
}

// claim records that the successor at sequential position pos reaches fp.
// If fp already has an index it returns it (old = true). It also returns
// the slot, which stays put until the table grows (between batches), so
// won, setAt and indexAt need not probe again. Safe for concurrent use.
func (t *table) claim(fp uint64, pos uint32) (slot uint64, idx uint32, old, newSlot bool) {
	i, newSlot := t.slot(fix(fp))
	want := pending | pos
	for {
		v := atomic.LoadUint32(&t.vals[i])
		if v != 0 && v&pending == 0 {
			return i, uint32(v - 1), true, newSlot
		}
		if v != 0 && v <= want {
			return i, 0, false, newSlot
		}
		if atomic.CompareAndSwapUint32(&t.vals[i], v, want) {
			return i, 0, false, newSlot
		}
	}
}

// won reports whether the claim at pos is the earliest for its slot; call
// it after every claim of the batch has been made.
func (t *table) won(slot uint64, pos uint32) bool {
	return atomic.LoadUint32(&t.vals[slot]) == pending|pos
}

// setAt gives the state of a slot its index.
func (t *table) setAt(slot uint64, idx uint32) { atomic.StoreUint32(&t.vals[slot], idx+1) }

// indexAt is the index of the state of a slot, once set.
func (t *table) indexAt(slot uint64) uint32 { return atomic.LoadUint32(&t.vals[slot]) - 1 }

func (t *table) find(fp uint64) (uint64, bool) {
	for i := fp & t.mask; ; i = (i + 1) & t.mask {
		switch atomic.LoadUint64(&t.keys[i]) {
		case fp:
			return i, true
		case 0:
			return i, false
		}
	}
}

// lookup returns the index of fp, if it has one.
func (t *table) lookup(fp uint64) (uint32, bool) {
	i, ok := t.find(fix(fp))
	if !ok {
		return 0, false
	}
	v := atomic.LoadUint32(&t.vals[i])
	if v == 0 || v&pending != 0 {
		return 0, false
	}
	return v - 1, true
}

// reserve grows the table, when no worker runs, so that extra more slots
// fit under the load limit.
func (t *table) reserve(extra int) {
	if (t.used+extra)*4 <= len(t.keys)*3 {
		return
	}
	oldKeys, oldVals := t.keys, t.vals
	t.alloc(sizeFor(t.used + extra))
	for i, k := range oldKeys {
		if k != 0 {
			j, _ := t.find(k)
			t.keys[j], t.vals[j] = k, oldVals[i]
		}
	}
}

func (t *table) bytes() int64 { return int64(len(t.keys)) * 12 }
