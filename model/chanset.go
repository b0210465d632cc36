package model

import (
	"iter"
	"math/bits"
)

// chanSet is a set of channel indices (N ≤ 16: at most 256 channels). A
// world keeps the set of its non-empty channels, so that decoding, copying,
// expanding and encoding a state visit those instead of all N² channels.
type chanSet [4]uint64

func (s *chanSet) add(ch int)      { s[ch>>6] |= 1 << (ch & 63) }
func (s *chanSet) remove(ch int)   { s[ch>>6] &^= 1 << (ch & 63) }
func (s *chanSet) has(ch int) bool { return s[ch>>6]&(1<<(ch&63)) != 0 }

// setTo adds ch if busy, removes it if not.
func (s *chanSet) setTo(ch int, busy bool) {
	if busy {
		s.add(ch)
	} else {
		s.remove(ch)
	}
}

func (s *chanSet) count() int {
	return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) + bits.OnesCount64(s[2]) + bits.OnesCount64(s[3])
}

func (s chanSet) union(o chanSet) chanSet {
	return chanSet{s[0] | o[0], s[1] | o[1], s[2] | o[2], s[3] | o[3]}
}

// all yields the channels in ascending order (the encoding's order).
func (s chanSet) all() iter.Seq[int] {
	return func(yield func(int) bool) {
		for i, w := range s {
			for w != 0 {
				if !yield(i<<6 | bits.TrailingZeros64(w)) {
					return
				}
				w &= w - 1
			}
		}
	}
}
