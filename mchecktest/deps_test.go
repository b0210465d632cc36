package mchecktest_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/internal/needs"
)

// A test that checks an algorithm builds the report renderers, not the
// command line: package report, never cli (its flags, its files).
func TestMchecktestDoesNotImportTheCommandLine(t *testing.T) {
	deps := needs.Deps(t)
	require.NotContains(t, deps, "github.com/mcheck/mcheck/cli", "mchecktest imports cli")
	require.Contains(t, deps, "github.com/mcheck/mcheck/report", "the list is of mcheck's packages")
}
