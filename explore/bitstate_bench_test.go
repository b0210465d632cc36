package explore

import (
	"fmt"
	"testing"
)

// The bit array's insertion, alone: what a hash seed or a sketch would add
// to every state of a bitstate search. Fingerprints are random, as the
// engine's are; the array is small (in cache) or large (a cache miss a
// bit).
func BenchmarkBitstateAdd(b *testing.B) {
	fps := make([]uint64, 1<<16)
	for i := range fps {
		fps[i] = splitmix(uint64(i) * 0x9e3779b97f4a7c15)
	}
	for _, size := range []int64{64 << 10, 256 << 20} {
		for _, seed := range []uint64{0, 0x5eed} {
			b.Run(fmt.Sprintf("%s/seed=%#x", FormatBytes(size), seed), func(b *testing.B) {
				bits := newBitstate(size, seed)
				i := 0
				for b.Loop() {
					bits.add(fps[i&(len(fps)-1)] + uint64(i))
					i++
				}
			})
		}
	}
}
