package explore

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/ts"
)

func switchesSystem(t *testing.T) ts.System {
	t.Helper()
	spec, err := specs.Builtin().Lookup("hirschberg-sinclair")
	require.NoError(t, err)
	sys, err := spec.Build.System(model.Config{N: 4}, []string{"SingleLeader", "Termination"})
	require.NoError(t, err)
	return sys
}

// The test switches are settings of one search: a search made with them
// has them, one made beside it without them has a user's defaults.
func TestSwitchesBelongToOneSearch(t *testing.T) {
	t.Parallel()
	sys := switchesSystem(t)
	opt := Options{Workers: 1, TempDir: t.TempDir()}
	for _, c := range []struct {
		name             string
		opt              Options
		reverse          bool
		levelAt, linksAt int64
	}{
		{"defaults", opt, false, 1 << 20, 1 << 18},
		{"reverse", InReverse(opt), true, 1 << 20, 1 << 18},
		{"spill", SpillEverything(opt), false, 0, 1},
		{"both", InReverse(SpillEverything(opt)), true, 0, 1},
	} {
		s := newSearch(sys, c.opt.withDefaults())
		assert.Equal(t, c.reverse, s.team.reverse, c.name)
		assert.Equal(t, c.levelAt, s.front.cur.spillAfter, c.name)
		assert.Equal(t, c.levelAt, s.front.next.spillAfter, c.name)
		assert.Equal(t, c.linksAt, int64(s.front.links.spill), c.name)
		s.close()
	}
}

// A one-worker team in reverse runs a phase's items from the last to the
// first; otherwise in order.
func TestTeamInReverse(t *testing.T) {
	t.Parallel()
	for _, reverse := range []bool{false, true} {
		tm := team{workers: make([]worker, 1), reverse: reverse}
		var got []int
		tm.parallel(4, func(_ *worker, i int) { got = append(got, i) })
		want := []int{0, 1, 2, 3}
		if reverse {
			want = []int{3, 2, 1, 0}
		}
		assert.Equal(t, want, got, "reverse %v", reverse)
		assert.Equal(t, !reverse, tm.inOrder(), "reverse %v", reverse)
	}
}

// SpillEverything reaches the search it is given and no other: searches
// running at once, whose temporary directory does not exist, fail to spill
// only where they were told to spill (a small search of a user's never
// touches the disk).
func TestSpillEverythingReachesOnlyItsSearch(t *testing.T) {
	t.Parallel()
	sys := switchesSystem(t)
	missing := filepath.Join(t.TempDir(), "missing")
	for _, spill := range []bool{false, true, false, true} {
		t.Run("", func(t *testing.T) {
			t.Parallel()
			opt := Options{Targets: Targets{Invariants: []int{0}}, Continue: true, Workers: 2, TempDir: missing}
			if spill {
				opt = SpillEverything(opt)
			}
			res, err := Run(sys, opt)
			require.NoError(t, err)
			require.True(t, res.Complete)
			if !spill {
				assert.Empty(t, res.SpillFailed)
				return
			}
			// Fewer states than a block of links: only the levels spill.
			assert.Regexp(t, `^the frontier stays in memory: open \S*/missing/mcheck-frontier-\d+: no such file or directory(; |$)`, res.SpillFailed)
		})
	}
}

// No package variable is left for a test to flip: the package's mutable
// settings are a search's (Options). Only error values and tables that
// are never written may be package variables.
func TestNoPackageVariables(t *testing.T) {
	t.Parallel()
	allowed := []string{"errStateTooLong", "schedulerNames", "endNames"}
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var found []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				for _, id := range spec.(*ast.ValueSpec).Names {
					if id.Name != "_" && !slices.Contains(allowed, id.Name) {
						found = append(found, name+": "+id.Name)
					}
				}
			}
		}
	}
	assert.Empty(t, found, "package variables; make them settings of a search (Options) or constants")
}
