package cli_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/specs/ring"
)

// runBounded runs mcheck with "bounded-ring": the ring algorithm with an
// optional invariant that no run sends more than 8 messages (counted up
// to 9).
func runBounded(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	type view = model.View[ring.Local, ring.Msg]
	bound := model.Property[ring.Local, ring.Msg]{
		Name: "AtMostEight", Kind: model.Invariant, Optional: true, CountSends: 9,
		Doc:   "no run sends more than 8 messages",
		Holds: func(v *view) bool { return v.Sent() <= 8 },
	}
	reg := specs.Builtin()
	require.NoError(t, reg.Register(specs.Spec{Name: "bounded-ring", Build: specs.Builder[ring.Local, ring.Msg](ring.Algorithm{}, bound)}))
	var out, errb bytes.Buffer
	code = cli.Main(args, reg, &out, &errb)
	return code, out.String(), errb.String()
}

// A property that counts the sends: --check list says so; checked, the
// report says the states count them and the counterexample shows the
// counts; not checked, the states and counts are those of the algorithm
// without it.
func TestCountedSendsOnTheCommandLine(t *testing.T) {
	code, out, stderr := runBounded(t, "--algo", "bounded-ring", "--check", "list")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "\n    AtMostEight           invariant          no run sends more than 8 messages (counts the sends, up to 9)\n")
	assert.Contains(t, out, "\n  * SingleLeader          invariant          at most one live process has elected itself [safety]\n", "no word of sends for a property that does not count them")

	code, out, stderr = runBounded(t, "--algo", "bounded-ring", "--n", "3", "--check", "AtMostEight")
	require.Equal(t, 1, code, stderr)
	assert.Contains(t, out, "  AtMostEight   VIOLATED  after 9 steps AtMostEight (no run sends more than 8 messages) does not hold\n")
	assert.Contains(t, out, "  note: the states count the sends since the initial state, each up to 9, for the properties that read them")
	assert.Contains(t, out, "      (sends counted since the initial state, each count up to 9: 9 means 9 or more)\n")
	assert.Contains(t, out, "      sent: 8 → 9\n")

	code, out, stderr = runBounded(t, "--algo", "bounded-ring", "--n", "3", "--check", "AtMostEight", "--json")
	require.Equal(t, 1, code, stderr)
	var rep struct {
		SendCap int `json:"send_cap"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, 9, rep.SendCap)

	// The default check does not count: the reference count of ring --n 3.
	code, out, stderr = runBounded(t, "--algo", "bounded-ring", "--n", "3")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "states       106 distinct\n")
	assert.NotContains(t, out, "count the sends")
	code, out, stderr = runBounded(t, "--algo", "bounded-ring", "--n", "3", "--json")
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, out, "send_cap")
}
