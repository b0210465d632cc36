package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStatusSaysWhetherTheStepLeftItsResult(t *testing.T) {
	for _, c := range []struct {
		name   string
		script string // run by sh with $0 the result's path
		stale  bool   // an earlier run's result is there before the step
		want   int
		stderr string
	}{
		{"a violation, written", `echo '{}' >"$0"; exit 1`, false, 0, "exited 1 (a violation) and wrote"},
		{"none found, written", `echo '{}' >"$0"; exit 3`, false, 0, "exited 3 (none found, which proves nothing) and wrote"},
		{"holds, written", `echo '{}' >"$0"`, false, 0, "exited 0 (every checked property holds"},
		{"bad input: retried", `exit 2`, false, 2, "exited 2 and wrote no"},
		{"a violation without its result", `exit 1`, false, 1, "exited 1 and wrote no"},
		{"an earlier swarm's result is not this one's", `exit 3`, true, 3, "exited 3 and wrote no"},
		{"an empty result", `: >"$0"; exit 1`, false, 1, "exited 1 and wrote no"},
		{"0 without a result", `exit 0`, false, 2, "exited 0 but wrote no"},
		{"killed", `kill -9 $$`, false, 2, "signal: killed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			result := filepath.Join(t.TempDir(), "member-0-of-2.json")
			if c.stale {
				require.NoError(t, os.WriteFile(result, []byte("{}"), 0o644))
			}
			var out, errOut bytes.Buffer
			got := run([]string{result, "sh", "-c", c.script, result}, &out, &errOut)
			assert.Equal(t, c.want, got)
			assert.Contains(t, errOut.String(), c.stderr)
			if c.stale {
				assert.NoFileExists(t, result)
			}
		})
	}
}

func TestUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 2, run([]string{"/tmp/x.json"}, &out, &errOut))
	assert.Contains(t, errOut.String(), "usage: mcheck-job RESULT COMMAND")
	errOut.Reset()
	assert.Equal(t, 2, run([]string{filepath.Join(t.TempDir(), "r.json"), "/nonexistent/mcheck"}, &out, &errOut))
	assert.Contains(t, errOut.String(), "mcheck-job: fork/exec /nonexistent/mcheck")
}

func TestPatternsAreExpandedAsByAShell(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"member-1-of-4.json", "member-0-of-4.json", "member-0-of-8.json"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), []byte("{}"), 0o644))
	}
	result := filepath.Join(dir, "merged.json")
	var out, errOut bytes.Buffer
	got := run([]string{result, "sh", "-c", `echo "$@"; echo '{}' >"$0"; exit 3`, result,
		filepath.Join(dir, "member-*-of-4.json"), filepath.Join(dir, "nothing-*.json"), "--json-out"}, &out, &errOut)
	assert.Equal(t, 0, got, errOut.String())
	assert.Equal(t, filepath.Join(dir, "member-0-of-4.json")+" "+filepath.Join(dir, "member-1-of-4.json")+" "+filepath.Join(dir, "nothing-*.json")+" --json-out\n", out.String())
}
