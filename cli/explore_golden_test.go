package cli

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
	"github.com/mcheck/mcheck/webui"
)

// goldenTraceFiles are the trace files kept under the testdata folders of
// the repository (fuzz corpora aside): mcheck's format and ITF.
func goldenTraceFiles(t *testing.T) []string {
	var files []string
	for _, root := range []string{"../testdata", "testdata", "../trace/testdata", "../itf/testdata"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && d.Name() == "fuzz":
				return filepath.SkipDir
			case strings.HasSuffix(path, ".trace.json") || strings.HasSuffix(path, ".itf.json"):
				files = append(files, path)
			}
			return nil
		})
		require.NoError(t, err)
	}
	return files
}

// get answers a request of the page, from this machine.
func get(t *testing.T, srv http.Handler, target string, v any) {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:7070"+target, nil)
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, r)
	require.Equal(t, http.StatusOK, w.Code, "%s: %s", target, w.Body.String())
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), v))
}

// Every trace file that replay opens, the explorer opens at its last step,
// as `mcheck explore FILE` does: its page's URL keeps the whole
// configuration, and the page shows the trace's last state. The golden
// files hold a trace of every kind the command line writes, anonymous,
// --ids perm and ITF among them (kinds_test.go).
func TestExplorerOpensEveryGoldenTrace(t *testing.T) {
	reg := specs.Builtin()
	seen := map[string]bool{}
	for _, path := range goldenTraceFiles(t) {
		t.Run(path, func(t *testing.T) {
			f, err := readTraceFile(path)
			require.NoError(t, err)
			require.NoError(t, trace.Replay(f, reg), "replay opens it")

			start, file, err := openTrace(path, reg)
			require.NoError(t, err)
			srv, err := newExplorer(reg, start, file, path, true, webui.Limits{MaxStates: 1})
			require.NoError(t, err)
			defer srv.Close()
			var home struct{ Query, Note string }
			get(t, srv, "/api/home", &home)
			assert.Equal(t, srv.Home(), home.Query)
			var v webui.View
			get(t, srv, "/api/view?"+home.Query, &v)

			last := len(f.Steps) - 1
			assert.Equal(t, last, v.At, "opened at the last step")
			assert.Len(t, v.Path, last)
			want := f.Config
			if want.Perm { // shown in the arrangement it starts in
				want.Perm, want.IDs = false, nil
				for _, p := range f.Steps[0].State.Processes {
					want.IDs = append(want.IDs, p.ID)
				}
				assert.Contains(t, home.Note, "; shown in the arrangement it starts in, IDs "+strings.ReplaceAll(strings.Trim(fmt.Sprint(want.IDs), "[]"), " ", ","))
			}
			assert.Equal(t, want, v.Config, "the page's configuration is the file's")
			assert.Equal(t, f.CycleStart, v.Cycle)
			if f.Kind == cex.Witness || f.Kind == cex.Lasso {
				assert.Contains(t, home.Note, path+": "+f.Property+" is a measure's run ("+f.Kind.String())
				assert.Empty(t, v.Property, "a walk, not a counterexample")
			} else {
				assert.Equal(t, f.Property, v.Property)
				assert.Equal(t, f.Kind, v.Kind)
				assert.Contains(t, home.Note, path+": "+f.Property+" violated")
			}
			// The state shown is the file's last.
			for i, p := range f.Steps[last].State.Processes {
				assert.Equal(t, p.Name(), v.Processes[i].Name)
				assert.Equal(t, p.Alive, v.Processes[i].Alive)
			}

			seen[f.Kind.String()] = true
			seen["anonymous"] = seen["anonymous"] || f.Config.Anonymous
			seen["perm"] = seen["perm"] || f.Config.Perm
			seen["itf"] = seen["itf"] || strings.HasSuffix(path, ".itf.json")
		})
	}
	for _, want := range []string{
		cex.Invariant.String(), cex.Step.String(), cex.Stuck.String(), cex.FairCycle.String(), cex.Witness.String(), cex.Lasso.String(),
		"anonymous", "perm", "itf",
	} {
		assert.True(t, seen[want], "no golden trace of %s (keys seen: %v)", want, slices.Sorted(func(yield func(string) bool) {
			for k := range seen {
				if !yield(k) {
					return
				}
			}
		}))
	}
}
