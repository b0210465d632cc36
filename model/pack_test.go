package model

import "testing"

// pack is one-to-one on encodings shorter than 8 bytes (so components of
// one place never collide there), over every string of such lengths in a
// small alphabet, which covers both the overlapping loads and the length
// byte; and longer encodings that differ in one byte pack differently.
func TestPackOneToOne(t *testing.T) {
	seen := map[uint64][]byte{}
	var walk func(b []byte)
	walk = func(b []byte) {
		x := pack(b)
		if old, ok := seen[x]; ok {
			t.Fatalf("%v and %v pack to %#x", old, b, x)
		}
		seen[x] = append([]byte(nil), b...)
		if len(b) == 7 {
			return
		}
		for _, c := range []byte{0, 1, 0xff} {
			walk(append(b, c))
		}
	}
	walk(nil)
	for n := 8; n <= 24; n++ {
		base := make([]byte, n)
		x := pack(base)
		for i := range base {
			base[i] = 1
			if pack(base) == x {
				t.Fatalf("length %d: byte %d does not count", n, i)
			}
			base[i] = 0
		}
	}
}
