package cli

import (
	"bytes"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/internal/flagval"
	"github.com/mcheck/mcheck/internal/modelopt"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
	"github.com/mcheck/mcheck/webui"
)

// parseArgs parses a check's command line as Main does, up to the search.
func parseArgs(t *testing.T, args ...string) (model.Config, error) {
	var o options
	fs := newFlagSet(&o)
	require.NoError(t, flagval.Parse(fs, args))
	spec, err := specs.Builtin().Lookup(o.algo)
	require.NoError(t, err)
	err = o.finish(fs, spec)
	return o.cfg, err
}

// Every option of the model's table goes flags -> Config -> explorer URL
// -> Config, and through the explorer's page, unchanged, for algorithms
// with either default initial leader. An option the table has and the
// command line or the URL drops fails here (the URL once dropped
// --anonymous, and a trace of an anonymous run opened on an error).
func TestEveryModelOptionRoundTrips(t *testing.T) {
	reg := specs.Builtin()
	parse, query := ExploreModels(reg)
	for _, o := range modelopt.Options {
		for _, algo := range []string{"ring", "bully"} {
			spec, err := reg.Lookup(algo)
			require.NoError(t, err)
			want := o.Example.WithDefaults()
			args := append([]string{"--algo", algo}, modelopt.Args(o.Example, spec.InitialLeader)...)
			cfg, err := parseArgs(t, args...)
			if algo == "ring" && (o.Field == "Timeout" || o.Field == "TimeoutCoord") {
				// No timers to set (docs/semantics.md section 6.1).
				require.ErrorContains(t, err, "this algorithm has no timers", args)
				continue
			}
			if o.Field == "Params" {
				// Bully's T is a parameter held by Timeout; the ring
				// algorithm declares none.
				if algo == "ring" {
					require.EqualError(t, err, "--param T=5: the algorithm has no parameter T; the algorithm declares no parameters", args)
					continue
				}
				want = model.Config{N: 3, Timing: model.Sync, Timeout: 5}.WithDefaults()
			}
			require.NoError(t, err, args)
			assert.Equal(t, want, cfg.WithDefaults(), "flags -> Config: %v", args)

			q := query(webui.Model{Spec: spec, Config: cfg})
			back, err := parse(q)
			require.NoError(t, err, "%s", q.Encode())
			assert.Equal(t, want, back.Config.WithDefaults(), "Config -> URL -> Config: %s", q.Encode())
			if o.Field == "Perm" {
				// The URL keeps it, and the page refuses to walk it
				// (TestExplorerRefusesPermInAURL).
				continue
			}

			// The page of that URL shows that configuration.
			srv, err := newExplorer(reg, back, nil, "", true, webui.Limits{})
			require.NoError(t, err)
			var v webui.View
			get(t, srv, "/api/view?"+q.Encode(), &v)
			srv.Close()
			// The model's configuration: an algorithm without timers has
			// no timeouts (model.New leaves them 0).
			sys, err := spec.Build.System(want, nil)
			require.NoError(t, err)
			assert.Equal(t, trace.ConfigOf(algo, sys.(interface{ Config() model.Config }).Config()), v.Config, "the page of %s", q.Encode())
			// Every key of the URL is a model flag.
			for k := range q {
				assert.Contains(t, modelFlags, k)
			}
		}
	}
}

// flagNames are the flags of a check's command line.
func flagNames() []string {
	var o options
	var names []string
	newFlagSet(&o).VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// The usage text names every flag, and no flag that does not exist.
func TestUsageNamesEveryFlag(t *testing.T) {
	var b bytes.Buffer
	writeUsage(&b, specs.Builtin().Names())
	usage := b.String()
	assert.NotContains(t, usage, "%!", "the format's arguments fit")
	for _, name := range flagNames() {
		assert.Regexp(t, `--`+regexp.QuoteMeta(name)+`\b`, usage, "--help names --%s", name)
		if name != "algo" { // in the Usage line
			assert.Regexp(t, `(?m)^  --`+regexp.QuoteMeta(name)+`\b`, usage, "--help describes --%s", name)
		}
	}
	for _, m := range regexp.MustCompile(`(?m)^  --([a-z-]+)`).FindAllStringSubmatch(usage, -1) {
		assert.True(t, slices.Contains(flagNames(), m[1]) || m[1] == "addr", "--help describes --%s, which is no flag", m[1])
	}
}

// The table of flags in docs/cli.md has every flag (it once missed
// --generic-hash), and nothing that is no flag.
func TestDocsFlagTable(t *testing.T) {
	data, err := os.ReadFile("../docs/cli.md")
	require.NoError(t, err)
	_, table, ok := strings.Cut(string(data), "\n## Flags\n\n")
	require.True(t, ok, "docs/cli.md has a Flags section")
	table, _, _ = strings.Cut(table, "\n\n") // the table ends at the first blank line
	var rows []string
	for _, line := range strings.Split(table, "\n") {
		if strings.HasPrefix(line, "| `") {
			first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " | ")
			rows = append(rows, first)
		}
	}
	require.NotEmpty(t, rows)
	var inTable []string
	for _, r := range rows {
		for _, m := range regexp.MustCompile("--([a-z-]+)").FindAllStringSubmatch(r, -1) {
			inTable = append(inTable, m[1])
			assert.Contains(t, flagNames(), m[1], "docs/cli.md's row %s names --%s, which is no flag", r, m[1])
		}
	}
	for _, name := range flagNames() {
		assert.Contains(t, inTable, name, "docs/cli.md's Flags table has no row for --%s", name)
	}
}

// Sizes within the machine: --bitstate 64GiB on a 24 GiB machine once
// ended in "fatal error: runtime: out of memory" and a stack trace.
func TestSizesWithinTheMachine(t *testing.T) {
	const machine = 24 << 30
	o := options{bitstate: 64 << 30}
	assert.EqualError(t, o.checkSizes(machine, 12<<30), "--bitstate 64.0 GiB is more than the 24.0 GiB of memory of this machine (or its container): give at most that")
	o = options{memory: 32 << 30}
	assert.EqualError(t, o.checkSizes(machine, 32<<30), "--memory 32.0 GiB is more than the 24.0 GiB of memory of this machine (or its container): give at most that")
	o = options{bitstate: 16 << 30}
	assert.EqualError(t, o.checkSizes(machine, 12<<30), "--bitstate 16.0 GiB does not fit in the memory budget of 12.0 GiB: give a smaller bit array, or a larger --memory")
	o = options{memory: 20 << 30, bitstate: 16 << 30, workers: 256}
	assert.NoError(t, o.checkSizes(machine, 20<<30))
	assert.NoError(t, o.checkSizes(0, 20<<30), "unknown machine: no bound")
	o = options{workers: maxWorkers() + 1}
	assert.ErrorContains(t, o.checkSizes(machine, 0), fmt.Sprintf("--workers %d is more than %d: more workers than CPUs only add memory", maxWorkers()+1, maxWorkers()))
}

// The explorer walks from one initial state: --ids perm in a URL is a bad
// request with its reason (it answered 500).
func TestExplorerRefusesPermInAURL(t *testing.T) {
	reg := specs.Builtin()
	ring, err := reg.Lookup("ring")
	require.NoError(t, err)
	srv, err := newExplorer(reg, webui.Model{Spec: ring, Config: model.Config{N: 3}}, nil, "", true, webui.Limits{})
	require.NoError(t, err)
	defer srv.Close()
	r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:7070/api/view?algo=chang-roberts&n=8&ids=perm", nil)
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, r)
	assert.Equal(t, http.StatusBadRequest, w.Code)
	// In a URL it speaks of the URL's keys (webui), not of flags.
	assert.JSONEq(t, `{"error":"configuration: ids=perm checks every arrangement of the IDs, one initial state each, and the page walks one run from one initial state: give the IDs in one order (ids=1,2,3,4,5,6,7,8) to walk it, and check ids=perm with the command"}`, w.Body.String())
}

// Every flag of a check has a value of mcheck's own, whose error says how
// to write it: none of the flag package's, whose errors say only "parse
// error".
func TestEveryFlagHasAnExplainingValue(t *testing.T) {
	var o options
	fs := newFlagSet(&o)
	fs.VisitAll(func(f *flag.Flag) {
		typ := reflect.TypeOf(f.Value)
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		assert.NotEqual(t, "flag", typ.PkgPath(), "--%s", f.Name)
	})
}
