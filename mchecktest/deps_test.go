package mchecktest_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A test that checks an algorithm builds the report renderers, not the
// command line: package report, never cli (its flags, its files).
func TestMchecktestDoesNotImportTheCommandLine(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the imports with")
	}
	out, err := exec.Command(gobin, "list", "-deps", ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	deps := strings.Fields(string(out))
	for _, pkg := range deps {
		require.NotEqual(t, "github.com/mcheck/mcheck/cli", pkg, "mchecktest imports cli")
	}
	require.Contains(t, deps, "github.com/mcheck/mcheck/report", "the list is of mcheck's packages")
}
