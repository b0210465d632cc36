package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTraceOutITFReplays(t *testing.T) {
	dir := t.TempDir()
	itfPath := filepath.Join(dir, "x.itf.json")
	code, _, stderr := run(append(circulating, "--trace-out", itfPath)...)
	require.Equal(t, 1, code, stderr)
	data, err := os.ReadFile(itfPath)
	require.NoError(t, err)
	var top map[string]any
	require.NoError(t, json.Unmarshal(data, &top))
	assert.Contains(t, top, "vars")
	assert.Contains(t, top, "states")
	assert.EqualValues(t, 5, top["loop"], "the lasso's cycle starts at step 5")

	code, out, stderr := run("replay", itfPath)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "a genuine counterexample: Termination is violated (fair-cycle, 8 steps; every step replays)")
	assert.Contains(t, out, "   6  deliver p1→p2 ELECTION(4)   ◀ cycle starts here (steps 6-8 repeat forever)\n")

	// The same run as an mcheck trace file replays to the same text.
	mc := filepath.Join(dir, "x.trace.json")
	code, _, stderr = run(append(circulating, "--trace-out", mc)...)
	require.Equal(t, 1, code, stderr)
	_, out2, _ := run("replay", mc)
	assert.Equal(t, strings.ReplaceAll(out, itfPath, mc), out2)

	// An edited ITF state does not replay: exit 1, naming the step.
	bad := filepath.Join(dir, "bad.itf.json")
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	m["states"].([]any)[3].(map[string]any)["p4_participant"] = false
	edited, err := json.Marshal(m)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(bad, edited, 0o644))
	code, out, _ = run("replay", bad)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "not a counterexample: step 3: ")
}

func TestReplayRefusesVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.trace.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"format": "mcheck-trace/1", "config": {"algo": "ring"}, "steps": [{"action": "initial state"}]}`), 0o644))
	code, out, stderr := run("replay", path)
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Equal(t, "mcheck: replay: "+path+": malformed trace file: mcheck-trace/1 is the old format, which this mcheck no longer reads: run the check again with --trace-out to write it as mcheck-trace/2\n", stderr)
}
