package explore

import (
	"bytes"
	"encoding/binary"
)

// encStore keeps the canonical encoding of every stored state, by state
// index, for an exact search (Options.Exact): the table then takes a
// fingerprint match for a visit only when the encodings are equal, so no
// fingerprint collision can hide a state.
//
// Encodings are length-prefixed (uvarint) and packed into segments; pos[i]
// is state i's segment<<40 | offset. Like the frontier, a batch's winners
// get their room between phases (one contiguous region per chunk) and are
// copied in by the chunks in parallel.
type encStore struct {
	segs [][]byte
	pos  [][]uint64 // blocks of linkBlock entries
	n    int        // states with a position
}

const (
	encSegBytes = 4 << 20
	encOffBits  = 40
)

// encLen is the room an encoding of n bytes takes.
func encLen(n int) int {
	var tmp [binary.MaxVarintLen64]byte
	return binary.PutUvarint(tmp[:], uint64(n)) + n
}

// alloc reserves size contiguous bytes and returns where they start.
func (e *encStore) alloc(size int) uint64 {
	last := len(e.segs) - 1
	if last < 0 || len(e.segs[last])+size > cap(e.segs[last]) {
		e.segs = append(e.segs, make([]byte, 0, max(encSegBytes, size)))
		last++
	}
	off := len(e.segs[last])
	e.segs[last] = e.segs[last][:off+size]
	return uint64(last)<<encOffBits | uint64(off)
}

// grow makes room for positions of states up to n (exclusive).
func (e *encStore) grow(n int) {
	for len(e.pos)*linkBlock < n {
		e.pos = append(e.pos, make([]uint64, linkBlock))
	}
	e.n = max(e.n, n)
}

// put writes the encoding of state idx at at (from alloc) and returns the
// position after it; safe for concurrent use on disjoint regions.
func (e *encStore) put(at uint64, idx uint32, enc []byte) uint64 {
	seg := e.segs[at>>encOffBits]
	off := int(at & (1<<encOffBits - 1))
	k := binary.PutUvarint(seg[off:], uint64(len(enc)))
	copy(seg[off+k:], enc)
	e.pos[idx>>linkShift][idx&(linkBlock-1)] = at
	return at + uint64(k+len(enc))
}

// get returns the encoding of state idx.
func (e *encStore) get(idx uint32) []byte {
	at := e.pos[idx>>linkShift][idx&(linkBlock-1)]
	seg := e.segs[at>>encOffBits]
	off := int(at & (1<<encOffBits - 1))
	n, k := binary.Uvarint(seg[off:])
	return seg[off+k : off+k+int(n)]
}

func (e *encStore) equal(idx uint32, enc []byte) bool { return bytes.Equal(e.get(idx), enc) }

func (e *encStore) bytes() int64 {
	var b int64
	for _, s := range e.segs {
		b += int64(cap(s))
	}
	return b + int64(len(e.pos))*linkBlock*8
}
