package explore

import "math"

// bitstate is SPIN's supertrace for spaces too big to store: instead of a
// fingerprint table, a bit array in which each state sets bitstateHashes
// bits. A state whose bits are all set already is taken as visited, which
// is wrong with a small probability, so the search may miss states: it is
// not exhaustive, and the result says how much it expects to have covered.
type bitstate struct {
	words []uint64
	mask  uint64 // number of bits - 1 (a power of two)
	set   uint64 // bits set so far
	// seed, when not 0, remixes each fingerprint before it chooses its
	// bits (Options.BitstateSeed).
	seed uint64
	// seen, with a seed, sketches the states taken for new, by their
	// fingerprints (not remixed): a seeded search is one of several
	// (swarm members), whose states are counted together.
	seen Sketch
}

const bitstateHashes = 3

func newBitstate(bytes int64, seed uint64) *bitstate {
	bits := uint64(64)
	for bits*2 <= uint64(bytes)*8 {
		bits *= 2
	}
	b := &bitstate{words: make([]uint64, bits/64), mask: bits - 1, seed: seed}
	if seed != 0 {
		b.seen = NewSketch()
	}
	return b
}

// bitsOf are the bit positions of fp: double hashing, bit i is a + i*b,
// with a and b from the two halves of the (remixed) fingerprint.
func (b *bitstate) bitsOf(fp uint64) (a, step uint64) {
	h := fp
	if b.seed != 0 {
		h = splitmix(fp ^ b.seed)
	}
	return h, (h>>32 | h<<32) | 1
}

// has reports whether every bit of fp is set: fp is taken for seen.
func (b *bitstate) has(fp uint64) bool {
	a, step := b.bitsOf(fp)
	for i := uint64(0); i < bitstateHashes; i++ {
		bit := (a + i*step) & b.mask
		if b.words[bit>>6]&(1<<(bit&63)) == 0 {
			return false
		}
	}
	return true
}

// add sets the bits of fp and reports whether any was clear (a new
// state), which a seeded search sketches. Double hashing: bit i is a + i*b, with a and
// b from the two halves of the fingerprint (b odd, so the probes differ).
// A seed remixes the whole fingerprint first (SplitMix64's output
// function), so that other seeds give other patterns of shared bits, and
// so miss other states.
func (b *bitstate) add(fp uint64) bool {
	a, step := b.bitsOf(fp)
	isNew := false
	for i := uint64(0); i < bitstateHashes; i++ {
		bit := (a + i*step) & b.mask
		w, m := bit>>6, uint64(1)<<(bit&63)
		if b.words[w]&m == 0 {
			b.words[w] |= m
			b.set++
			isNew = true
		}
	}
	if isNew && b.seen != nil {
		b.seen.Add(fp)
	}
	return isNew
}

// Bitstate describes a bitstate search in a Result.
type Bitstate struct {
	Bytes  int64   // size of the bit array
	Hashes int     // bits per state
	Fill   float64 // fraction of bits set at the end
	// MissChance is the chance, at the end of the search (the worst
	// moment), that a new state finds all its bits set and is taken for
	// visited: Fill^Hashes.
	MissChance float64
	// Coverage is a conservative estimate of the fraction of reachable
	// states explored: a state is reached when none of the states on its
	// shortest path was taken for visited, (1 - MissChance)^depth. A missed
	// state hides everything only reachable through it, so per-state
	// estimates are too optimistic.
	Coverage float64
	// Seed is the hash seed (Options.BitstateSeed).
	Seed uint64
	// Seen sketches the states explored by a seeded search, so that those
	// of several bitstate searches of one model (other seeds, other sizes)
	// can be counted together (Sketch.Merge): each search's own count is
	// exact, but their states overlap. Nil without a seed.
	Seen Sketch
}

func (b *bitstate) stats(depth int) *Bitstate {
	fill := float64(b.set) / float64(b.mask+1)
	miss := math.Pow(fill, bitstateHashes)
	return &Bitstate{
		Bytes: int64(len(b.words)) * 8, Hashes: bitstateHashes, Fill: fill,
		MissChance: miss, Coverage: math.Pow(1-miss, float64(depth)),
		Seed: b.seed, Seen: b.seen,
	}
}

func (b *bitstate) bytes() int64 { return int64(len(b.words)) * 8 }
