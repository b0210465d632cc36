package cli

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/internal/myring"
	"github.com/mcheck/mcheck/specs"
)

// Only the command line names its flags: the library packages say what
// they mean in their own words (a field, an option), and cli maps those
// to flags (flagOf), so that a program using the library is never told
// to pass a flag it does not have.
func TestLibraryTextsNameNoFlag(t *testing.T) {
	// The front ends and the flag tables are allowed flag names.
	skip := map[string]bool{"cli": true, "cmd": true, "tools": true, "examples": true, "testdata": true,
		"deploy": true, "bench": true, "shared": true, "docs": true, "internal/modelopt": true, "internal/flagval": true,
		"claims": true} // claims renders docs/complexity.md, whose rows are command lines
	// Texts that hold "--" but name no mcheck flag.
	other := map[string]string{
		"msc/mermaid.go":  "--x",     // Mermaid's arrow of a lost message
		"swarm/member.go": "--array", // sbatch's flag, which the error tells the user to give sbatch
	}
	flagLike := regexp.MustCompile(`--[a-z]`)
	files := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("..", path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if skip[rel] || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, _ := strconv.Unquote(lit.Value)
			for _, m := range flagLike.FindAllStringIndex(s, -1) {
				if ok := other[rel]; ok != "" && strings.HasPrefix(s[m[0]:], ok) {
					continue
				}
				t.Errorf("%s: %q names a flag: say it in the library's words and let cli name the flag (flagOf)", rel, s)
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, files, 100, "the walk found the library's files")
}

// The library's error for an algorithm without an initial-leader state
// reaches the user with the flag that asked for one.
func TestInitialLeaderErrorNamesTheFlag(t *testing.T) {
	reg := specs.Builtin()
	require.NoError(t, reg.Register(specs.Spec{Name: "myring", Build: specs.Builder(myring.Algorithm{})}))
	var out, errb bytes.Buffer
	code := Main([]string{"--algo", "myring", "--n", "3", "--initial-leader"}, reg, &out, &errb)
	assert.Equal(t, ExitIncomplete, code, "bad input")
	assert.Equal(t, "mcheck: --initial-leader: this algorithm defines no initial-leader state: leave it off, or give the algorithm InitLeader (model.Leaderer)\n", errb.String())
}
