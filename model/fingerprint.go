package model

import "github.com/zeebo/xxh3"

// A state's fingerprint is the sum (mod 2^64) of one 64-bit hash per
// component of its canonical encoding: the header (arrangement, crashes,
// restarts, alive), each process's local state (seeded by its position) and
// each non-empty channel's messages (seeded by the channel's index). A step
// changes the header, one process and a few channels, so a successor's
// fingerprint is the expanded state's plus the differences of what the step
// touched: no re-encoding of the whole state per transition. Two distinct
// states differ in some component, so they share a fingerprint with
// probability about 2^-64, as with one hash of the whole encoding; the
// encoding stays the state's identity (an exact search compares it).

// Seeds keep components apart: the same bytes in different places hash
// differently. A component's hash is mix(xxh3(bytes) ^ mix(seed + place)),
// not xxh3 with a seed: xxh3's seed enters short inputs linearly, so places
// with nearby seeds gave equal hashes to nearby messages (a collision test
// found such pairs); with a place's key mixed, two components collide only
// when their xxh3 hashes differ by the XOR of two mixed keys.
const (
	seedHead  = 0x9e3779b97f4a7c15
	seedLocal = 0xc2b2ae3d27d4eb4f // + position
	seedChan  = 0x165667b19e3779f9 // + channel index
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
	head  uint64
	local []uint64
	chans []uint64 // 0 for an empty channel
	fp    uint64   // their sum
}

func (h *hashes) init(n int) {
	h.local = make([]uint64, n)
	h.chans = make([]uint64, n*n)
}

// hashHead is the header's hash: alive, crashes and restarts packed into
// one word (crashes and restarts stay far below 2^16), mixed, then the
// arrangement of IDs.
func hashHead(lay, crashes, restarts int, alive uint64) uint64 {
	return mix(mix(alive|uint64(crashes)<<16|uint64(restarts)<<32^seedHead) + uint64(lay))
}

// keys are the mixed seeds of every place of a kernel's states, computed
// once: a component's hash is then one xxh3 and one mix.
type keys struct {
	local []uint64 // per position
	chans []uint64 // per channel index
}

func newKeys(n int) keys {
	k := keys{local: make([]uint64, n), chans: make([]uint64, n*n)}
	for p := range k.local {
		k.local[p] = mix(seedLocal + uint64(p))
	}
	for ch := range k.chans {
		k.chans[ch] = mix(seedChan + uint64(ch))
	}
	return k
}

// hashLocal is the hash of process p's local state, given its encoding.
func (k *keys) hashLocal(p int, enc []byte) uint64 { return mix(xxh3.Hash(enc) ^ k.local[p]) }

// hashChan is the hash of channel ch, given its messages' encodings back
// to back (an empty channel is no component).
func (k *keys) hashChan(ch int, enc []byte) uint64 {
	if len(enc) == 0 {
		return 0
	}
	return mix(xxh3.Hash(enc) ^ k.chans[ch])
}
