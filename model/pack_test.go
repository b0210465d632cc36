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

// nextLive agrees with walking the ring one position at a time, for every
// set of live positions of rings up to 8, every position and direction.
func TestNextLiveWalksTheRing(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for alive := uint64(0); alive < 1<<n; alive++ {
			for p := range n {
				for _, d := range []Dir{CW, CCW} {
					want, step := p, 1
					if d == CCW {
						step = n - 1
					}
					for q := (p + step) % n; q != p; q = (q + step) % n {
						if alive&(1<<q) != 0 {
							want = q
							break
						}
					}
					if got := nextLive(p, d, alive); got != want {
						t.Fatalf("n=%d alive=%b p=%d %v: %d, want %d", n, alive, p, d, got, want)
					}
				}
			}
		}
	}
}
