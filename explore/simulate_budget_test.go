package explore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The memory budget, not the Context, halts the simulation: the workers
// that find it halted stop without an interruption to name, and the result
// says why it stopped.
func TestSimulationStoppedByTheMemoryBudget(t *testing.T) {
	g := graphSys{"GG", []edge{{0, 1, 0}, {1, 0, 1}}}
	for _, workers := range []int{1, 4} {
		res, err := Simulate(g, SimOptions{Targets: Targets{Goal: GoalOf(0)}, Seed: 7, Runs: 10_000, Depth: 40, Workers: workers, MemoryBudget: 1 << 20})
		require.NoError(t, err)
		assert.Equal(t, StopMemory, res.Stats.Stop)
		assert.False(t, res.Stats.Complete)
		assert.Equal(t, "memory budget of 1.0 MiB reached by the table of the distinct states seen", res.Stats.Stopped)
		assert.Less(t, res.Simulation.Runs, int64(10_000))
	}
}
