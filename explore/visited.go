package explore

import "slices"

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

// visitedPart is the search's visited set with its share of every batch
// (between the batch's phases, or in them, a chunk per call): the
// claims, the room for the new states, and their store. How a set claims
// is its own: the table claims a batch's chunks on all workers at once,
// the bit array in order on one.
type visitedPart interface {
	VisitedSet
	// claim decides which successors of the batch's chunks (succs in
	// all) are new states, and which record of each is kept: the first in
	// BFS order. It sets each record's outcome and counts each chunk's
	// winners; false when it cannot tell (two new states of one batch
	// share a fingerprint in an exact search).
	claim(s *search, chunks []chunk, succs int) bool
	// place makes room for the new states from, from+1, ..., to-1 (the
	// chunks' winners, numbered), between phases.
	place(chunks []chunk, from, to uint32)
	// storeChunk adds chunk ch's winners to the set, in the write phase
	// (chunks at once).
	storeChunk(s *search, ch *chunk)
	// isState reports whether a successor (fingerprint fp, encoding enc)
	// may be state idx, as far as the set can tell: a replayed trace is
	// checked against it.
	isState(fp uint64, enc []byte, idx uint32) bool
	// growBytes forecasts what the set allocates for succs more states.
	growBytes(succs int) int64
	// dropIndex forgets the states' indices (the graph that needed them
	// is gone), where the set may.
	dropIndex()
	// useCrew lets the set grow in parts, run(n, f) running f(i) for i
	// in [0, n) on the search's workers.
	useCrew(parts int, run func(n int, f func(i int)))
	// report fills in the set's part of the stats (generated: successors
	// and initial states); a bit array also describes itself.
	report(st *Stats, generated int64) *Bitstate
	// free gives back what the set holds outside the Go heap.
	free()
	// prefetchBlock hints that the states of fps will be looked up soon
	// (lookupBlock, with the same index): each one's home slot, and with
	// index[i] its index too. Issued together, and as long before the
	// lookups as the caller can (lazy expansion: one expanded state
	// ahead), the misses overlap each other and the work in between.
	prefetchBlock(fps []uint64, index []bool)
	// lookupBlock looks the states of fps up by fingerprint alone (lazy
	// expansion; not in an exact set) and sets out[i]: old with its index
	// (read only with index[i]) when the set holds the state, otherwise the
	// slot where a claim's store may start (storeChunk). Safe for
	// concurrent use while the set does not change (the expansion phase).
	lookupBlock(fps []uint64, index []bool, out []probe)
}

// block is the scratch of the search's calls to its visited set a block
// at a time.
type block struct {
	fps   []uint64
	encs  [][]byte
	added []bool
}

// put puts n states into set, fp(j) and enc(j) (enc nil: none) the
// fingerprint and encoding of the j-th, numbered from next; it returns
// which it added (valid until the next call).
func (b *block) put(set VisitedSet, n int, fp func(j int) uint64, enc func(j int) []byte, next uint32) []bool {
	b.fps, b.encs = b.fps[:0], b.encs[:0]
	for j := range n {
		b.fps = append(b.fps, fp(j))
		if enc != nil {
			b.encs = append(b.encs, enc(j))
		}
	}
	encs := b.encs
	if enc == nil {
		encs = nil
	}
	b.added = slices.Grow(b.added[:0], n)[:n]
	set.PutBlock(b.fps, encs, next, b.added)
	return b.added
}

// tableSet is the fingerprint table (and, with an encStore, the exact
// set) as a VisitedSet, and its claims: a batch's successors are looked
// up in the table and claimed in the claims table by all workers at once,
// each a chunk at a time (claimBlock, countBlock).
type tableSet struct {
	t *table
	n int64
	// claims decides the first reach of each new state within a batch;
	// claimGen is the table's generation when the claims were made.
	claims   claims
	claimGen int
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

// Bytes is the table's, with the encodings and the batch's claims.
func (s *tableSet) Bytes() int64 { return s.t.bytes() + s.claims.bytes() }

func (s *tableSet) claim(sr *search, chunks []chunk, succs int) bool {
	s.claims.reset(succs)
	s.claimGen = s.t.gen
	// Expansion looked lazy successors up already.
	looked := sr.encoded != nil
	sr.team.parallel(len(chunks), func(_ *worker, c int) { s.claimBlock(c, &chunks[c], looked) })
	sr.team.parallel(len(chunks), func(_ *worker, c int) { s.countBlock(sr, c, &chunks[c]) })
	for c := range chunks {
		if chunks[c].collided {
			return false
		}
	}
	return true
}

// claimAhead is how many records ahead claimBlock prefetches the slot a
// record's probe starts at: enough for the misses to overlap.
const claimAhead = 8

// claimBlock looks the successors of chunk c up in the table (unless
// expansion did: looked) and claims each new one at its sequential
// position. The table holds the states of earlier batches and does not
// change while claims are made.
func (s *tableSet) claimBlock(c int, ch *chunk, looked bool) {
	recs := ch.recs
	for j := range recs {
		if ahead := j + claimAhead; ahead < len(recs) {
			if looked {
				s.claims.prefetch(recs[ahead].fp)
			} else {
				s.t.prefetch(recs[ahead].fp, true)
			}
		}
		r := &recs[j]
		if looked {
			// Expansion looked it up already: tslot, or idx if old.
			if r.outcome == recOld {
				continue
			}
		} else {
			idx, tslot, old := s.t.lookupSlot(r.fp, ch.buf[r.off:r.end], true)
			if old {
				r.outcome, r.idx = recOld, idx
				continue
			}
			r.tslot = tslot
		}
		r.slot = s.claims.claim(r.fp, claimPos(c, j))
		r.outcome = recLost // until counted
	}
}

// countBlock counts chunk c's winners, once every claim of the batch is
// made, and points each loser at its winner (succRec.slot).
func (s *tableSet) countBlock(sr *search, c int, ch *chunk) {
	ch.noWinners()
	ch.collided = false
	for j := range ch.recs {
		r := &ch.recs[j]
		if r.outcome == recOld {
			continue
		}
		w := s.claims.winner(r.slot)
		if w == claimPos(c, j) {
			enc, _ := sr.encodingOf(ch, r)
			ch.win(r, enc)
			continue
		}
		r.slot = uint64(w)
		if s.t.enc != nil && !sr.sameAsWinner(ch, r) {
			ch.collided = true
		}
	}
}

func (s *tableSet) place(chunks []chunk, from, to uint32) {
	s.t.reserve(int(to - from))
	s.n += int64(to - from)
	if e := s.t.enc; e != nil {
		e.grow(int(to))
		for c := range chunks {
			chunks[c].encAt = e.alloc(chunks[c].encBytes)
		}
	}
}

// writeAhead is how many records ahead storeChunk prefetches the table
// slot a winner goes to: enough for the misses to overlap.
const writeAhead = 8

func (s *tableSet) storeChunk(sr *search, ch *chunk) {
	// A winner's probe goes on from where its lookup ended, unless the
	// table grew since.
	from := s.t.gen == s.claimGen
	encAt := ch.encAt
	for j := range ch.recs {
		if ahead := j + writeAhead; from && ahead < len(ch.recs) && ch.recs[ahead].outcome == recWon {
			s.t.prefetchSlot(ch.recs[ahead].tslot)
		}
		r := &ch.recs[j]
		if r.outcome != recWon {
			continue
		}
		idx := ch.firstIdx + r.idx
		if from {
			s.t.insertFrom(r.tslot, r.fp, idx)
		} else {
			s.t.insert(r.fp, idx)
		}
		if e := s.t.enc; e != nil {
			enc, _ := sr.encodingOf(ch, r)
			encAt = e.put(encAt, idx, enc)
		}
	}
}

func (s *tableSet) isState(fp uint64, enc []byte, idx uint32) bool {
	got, ok := s.t.lookup(fp, enc)
	return ok && (!s.t.indexed || got == idx)
}

func (s *tableSet) growBytes(succs int) int64 {
	t := s.t
	need := t.used + succs
	if need*100 <= int(t.size)*maxLoad {
		return 0
	}
	per := int64(8)
	if t.indexed {
		per += 4
	}
	return int64(slotsFor(max(need, need*3/2))-t.size) * per
}

func (s *tableSet) dropIndex() { s.t.dropIndex() }

func (s *tableSet) useCrew(parts int, run func(n int, f func(i int))) {
	s.t.parts, s.t.run = parts, run
}

func (s *tableSet) report(st *Stats, generated int64) *Bitstate {
	st.Exact = s.t.enc != nil
	if !st.Exact {
		st.CollisionProbability = collisionProbability(st.States, generated)
	}
	return nil
}

func (s *tableSet) free() { s.t.free() }

func (s *tableSet) prefetchBlock(fps []uint64, index []bool) {
	for i, fp := range fps {
		s.t.prefetch(fp, index[i])
	}
}

func (s *tableSet) lookupBlock(fps []uint64, index []bool, out []probe) {
	// A loop of lookups alone: they are independent cache misses, and the
	// processor overlaps them only if nothing heavy sits between them.
	for i, fp := range fps {
		idx, slot, old := s.t.lookupSlot(fp, nil, index[i])
		out[i] = probe{idx, slot, old}
	}
}

// bitSet is the bit array as a VisitedSet. It claims a batch in order,
// a chunk at a time on one goroutine, so the outcome is that of a
// sequential search whatever the number of workers.
type bitSet struct {
	b     *bitstate
	n     int64
	block block
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

func (s *bitSet) claim(_ *search, chunks []chunk, _ int) bool {
	for c := range chunks {
		s.claimBlock(&chunks[c])
	}
	return true
}

// claimBlock decides the winners of a chunk against the bit array.
func (s *bitSet) claimBlock(ch *chunk) {
	ch.noWinners()
	added := s.block.put(s, len(ch.recs), func(j int) uint64 { return ch.recs[j].fp }, nil, 0)
	for j := range ch.recs {
		r := &ch.recs[j]
		if added[j] {
			ch.win(r, ch.buf[r.off:r.end])
		} else {
			r.outcome = recOld
		}
	}
}

// The bits are set as the batch claims: nothing to place or store.
func (s *bitSet) place([]chunk, uint32, uint32)           {}
func (s *bitSet) storeChunk(*search, *chunk)              {}
func (s *bitSet) isState(uint64, []byte, uint32) bool     { return true } // it keeps no indices
func (s *bitSet) growBytes(int) int64                     { return 0 }    // allocated whole
func (s *bitSet) dropIndex()                              {}
func (s *bitSet) useCrew(int, func(n int, f func(i int))) {}
func (s *bitSet) free()                                   {}

func (s *bitSet) report(st *Stats, _ int64) *Bitstate { return s.b.stats(st.Depth) }

// The bits keep no slots or indices: a lookup says seen or not.
func (s *bitSet) prefetchBlock([]uint64, []bool) {}
func (s *bitSet) lookupBlock(fps []uint64, _ []bool, out []probe) {
	for i, fp := range fps {
		out[i] = probe{old: s.b.has(fp)}
	}
}

func encAt(encs [][]byte, i int) []byte {
	if encs == nil {
		return nil
	}
	return encs[i]
}
