package itf_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/itf"
	"github.com/mcheck/mcheck/trace"
)

// A timed trace's states name their due and late messages in #meta, and
// the file still reads back to the same trace.
func TestStateMetaMarksDueAndLate(t *testing.T) {
	for _, c := range []struct {
		file        string
		state       int
		due, late   []string
		description string
	}{
		{"bully-race.SingleLeader-invariant.trace.json", 6, []string{"p3→p2 OK(3)"}, nil, "sync: the OK is due after the second tick"},
		{"bully-race.SingleLeader-invariant.trace.json", 5, nil, nil, "sync: a fresh OK is neither"},
		{"bully-partial-restart.Termination-stuck.trace.json", 4, nil, []string{"p3→p1 COORDINATOR(3)", "p3→p2 COORDINATOR(3)"}, "partial before gst: late"},
	} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "msc", c.file))
		require.NoError(t, err)
		f, err := trace.Read(bytes.NewReader(data))
		require.NoError(t, err)
		out := write(t, f)
		var doc struct {
			States []struct {
				Meta struct {
					Due  []string `json:"due"`
					Late []string `json:"late"`
				} `json:"#meta"`
			} `json:"states"`
		}
		require.NoError(t, json.Unmarshal(out, &doc))
		assert.Equal(t, c.due, doc.States[c.state].Meta.Due, c.description)
		assert.Equal(t, c.late, doc.States[c.state].Meta.Late, c.description)
		back, err := itf.Read(out)
		require.NoError(t, err)
		assert.Equal(t, len(f.Steps), len(back.Steps))
	}
}
