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
	"github.com/mcheck/mcheck/specs"
)

// referenceRow is one line of testdata/reference-counts.jsonl: a
// configuration and what an independent implementation of semantics.md
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
	Properties                     []struct {
		Name, Status, Kind string
		Trace              []json.RawMessage
		Also               []struct {
			Kind  string
			Trace []json.RawMessage
		}
	}
}

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
		t.Run(row.Args, func(t *testing.T) {
			var out, errb bytes.Buffer
			args := append(strings.Fields(row.Args), "--json", "--continue", "--quiet")
			code := cli.Main(args, specs.Builtin(), &out, &errb)
			require.NotEqual(t, 2, code, errb.String())
			var rep reportJSON
			require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
			require.True(t, rep.Complete)
			assert.Equal(t, row.States, rep.States, "states")
			assert.Equal(t, row.Transitions, rep.Transitions, "transitions")
			assert.Equal(t, row.Depth, rep.Depth, "depth")
			assert.Equal(t, row.Discarded, rep.Discarded, "discarded")
			props := map[string]int{}
			for i, p := range rep.Properties {
				props[p.Name] = i
			}
			for name, ref := range map[string]refVerdict{"SingleLeader": row.SingleLeader, "Agreement": row.Agreement} {
				p := rep.Properties[props[name]]
				if assert.Equal(t, ref.Violated, p.Status == "violated", name) && ref.Violated {
					assert.Equal(t, *ref.Depth, len(p.Trace)-1, "%s: shortest counterexample length", name)
				}
			}
			term := rep.Properties[props["Termination"]]
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
		})
	}
	require.NoError(t, sc.Err())
	require.GreaterOrEqual(t, n, 200)
}
