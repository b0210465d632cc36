package trace_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/internal/needs"
)

// Replaying takes the registry from the caller, so trace must not build
// every algorithm in: the packages under specs/ stay out of its imports.
func TestTraceDoesNotImportTheAlgorithms(t *testing.T) {
	deps := needs.Deps(t)
	for _, pkg := range deps {
		require.False(t, strings.HasPrefix(pkg, "github.com/mcheck/mcheck/specs"), "trace imports %s", pkg)
	}
	require.Contains(t, deps, "github.com/mcheck/mcheck/model", "the list is of mcheck's packages")
}
