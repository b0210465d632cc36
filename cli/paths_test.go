package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A search with hundreds of millions of states: if an output path were
// checked only after it, these tests would not end.
// (--max-states keeps a broken test from running for hours.)
var endless = []string{"--algo", "bully", "--n", "4", "--crash-any", "--initial-leader=false", "--quiet", "--max-states", "2000000"}

func listing(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	require.NoError(t, filepath.WalkDir(dir, func(path string, _ os.DirEntry, err error) error {
		names = append(names, path)
		return err
	}))
	return names
}

func TestOutputPathsAreCheckedBeforeTheSearch(t *testing.T) {
	tmp := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(tmp, "file.txt"), nil, 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(tmp, "dir.svg"), 0o755))
	for _, c := range []struct {
		flag, path, want string
	}{
		{"--trace-out", "missing/deeper/", "--trace-out: cannot write TMP/missing/deeper/: the directory TMP/missing does not exist (create it first)"},
		{"--trace-out", "missing/t.json", "--trace-out: cannot write TMP/missing/t.json: the directory TMP/missing does not exist (create it first)"},
		{"--trace-out", "file.txt/t.json", "--trace-out: cannot write TMP/file.txt/t.json: TMP/file.txt is not a directory"},
		{"--trace-out", "file.txt/", "--trace-out: TMP/file.txt is a file, not a directory: drop the trailing / to write one trace to it"},
		{"--msc", "missing/chart.svg", "--msc: cannot write TMP/missing/chart.svg: the directory TMP/missing does not exist (create it first)"},
		{"--msc", "dir.svg", "--msc: TMP/dir.svg is a directory: give a file name"},
		{"--msc", "chart.png", "--msc: want a file ending in .svg or .md"},
	} {
		t.Run(c.flag+" "+c.path, func(t *testing.T) {
			before := listing(t, tmp)
			start := time.Now()
			code, out, stderr := run(append(endless, c.flag, tmp+"/"+c.path)...)
			assert.Less(t, time.Since(start), 5*time.Second, "no search ran")
			assert.Equal(t, 2, code)
			assert.Empty(t, out, "no report: the search did not start")
			assert.Equal(t, "mcheck: "+strings.ReplaceAll(c.want, "TMP", tmp)+"\n", stderr)
			assert.Equal(t, before, listing(t, tmp), "nothing created")
		})
	}
}

// Only the directory asked for is created, after the search, inside a
// parent that exists.
func TestTraceDirectoryIsCreatedAfterTheSearch(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "traces") + "/"
	code, _, stderr := run(append(circulating, "--quiet", "--trace-out", dir)...)
	require.Equal(t, 1, code, stderr)
	assert.Empty(t, stderr)
	assert.FileExists(t, filepath.Join(dir, "Termination-fair-cycle.trace.json"))
	assert.FileExists(t, filepath.Join(dir, "Termination-stuck.trace.json"))
}

// When an output cannot be written after all (here a disk that is full),
// the report stands, the failure is said once, and a violation still
// exits 1.
func TestWriteFailureAfterTheSearchKeepsTheVerdict(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("needs /dev/full, a device that is always full")
	}
	tmp := t.TempDir()
	for _, c := range []struct{ flag, name, want string }{
		{"--trace-out", "t.trace.json", "mcheck: --trace-out: writing TMP/t.trace.json: no space left on device (the report above stands; exit status 1)\n"},
		{"--msc", "chart.svg", "mcheck: --msc: writing TMP/chart.svg: no space left on device (the report above stands; exit status 1)\n"},
	} {
		path := filepath.Join(tmp, c.name)
		require.NoError(t, os.Symlink("/dev/full", path))
		code, out, stderr := run(append(circulating, "--quiet", c.flag, path)...)
		assert.Equal(t, 1, code, "the violation's exit status")
		assert.Contains(t, out, "Termination   VIOLATED")
		assert.Equal(t, strings.ReplaceAll(c.want, "TMP", tmp), stderr)
	}
}

func TestReplayChecksTheChartPathFirst(t *testing.T) {
	tmp := t.TempDir()
	code, out, stderr := run("replay", "--msc", filepath.Join(tmp, "missing", "c.svg"), "../testdata/golden/circulating-election.Termination-fair-cycle.trace.json")
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Equal(t, "mcheck: replay: --msc: cannot write "+tmp+"/missing/c.svg: the directory "+tmp+"/missing does not exist (create it first)\n", stderr)
}
