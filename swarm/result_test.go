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
