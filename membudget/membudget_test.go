package membudget

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/offheap"
)

// Apply sets the runtime's memory limit from the budget and collects more
// often (unless GOGC says otherwise), and from then on what the state table
// maps outside the heap lowers the limit, what it gives back raises it.
func TestApply(t *testing.T) {
	t.Setenv("GOGC", "")
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer offheap.Listen(nil)

	const budget = 1 << 30
	Apply(budget)
	limit := explore.MemoryLimit(budget)
	assert.Equal(t, limit, debug.SetMemoryLimit(-1))
	assert.Equal(t, 25, debug.SetGCPercent(25))

	words := offheap.Make[uint64](1 << 20)
	mapped := limit - debug.SetMemoryLimit(-1)
	offheap.Free(words)
	assert.Equal(t, limit, debug.SetMemoryLimit(-1), "given back")
	if offheap.Mapped {
		assert.Equal(t, int64(8<<20), mapped)
	} else { // the heap build (-race, other systems) maps nothing
		assert.Zero(t, mapped)
	}
}

// With GOGC set, the user's choice of collection stands.
func TestApplyKeepsGOGC(t *testing.T) {
	t.Setenv("GOGC", "200")
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer debug.SetGCPercent(debug.SetGCPercent(200))
	defer offheap.Listen(nil)
	Apply(1 << 30)
	assert.Equal(t, 200, debug.SetGCPercent(200))
}
