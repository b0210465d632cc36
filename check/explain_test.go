package check_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// The summary Summary computes from the run a trace file replays as is
// the one the check that found it wrote, for every golden trace; a summary
// the file makes up is not taken.
func TestSummaryIsTheChecksFromTheReplayedRun(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("..", "testdata", "golden", "*.trace.json"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(names), 6)
	for _, n := range names {
		fh, err := os.Open(n)
		require.NoError(t, err)
		f, err := trace.Read(fh)
		fh.Close()
		require.NoError(t, err, n)
		spec, err := specs.Builtin().Lookup(f.Config.Algo)
		require.NoError(t, err)
		if f.Kind == cex.Witness || f.Kind == cex.Lasso {
			// A measure's run claims no violation: it has no summary to check.
			require.Empty(t, f.Summary, n)
			got, err := check.Summary(spec, f)
			require.NoError(t, err, n)
			assert.Empty(t, got, n)
			continue
		}
		require.NotEmpty(t, f.Summary, n)
		want := f.Summary
		f.Summary = "made up"
		got, err := check.Summary(spec, f)
		require.NoError(t, err, n)
		assert.Equal(t, want, got, n)
	}
}
