package report

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/mcheck/mcheck/internal/golden"
)

// flagWords names the options as mcheck's command line does, so that the
// texts these tests pin read as the command prints them.
func flagWords(field, value string) string {
	flag := map[string]string{"Continue": "--continue", "CrashAny": "--crash-any", "Depth": "--depth", "Exact": "--exact",
		"InitialLeader": "--initial-leader", "Initiators": "--initiators", "MaxCrashes": "--crashes", "MaxQueue": "--max-queue",
		"MaxStates": "--max-states", "Params": "--param", "Properties": "--check", "Reduce": "--por", "RunSeed": "--run-seed",
		"Timeout": "--timeout"}[field]
	switch value {
	case "":
		return flag
	case "true", "false":
		return flag + "=" + value
	}
	return flag + " " + value
}

// Every option a text asks Of's setting for is in Settings, so that a
// front end that names each of Settings names every one the texts say.
func TestSettingsListsEveryOptionTheTextsName(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	asked := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		f, err := parser.ParseFile(token.NewFileSet(), name, src, 0)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "set" && len(call.Args) == 2 {
				lit, ok := call.Args[0].(*ast.BasicLit)
				require.True(t, ok, "%s: set takes a field name, not %T", name, call.Args[0])
				field, _ := strconv.Unquote(lit.Value)
				asked[field] = true
			}
			return true
		})
	}
	var names []string
	for f := range asked {
		names = append(names, f)
	}
	slices.Sort(names)
	assert.Equal(t, Settings(), names)
}

// Without a front end's words, an option is its field.
func TestSetWithoutWordsSaysTheField(t *testing.T) {
	r := &Result{}
	assert.Equal(t, "Continue", r.set("Continue", ""))
	assert.Equal(t, "Reduce=false", r.set("Reduce", "false"))
	r.setting = flagWords
	assert.Equal(t, "--por=false", r.set("Reduce", "false"))
	assert.Equal(t, "--max-queue auto", r.set("MaxQueue", "auto"))
}
