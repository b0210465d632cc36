package explore

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// slotsFor is whole segments that keep n states under 80% full: the
// segments below n/0.8 slots, and one more.
func TestSlotsFor(t *testing.T) {
	for _, c := range []struct {
		n    int
		segs uint64
	}{
		{0, 1}, {1, 1}, {52428, 1}, {52429, 2}, // 80% of 65,536 slots is 52,428.8
		{262143, 5}, {262144, 6}, // and of 5 segments exactly 262,144
		{1_000_000, 20},
	} {
		require.Equal(t, c.segs*segSlots, slotsFor(c.n), "%d states", c.n)
	}
}

// The table grows when, and only when, a reservation would take it past
// 80% full, at once to a size that holds half as many states again; and
// never later, whether the states come one at a time or many at once.
func TestTableGrowsAtTheLoadLimit(t *testing.T) {
	tab := newTable(250_000, false) // 5 segments: 80% is 262,144 states exactly
	defer tab.free()
	require.Equal(t, uint64(5*segSlots), tab.size)
	tab.reserve(262_143)
	tab.reserve(1)
	require.Equal(t, uint64(5*segSlots), tab.size, "exactly 80% full still fits")
	require.Zero(t, tab.gen)
	tab.reserve(1)
	require.Equal(t, 1, tab.gen, "one more grows the table")
	require.Equal(t, slotsFor(262_145*3/2), tab.size)
	require.Equal(t, 262_145, tab.used)

	one := newTable(0, false)
	defer one.free()
	for i := range 52_428 {
		one.reserve(1)
		require.Equal(t, uint64(segSlots), one.size, "state %d", i+1)
	}
	one.reserve(1)
	require.Equal(t, uint64(2*segSlots), one.size, "state 52,429 passes 80%% of 65,536")

	many := newTable(0, false)
	defer many.free()
	many.reserve(1_000_000)
	require.Equal(t, slotsFor(1_500_000), many.size)
	require.LessOrEqual(t, many.used*100, int(many.size)*maxLoad)
}
