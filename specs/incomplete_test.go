package specs_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
)

// The incomplete detector (docs/semantics.md section 1.7) has the perfect
// detector's states and steps, so counts and safety verdicts agree; only
// fairness differs: Bully whose coordinator crashes unnoticed stays without
// a leader.
func TestBullyIncompleteDetectorNoLeader(t *testing.T) {
	bully := lookup(t, "bully")
	cfg := model.Config{N: 3, MaxCrashes: 1, InitialLeader: true, Detector: model.Incomplete}
	rep := run(t, bully, cfg, true)
	expect(t, rep, true, want{holds, holds, violated, "stuck", nil})
	tr := verdict(t, rep, "Termination").Trace
	assert.Equal(t, []string{"crash p3"}, labels(tr), "the coordinator crashes and nobody is bound to notice")

	cfg.Detector = model.Perfect
	perfect := run(t, bully, cfg, true)
	expect(t, perfect, true, want{holds, holds, holds, "", nil})
	assert.Equal(t, perfect.Stats.States, rep.Stats.States)
	assert.Equal(t, perfect.Stats.Transitions, rep.Stats.Transitions)
}

func TestIncompleteDetectorSameCountsAndSafety(t *testing.T) {
	for _, c := range []struct {
		algo string
		cfg  model.Config
	}{
		{"chang-roberts", model.Config{N: 3, MaxCrashes: 1}},
		{"lelann", model.Config{N: 3, MaxCrashes: 1, InitialLeader: true}},
		{"bully", model.Config{N: 3, MaxCrashes: 2, MaxRestarts: 1, InitialLeader: true}},
	} {
		t.Run(fmt.Sprintf("%s %+v", c.algo, c.cfg), func(t *testing.T) {
			sp := lookup(t, c.algo)
			perfect := run(t, sp, c.cfg, true)
			c.cfg.Detector = model.Incomplete
			inc := run(t, sp, c.cfg, true)
			require.True(t, inc.Stats.Complete)
			assert.Equal(t, perfect.Stats.States, inc.Stats.States)
			assert.Equal(t, perfect.Stats.Transitions, inc.Stats.Transitions)
			assert.Equal(t, perfect.Stats.Discarded, inc.Stats.Discarded)
			for i := range 2 {
				assert.Equal(t, perfect.Verdicts[i].Status, inc.Verdicts[i].Status, perfect.Verdicts[i].Name)
			}
		})
	}
}
