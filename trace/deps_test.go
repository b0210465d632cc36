package trace_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Replaying takes the registry from the caller, so trace must not build
// every algorithm in: the packages under specs/ stay out of its imports.
func TestTraceDoesNotImportTheAlgorithms(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the imports with")
	}
	out, err := exec.Command(gobin, "list", "-deps", ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, pkg := range strings.Fields(string(out)) {
		require.False(t, strings.HasPrefix(pkg, "github.com/mcheck/mcheck/specs"), "trace imports %s", pkg)
	}
	require.Contains(t, strings.Fields(string(out)), "github.com/mcheck/mcheck/model", "the list is of mcheck's packages")
}
