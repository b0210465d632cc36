package explore_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// spillChild runs the search of TestSpillFailureGoesOnInMemory in a
// process whose files may hold 16 KiB (RLIMIT_FSIZE, as a small TMPDIR):
// its temporary files fill up early.
const spillChild = "MCHECK_TEST_SPILL_CHILD"

func spillSearch(t *testing.T, spill bool) *explore.Result {
	spec, err := specs.Builtin().Lookup("bully")
	require.NoError(t, err)
	sys, err := spec.Build.System(model.Config{N: 4, MaxCrashes: 3, InitialLeader: true}, nil)
	require.NoError(t, err)
	opt := explore.Options{Workers: 2, TempDir: os.Getenv(spillChild)}
	if spill {
		opt = explore.SpillEverything(opt)
	}
	res, err := explore.Run(sys, opt)
	require.NoError(t, err)
	return res
}

// A search whose temporary files cannot grow (a full or small TMPDIR)
// goes on in memory while the budget allows, finds exactly what it finds
// in memory, and says why its files failed.
func TestSpillFailureGoesOnInMemory(t *testing.T) {
	t.Parallel()
	if dir := os.Getenv(spillChild); dir != "" {
		// Only the soft limit, given back before the test ends: a binary
		// built with -cover writes its profile at exit.
		var was syscall.Rlimit
		require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_FSIZE, &was))
		require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 16 << 10, Max: was.Max}))
		res := spillSearch(t, true)
		require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_FSIZE, &was))
		require.NoError(t, json.NewEncoder(os.Stdout).Encode(res.Stats))
		return
	}
	if testing.Short() {
		t.Skip("runs a child process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSpillFailureGoesOnInMemory$", "-test.count=1")
	cmd.Env = append(os.Environ(), spillChild+"="+t.TempDir())
	out, err := cmd.Output()
	require.NoError(t, err, "%s", out)
	line, _, _ := strings.Cut(string(out), "\n")
	var got explore.Stats
	require.NoError(t, json.Unmarshal([]byte(line), &got), "%s", out)

	want := spillSearch(t, false).Stats
	require.True(t, got.Complete)
	assert.Regexp(t, `^parent links stay in memory: write .*/mcheck-links-\d+: file too large; the frontier stays in memory: write .*/mcheck-frontier-\d+: file too large$`, got.SpillFailed)
	got.Elapsed, got.CycleCheck, got.MemBytes, got.SpillFailed = 0, 0, 0, ""
	want.Elapsed, want.CycleCheck, want.MemBytes = 0, 0, 0
	assert.Equal(t, want, got)
}
