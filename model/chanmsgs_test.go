package model

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/ts"
)

// A step property that reads every channel before and after every step
// sees what the channels hold, not a decoding cached from an earlier state
// or successor (the world's msgs cache, chanMsgs): over every state
// reachable from one with messages of every kind, lazily and not.
func TestChanSeesTheChannelsOfEveryStep(t *testing.T) {
	const n = 3
	fresh := func(v *View[tLocal, tMsg]) bool {
		for ch := range v.w.chans {
			if !slices.Equal(v.k.decodeChan(nil, v.w.chans[ch], v.w.count[ch]), v.Chan(ch/n, ch%n)) {
				return false
			}
		}
		return true
	}
	props := []Property[tLocal, tMsg]{{Name: "Fresh", Kind: StepProperty,
		Step: func(before *View[tLocal, tMsg], _ Action, after *View[tLocal, tMsg]) bool {
			return fresh(before) && fresh(after)
		}}}
	k, err := New[tLocal, tMsg](tCodecAlg{}, Config{N: n, MaxCrashes: 1, MaxRestarts: 1, MaxQueue: 3}, props)
	require.NoError(t, err)
	e := k.newExpander()
	start := ws{Alive: 0b111, Local: make([]tLocal, n), Chans: chans{
		{0, 1}: {election(1), {opBurst, 2}},
		{1, 2}: {{opTo, 0}, {opCCW, 5}},
		{2, 0}: {note(3)},
	}}
	queue := [][]byte{e.encode(nil, start.world(k))}
	seen := map[string]bool{string(queue[0]): true}
	steps := 0
	for len(queue) > 0 && len(seen) < 20_000 {
		s := queue[0]
		queue = queue[1:]
		for _, lazy := range []bool{false, true} {
			var b ts.Batch
			b.Lazy = lazy
			e.Expand(s, &b)
			for i := range b.Succs {
				steps++
				require.NotZero(t, b.Succs[i].Props&1, "step %d of a state: Chan saw a stale channel (lazy %v)", i, lazy)
				if lazy {
					continue
				}
				if x := b.State(i); !seen[string(x)] {
					seen[string(x)] = true
					queue = append(queue, slices.Clone(x))
				}
			}
		}
	}
	require.Greater(t, len(seen), 1000, "the test explores a real state space")
	t.Logf("%d states, %d steps", len(seen), steps)
}
