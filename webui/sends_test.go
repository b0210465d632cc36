package webui_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/specs/ring"
	"github.com/mcheck/mcheck/trace"
	"github.com/mcheck/mcheck/webui"
)

// boundedRing is the ring algorithm with an optional invariant that reads
// the sends (no run sends more than 8 messages, counted up to 9), as the
// tutorial's myring after "Counting messages".
func boundedRing(t *testing.T) *specs.Registry {
	type view = model.View[ring.Local, ring.Msg]
	bound := model.Property[ring.Local, ring.Msg]{
		Name: "AtMostEight", Kind: model.Invariant, Optional: true, CountSends: 9,
		Doc:   "no run sends more than 8 messages",
		Holds: func(v *view) bool { return v.Sent() <= 8 },
	}
	reg := specs.Builtin()
	require.NoError(t, reg.Register(specs.Spec{Name: "bounded-ring", Build: specs.Builder[ring.Local, ring.Msg](ring.Algorithm{}, bound)}))
	return reg
}

// reread writes f and reads it back, as a file on disk is read.
func reread(t *testing.T, f *trace.File) *trace.File {
	var b bytes.Buffer
	require.NoError(t, f.Write(&b))
	back, err := trace.Read(&b)
	require.NoError(t, err)
	return back
}

// The explorer opens what replay accepts of an algorithm with a property
// that counts the sends: the traces of a check that did not count them
// (the default one), and those of one that did, each in the states its
// check had; and the Check button's counterexamples load.
func TestTracesOfAnAlgorithmThatCountsSendsOpen(t *testing.T) {
	reg := boundedRing(t)
	parse, enc := cli.ExploreModels(reg)
	q, err := url.ParseQuery("algo=bounded-ring&n=3&crashes=1")
	require.NoError(t, err)
	m, err := parse(q)
	require.NoError(t, err)

	open := func(f *trace.File) *webui.Server {
		t.Helper()
		require.NoError(t, trace.Replay(f, reg), "replay accepts it")
		start, err := webui.ModelOf(f, reg)
		require.NoError(t, err)
		srv, err := webui.New(webui.Options{Parse: parse, Query: enc, Start: start, Trace: f, TraceName: "t.json", LocalOnly: true})
		require.NoError(t, err, "%s %s", f.Property, f.Kind)
		t.Cleanup(srv.Close)
		return srv
	}

	rep, err := check.Run(check.Request{Spec: m.Spec, Config: m.Config, Continue: true})
	require.NoError(t, err)
	require.Zero(t, rep.SendCap, "the default check counts no sends")
	files := rep.Files()
	require.NotEmpty(t, files)
	for _, f := range files {
		srv := open(reread(t, f))
		assert.NotContains(t, srv.Home(), "sends=", "the check's own counting")
		v := view(t, srv, "/api/view?"+srv.Home())
		assert.Equal(t, f.Property, v.Property)
		assert.Len(t, v.History, len(f.Steps)-1)
	}

	rep, err = check.Run(check.Request{Spec: m.Spec, Config: m.Config, Properties: []string{"AtMostEight"}})
	require.NoError(t, err)
	require.Equal(t, 9, rep.SendCap)
	files = rep.Files()
	require.Len(t, files, 1)
	srv := open(reread(t, files[0]))
	assert.Contains(t, srv.Home(), "&sends=9&path=")
	v := view(t, srv, "/api/view?"+srv.Home())
	assert.Contains(t, v.Properties, webui.Property{Name: "AtMostEight", Kind: "invariant", Holds: false, Violated: true})

	// The Check button's counterexamples are paths of its own model, and
	// load; from a page that counts the sends too.
	w := do(srv, "POST", "/api/check?algo=bounded-ring&n=3&crashes=1&sends=9")
	require.Equal(t, http.StatusAccepted, w.Code, w.Body.String())
	var j webui.Job
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &j))
	j = waitJob(t, srv, j.ID)
	require.Empty(t, j.Error)
	require.NotEmpty(t, j.Result.Counterexamples)
	for _, cx := range j.Result.Counterexamples {
		assert.NotContains(t, cx.Query, "sends=")
		v := view(t, srv, "/api/view?"+cx.Query)
		assert.Equal(t, cx.Property, v.Property)
	}

	w = do(srv, "GET", "/api/view?algo=bounded-ring&n=3&sends=x")
	assert.Equal(t, http.StatusBadRequest, w.Code)
	assert.Contains(t, w.Body.String(), `sends=\"x\": want how far the states count the sends, 0 (not at all) to 65536`)
}

// A trace of a property that counts the sends of some types only (Bully's
// MessageBound counts ELECTION messages) opens in the states its check
// had, and its URL keeps the types.
func TestTracesThatCountSomeTypesOpen(t *testing.T) {
	reg := specs.Builtin()
	parse, enc := cli.ExploreModels(reg)
	q, err := url.ParseQuery("algo=bully&n=4&down=4&initiators=1")
	require.NoError(t, err)
	m, err := parse(q)
	require.NoError(t, err)
	rep, err := check.Run(check.Request{Spec: m.Spec, Config: m.Config, Properties: []string{"MessageBound"}})
	require.NoError(t, err)
	files := rep.Files()
	require.Len(t, files, 1)
	f := reread(t, files[0])
	require.NoError(t, trace.Replay(f, reg), "replay accepts it")
	start, err := webui.ModelOf(f, reg)
	require.NoError(t, err)
	assert.Equal(t, []string{"ELECTION"}, start.SendTypes)
	srv, err := webui.New(webui.Options{Parse: parse, Query: enc, Start: start, Trace: f, TraceName: "t.json", LocalOnly: true})
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	assert.Contains(t, srv.Home(), "&sendtypes=ELECTION&path=")
	v := view(t, srv, "/api/view?"+srv.Home())
	assert.Len(t, v.History, len(f.Steps)-1)
	assert.Contains(t, v.Properties, webui.Property{Name: "MessageBound", Kind: "invariant", Holds: false, Violated: true})

	w := do(srv, "GET", "/api/view?algo=bully&n=4&sendtypes=ELECTION")
	assert.Equal(t, http.StatusBadRequest, w.Code)
	assert.Contains(t, w.Body.String(), `with sends=`)
}

// An algorithm with more properties than the explorer evaluates in a
// state is refused, with the limit named, not cut short silently.
func TestTooManyPropertiesAreRefused(t *testing.T) {
	type view = model.View[ring.Local, ring.Msg]
	var extra []model.Property[ring.Local, ring.Msg]
	for i := range webui.MaxProperties {
		extra = append(extra, model.Property[ring.Local, ring.Msg]{
			Name: fmt.Sprintf("True%d", i), Kind: model.Invariant, Optional: true, Doc: "true",
			Holds: func(*view) bool { return true },
		})
	}
	reg := specs.Builtin()
	require.NoError(t, reg.Register(specs.Spec{Name: "many", Build: specs.Builder[ring.Local, ring.Msg](ring.Algorithm{}, extra...)}))
	spec, err := reg.Lookup("many")
	require.NoError(t, err)
	// The view evaluates the properties that count no sends (the page
	// counts none unless asked): ring's MessageBound is not one of them.
	n := 0
	for _, p := range spec.Build.Properties() {
		if p.CountSends == 0 {
			n++
		}
	}
	require.Greater(t, n, webui.MaxProperties)
	parse, enc := cli.ExploreModels(reg)
	srv, err := webui.New(webui.Options{Parse: parse, Query: enc, Start: webui.Model{Spec: spec, Config: model.Config{N: 3}}, LocalOnly: true})
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	w := do(srv, "GET", "/api/view?algo=many&n=3")
	assert.Equal(t, http.StatusBadRequest, w.Code)
	var p webui.Problem
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &p))
	assert.Equal(t, fmt.Sprintf("configuration: many has %d properties, and the explorer evaluates at most 64 in a state: check it with the command, which checks the properties it is given", n), p.Error)
	assert.False(t, strings.Contains(p.Error, "\n"))
}
