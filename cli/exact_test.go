package cli

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/specs"
)

// The report says how states were told apart, and the odds of a collision
// next to "holds"; --exact rules collisions out.
func TestReportSaysHowStatesWereStored(t *testing.T) {
	run := func(args ...string) string {
		var out, errb bytes.Buffer
		require.Equal(t, ExitHolds, Main(append([]string{"--algo", "bully", "--n", "4", "--crash-any", "--quiet"}, args...), specs.Builtin(), &out, &errb), errb.String())
		return out.String()
	}
	plain := run()
	require.Contains(t, plain, "storage      64-bit fingerprints: the chance that two of these states share one, so that one went unexplored, is about 1.5e-10 (--exact rules it out)\n")
	require.Contains(t, plain, "  note: \"holds\" rests on 64-bit fingerprints; the odds that a collision hid a state are about 1.5e-10\n")
	exact := run("--exact")
	require.Contains(t, exact, "storage      whole states (--exact): no fingerprint collision can hide a state\n")
	require.NotContains(t, exact, "rests on 64-bit fingerprints")
	require.Contains(t, exact, "states       27,390 distinct\n")

	var out, errb bytes.Buffer
	require.Equal(t, ExitIncomplete, Main([]string{"--algo", "bully", "--exact", "--bitstate", "1MiB"}, specs.Builtin(), &out, &errb))
	require.Equal(t, "mcheck: --exact stores whole states and --bitstate none: give only one of them\n", errb.String())
}
