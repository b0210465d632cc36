package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/specs"
)

func mustRegistry(t *testing.T) *specs.Registry {
	reg, err := registry()
	require.NoError(t, err)
	return reg
}

func run(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	reg, err := registry()
	if err != nil {
		return -1, "", err.Error()
	}
	code := cli.Main(args, reg, &out, &errb)
	return code, out.String(), errb.String()
}

func TestRegistered(t *testing.T) {
	assert.Equal(t, []string{"bully", "bully-no-ok", "chang-roberts", "cr-no-marks", "hirschberg-sinclair", "lelann", "maxring",
		"ring", "ring-detect", "ring-fixed", "ring-no-check"}, mustRegistry(t).Names())
}

func TestCommandLine(t *testing.T) {
	code, out, errs := run("--algo", "ring-fixed", "--n", "3", "--crash-any")
	assert.Equal(t, cli.ExitHolds, code, errs)
	assert.Contains(t, out, "mcheck ring-fixed, N=3, ids 1,2,3, crash-any (up to 2 crashes), perfect detector, max-queue 6\n")
	assert.Contains(t, out, "states       11,689 distinct\n")
	assert.Contains(t, out, "  Termination   holds\n")

	code, out, _ = run("--algo", "ring-detect", "--n", "3", "--crash-any")
	assert.Equal(t, cli.ExitViolation, code)
	assert.Contains(t, out, "Termination   VIOLATED (also without the bound: it cut no step of this run)  ELECTED(3) of crashed p3 circulates forever")

	code, out, _ = run("--algo", "maxring", "--ids", "3,9,4,8")
	assert.Equal(t, cli.ExitHolds, code)
	assert.Contains(t, out, "states       76 distinct\n")

	code, _, errs = run("--algo", "nosuch")
	assert.Equal(t, cli.ExitIncomplete, code)
	assert.Contains(t, errs, "cr-no-marks")
}
