package cli_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/internal/slow"
	"github.com/mcheck/mcheck/specs"
)

// referenceRow is one line of testdata/reference-counts.jsonl: a
// configuration and what an independent implementation of docs/semantics.md
// (a plain Python BFS over full states, written from the text alone) found.
type referenceRow struct {
	Args                string
	States, Transitions int64
	Depth               int
	Discarded           int64
	SingleLeader        refVerdict `json:"single_leader"`
	Agreement           refVerdict
	Stuck               refStuck
	Termination         *string
}

type refVerdict struct {
	Violated bool
	Depth    *int // of the shallowest violating state
}

type refStuck struct {
	Exists bool
	Depth  *int
}

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

// The fast loop checks the rows of at most smallRow states (159 of the 200,
// every algorithm and fault model, 2% of the states); -tags slow checks
// every row.
const smallRow = 5000

// The kernel's and the algorithms' counts are checked against every row in
// specs (TestReferenceCounts, through check.Run). Here the command line
// and its JSON: every sampleEvery-th row of the fast ones, every row with
// -tags slow.
const sampleEvery = 5

func TestCountsMatchTheIndependentImplementation(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "testdata", "reference-counts.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var row referenceRow
		require.NoError(t, json.Unmarshal(sc.Bytes(), &row))
		n++
		if !slow.On && (row.States > smallRow || n%sampleEvery != 1) {
			continue
		}
		// Fingerprints, and whole states (--exact): the same counts.
		for _, mode := range []string{"", "--exact"} {
			t.Run(strings.TrimSpace(row.Args+" "+mode), func(t *testing.T) { checkReferenceRow(t, row, mode) })
		}
	}
	require.NoError(t, sc.Err())
	require.GreaterOrEqual(t, n, 200)
}

func checkReferenceRow(t *testing.T, row referenceRow, mode string) {
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
	for name, ref := range map[string]refVerdict{"SingleLeader": row.SingleLeader, "Agreement": row.Agreement} {
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
