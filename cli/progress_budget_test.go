package cli_test

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/specs"
)

// The progress line names --memory as the user gave it, and the share of
// it that the search may fill (where it stops) as that share, not as the
// budget.
func TestProgressNamesTheMemoryBudgetGiven(t *testing.T) {
	var out, stderr bytes.Buffer
	// A second and a half of runs: one progress line, after a second.
	code := cli.Main([]string{"--algo", "chang-roberts", "--n", "5", "--simulate", "--time-limit", "1500ms", "--workers", "1",
		"--progress", "--memory", "64MiB"}, specs.Builtin(), &out, &stderr)
	require.Equal(t, 3, code, out.String())
	m := regexp.MustCompile(`(?m)^mcheck: 1s  .*  memory \S+ \S+  (\d+% of the search's \S+ \S+ of --memory \S+ \S+)$`).FindStringSubmatch(stderr.String())
	require.NotNil(t, m, stderr.String())
	assert.Regexp(t, `^\d+% of the search's 51\.2 MiB of --memory 64\.0 MiB$`, m[1])
}
