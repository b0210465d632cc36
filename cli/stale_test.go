package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/trace"
)

// configOf is the configuration a check of args records in its traces (the
// JSON report writes it with the same keys).
func configOf(t *testing.T, args []string) trace.Config {
	t.Helper()
	code, stdout, stderr := mainOut(append(append([]string{}, args...), "--json")...)
	require.Equal(t, ExitHolds, code, stderr)
	var cfg trace.Config
	require.NoError(t, json.Unmarshal([]byte(stdout), &cfg))
	return cfg
}

// rewriteTrace edits the trace file at path, as if an earlier version of
// the algorithm had written it (the same configuration now passes).
func rewriteTrace(t *testing.T, path string, edit func(*trace.File)) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	f, err := trace.Read(bytes.NewReader(data))
	require.NoError(t, err)
	edit(f)
	var b bytes.Buffer
	require.NoError(t, f.Write(&b))
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
}

// staleTermination leaves in dir a Termination trace and its chart of the
// passing configuration, as an earlier version of its algorithm would
// have: a genuine counterexample then, which only a run that checks
// Termination of that configuration exhaustively may remove.
func staleTermination(t *testing.T, dir string) (tracePath, chart string) {
	t.Helper()
	tracePath, chart = filepath.Join(dir, "t.trace.json"), filepath.Join(dir, "t.svg")
	code, _, stderr := mainOut(append(violating, "--trace-out", tracePath, "--msc", chart)...)
	require.Equal(t, ExitViolation, code, stderr)
	cfg := configOf(t, passing)
	rewriteTrace(t, tracePath, func(f *trace.File) { f.Config = cfg })
	return tracePath, chart
}

// A run that did not look for the trace's counterexample keeps the trace
// and the chart beside it, and says why in one line: a simulation that
// found nothing, a check of other properties, a bitstate search, a search
// that did not finish, a check of another channel bound.
func TestRunsThatDidNotLookKeepAnEarlierTrace(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		code int
		why  string
	}{
		{"simulation", []string{"--simulate", "--runs", "50"}, ExitSampled,
			"a simulation samples runs and proves nothing, so it may still be a counterexample"},
		{"other property", []string{"--check", "SingleLeader"}, ExitHolds,
			"this run did not check Termination"},
		{"safety", []string{"--check", "safety"}, ExitHolds,
			"this run did not check Termination"},
		{"bitstate", []string{"--bitstate", "1MiB", "--check", "safety"}, ExitSampled,
			"a bitstate search may miss states, so it may still be a counterexample"},
		{"unfinished", []string{"--max-states", "10"}, ExitIncomplete,
			"this search did not finish, so it may still be a counterexample"},
		{"other bound", []string{"--max-queue", "5"}, ExitHolds,
			"it is of another configuration (bully, N=3, ids 1,2,3, crash-any (up to 2 crashes), perfect detector, initial leader, max-queue 6)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path, chart := staleTermination(t, t.TempDir())
			code, _, stderr := mainOut(append(append(append([]string{}, passing...), c.args...), "--trace-out", path, "--msc", chart)...)
			assert.Equal(t, c.code, code, stderr)
			assert.Equal(t, "mcheck: --trace-out: "+path+" is a trace of an earlier run, kept: "+c.why+"\n"+
				"mcheck: --msc: no counterexample to draw; "+chart+" is kept, as the trace of the earlier run is\n", stderr)
			assert.FileExists(t, path)
			assert.FileExists(t, chart)
		})
	}
}

// An exhaustive check of Termination of the trace's configuration that
// finishes without a violation removes the trace, and the chart with it.
func TestExhaustiveCheckOfThePropertyRemovesTheTrace(t *testing.T) {
	path, chart := staleTermination(t, t.TempDir())
	code, _, stderr := mainOut(append(append([]string{}, passing...), "--check", "Termination", "--trace-out", path, "--msc", chart)...)
	assert.Equal(t, ExitHolds, code, stderr)
	assert.Equal(t, "mcheck: --trace-out: removed "+path+", a trace of an earlier run that this one did not find\n"+
		"mcheck: --msc: removed "+chart+", the chart of a trace removed above\n", stderr)
	assert.NoFileExists(t, path)
	assert.NoFileExists(t, chart)
}

// In a --trace-out directory, a check of the safety properties keeps the
// Termination traces of the same configuration.
func TestSafetyCheckKeepsTerminationTracesInADirectory(t *testing.T) {
	dir := t.TempDir() + "/"
	code, _, stderr := mainOut(append(violating, "--trace-out", dir)...)
	require.Equal(t, ExitViolation, code, stderr)
	before := names(t, dir)
	require.Equal(t, []string{"Termination-fair-cycle.trace.json", "Termination-stuck.trace.json"}, before)

	code, _, stderr = mainOut(append(violating, "--check", "safety", "--trace-out", dir)...)
	assert.Equal(t, ExitHolds, code, stderr)
	assert.Equal(t, "mcheck: --trace-out: "+dir+"Termination-fair-cycle.trace.json is a trace of an earlier run, kept: this run did not check Termination\n"+
		"mcheck: --trace-out: "+dir+"Termination-stuck.trace.json is a trace of an earlier run, kept: this run did not check Termination\n", stderr)
	assert.Equal(t, before, names(t, dir))
}
