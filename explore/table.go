package explore

// table maps 64-bit state fingerprints to state indices: open addressing
// with linear probing over parallel arrays, 12 bytes per slot, kept at most
// three quarters full. Fingerprint 0 marks an empty slot, so a state whose
// fingerprint is 0 is stored as 1 (one more way to collide, at 2^-64).
type table struct {
	keys []uint64
	vals []uint32
	mask uint64
	used int
}

func newTable(capacity int) *table {
	size := 1024
	for size*3/4 < capacity {
		size *= 2
	}
	return &table{keys: make([]uint64, size), vals: make([]uint32, size), mask: uint64(size - 1)}
}

// insert returns the index stored for fp, or stores idx and reports isNew.
func (t *table) insert(fp uint64, idx uint32) (uint32, bool) {
	if fp == 0 {
		fp = 1
	}
	if (t.used+1)*4 > len(t.keys)*3 {
		t.grow()
	}
	for i := fp & t.mask; ; i = (i + 1) & t.mask {
		switch t.keys[i] {
		case 0:
			t.keys[i], t.vals[i] = fp, idx
			t.used++
			return idx, true
		case fp:
			return t.vals[i], false
		}
	}
}

// lookup returns the index stored for fp.
func (t *table) lookup(fp uint64) (uint32, bool) {
	if fp == 0 {
		fp = 1
	}
	for i := fp & t.mask; ; i = (i + 1) & t.mask {
		switch t.keys[i] {
		case 0:
			return 0, false
		case fp:
			return t.vals[i], true
		}
	}
}

func (t *table) grow() {
	oldKeys, oldVals := t.keys, t.vals
	size := 2 * len(oldKeys)
	t.keys, t.vals, t.mask, t.used = make([]uint64, size), make([]uint32, size), uint64(size-1), 0
	for i, k := range oldKeys {
		if k != 0 {
			t.insert(k, oldVals[i])
		}
	}
}

func (t *table) bytes() int64 { return int64(len(t.keys)) * 12 }
