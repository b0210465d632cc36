package main

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/internal/modelopt"
	"github.com/mcheck/mcheck/model"
)

const root = "../../.."

func readRoot(name string) ([]byte, error) { return os.ReadFile(filepath.Join(root, name)) }

// The files derived from the table are what gen writes from it: a row
// changed without go generate fails here.
func TestGeneratedFilesAreUpToDate(t *testing.T) {
	files, err := generate(modelopt.Options, reflect.TypeFor[model.Config](), readRoot)
	require.NoError(t, err)
	assert.Len(t, files, 5)
	for name, want := range files {
		got, err := readRoot(name)
		require.NoError(t, err)
		if line, have, give := firstDiff(string(got), string(want)); line > 0 {
			t.Errorf("%s line %d is %q where the table gives %q: change the row in internal/modelopt's table, not this file, then run go generate ./internal/modelopt", name, line, have, give)
		}
	}
}

// firstDiff is the first line (from 1) where a and b differ, and that line
// of each; 0 when they are equal.
func firstDiff(a, b string) (int, string, string) {
	if a == b {
		return 0, "", ""
	}
	al, bl := strings.SplitAfter(a, "\n"), strings.SplitAfter(b, "\n")
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return i + 1, x, y
		}
	}
	return 0, "", ""
}

// withField is model.Config with one more field, as a new option would
// add it.
func withField(name string, typ reflect.Type) reflect.Type {
	mt := reflect.TypeFor[model.Config]()
	var fields []reflect.StructField
	for i := range mt.NumField() {
		f := mt.Field(i)
		fields = append(fields, reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag})
	}
	return reflect.StructOf(append(fields, reflect.StructField{Name: name, Type: typ}))
}

// structFields are the fields of the struct type name in the Go source
// src, by name, each as its type's source and its tag, in order.
func structFields(t *testing.T, src []byte, name string) (names []string, types, tags map[string]string) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "gen.go", src, parser.ParseComments)
	require.NoError(t, err)
	types, tags = map[string]string{}, map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != name {
			return true
		}
		for _, fd := range ts.Type.(*ast.StructType).Fields.List {
			typ := string(src[fset.Position(fd.Type.Pos()).Offset:fset.Position(fd.Type.End()).Offset])
			for _, n := range fd.Names {
				names = append(names, n.Name)
				types[n.Name] = typ
				if fd.Tag != nil {
					tags[n.Name], _ = strconv.Unquote(fd.Tag.Value)
				}
			}
		}
		return false
	})
	require.NotEmpty(t, names, "no struct %s", name)
	return names, types, tags
}

// A new model option is one row of the table: a throwaway row, for a
// field Jitter that model.Config would have, reaches the command line's
// flags and usage, the explorer URL, trace.Config (its key last, left out
// at zero, and both conversions), mchecktest.Config (its field and its
// conversion), and both docs.
func TestANewRowReachesEveryFrontEnd(t *testing.T) {
	jitter := 0
	row := modelopt.Option{
		Field: "Jitter", Flag: "jitter", API: "Jitter", Trace: "jitter",
		Usage: "  --jitter J            up to J ticks of jitter (default 0)\n",
		Doc:   "Jitter is up to J ticks of jitter (default 0), as --jitter.",
		Docs:  "| `--jitter J` | up to J ticks of jitter (default 0) |\n",
		Bind:  func(fs *flag.FlagSet, _ *modelopt.Given) { fs.IntVar(&jitter, "jitter", 0, "") },
		Arg: func(model.Config, bool) (string, bool) {
			return strconv.Itoa(jitter), jitter != 0
		},
	}
	tab := append(append(modelopt.Table{}, modelopt.Options...), row)

	// Flags and usage.
	assert.Contains(t, tab.Flags(), "jitter")
	assert.Contains(t, tab.Usage(), row.Usage)
	var g modelopt.Given
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	tab.Bind(fs, &g)
	require.NoError(t, fs.Parse([]string{"--n", "4", "--jitter", "3"}))
	assert.Equal(t, 3, jitter)
	assert.Equal(t, 4, g.Config.N, "the table's other rows still bind")

	// The explorer's URL and the command line written back.
	q := tab.Query("ring", model.Config{N: 4}, false)
	assert.Equal(t, "algo=ring&jitter=3&n=4", q.Encode())
	assert.Contains(t, tab.Args(model.Config{N: 4}, false), "--jitter=3")

	files, err := generate(tab, withField("Jitter", reflect.TypeFor[int]()), readRoot)
	require.NoError(t, err)

	// trace.Config: the key after every key of the format's first options,
	// so that existing files keep their bytes, and left out at zero.
	names, types, tags := structFields(t, files[traceFile], "Config")
	assert.Equal(t, "Jitter", names[len(names)-1])
	assert.Equal(t, "int", types["Jitter"])
	assert.Equal(t, `json:"jitter,omitempty"`, tags["Jitter"])
	_, _, oldTags := structFields(t, mustRead(t, traceFile), "Config")
	for name, tag := range oldTags {
		assert.Equal(t, tag, tags[name], "the key of %s", name)
	}
	assert.Regexp(t, `(?m)^\t\tJitter: +c\.Jitter,$`, string(files[traceFile]), "ConfigOf and Model")
	assert.Len(t, regexp.MustCompile(`Jitter: +c\.Jitter,`).FindAllString(string(files[traceFile]), -1), 2, "ConfigOf and Model")

	// mchecktest.Config: the field, its comment, and its conversion; the
	// rest of the file as it was.
	names, types, _ = structFields(t, files[mchecktestFile], "Config")
	assert.Contains(t, names, "Jitter")
	assert.Equal(t, "int", types["Jitter"])
	assert.Contains(t, string(files[mchecktestFile]), "\t// Jitter is up to J ticks of jitter (default 0), as --jitter.\n\tJitter int\n")
	oldNames, _, _ := structFields(t, mustRead(t, mchecktestFile), "Config")
	i := slices.Index(names, "Jitter")
	require.Positive(t, i)
	assert.Equal(t, "HeartbeatTimeout", names[i-1], "after the model's other fields")
	assert.Equal(t, oldNames, slices.Delete(slices.Clone(names), i, i+1), "every other field kept, in order")
	assert.Contains(t, string(files[mchecktestConv]), "\tg.Config.Jitter = cfg.Jitter\n")

	// docs/cli.md's table of flags, and docs/tutorial.md's list.
	cli := string(files[cliDoc])
	assert.Contains(t, cli, "| `--channels fifo\\|unordered` |")
	_, table, _ := strings.Cut(cli, "\n## Flags\n\n")
	table, _, _ = strings.Cut(table, "\n\n")
	assert.Contains(t, table, "\n"+row.Docs, "a row of the table of flags")
	assert.Equal(t, strings.Count(string(mustRead(t, cliDoc)), "\n")+1, strings.Count(cli, "\n"), "one row more")
	tut := string(files[tutorialDoc])
	_, list, _ := strings.Cut(tut, tutorialBegin)
	list, _, _ = strings.Cut(list, tutorialEnd)
	assert.Contains(t, list, "`HeartbeatTimeout`, `Jitter`")
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := readRoot(name)
	require.NoError(t, err)
	return b
}

func TestKebab(t *testing.T) {
	for api, flag := range map[string]string{"N": "n", "IDs": "ids", "MaxQueue": "max-queue", "TimeoutCoord": "timeout-coord", "InitialLeader": "initial-leader", "Params": "params"} {
		assert.Equal(t, flag, kebab(api))
	}
}

// A file that gen rewrites in part and whose markers are gone is an error
// that says what it looked for, not a file silently left as it was.
func TestMissingMarkersAreErrors(t *testing.T) {
	_, err := mchecktestFields([]byte("type Config struct{}\n"), modelopt.Options, reflect.TypeFor[model.Config]())
	assert.ErrorContains(t, err, "want the line")
	_, err = tutorialList([]byte("no list\n"), modelopt.Options)
	assert.ErrorContains(t, err, "no line begins")
	_, err = generate(modelopt.Table{{Field: "Jitter"}}, withField("Jitter", reflect.TypeFor[time.Duration]()), readRoot)
	assert.EqualError(t, err, "the row of Jitter: its type time.Duration is not built in or of package model, which the generated files import alone")
	_, err = cliRows([]byte("| `--algo` | x |\n"), modelopt.Options)
	assert.EqualError(t, err, "no row of the table of flags names a model flag")
	_, err = cliRows([]byte("| `--n N` | x |\n| `--algo` | x |\n| `--down 4` | x |\n"), modelopt.Options)
	assert.EqualError(t, err, "the rows of the model's flags are not one run of rows in the table of flags")
}
