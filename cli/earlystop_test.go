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

// The search that stops at its first violation against the full search
// (--continue), on every reference configuration (the small ones in the
// fast loop): what it decides, it decides as the full search does; a
// violation it reports is one the full search reports, of a kind the full
// search found, and no longer than the full search's of that kind (the
// independent implementation's depths bound the shortest); it leaves
// undecided only what it had not decided when it stopped; and a search
// without a violation is the full search, counts and all.
// earlyStopRow is the largest row -tags slow compares (194 of the 200).
const earlyStopRow = 300_000

func TestEarlyStopAgreesWithTheFullSearch(t *testing.T) {
	rows, err := refcounts.Read(filepath.Join("..", "testdata", "reference-counts.jsonl"))
	require.NoError(t, err)
	n := 0
	for _, row := range rows {
		if !slow.On && row.States > refcounts.SmallRow || row.States > earlyStopRow {
			continue
		}
		n++
		t.Run(row.Args, func(t *testing.T) {
			full, early := runJSON(t, row.Args, "--continue"), runJSON(t, row.Args)
			require.True(t, full.Complete)
			stopped := false
			for _, p := range early.Properties {
				q := full.property(t, p.Name)
				switch p.Status {
				case "violated":
					stopped = true
					require.Equal(t, "violated", q.Status, p.Name)
					kinds := []string{q.Kind}
					lengths := map[string]int{q.Kind: len(q.Trace)}
					for _, a := range q.Also {
						kinds = append(kinds, a.Kind)
						lengths[a.Kind] = len(a.Trace)
					}
					require.Contains(t, kinds, p.Kind, p.Name)
					assert.Equal(t, lengths[p.Kind], len(p.Trace), "%s: the %s counterexample is a shortest one", p.Name, p.Kind)
				case "unknown":
					require.False(t, early.Complete, p.Name)
				default:
					assert.Equal(t, q.Status, p.Status, p.Name)
				}
			}
			if !stopped {
				assert.True(t, early.Complete)
				assert.Equal(t, full.States, early.States)
				assert.Equal(t, full.Transitions, early.Transitions)
			}
			// The independent implementation's shallowest violations.
			if s := early.find("SingleLeader"); s != nil && s.Status == "violated" && row.SingleLeader.Depth != nil {
				assert.Equal(t, *row.SingleLeader.Depth+1, len(s.Trace))
			}
			if s := early.find("Termination"); s != nil && s.Status == "violated" && s.Kind == "stuck" && row.Stuck.Depth != nil {
				assert.Equal(t, *row.Stuck.Depth+1, len(s.Trace))
			}
		})
	}
	require.Greater(t, n, 150)
}

func runJSON(t *testing.T, args string, extra ...string) reportJSON {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Main(append(append(strings.Fields(args), extra...), "--json", "--quiet"), specs.Builtin(), &out, &errb)
	require.NotEqual(t, 2, code, errb.String())
	var rep reportJSON
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	return rep
}

func (r *reportJSON) find(name string) *propertyJSON {
	for i := range r.Properties {
		if r.Properties[i].Name == name {
			return &r.Properties[i]
		}
	}
	return nil
}
