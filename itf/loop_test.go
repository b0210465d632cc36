package itf_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/itf"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// A lasso whose cycle starts at the initial state is "loop": 0, and reads
// back to the same lasso. Bully with the unreliable detector: the golden
// fair cycle's steps 1..11 lead from the initial state back to it.
func TestLoopAtTheInitialState(t *testing.T) {
	f := goldenTraces(t)["bully-unreliable-termination.Termination-fair-cycle.trace.json"]
	f.Steps = f.Steps[:12]
	require.Empty(t, trace.Diff(f.Steps[0].State, f.Steps[11].State), "steps 1..11 are a cycle")
	zero := 0
	f.CycleStart = &zero
	require.NoError(t, trace.Replay(f, specs.Builtin()))

	data := write(t, f)
	var top struct {
		Loop   *int
		States []json.RawMessage
	}
	require.NoError(t, json.Unmarshal(data, &top))
	require.NotNil(t, top.Loop)
	assert.Equal(t, 0, *top.Loop)
	assert.Len(t, top.States, 11, "the last state, the first again, is left out")

	back, err := itf.Read(data)
	require.NoError(t, err)
	require.NotNil(t, back.CycleStart)
	assert.Equal(t, 0, *back.CycleStart)
	require.Len(t, back.Steps, 12)
	assert.Empty(t, trace.Diff(back.Steps[0].State, back.Steps[11].State))
	assert.Equal(t, f.Steps[11].Label(), back.Steps[11].Label())
	require.NoError(t, trace.Replay(back, specs.Builtin()))
}

// "loop" names a state of the file: one past the last, or before the
// first, is refused as malformed, never an index out of range.
func TestLoopOutsideTheStates(t *testing.T) {
	f := goldenTraces(t)["circulating-election.Termination-fair-cycle.trace.json"]
	good := write(t, f)
	var m map[string]any
	require.NoError(t, json.Unmarshal(good, &m))
	n := len(m["states"].([]any))
	require.Equal(t, len(f.Steps)-1, n)
	for _, loop := range []int{n, -1} {
		t.Run(fmt.Sprint(loop), func(t *testing.T) {
			m["loop"] = loop
			data, err := json.Marshal(m)
			require.NoError(t, err)
			_, err = itf.Read(data)
			var mal *trace.MalformedError
			require.ErrorAs(t, err, &mal)
			assert.Equal(t, fmt.Sprintf("malformed trace file: ITF: loop %d is outside the states 0..%d", loop, n-1), err.Error())
		})
	}
	// The last state may be where the cycle starts: a cycle of one step.
	m["loop"] = n - 1
	data, err := json.Marshal(m)
	require.NoError(t, err)
	back, err := itf.Read(data)
	require.NoError(t, err, "loop %d is the last state", n-1)
	assert.Equal(t, n-1, *back.CycleStart)
	assert.Len(t, back.Steps, n+1)
}

// A trace file whose cycle lies outside its steps cannot be written as ITF.
func TestWriteRefusesACycleOutsideTheSteps(t *testing.T) {
	f := goldenTraces(t)["circulating-election.Termination-fair-cycle.trace.json"]
	last := len(f.Steps) - 1
	for _, cs := range []int{-1, last} {
		g := *f
		g.CycleStart = &cs
		_, err := itf.FromFile(&g)
		require.Error(t, err)
		assert.Equal(t, fmt.Sprintf("itf: cycle start %d is outside the steps 0..%d", cs, last-1), err.Error())
	}
	_, err := itf.FromFile(&trace.File{})
	assert.EqualError(t, err, "itf: the trace has no steps")
}
