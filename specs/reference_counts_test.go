package specs_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/internal/refcounts"
	"github.com/mcheck/mcheck/internal/slow"
	"github.com/mcheck/mcheck/specs"
)

// TestReferenceCounts checks the kernel and the five algorithms against the
// independent implementation, through the library (check.Run), with
// fingerprints and with whole states: the same counts, verdicts and
// shortest counterexample depths. (cli's TestCountsMatchTheIndependentImplementation
// checks a sample of the rows through the command line and its JSON.)
func TestReferenceCounts(t *testing.T) {
	rows, err := refcounts.Read(filepath.Join("..", "testdata", "reference-counts.jsonl"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(rows), 200)
	for _, row := range rows {
		if !slow.On && row.States > refcounts.SmallRow {
			continue
		}
		for _, exact := range []bool{false, true} {
			name := row.Args
			if exact {
				name += " exact"
			}
			t.Run(name, func(t *testing.T) { checkReferenceRow(t, row, exact) })
		}
	}
}

func checkReferenceRow(t *testing.T, row refcounts.Row, exact bool) {
	fields := strings.Fields(row.Args)
	require.Equal(t, "--algo", fields[0])
	spec, err := specs.Builtin().Lookup(fields[1])
	require.NoError(t, err)
	cfg, err := parseModelFlags(fields[2:], spec.InitialLeader)
	require.NoError(t, err)
	rep, err := check.Run(check.Request{Spec: spec, Config: cfg, Continue: true, Exact: exact, Workers: 1})
	require.NoError(t, err)
	require.True(t, rep.Stats.Complete)
	assert.Equal(t, row.States, rep.Stats.States, "states")
	assert.Equal(t, row.Transitions, rep.Stats.Transitions, "transitions")
	assert.Equal(t, row.Depth, rep.Stats.Depth, "depth")
	assert.Equal(t, row.Discarded, rep.Stats.Discarded, "discarded")
	verdict := func(name string) check.Verdict {
		for _, v := range rep.Verdicts {
			if v.Name == name {
				return v
			}
		}
		require.Failf(t, "no verdict", "%q", name)
		return check.Verdict{}
	}
	for name, ref := range map[string]refcounts.Verdict{"SingleLeader": row.SingleLeader, "Agreement": row.Agreement} {
		v := verdict(name)
		if assert.Equal(t, ref.Violated, v.Status == check.Violated, name) && ref.Violated {
			assert.Equal(t, *ref.Depth, len(v.Trace.Steps)-1, "%s: shortest counterexample length", name)
		}
	}
	term := verdict("Termination")
	stuck := -1
	if term.Kind == cex.Stuck && term.Trace != nil {
		stuck = len(term.Trace.Steps) - 1
	}
	for _, a := range term.Also {
		if a.Kind == cex.Stuck {
			stuck = len(a.Trace.Steps) - 1
		}
	}
	if assert.Equal(t, row.Stuck.Exists, stuck >= 0, "stuck state") && row.Stuck.Exists {
		assert.Equal(t, *row.Stuck.Depth, stuck, "shallowest stuck state")
	}
	if row.Termination != nil {
		assert.Equal(t, *row.Termination, string(term.Status), "Termination")
	}
}
