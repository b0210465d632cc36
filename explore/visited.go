package explore

// VisitedSet is the set of states a search has seen, by 64-bit
// fingerprint (TLC's FPSet): the seam where another store (on disk,
// compressed, on other machines) becomes one more implementation. The
// search calls it a block at a time (a chunk of a batch's successors, the
// initial states), never per state, and never concurrently: each call
// comes between the parallel phases of a batch or on one goroutine, so an
// implementation needs no locks of its own. Three come with the engine:
//
//   - NewFingerprintSet: the fingerprint table (Options' default).
//   - NewExactSet: the table with every state's encoding besides its
//     fingerprint, so that no collision can hide a state (Options.Exact).
//   - NewBitSet: SPIN's supertrace bit array (Options.Bitstate), which may
//     take a new state for seen, and so is not Exhaustive.
//
// The suite in visited_test.go (TestVisitedSets) runs against every one.
type VisitedSet interface {
	// ContainsBlock sets seen[i] to whether the state with fingerprint
	// fps[i] is in the set. encs[i] is its canonical encoding; a set that
	// compares encodings (NewExactSet) needs it, the others ignore encs,
	// which may then be nil.
	ContainsBlock(fps []uint64, encs [][]byte, seen []bool)
	// PutBlock adds the states of fps that are not in the set yet and sets
	// added[i] for each state it added; a state given twice in one block
	// is added at its first place only. The states added are numbered
	// next, next+1, ... in block order (the state indices of the search);
	// it returns how many it added.
	PutBlock(fps []uint64, encs [][]byte, next uint32, added []bool) int
	// Exhaustive reports whether a state is seen only after it was put:
	// true for the table and the exact set, false for the bit array.
	Exhaustive() bool
	// Len is the states added so far; Bytes the memory the set holds.
	Len() int64
	Bytes() int64
}

// tableSet is the fingerprint table (and, with an encStore, the exact
// set) as a VisitedSet.
type tableSet struct {
	t *table
	n int64
}

// NewFingerprintSet is the fingerprint table for about capacity states;
// indexed tables also keep each state's index (for the state graph).
func NewFingerprintSet(capacity int, indexed bool) VisitedSet {
	return &tableSet{t: newTable(capacity, indexed)}
}

// NewExactSet is the table that also keeps every state's encoding and
// takes a fingerprint match for a visit only when the encodings are equal.
func NewExactSet(capacity int) VisitedSet {
	t := newTable(capacity, true)
	t.enc = &encStore{}
	return &tableSet{t: t}
}

func (s *tableSet) ContainsBlock(fps []uint64, encs [][]byte, seen []bool) {
	for i, fp := range fps {
		_, seen[i] = s.t.lookup(fp, encAt(encs, i))
	}
}

func (s *tableSet) PutBlock(fps []uint64, encs [][]byte, next uint32, added []bool) int {
	n := 0
	for i, fp := range fps {
		enc := encAt(encs, i)
		if _, old := s.t.lookup(fp, enc); old {
			added[i] = false
			continue
		}
		idx := next + uint32(n)
		s.t.reserve(1)
		if e := s.t.enc; e != nil {
			e.grow(int(idx) + 1)
			e.put(e.alloc(encLen(len(enc))), idx, enc)
		}
		s.t.insert(fp, idx)
		added[i] = true
		n++
	}
	s.n += int64(n)
	return n
}

func (s *tableSet) Exhaustive() bool { return true }
func (s *tableSet) Len() int64       { return s.n }

func (s *tableSet) Bytes() int64 { return s.t.bytes() } // with the encodings

// bitSet is the bit array as a VisitedSet.
type bitSet struct {
	b *bitstate
	n int64
}

// NewBitSet is a bit array of about bytes bytes (a power of two bits);
// seed, when not 0, remixes the fingerprints first (Options.BitstateSeed).
func NewBitSet(bytes int64, seed uint64) VisitedSet { return &bitSet{b: newBitstate(bytes, seed)} }

func (s *bitSet) ContainsBlock(fps []uint64, _ [][]byte, seen []bool) {
	for i, fp := range fps {
		seen[i] = s.b.has(fp)
	}
}

func (s *bitSet) PutBlock(fps []uint64, _ [][]byte, _ uint32, added []bool) int {
	n := 0
	for i, fp := range fps {
		added[i] = s.b.add(fp)
		if added[i] {
			n++
		}
	}
	s.n += int64(n)
	return n
}

func (s *bitSet) Exhaustive() bool { return false }
func (s *bitSet) Len() int64       { return s.n }
func (s *bitSet) Bytes() int64     { return s.b.bytes() }

func encAt(encs [][]byte, i int) []byte {
	if encs == nil {
		return nil
	}
	return encs[i]
}
