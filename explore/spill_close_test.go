package explore

import (
	"os"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// A spilled level's file is closed when the level is closed, once.
func TestSpilledLevelFileIsClosed(t *testing.T) {
	t.Parallel()
	var l level
	l.dir, l.io = t.TempDir(), &batchBufs{}
	l.reset(0)
	l.spillAfter = 0
	l.reserve(1, 8)
	require.NoError(t, l.err)
	require.True(t, l.onDisk)
	f := l.file
	require.NotNil(t, f)
	l.close()
	assert.Nil(t, l.file)
	assert.ErrorIs(t, f.Close(), os.ErrClosed, "the level closed its file")
	l.close() // nothing left to close
	assert.Nil(t, l.file)
}

// openFiles counts this process's open file descriptors.
func openFiles(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	require.NoError(t, err)
	return len(fds)
}

// A search that spills its levels and parent links to files leaves none of
// them open. (The files are removed as soon as they are created, so only
// the open descriptors show them.) The collector is off meanwhile, so that
// no finalizer closes a file the search forgot.
func TestSearchThatSpillsLeavesNoFileOpen(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("this system has no /proc/self/fd to count open files with")
	}
	spec, err := specs.Builtin().Lookup("hirschberg-sinclair")
	require.NoError(t, err)
	sys, err := spec.Build.System(model.Config{N: 4}, []string{"SingleLeader", "Termination"})
	require.NoError(t, err)
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	before := openFiles(t)
	for _, liveness := range []bool{false, true} {
		res, err := Run(sys, Options{Targets: Targets{Invariants: []int{0}, Goal: GoalOf(1)}, Liveness: liveness, Continue: true, Workers: 2, TempDir: t.TempDir(), test: testSwitches{spillAll: true}})
		require.NoError(t, err)
		require.True(t, res.Complete)
		require.Greater(t, res.Depth, 3, "levels to spill")
		assert.Equal(t, before, openFiles(t), "liveness %v: files left open", liveness)
	}
}
