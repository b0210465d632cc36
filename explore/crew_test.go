package explore

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Every item of every phase runs exactly once, on a worker number in range,
// and its writes are seen by the caller when run returns; helpers that
// sleep between phases (the pauses) are woken.
func TestCrewRunsEveryItemOnce(t *testing.T) {
	for _, helpers := range []int{1, 3} {
		t.Run(fmt.Sprintf("helpers=%d", helpers), func(t *testing.T) {
			c := newCrew(helpers)
			defer c.stop()
			for round := range 300 {
				n := 1 + round%70
				counts := make([]int, n) // plain writes: run must publish them
				var bad atomic.Int32
				c.run(n, func(w, i int) {
					if w < 0 || w > helpers {
						bad.Add(1)
					}
					counts[i]++
				})
				require.Zero(t, bad.Load(), "round %d: a worker number out of range", round)
				for i, k := range counts {
					require.Equal(t, 1, k, "round %d: item %d ran %d times", round, i, k)
				}
				if round%50 == 49 {
					time.Sleep(2 * spinFor) // the helpers go to sleep
				}
			}
		})
	}
}

// The helper takes part in the phases: an item waits for the phase's other
// item to start, which only another worker can do. (A helper that never
// comes hangs the test until go test's -timeout: no clock here, which a
// loaded machine could outrun.)
func TestCrewHelperTakesPart(t *testing.T) {
	c := newCrew(1)
	defer c.stop()
	var byHelper atomic.Int64
	for range 20 {
		started := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
		c.run(2, func(w, i int) {
			if w == 1 {
				byHelper.Add(1)
			}
			close(started[i])
			<-started[1-i]
		})
	}
	require.Equal(t, int64(20), byHelper.Load(), "the helper took part in %d of 20 phases", byHelper.Load())
}

// A panic in an item, on the helper or on the caller, comes out of run in
// the caller, with its value and the stack where it happened; the crew
// goes on with the next phase.
func TestCrewRaisesAPanicInTheCaller(t *testing.T) {
	c := newCrew(1)
	defer c.stop()
	for _, on := range []int{0, 1} {
		for range 20 {
			started := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
			caught := func() (v any) {
				defer func() { v = recover() }()
				c.run(2, func(w, i int) {
					close(started[i])
					<-started[1-i] // both items start, one on each worker
					if w == on {
						panic(fmt.Sprintf("boom on %d", w))
					}
				})
				return nil
			}()
			wp, ok := caught.(*WorkerPanic)
			require.True(t, ok, "run raised %v, not a *WorkerPanic", caught)
			require.Equal(t, fmt.Sprintf("boom on %d", on), wp.Value)
			require.Contains(t, wp.Error(), "crew_test.go", "the stack of the panic")
		}
	}
	var sum atomic.Int64
	c.run(10, func(_, i int) { sum.Add(int64(i)) })
	require.Equal(t, int64(45), sum.Load())
}

// The cost of starting a phase of 64 short items on two workers: goroutines
// started for each phase (the search before the crew) against the crew.
func BenchmarkPhaseStart(b *testing.B) {
	work := func(i int) uint64 {
		x := uint64(i)
		for range 300 { // about 0.3-0.5 µs
			x = x*6364136223846793005 + 1442695040888963407
		}
		return x
	}
	const items = 64
	var sink atomic.Uint64
	b.Run("goroutines", func(b *testing.B) {
		for b.Loop() {
			var next atomic.Int64
			var wg sync.WaitGroup
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						i := int(next.Add(1) - 1)
						if i >= items {
							return
						}
						sink.Add(work(i))
					}
				}()
			}
			wg.Wait()
		}
	})
	b.Run("crew", func(b *testing.B) {
		c := newCrew(1)
		defer c.stop()
		for b.Loop() {
			c.run(items, func(_, i int) { sink.Add(work(i)) })
		}
	})
}
