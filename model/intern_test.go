package model

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ownHash and ownFields tell hashstructure how to hash them.
type ownHash struct{ ID, Round int }

func (o ownHash) Hash() (uint64, error) { return uint64(o.ID), nil }

type ownFields struct{ ID, Round int }

func (*ownFields) HashInclude(field string, _ any) (bool, error) { return field == "ID", nil }

// Only types whose == is hashstructure's identity are numbered by value.
func TestByEquality(t *testing.T) {
	type plain struct {
		On   bool
		ID   int
		Kind string
		IDs  [3]uint8
	}
	type nested struct{ P plain }
	type withFloat struct{ W float64 }
	type withFloatArray struct{ W [2]float32 }
	type withSlice struct{ IDs []int }
	type withMap struct{ Seen map[int]bool }
	type tagged struct {
		ID   int
		Note string `hash:"ignore"`
	}
	for _, c := range []struct {
		v    any
		want bool
	}{
		{plain{}, true}, {nested{}, true}, {0, true}, {"", true}, {[2]string{}, true},
		{withFloat{}, false}, {withFloatArray{}, false}, {complex64(0), false},
		{withSlice{}, false}, {withMap{}, false}, {tagged{}, false},
		{ownHash{}, false}, {[1]ownFields{}, false}, {struct{ O ownHash }{}, false},
	} {
		assert.Equal(t, c.want, byEquality(reflect.TypeOf(c.v)), "%T", c.v)
	}
}

// Workers number values at once: a value gets one number, every number
// gives its value back, and the numbers are 0 to n-1, whichever way the
// table takes (its published view or its lock). Run with -race.
func TestInternConcurrently(t *testing.T) {
	type local struct {
		ID   int
		Kind string
	}
	type deep struct{ IDs []int }
	const n, workers = 500, 4
	locals := newInternTable[local]()
	deeps := newInternTable[deep]()
	require.True(t, locals.byValue != nil)
	require.False(t, deeps.byValue != nil)
	got := make([][2][n]uint32, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for round := range 3 {
				for i := range n {
					v := (i*7 + w*13 + round) % n // each worker its own order
					l := local{ID: v, Kind: fmt.Sprint("k", v%3)}
					d := deep{IDs: []int{v, v + 1}}
					got[w][0][v], got[w][1][v] = locals.number(&l), deeps.number(&d)
					back, err := locals.value(uint64(got[w][0][v]))
					assert.NoError(t, err)
					assert.Equal(t, l, back)
					dback, err := deeps.value(uint64(got[w][1][v]))
					assert.NoError(t, err)
					assert.Equal(t, d, dback)
				}
			}
		})
	}
	wg.Wait()
	for w := 1; w < workers; w++ {
		require.Equal(t, got[0], got[w], "worker %d's numbers", w)
	}
	for _, tab := range [][n]uint32{got[0][0], got[0][1]} {
		seen := map[uint32]bool{}
		for _, i := range tab {
			require.Less(t, i, uint32(n))
			seen[i] = true
		}
		require.Len(t, seen, n)
	}
	_, err := locals.value(n)
	require.EqualError(t, err, "unknown interned value")
}

// The lock is for values the published view does not have yet: once the
// table has numbered every value, a few rounds later every call finds its
// value in the view.
func TestInternPublishes(t *testing.T) {
	type local struct{ ID int }
	tab := newInternTable[local]()
	for i := range 100 {
		require.Equal(t, uint32(i), tab.number(&local{i}))
	}
	for range 3 {
		for i := range 100 {
			require.Equal(t, uint32(i), tab.number(&local{i}))
			_, err := tab.value(uint64(i))
			require.NoError(t, err)
		}
	}
	require.Len(t, tab.byValue.vals(), 100)
	require.Len(t, tab.byValue.index(), 100)
	tab.byValue.mu.Lock()
	misses := tab.byValue.misses
	tab.byValue.mu.Unlock()
	for i := range 100 {
		tab.number(&local{i})
		_, err := tab.value(uint64(i))
		require.NoError(t, err)
	}
	tab.byValue.mu.Lock()
	defer tab.byValue.mu.Unlock()
	assert.Equal(t, misses, tab.byValue.misses, "calls that took the lock")
}
