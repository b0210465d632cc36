package cli_test

import (
	"bytes"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/specs"
)

// The process's settings are the program's: Main changes none (the
// runtime's memory limit stays as it was), and MainWith hands the memory
// budget to the program's hook instead.
func TestMainLeavesTheProcessAlone(t *testing.T) {
	const limit = 3 << 30
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	code, _, stderr := run("--algo", "chang-roberts", "--n", "3", "--memory", "256MiB")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, int64(limit), debug.SetMemoryLimit(-1))

	var budgets []int64
	var out, errb bytes.Buffer
	code = cli.MainWith([]string{"--algo", "chang-roberts", "--n", "3", "--memory", "256MiB"}, specs.Builtin(), &out, &errb,
		cli.Hooks{Budget: func(b int64) { budgets = append(budgets, b) }})
	require.Equal(t, 0, code, errb.String())
	assert.Equal(t, []int64{256 << 20}, budgets)
	assert.Equal(t, int64(limit), debug.SetMemoryLimit(-1))
}
