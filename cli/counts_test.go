package cli_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/internal/refcounts"
	"github.com/mcheck/mcheck/internal/slow"
	"github.com/mcheck/mcheck/specs"
)

type reportJSON struct {
	States, Transitions, Discarded int64
	Depth                          int
	Complete                       bool
	StateStorage                   string   `json:"state_storage"`
	CollisionProbability           *float64 `json:"collision_probability"`
	Properties                     []propertyJSON
}

type propertyJSON struct {
	Name, Status, Kind string
	Trace              []json.RawMessage
	Also               []struct {
		Kind  string
		Trace []json.RawMessage
	}
}

// property is the report's verdict on the property of that name; the
// test fails if there is none.
func (r *reportJSON) property(t *testing.T, name string) propertyJSON {
	t.Helper()
	for _, p := range r.Properties {
		if p.Name == name {
			return p
		}
	}
	require.Failf(t, "no such property in the report", "%q", name)
	return propertyJSON{}
}

// The kernel's and the algorithms' counts are checked against every row in
// specs (TestReferenceCounts, through check.Run). Here the command line
// and its JSON: every sampleEvery-th row (of the fast ones; with -tags
// slow, of all).
const sampleEvery = 5

func TestCountsMatchTheIndependentImplementation(t *testing.T) {
	rows, err := refcounts.Read(filepath.Join("..", "testdata", "reference-counts.jsonl"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(rows), 200)
	for i, row := range rows {
		if !slow.On && row.States > refcounts.SmallRow || i%sampleEvery != 0 {
			continue
		}
		// Fingerprints, and whole states (--exact): the same counts.
		for _, mode := range []string{"", "--exact"} {
			t.Run(strings.TrimSpace(row.Args+" "+mode), func(t *testing.T) { checkReferenceRow(t, row, mode) })
		}
	}
}

func checkReferenceRow(t *testing.T, row refcounts.Row, mode string) {
	var out, errb bytes.Buffer
	args := append(strings.Fields(row.Args+" "+mode), "--json", "--continue", "--quiet")
	code := cli.Main(args, specs.Builtin(), &out, &errb)
	require.NotEqual(t, 2, code, errb.String())
	var rep reportJSON
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	require.True(t, rep.Complete)
	require.NotNil(t, rep.CollisionProbability, "collision_probability")
	if mode == "--exact" {
		require.Equal(t, "exact", rep.StateStorage)
		require.Zero(t, *rep.CollisionProbability)
	} else {
		require.Equal(t, "fingerprints", rep.StateStorage)
		if rep.States > 1 {
			require.Positive(t, *rep.CollisionProbability)
		}
		require.Less(t, *rep.CollisionProbability, 1e-6)
	}
	assert.Equal(t, row.States, rep.States, "states")
	assert.Equal(t, row.Transitions, rep.Transitions, "transitions")
	assert.Equal(t, row.Depth, rep.Depth, "depth")
	assert.Equal(t, row.Discarded, rep.Discarded, "discarded")
	for name, ref := range map[string]refcounts.Verdict{"SingleLeader": row.SingleLeader, "Agreement": row.Agreement} {
		p := rep.property(t, name)
		if assert.Equal(t, ref.Violated, p.Status == "violated", name) && ref.Violated {
			assert.Equal(t, *ref.Depth, len(p.Trace)-1, "%s: shortest counterexample length", name)
		}
	}
	term := rep.property(t, "Termination")
	stuck := -1
	if term.Kind == "stuck" {
		stuck = len(term.Trace) - 1
	}
	for _, a := range term.Also {
		if a.Kind == "stuck" {
			stuck = len(a.Trace) - 1
		}
	}
	if assert.Equal(t, row.Stuck.Exists, stuck >= 0, "stuck state") && row.Stuck.Exists {
		assert.Equal(t, *row.Stuck.Depth, stuck, "shallowest stuck state")
	}
	if row.Termination != nil {
		assert.Equal(t, *row.Termination, term.Status, "Termination")
	}
}
