package model

import (
	"encoding/binary"

	"github.com/mcheck/mcheck/internal/apart"
)

// A state's fingerprint is the sum (mod 2^64) of one 64-bit hash per
// component, each hashed from its canonical encoding (the parts of
// state.go; a local state's from its Codec bytes, not its number): the head
// (head.hash), each process's record (seeded by its position) and each
// non-empty channel (seeded by the channel's index). A step changes the
// head, one process and a few channels, so a successor's
// fingerprint is the expanded state's plus the differences of what the step
// touched: no re-encoding of the whole state per transition. Two distinct
// states differ in some component, so they share a fingerprint with
// probability about 2^-64, as with one hash of the whole encoding; the
// encoding stays the state's identity (an exact search compares it).

// Seeds keep components apart: the same bytes in different places hash
// differently. A component's hash is mix(pack(bytes) ^ mix(seed + place)):
// with a place's key mixed, two components in different places collide
// only when their packed words differ by the XOR of two mixed keys. (Seeds
// that enter linearly are not enough: seeded xxh3 with nearby seeds gave
// equal hashes to nearby messages on nearby channels; a collision test
// found such pairs.)
const (
	seedHead  = 0x9e3779b97f4a7c15
	seedLocal = 0xc2b2ae3d27d4eb4f // + position
	seedChan  = 0x165667b19e3779f9 // + channel index
	seedTimer = 0x27d4eb2f165667c5
	seedSent  = 0x85ebca77c2b2ae63
	seedHB    = 0x9fb21c651e98df25
)

// mix is MurmurHash3's 64-bit finalizer: a bijection that spreads every
// input bit over the output.
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// hashes are the component hashes of one decoded state.
type hashes struct {
	head   uint64
	timers uint64 // 0 without timers
	hb     uint64 // the silences; 0 without the heartbeat detector
	local  []uint64
	chans  []uint64 // 0 for an empty channel
	fp     uint64   // their sum
}

func (h *hashes) init(n int) {
	h.local = apart.Make[uint64](n)
	h.chans = apart.Make[uint64](n * n)
}

// keys are the mixed seeds of every place of a kernel's states, computed
// once: a component's hash is then one xxh3 and one mix.
type keys struct {
	local  []uint64 // per position
	chans  []uint64 // per channel index
	timers uint64
}

func newKeys(n int) keys {
	k := keys{local: make([]uint64, n), chans: make([]uint64, n*n), timers: mix(seedTimer)}
	for p := range k.local {
		k.local[p] = mix(seedLocal + uint64(p))
	}
	for ch := range k.chans {
		k.chans[ch] = mix(seedChan + uint64(ch))
	}
	return k
}

// hashLocal is the hash of process p's local state, given its encoding.
func (k *keys) hashLocal(p int, enc []byte) uint64 { return k.hashLocalWord(p, pack(enc)) }

// hashLocalWord is hashLocal from the encoding's packed word, which a
// numbered local state keeps (localVal).
func (k *keys) hashLocalWord(p int, word uint64) uint64 { return mix(word ^ k.local[p]) }

// hashHB is the hash of the silences (heartbeat.go), one byte a pair.
func (k *keys) hashHB(enc []byte) uint64 { return mix(pack(enc) ^ seedHB) }

// hashTimers is the hash of the timers (one byte a process).
func (k *keys) hashTimers(enc []byte) uint64 { return mix(pack(enc) ^ k.timers) }

// hashChan is the hash of channel ch, given its number of elements and
// their encodings back to back (an empty channel is no component). The
// count goes in the top packCountBits bits, which pack leaves free for short
// encodings, so that elements that encode to no bytes at all are still
// counted. A count too wide for them (maxChanCount is wider) has its high
// part folded in as well: counts 1 and 33 of such elements must not hash
// alike.
func (k *keys) hashChan(ch, count int, enc []byte) uint64 {
	if count == 0 {
		return 0
	}
	key := k.chans[ch]
	if count >= 1<<packCountBits {
		key = wideCount(key, count)
	}
	return mix(pack(enc) ^ uint64(count)<<(64-packCountBits) ^ key)
}

// packCountBits are the top bits of pack's word that pack leaves to hashChan.
const packCountBits = 5

// wideCount folds the high part of a channel's count into its key: times an
// odd constant, so distinct high parts give distinct keys. Apart, so that
// the usual count costs hashChan one compare.
//
//go:noinline
func wideCount(key uint64, count int) uint64 {
	return key ^ uint64(count>>packCountBits)*0x9e3779b97f4a7c15
}

// pack folds an encoding into one word. Encodings shorter than 8 bytes,
// nearly all of them (a local state or a channel of a few small messages),
// are packed as they are with their length in the top byte (its low three
// bits; the rest of it is left to hashChan): one-to-one, so
// two such components in one place never collide, and the cost is a load
// or two, not a general-purpose hash (which was a tenth of the search's
// time). Longer ones are chained through mix a word at a time.
func pack(b []byte) uint64 {
	n := len(b)
	switch {
	case n >= 8:
		acc := uint64(n) * 0x9fb21c651e98df25
		for i := 0; i+8 < n; i += 8 {
			acc = mix(acc ^ binary.LittleEndian.Uint64(b[i:]))
		}
		// The last word ends at the end: it overlaps the one before when
		// n is not a multiple of 8, which the length above accounts for.
		return acc ^ binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		// Two 4-byte loads, the second ending at the last byte; where they
		// overlap they agree.
		return uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<(8*(n-4)) | uint64(n)<<56
	case n > 0:
		return uint64(b[0]) | uint64(b[n/2])<<(8*(n/2)) | uint64(b[n-1])<<(8*(n-1)) | uint64(n)<<56
	}
	return 0
}
