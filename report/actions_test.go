package report

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
)

// The actions line names the kinds never taken, whether they were enabled
// somewhere or never, but only those the configuration can take.
func TestActionsNameOnlyPossibleKinds(t *testing.T) {
	n := len(check.KindNames())
	sim := &explore.SimStats{Taken: make([]int64, n), Enabled: make([]bool, n)}
	sim.Taken[model.KindDeliver], sim.Enabled[model.KindDeliver] = 7, true
	sim.Enabled[model.KindInitiate] = true
	possible := []model.Kind{model.KindDeliver, model.KindInitiate, model.KindCrash, model.KindTick}
	assert.Equal(t, "deliver 7; never taken though enabled: initiate; never enabled: crash, tick", actionsText(sim, possible))
	assert.Equal(t, "deliver 7; never taken though enabled: initiate; never enabled: timeout, suspect, early-timeout, crash, restart, tick, gst, heartbeat",
		actionsText(sim, nil), "a system that does not say which kinds it has: all of them")
}
