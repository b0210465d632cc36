package swarm_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/swarm"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// I/K is member I of K from 0; /K reads I from a Kubernetes Indexed Job
// or a Slurm array, whichever numbering --array chose.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		give string
		env  map[string]string
		want swarm.Member
	}{
		{"0/4", nil, swarm.Member{Index: 0, Count: 4, From: swarm.Given}},
		{" 3/4 ", map[string]string{"JOB_COMPLETION_INDEX": "1"}, swarm.Member{Index: 3, Count: 4, From: swarm.Given}},
		{"0/1", nil, swarm.Member{Index: 0, Count: 1, From: swarm.Given}},
		{"/4", map[string]string{"JOB_COMPLETION_INDEX": "2"}, swarm.Member{Index: 2, Count: 4, From: swarm.Kubernetes}},
		// --array=0-3
		{"/4", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"}, swarm.Member{Index: 3, Count: 4, From: swarm.Slurm}},
		// --array=1-4
		{"/4", map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "4", "SLURM_ARRAY_TASK_COUNT": "4"}, swarm.Member{Index: 0, Count: 4, From: swarm.Slurm}},
		// --array=0-6:2
		{"/4", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_STEP": "2", "SLURM_ARRAY_TASK_COUNT": "4"}, swarm.Member{Index: 2, Count: 4, From: swarm.Slurm}},
		// The ends of the int range, task-first in uint64.
		{"/4", map[string]string{"SLURM_ARRAY_TASK_ID": "-9223372036854775805", "SLURM_ARRAY_TASK_MIN": "-9223372036854775808"}, swarm.Member{Index: 3, Count: 4, From: swarm.Slurm}},
		{"/2", map[string]string{"SLURM_ARRAY_TASK_ID": "9223372036854775807", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_STEP": "9223372036854775807"}, swarm.Member{Index: 1, Count: 2, From: swarm.Slurm}},
		// Without MIN (an old Slurm): from 0.
		{"/2", map[string]string{"SLURM_ARRAY_TASK_ID": "1"}, swarm.Member{Index: 1, Count: 2, From: swarm.Slurm}},
	} {
		got, err := swarm.Parse(c.give, env(c.env))
		require.NoError(t, err, "%q %v", c.give, c.env)
		assert.Equal(t, c.want, got, "%q %v", c.give, c.env)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, c := range []struct {
		give string
		env  map[string]string
		want string
	}{
		{"4", nil, `"4" is not I/K`},
		{"1/x", nil, `"1/x" is not I/K`},
		{"x/4", nil, `"x" is not a member index (0 to 3)`},
		{"4/4", nil, "member 4 of 4 is outside 0..3 (members are numbered from 0)"},
		{"-1/4", nil, "member -1 of 4 is outside 0..3"},
		{"0/0", nil, "a swarm has 1 to 100000 members, not 0"},
		{"/4", nil, "no member index: give it as I/4, or run in a Kubernetes Indexed Job (JOB_COMPLETION_INDEX) or a Slurm array (SLURM_ARRAY_TASK_ID)"},
		{"/4", map[string]string{"JOB_COMPLETION_INDEX": "4"}, `JOB_COMPLETION_INDEX="4" is not a member index 0..3: run 4 completions of the Indexed Job`},
		{"/4", map[string]string{"JOB_COMPLETION_INDEX": "1", "SLURM_ARRAY_TASK_ID": "1"}, "both JOB_COMPLETION_INDEX=1 (Kubernetes) and SLURM_ARRAY_TASK_ID=1 (Slurm) are set"},
		{"/4", map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "5"}, "SLURM_ARRAY_TASK_COUNT=5, but the swarm has 4 members: submit the array with 4 tasks (--array=0-3)"},
		{"/4", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0"}, "SLURM_ARRAY_TASK_ID=4 is not one of 4 tasks numbered from SLURM_ARRAY_TASK_MIN=0 in steps of 1"},
		{"/4", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_STEP": "2"}, "SLURM_ARRAY_TASK_ID=3 is not one of 4 tasks"},
		{"/4", map[string]string{"SLURM_ARRAY_TASK_ID": "two"}, `SLURM_ARRAY_TASK_ID="two" is not a number`},
		// task-first overflows an int.
		{"/4", map[string]string{"SLURM_ARRAY_TASK_ID": "9223372036854775807", "SLURM_ARRAY_TASK_MIN": "-9223372036854775808"}, "SLURM_ARRAY_TASK_ID=9223372036854775807 is not one of 4 tasks numbered from SLURM_ARRAY_TASK_MIN=-9223372036854775808 in steps of 1"},
		{"/4", map[string]string{"SLURM_ARRAY_TASK_ID": "-9223372036854775808", "SLURM_ARRAY_TASK_MIN": "9223372036854775807"}, "SLURM_ARRAY_TASK_ID=-9223372036854775808 is not one of 4 tasks"},
		{"/4", map[string]string{"SLURM_ARRAY_TASK_ID": "9223372036854775807", "SLURM_ARRAY_TASK_MIN": "-9223372036854775808", "SLURM_ARRAY_TASK_STEP": "4611686018427387904"}, "is not one of 4 tasks"},
		{"/4", map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_STEP": "0"}, "SLURM_ARRAY_TASK_STEP=0 is not a step of an array (1 or more): submit the array as a range, --array=0-3"},
		{"/4", map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_STEP": "-1"}, "SLURM_ARRAY_TASK_STEP=-1 is not a step of an array"},
	} {
		_, err := swarm.Parse(c.give, env(c.env))
		assert.ErrorContains(t, err, c.want, "%q %v", c.give, c.env)
	}
}

// Members differ from each other in every setting derived from their
// index, the same way every time; the schedulers and sizes take turns.
func TestMembersAreDiversified(t *testing.T) {
	const k = 8
	seeds, hashes := map[uint64]int{}, map[uint64]int{}
	for i := range k {
		m := swarm.Member{Index: i, Count: k}
		seeds[m.Seed(0)]++
		hashes[m.HashSeed(0)]++
		assert.NotZero(t, m.HashSeed(0), "0 is no hash seed")
		assert.NotEqual(t, m.Seed(0), m.Seed(1), "another base seed, another member")
		assert.Equal(t, explore.Scheduler(i%2), m.Scheduler())
		assert.Equal(t, int64(64<<20)>>(i%4), m.BitstateBytes(64<<20))
		for r := range int64(4) {
			assert.NotEqual(t, explore.RunSeed(0, r), m.Seed(0), "a member's seed is not a run's of the base seed")
		}
	}
	assert.Len(t, seeds, k)
	assert.Len(t, hashes, k)
	// Pinned: a member's derivation is part of the result format (the
	// merge checks settings, not derivations), so a change must be seen.
	assert.Equal(t, uint64(6234717124179322427), swarm.Member{Index: 0, Count: 4}.Seed(0))
}
