package explore

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// The table keeps every fingerprint (and index) through many growths, and
// stays within its load limit.
func TestTableGrowsWithoutLosingStates(t *testing.T) {
	for _, indexed := range []bool{false, true} {
		tab := newTable(0, indexed)
		defer tab.free()
		rng := rand.New(rand.NewPCG(1, 2))
		var fps []uint64
		// Half as many under -race: still 16 segments, 4 growths.
		for i := range RaceSize(1_000_000, 500_000) {
			fp := rng.Uint64()
			if i%100_000 == 0 {
				fp = 0 // stored as 1
			}
			if _, ok := tab.lookup(fp, nil); ok {
				continue
			}
			tab.reserve(1)
			tab.insert(fp, uint32(len(fps)))
			fps = append(fps, fp)
			if i%1000 == 0 {
				require.LessOrEqual(t, tab.used*100, int(tab.size)*maxLoad)
			}
		}
		require.Greater(t, tab.size, uint64(10*segSlots), "the table grew")
		// Plain ifs: a require call per fingerprint is most of the test's
		// time under -race.
		for i, fp := range fps {
			idx, ok := tab.lookup(fp, nil)
			if !ok {
				t.Fatalf("fingerprint %d lost", i)
			}
			if indexed && idx != uint32(i) {
				t.Fatalf("fingerprint %d has index %d", i, idx)
			}
		}
		for range 1000 {
			_, ok := tab.lookup(rng.Uint64(), nil)
			require.False(t, ok)
		}
		require.Empty(t, tab.spare, "growing leaves no spare segments")
	}
}

// A growth in parts (the search's crew moves parts of the table at once)
// keeps every fingerprint and index too, including those a part leaves to
// the end: homes past its slots, or probes that run past them.
func TestTableGrowsInParts(t *testing.T) {
	for _, parts := range []int{2, 3} {
		tab := newTable(0, true)
		defer tab.free()
		tab.parts, tab.partSegs = parts, 1 // parts from the second segment on
		tab.run = onGoroutines
		rng := rand.New(rand.NewPCG(3, uint64(parts)))
		var fps []uint64
		inParts := 0
		for len(fps) < 1_000_000 {
			fp := rng.Uint64()
			if _, ok := tab.lookup(fp, nil); ok {
				continue
			}
			gen, segs := tab.gen, len(tab.keys)
			tab.reserve(1)
			if tab.gen != gen && segs >= parts {
				inParts++
			}
			tab.insert(fp, uint32(len(fps)))
			fps = append(fps, fp)
		}
		require.GreaterOrEqual(t, inParts, 4, "growths in parts")
		require.Positive(t, tab.leftOver, "no part left a fingerprint to the end: the boundaries went untested")
		for i, fp := range fps {
			idx, ok := tab.lookup(fp, nil)
			if !ok {
				t.Fatalf("fingerprint %d lost", i)
			}
			if idx != uint32(i) {
				t.Fatalf("fingerprint %d has index %d", i, idx)
			}
		}
		used := 0
		for _, seg := range tab.keys {
			for _, k := range seg {
				if k != 0 {
					used++
				}
			}
		}
		require.Equal(t, len(fps), used, "each fingerprint in one slot")
		require.Empty(t, tab.spare, "growing leaves no spare segments")
	}
}

// onGoroutines runs f(i) for i in [0, n) on a goroutine each, as a table's
// run (the search's crew stands in for it).
func onGoroutines(n int, f func(i int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(i)
		}()
	}
	wg.Wait()
}

// An exact table keeps two distinct states whose fingerprints are equal,
// and finds each by its encoding.
func TestExactTableKeepsStatesThatShareAFingerprint(t *testing.T) {
	tab := newTable(0, true)
	defer tab.free()
	tab.enc = &encStore{}
	put := func(fp uint64, idx uint32, enc string) {
		tab.reserve(1)
		tab.insert(fp, idx)
		tab.enc.grow(int(idx) + 1)
		tab.enc.put(tab.enc.alloc(encLen(len(enc))), idx, []byte(enc))
	}
	put(42, 0, "first state")
	_, ok := tab.lookup(42, []byte("second state"))
	require.False(t, ok, "a fingerprint collision must not count as a visit")
	put(42, 1, "second state")
	for idx, enc := range []string{"first state", "second state"} {
		got, ok := tab.lookup(42, []byte(enc))
		require.True(t, ok, enc)
		require.Equal(t, uint32(idx), got, enc)
	}
	_, ok = tab.lookup(42, []byte("third state"))
	require.False(t, ok)
	// A fingerprint table takes the second state for the first.
	plain := newTable(0, true)
	defer plain.free()
	plain.reserve(1)
	plain.insert(42, 0)
	_, ok = plain.lookup(42, []byte("second state"))
	require.True(t, ok)
}

// The collision estimate: TLC's n*(generated-n)/2^64, or the birthday
// bound n*(n-1)/2/2^64 when few states are revisited.
func TestCollisionProbability(t *testing.T) {
	require.Equal(t, 0.0, collisionProbability(1, 1))
	// TLC's example: 561 states generated, 52 distinct: 1.4E-15.
	require.InDelta(t, 1.435e-15, collisionProbability(52, 561), 0.001e-15)
	require.InDelta(t, 1000.0*999/2/(1<<64), collisionProbability(1000, 1000), 1e-25)
	// 573 million states, twice as many successors: no longer negligible.
	p := collisionProbability(573e6, 2*573e6)
	require.InDelta(t, 573e6*573e6/float64(1<<64), p, 1e-6)
	require.Greater(t, p, 0.01)
	require.Equal(t, 1.0, collisionProbability(1e12, 1e13))
}
