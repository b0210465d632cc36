package model

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/ts"
)

// noMemo is a kernel whose expanders run every handler.
type noMemo struct{ *Kernel[tLocal, tMsg] }

func (s noMemo) NewExpander() ts.Expander { return s.probeExpander() }

// Remembered effects are the handlers' effects: the state graph with the
// step memo is the graph without it, over configurations where every input
// of the memo's key varies (the sender, timers, the live set with crashes,
// restarts and false suspicions, the arrangement with Perm, ages with sync
// timing), and the memo was used.
func TestStepMemoGivesTheHandlersEffects(t *testing.T) {
	for _, cfg := range []Config{
		{N: 3, MaxCrashes: 1, MaxRestarts: 1, Detector: Unreliable, MaxQueue: 1, InitialLeader: true},
		{N: 3, Perm: true, MaxCrashes: 1, MaxQueue: 2},
		{N: 3, MaxCrashes: 1, Timing: Sync, MaxQueue: 2},
	} {
		t.Run(fmt.Sprintf("%+v", cfg), func(t *testing.T) {
			k, err := New[tLocal, tMsg](tCodecAlg{}, cfg, nil)
			require.NoError(t, err)
			full := func(b []byte) string { return fmt.Sprintf("%+v", wsOf(k, k.probeExpander().load(b)).norm(k.n)) }
			edges, states, discarded := graphOf(t, k, full)
			require.Greater(t, states, 100)
			plainEdges, plainStates, plainDiscarded := graphOf(t, noMemo{k}, full)
			assert.Equal(t, plainStates, states)
			assert.Equal(t, plainDiscarded, discarded)
			assert.Equal(t, plainEdges, edges)

			e := k.newExpander()
			var b Batch
			e.Initial(&b)
			for range 100 { // a walk, taking the last step each time
				if len(b.Succs) == 0 {
					break
				}
				e.Expand(slices.Clone(b.State(len(b.Succs)-1)), &b)
			}
			remembered := 0
			for _, slot := range e.stepMemo {
				if slot.key != (stepKey{}) {
					remembered++
				}
			}
			assert.Positive(t, remembered, "the memo remembers effects")
		})
	}
}
