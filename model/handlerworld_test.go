package model

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The expander's world pointers (those of type *world) are set in one
// place each: the handler's world only by at and guardAt, which every
// handler and guard call goes through. Kernel code that reads a world
// names it, so no step depends on which handler ran last.
func TestHandlersWorldIsSetOnlyByAtAndGuardAt(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := gotoken.NewFileSet()
	var parsed []*ast.File
	pointers := map[string]bool{} // the expander's fields of type *world
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		parsed = append(parsed, f)
		ast.Inspect(f, func(n ast.Node) bool {
			spec, ok := n.(*ast.TypeSpec)
			if !ok || spec.Name.Name != "expander" {
				return true
			}
			for _, fl := range spec.Type.(*ast.StructType).Fields.List {
				if star, ok := fl.Type.(*ast.StarExpr); ok {
					if ix, ok := star.X.(*ast.IndexListExpr); ok && isIdent(ix.X, "world") {
						for _, n := range fl.Names {
							pointers[n.Name] = true
						}
					}
				}
			}
			return false
		})
	}
	require.NotEmpty(t, pointers, "the expander has no *world field: update this test")
	var setters []string
	for _, f := range parsed {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil || fn.Recv == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				as, ok := n.(*ast.AssignStmt)
				if !ok {
					return true
				}
				for _, lhs := range as.Lhs {
					// e.hw, not e.view.w: a field of the expander itself.
					if sel, ok := lhs.(*ast.SelectorExpr); ok && pointers[sel.Sel.Name] && isIdent(sel.X, recvName(fn)) {
						setters = append(setters, fn.Name.Name+" sets "+sel.Sel.Name)
					}
				}
				return true
			})
		}
	}
	slices.Sort(setters)
	require.Equal(t, []string{"at sets hw", "guardAt sets hw"}, setters)
}

func isIdent(x ast.Expr, name string) bool {
	id, ok := x.(*ast.Ident)
	return ok && id.Name == name
}

func recvName(fn *ast.FuncDecl) string {
	if names := fn.Recv.List[0].Names; len(names) > 0 {
		return names[0].Name
	}
	return ""
}

// decode, the hot reader of every expanded state, reads each part of the
// encoding in a function named for it, none of them long.
func TestDecodeIsReadPartByPart(t *testing.T) {
	fset := gotoken.NewFileSet()
	f, err := parser.ParseFile(fset, "state.go", nil, 0)
	require.NoError(t, err)
	lines := map[string]int{}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && strings.HasPrefix(fn.Name.Name, "decode") {
			lines[fn.Name.Name] = fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
		}
	}
	for _, part := range []string{"decode", "decodeHead", "decodeLocals", "decodeClocks", "decodeChans"} {
		require.Contains(t, lines, part)
		require.LessOrEqual(t, lines[part], 50, "%s is %d lines", part, lines[part])
	}
}
