package swarm_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/swarm"
)

// decode writes r as a member's JSON report and decodes it.
func decode(t *testing.T, r *swarm.Result) error {
	t.Helper()
	data, err := json.Marshal(map[string]any{"swarm": r})
	require.NoError(t, err)
	_, err = swarm.Decode(bytes.NewReader(data))
	return err
}

// A counterexample comes with what its member judged of it, consistent
// with its kind: an example is reachable, anything else violated.
func TestDecodeChecksWhatMembersJudged(t *testing.T) {
	good := member(0, 2, tr("A", 0), ex("D", 0)).Result
	require.NoError(t, decode(t, good))
	for _, c := range []struct {
		name string
		edit func(f []swarm.Found)
		want string
	}{
		{"no status", func(f []swarm.Found) { f[0].Status = "" }, `a counterexample of A with status "", not violated or reachable`},
		{"holds", func(f []swarm.Found) { f[0].Status = check.Holds }, `a counterexample of A with status "holds", not violated or reachable`},
		{"violating example", func(f []swarm.Found) { f[1].Status = check.Violated }, "a example trace of D that is violated: an example is reachable, a counterexample violated"},
		{"reached invariant", func(f []swarm.Found) { f[0].Status = check.Reachable }, "a invariant trace of A that is reachable"},
		{"no proof", func(f []swarm.Found) { f[0].Proof = "" }, "a counterexample of A without the proof of its search"},
	} {
		r := member(0, 2, tr("A", 0), ex("D", 0)).Result
		c.edit(r.Found)
		assert.ErrorContains(t, decode(t, r), c.want, c.name)
	}
	old := member(0, 2).Result
	old.Format = "mcheck-swarm-member/1"
	assert.EqualError(t, decode(t, old), `format "mcheck-swarm-member/1", want "mcheck-swarm-member/2": a result of another mcheck (run the member again with this one)`)
}

// A member's own settings are those its index gives, and what it covered
// fits them.
func TestDecodeChecksSettingsAndCoverage(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(r *swarm.Result)
		want string
	}{
		{"another member's seed", func(r *swarm.Result) { r.Derived.Seed = swarm.Member{Index: 0, Count: 2}.Seed(0) }, "member 1 of a swarm of seed 0 has the settings"},
		{"a fixed scheduler", func(r *swarm.Result) { r.Settings.Scheduler = "faults" }, `its index gives {"seed":10182144043623835685,"scheduler":"faults"}`},
		{"runs", func(r *swarm.Result) { r.Coverage.Runs = 1e18 }, "member 1 of 2 covered 1000000000000000000 runs, of 10"},
		{"finished short", func(r *swarm.Result) { r.Coverage.Runs = 9 }, "member 1 of 2 covered 9 runs, of 10, and finished"},
		{"a long run", func(r *swarm.Result) { r.Coverage.Depth = 1001 }, "a run of 1001 steps, of at most 1000"},
		{"steps overflow", func(r *swarm.Result) { r.Coverage.Steps = 1<<63 - 1 }, "9223372036854775807 steps in 10 runs of at most 1000"},
		{"negative", func(r *swarm.Result) { r.Coverage.States = -1 }, "member 1 of 2 covered a negative count"},
		{"no budget", func(r *swarm.Result) { r.Settings.Runs = 0 }, "a simulation of 0 runs of at most 1000 steps"},
	} {
		r := member(1, 2).Result
		c.edit(r)
		assert.ErrorContains(t, decode(t, r), c.want, c.name)
	}

	bit := func(i int) *swarm.Result {
		r := member(i, 4).Result
		r.Settings.Strategy, r.Settings.Runs, r.Settings.Depth, r.Settings.Bitstate = swarm.Bitstate, 0, 0, 1000
		m := swarm.Member{Index: i, Count: 4}
		r.Derived = swarm.Derived{Seed: m.HashSeed(0), Bitstate: m.BitstateBytes(1000)}
		r.Coverage.Runs, r.Coverage.BitstateBytes, r.Coverage.Fill = 0, 128, 0.5
		return r
	}
	require.NoError(t, decode(t, bit(2)), "250 bytes given, 128 used")
	for _, c := range []struct {
		name string
		edit func(r *swarm.Result)
		want string
	}{
		{"its own size", func(r *swarm.Result) { r.Derived.Bitstate = 1000 }, `its index gives {"seed":`},
		{"more than given", func(r *swarm.Result) { r.Coverage.BitstateBytes = 256 }, "a bit array of 256 bytes, given 250"},
		{"no power of two", func(r *swarm.Result) { r.Coverage.BitstateBytes = 96 }, "a bit array of 96 bytes, given 250"},
		{"states", func(r *swarm.Result) { r.Coverage.States = 1025 }, "1025 states in a bit array of 1024 bits"},
		{"fill", func(r *swarm.Result) { r.Coverage.Fill = 1.5 }, "a bit array 1.5 full"},
	} {
		r := bit(2)
		c.edit(r)
		assert.ErrorContains(t, decode(t, r), c.want, c.name)
	}
}
