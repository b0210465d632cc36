package model

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// A channel set holds any of the 256 channels of 16 processes, across its
// four words: count, has, all (ascending) and union agree with a plain
// list of the channels, as channels are added and removed.
func TestChanSetOverEveryWord(t *testing.T) {
	var s, odd chanSet
	var want []int
	for ch := 0; ch < 256; ch += 3 { // every word, and each word's edges: 0, 63, 64, 127, 192, 255
		s.add(ch)
		want = append(want, ch)
	}
	for _, ch := range []int{63, 64, 127, 128, 191, 255} {
		s.setTo(ch, true)
		if !slices.Contains(want, ch) {
			want = append(want, ch)
		}
	}
	slices.Sort(want)
	check := func() {
		t.Helper()
		require.Equal(t, len(want), s.count())
		require.Equal(t, want, slices.Collect(s.all()))
		for ch := range 256 {
			require.Equal(t, slices.Contains(want, ch), s.has(ch), "channel %d", ch)
		}
	}
	check()
	for _, ch := range []int{0, 63, 64, 255, 129} {
		s.setTo(ch, false)
		want = slices.DeleteFunc(want, func(x int) bool { return x == ch })
	}
	check()
	for ch := 1; ch < 256; ch += 2 {
		odd.add(ch)
	}
	u := s.union(odd)
	for ch := range 256 {
		require.Equal(t, s.has(ch) || ch%2 == 1, u.has(ch), "channel %d of the union", ch)
	}
	n := 0
	for range u.all() {
		if n++; n == 5 {
			break // all stops when asked to
		}
	}
	require.Equal(t, 5, n)
}
