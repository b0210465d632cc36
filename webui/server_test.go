package webui_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
	"github.com/mcheck/mcheck/ts"
	"github.com/mcheck/mcheck/webui"
)

// The configuration of the tests: its Termination counterexample is the
// lasso of an ELECTION(4) circulating after p4 crashed.
const (
	cfg   = "algo=chang-roberts&crashes=1&n=4"
	lasso = cfg + "&path=2.0.0.0.4.0.0.0&cycle=5"
	// lassoCx is the lasso as the check's counterexample of Termination.
	lassoCx = lasso + "&property=Termination&kind=fair-cycle"
)

var lassoLabels = []string{
	"initiate p2", "deliver p2→p3 ELECTION(2)", "deliver p3→p4 ELECTION(3)", "deliver p4→p1 ELECTION(4)",
	"crash p4", "deliver p1→p2 ELECTION(4)", "deliver p2→p3 ELECTION(4)", "deliver p3→p1 ELECTION(4)",
}

func options(t testing.TB, query string) webui.Options {
	parse, enc := cli.ExploreModels(specs.Builtin())
	q, err := url.ParseQuery(query)
	require.NoError(t, err)
	start, err := parse(q)
	require.NoError(t, err)
	return webui.Options{Parse: parse, Query: enc, Start: start, LocalOnly: true}
}

func newServer(t testing.TB) *webui.Server {
	srv, err := webui.New(options(t, cfg))
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	return srv
}

// do sends a request as the page does: from this machine, POSTs with the
// page's header.
func do(srv http.Handler, method, target string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, "http://127.0.0.1:7070/", nil)
	u, err := url.Parse(target)
	if err != nil {
		panic(err)
	}
	r.URL.Path, r.URL.RawQuery, r.RequestURI = u.Path, u.RawQuery, target
	if method == http.MethodPost {
		r.Header.Set("X-Mcheck", "1")
	}
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, r)
	return w
}

func view(t *testing.T, srv http.Handler, target string) webui.View {
	t.Helper()
	w := do(srv, http.MethodGet, target)
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	var v webui.View
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &v))
	return v
}

func labels(steps []webui.Step) []string {
	var out []string
	for _, s := range steps {
		out = append(out, s.Label)
	}
	return out
}

func TestRequests(t *testing.T) {
	srv := newServer(t)
	long := strings.Repeat("0.", webui.MaxPath) + "0"
	for _, tc := range []struct {
		name, method, target string
		status               int
		body                 string // in the answer
	}{
		{"page", "GET", "/", 200, "mcheck explore"},
		{"page with a query", "GET", "/?" + lasso, 200, "mcheck explore"},
		{"script", "GET", "/static/app.js", 200, "configQuery"},
		{"style", "GET", "/static/style.css", 200, ".process"},
		{"no such page", "GET", "/etc/passwd", 404, ""},
		{"no such file", "GET", "/static/nope.js", 404, ""},
		{"out of the embedded files", "GET", "/static/../../go.mod", 307, `href="/go.mod"`}, // cleaned, to:
		{"a source file", "GET", "/go.mod", 404, ""},
		{"home", "GET", "/api/home", 200, `"query":"` + cfg + `"`},
		{"view", "GET", "/api/view?" + cfg, 200, `"at":0`},
		{"lasso", "GET", "/api/view?" + lasso, 200, `"cycle":5`},
		{"a counterexample", "GET", "/api/view?" + lassoCx, 200, `"property":"Termination","kind":"fair-cycle"`},
		{"a step as data", "GET", "/api/view?" + lasso, 200, `{"index":0,"label":"deliver p1→p2 ELECTION(4)","fair":true,"kind":"deliver","action":"deliver","process":2,"peer":1,"msg":{"type":"ELECTION","args":[4],"text":"ELECTION(4)"}}`},
		{"a property without its kind", "GET", "/api/view?" + lasso + "&property=Termination", 400, "give both property= and kind="},
		{"a kind without its property", "GET", "/api/view?" + lasso + "&kind=stuck", 400, "give both property= and kind="},
		{"an unknown property", "GET", "/api/view?" + lasso + "&property=Liveness&kind=fair-cycle", 400, `the path is no fair-cycle counterexample of Liveness: malformed trace file: unknown property \"Liveness\"`},
		{"the wrong kind", "GET", "/api/view?" + lasso + "&property=SingleLeader&kind=fair-cycle", 400, `property SingleLeader goes with kind \"invariant\"`},
		{"no violation", "GET", "/api/view?" + cfg + "&path=2.0.0.0&property=SingleLeader&kind=invariant", 400, "the path is no invariant counterexample of SingleLeader: not a counterexample: SingleLeader holds in the last state"},
		{"not stuck", "GET", "/api/view?" + cfg + "&path=2&property=Termination&kind=stuck", 400, "not a counterexample: the last state is not stuck"},
		{"at", "GET", "/api/view?" + lasso + "&at=3", 200, `"at":3`},
		{"wrong method", "PUT", "/api/view?" + cfg, 405, ""},
		{"no configuration", "GET", "/api/view", 400, "the URL has no configuration"},
		{"no configuration, a path", "GET", "/api/view?path=1", 400, "the URL has no configuration"},
		{"unknown algorithm", "GET", "/api/view?algo=paxos&n=3", 400, `unknown algorithm \"paxos\"`},
		{"no algorithm", "GET", "/api/view?n=3", 400, "no algorithm"},
		{"n out of range", "GET", "/api/view?algo=ring&n=99", 400, "--n 99 is out of range"},
		{"n not a number", "GET", "/api/view?algo=ring&n=x", 400, `--n: \"x\" is not a number`},
		{"bad ids", "GET", "/api/view?algo=ring&ids=1,1", 400, "appears twice"},
		{"an output flag", "GET", "/api/view?" + cfg + "&trace-out=/tmp/x", 400, `unknown parameter \"trace-out\"`},
		{"step index too large", "GET", "/api/view?" + cfg + "&path=8", 400, "step 1 of the path is index 8, but only 8 steps are enabled there (0..7)"},
		{"later step index too large", "GET", "/api/view?" + cfg + "&path=2.0.9", 400, "step 3 of the path is index 9"},
		{"negative step", "GET", "/api/view?" + cfg + "&path=-1", 400, `step 1 of the path is \"-1\"`},
		{"not a step", "GET", "/api/view?" + cfg + "&path=1.x", 400, `step 2 of the path is \"x\"`},
		{"huge step", "GET", "/api/view?" + cfg + "&path=99999999999999999999", 400, "not a step index"},
		{"empty step", "GET", "/api/view?" + cfg + "&path=1..2", 400, `step 2 of the path is \"\"`},
		{"oversized path", "GET", "/api/view?" + cfg + "&path=" + long, 413, "at most 4096"},
		{"oversized query", "GET", "/api/view?" + cfg + "&x=" + strings.Repeat("a", 70000), 414, "at most 65536"},
		{"two paths", "GET", "/api/view?" + cfg + "&path=1&path=2", 400, "path is given 2 times"},
		{"at beyond the path", "GET", "/api/view?" + cfg + "&path=1&at=2", 400, "want a step of the path, 0 to 1"},
		{"at not a number", "GET", "/api/view?" + cfg + "&at=x", 400, "want a step of the path, 0 to 0"},
		{"cycle not back to its start", "GET", "/api/view?" + cfg + "&path=2.0.0.0.4.0.0.0&cycle=4", 400, "does not return to the state of step 4"},
		{"cycle at the end", "GET", "/api/view?" + cfg + "&path=2&cycle=1", 400, "want a step of the path before its last, 0 to 0"},
		{"cycle without a path", "GET", "/api/view?" + cfg + "&cycle=0", 400, "0 to -1"},
		{"malformed query", "GET", "/api/view?" + cfg + "&path=%zz", 400, "malformed URL query"},
		{"random without seed", "GET", "/api/random?" + cfg, 400, "needs seed=N"},
		{"random with a bad seed", "GET", "/api/random?" + cfg + "&seed=-3", 400, "want a number"},
		{"random", "GET", "/api/random?" + cfg + "&seed=1", 200, `"quiescent":true`},
		{"check without the page's header", "POSTBARE", "/api/check?" + cfg, 403, "X-Mcheck"},
		{"check of a bad configuration", "POST", "/api/check?algo=ring&n=1", 400, "out of range"},
		{"check by GET", "GET", "/api/check?" + cfg, 405, ""},
		{"no such check", "GET", "/api/check/99", 404, "no check"},
		{"not a check", "GET", "/api/check/x", 404, "no check"},
		{"stop no check", "POST", "/api/check/7/stop", 404, "no check"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w *httptest.ResponseRecorder
			if tc.method == "POSTBARE" {
				r := httptest.NewRequest("POST", tc.target, nil)
				r.Host = "localhost:7070"
				w = httptest.NewRecorder()
				srv.ServeHTTP(w, r)
			} else {
				w = do(srv, tc.method, tc.target)
			}
			assert.Equal(t, tc.status, w.Code, w.Body.String())
			assert.Contains(t, w.Body.String(), tc.body)
			if tc.status >= 400 && tc.status != 404 && tc.status != 405 {
				var p webui.Problem
				require.NoError(t, json.Unmarshal(w.Body.Bytes(), &p), "an error is JSON with a message")
				assert.NotEmpty(t, p.Error)
				assert.NotContains(t, p.Error, "\n", "one line")
			}
		})
	}
}

func TestOtherHostsAreRefused(t *testing.T) {
	srv := newServer(t)
	for host, status := range map[string]int{
		"127.0.0.1:7070": 200, "localhost:7070": 200, "[::1]:7070": 200,
		"evil.example:7070": 403, "evil.example": 403, "127.0.0.1.evil.example": 403,
	} {
		r := httptest.NewRequest("GET", "/api/home", nil)
		r.Host = host
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		assert.Equal(t, status, w.Code, host)
	}
}

func TestNoFileIsWritten(t *testing.T) {
	srv := newServer(t)
	out := filepath.Join(t.TempDir(), "x.svg")
	for _, p := range []string{"msc", "trace-out", "json"} {
		w := do(srv, "GET", "/api/view?"+cfg+"&"+p+"="+url.QueryEscape(out))
		assert.Equal(t, 400, w.Code)
	}
	_, err := os.Stat(out)
	assert.True(t, os.IsNotExist(err), "no file is written")
}

func TestViewOfTheLasso(t *testing.T) {
	srv := newServer(t)
	v := view(t, srv, "/api/view?"+lasso)
	assert.Equal(t, lasso, v.Query)
	assert.Equal(t, []int{2, 0, 0, 0, 4, 0, 0, 0}, v.Path)
	assert.Equal(t, 8, v.At)
	assert.Equal(t, lassoLabels, labels(v.History))
	assert.Equal(t, []bool{true, true, true, true, false, true, true, true}, func() []bool {
		var f []bool
		for _, s := range v.History {
			f = append(f, s.Fair)
		}
		return f
	}(), "the crash is the only unfair step")
	require.Len(t, v.Processes, 4)
	assert.False(t, v.Processes[3].Alive, "p4 crashed")
	assert.True(t, v.Processes[0].Alive)
	election4 := model.Msg("ELECTION", model.Int(4)).WithText("ELECTION(4)")
	assert.Equal(t, []webui.Channel{
		{From: 1, To: 2, FromName: "p1", ToName: "p2", Messages: []model.Value{election4}, Text: []string{"ELECTION(4)"}, Changed: true},
		{From: 3, To: 1, FromName: "p3", ToName: "p1", Messages: []model.Value{}, Text: []string{}, Changed: true},
	}, v.Channels, "the last step moved ELECTION(4) from p3→p1 to p1→p2")
	// The step as data, next to its label.
	assert.Equal(t, model.StepInfo{Kind: model.KindDeliver, Action: "deliver", Process: 1, Peer: 3, Msg: &election4}, v.History[7].StepInfo)
	assert.Equal(t, model.StepInfo{Kind: model.KindCrash, Action: "crash", Process: 4}, v.History[4].StepInfo)
	for i, s := range v.History {
		assert.Equal(t, v.Path[i], s.Index, "a step of the path has its index in the path")
	}
	for _, p := range v.Processes {
		for _, f := range p.Fields {
			assert.False(t, f.Changed, "a delivery that only forwards changes no field: %s.%s", p.Name, f.Name)
		}
	}
	assert.Equal(t, []string{"deliver p1→p2 ELECTION(4)"}, labels(v.Steps), "p4 crashed and no crash is left")
	assert.Equal(t, []webui.Property{{Name: "SingleLeader", Kind: "invariant", Holds: true}, {Name: "Agreement", Kind: "invariant", Holds: true}, {Name: "Stable", Kind: "eventually-always", Holds: false, Of: []string{"Termination", "LeaderCrashRecovered"}}}, v.Properties)
	assert.False(t, v.Quiescent)
	assert.Contains(t, v.Chart, "a run of 8 steps: a lasso")
	assert.Contains(t, v.Chart, "crash")
	assert.Empty(t, v.Property, "a path walked by hand is no counterexample")

	// The same path as the check's counterexample: its chart names the property.
	c := view(t, srv, "/api/view?"+lassoCx+"&at=3")
	assert.Equal(t, "Termination", c.Property)
	assert.Equal(t, cfg+"&path=2.0.0.0.4.0.0.0&at=3&cycle=5&property=Termination&kind=fair-cycle", c.Query)
	assert.Contains(t, c.Chart, "<title>Termination violated: a lasso (a prefix, then a cycle repeated forever), 8 steps</title>")

	// One step earlier: the crash is behind, fields and channels as then.
	v = view(t, srv, "/api/view?"+lasso+"&at=5")
	assert.Equal(t, "crash p4", v.History[4].Label)
	assert.True(t, v.Processes[3].AliveChanged)
	assert.Equal(t, webui.Value{Name: "participant", Value: model.Bool(false), Text: "false", Changed: true}, v.Processes[3].Fields[0], "a crash resets the local state")
	assert.Equal(t, webui.Value{Name: "crashes", Value: model.Int(1), Text: "1", Changed: true}, v.Counters[0])
	assert.Contains(t, labels(v.Steps), "deliver p1→p2 ELECTION(4)")
	assert.NotContains(t, labels(v.Steps), "crash p1", "the one crash is used")

	// The initial state: every step is enabled, crashes marked unfair.
	v = view(t, srv, "/api/view?"+cfg)
	assert.Equal(t, []string{"initiate p1", "crash p1", "initiate p2", "crash p2", "initiate p3", "crash p3", "initiate p4", "crash p4"}, labels(v.Steps))
	for _, s := range v.Steps {
		assert.Equal(t, s.Kind != model.KindCrash, s.Fair, s.Label)
	}
}

func TestRandomRunIsReproducible(t *testing.T) {
	srv := newServer(t)
	a := view(t, srv, "/api/random?"+cfg+"&path=2&seed=43")
	b := view(t, srv, "/api/random?"+cfg+"&path=2&seed=43")
	assert.Equal(t, a.Path, b.Path, "same seed, same run")
	assert.Equal(t, 2, a.Path[0], "the run extends the path")
	assert.True(t, a.Quiescent, "it runs to a state with no fair step")
	assert.Equal(t, len(a.Path), a.At)
	// The view at the end of the run is the view of its URL.
	c := view(t, srv, "/api/view?"+a.Query)
	assert.Equal(t, a.Processes, c.Processes)
	differs := false
	for seed := 1; seed <= 10 && !differs; seed++ {
		d := view(t, srv, "/api/random?"+cfg+"&path=2&seed="+strconv.Itoa(seed))
		differs = !assert.ObjectsAreEqual(a.Path, d.Path)
	}
	assert.True(t, differs, "other seeds, other runs")
	// Bully starts with its leader elected, quiescent: the run takes a step
	// (a crash) first, then runs to the next quiescent state.
	q := view(t, srv, "/api/random?algo=bully&crashes=1&n=3&seed=1")
	assert.Equal(t, []int{}, view(t, srv, "/api/view?algo=bully&crashes=1&n=3").Path)
	assert.True(t, view(t, srv, "/api/view?algo=bully&crashes=1&n=3").Quiescent)
	require.NotEmpty(t, q.Path)
	assert.Equal(t, model.KindCrash, q.History[0].Kind, q.History[0].Label)
	assert.True(t, q.Quiescent)
	// The walk checks every state and step of the path and of the run: the
	// lasso's path closes its fair cycle at its last step, and the walk
	// stops there with the counterexample (once it ran 1000 steps round the
	// cycle and checked only its last state).
	l := view(t, srv, "/api/random?"+lasso+"&seed=5")
	assert.Len(t, l.Path, 8)
	require.NotNil(t, l.Cycle)
	assert.Equal(t, 5, *l.Cycle)
	assert.Equal(t, "Termination", l.Property)
	assert.Equal(t, cex.FairCycle, l.Kind)
	assert.False(t, l.Quiescent)
	assert.Equal(t, "the run violates Termination (fair-cycle) at step 8", l.Note)
	assert.Empty(t, a.Note)
	// A state where the channel bound cut steps off is not quiescent
	// (docs/semantics.md section 5.2); outside Stable with no fair step left it is stuck, a
	// violation of the bounded model.
	bq := view(t, srv, "/api/random?algo=ring&max-queue=1&n=3&seed=7")
	assert.Equal(t, []int{2, 2, 1}, bq.Path)
	assert.False(t, bq.Quiescent)
	assert.Equal(t, 3, bq.Discarded)
	assert.Equal(t, cex.Stuck, bq.Kind)
	assert.Equal(t, "the run violates Termination (stuck) at step 3, for the bounded model only: the channel bound cut a fair step of it", bq.Note)
	// A crash that loses the election: stuck outside Stable, a violation
	// the walk names (once it said only that the run was quiescent).
	st := view(t, srv, "/api/random?"+cfg+"&path=2&seed=42")
	assert.Equal(t, []int{2, 1, 1, 5, 1, 0, 1}, st.Path)
	assert.True(t, st.Quiescent)
	assert.Equal(t, "Termination", st.Property)
	assert.Equal(t, "the run violates Termination (stuck) at step 7", st.Note)
	// From the middle of a path, the rest of the path is replaced.
	e := view(t, srv, "/api/random?"+lasso+"&at=2&seed=7")
	assert.Equal(t, []int{2, 0}, e.Path[:2])
	assert.Nil(t, e.Cycle)
}

// TestCheckFindsTheLasso runs the Check button's check and compares its
// counterexamples with those of check.Run.
func TestCheckFindsTheLasso(t *testing.T) {
	srv := newServer(t)
	j := finishedCheck(t, srv, cfg)
	assert.True(t, j.Result.Complete)
	assert.Equal(t, int64(994), j.Result.States)
	assert.Equal(t, "exhaustive", j.Result.Proof)
	assert.Equal(t, []webui.Verdict{
		{Name: "SingleLeader", Status: "holds", Proof: "exhaustive"}, {Name: "Agreement", Status: "holds", Proof: "exhaustive"},
		{Name: "Termination", Status: "violated", Summary: "ELECTION(4) of crashed p4 circulates forever; Stable (elected=3) is never reached: p1 elected=⊥, p2 elected=⊥, p3 elected=⊥", Proof: "exhaustive"},
	}, j.Result.Verdicts)
	require.Len(t, j.Result.Counterexamples, 2)
	cx := j.Result.Counterexamples[0]
	assert.Equal(t, cex.FairCycle, cx.Kind)
	assert.Equal(t, lassoCx, cx.Query)

	// The same paths as the check's trace files.
	parse, _ := cli.ExploreModels(specs.Builtin())
	q, _ := url.ParseQuery(cfg)
	m, err := parse(q)
	require.NoError(t, err)
	rep, err := check.Run(check.Request{Spec: m.Spec, Config: m.Config, Continue: true})
	require.NoError(t, err)
	files := rep.Files()
	require.Len(t, files, 2)
	for i, f := range files {
		v := view(t, srv, "/api/view?"+j.Result.Counterexamples[i].Query)
		var want []string
		for j, s := range f.Steps[1:] {
			want = append(want, s.Label())
			assert.True(t, s.Step.Equal(v.History[j].StepInfo), "step %d of %s as data", j+1, f.Kind)
		}
		assert.Equal(t, want, labels(v.History), f.Kind)
		assert.Equal(t, f.CycleStart, v.Cycle)
		assert.Equal(t, f.Property, v.Property)
		assert.Equal(t, f.Kind, v.Kind)
	}

	// A second tab gets the same check.
	w := do(srv, "POST", "/api/check?n=4&crashes=1&algo=chang-roberts")
	require.Equal(t, http.StatusOK, w.Code)
	var j2 webui.Job
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &j2))
	assert.Equal(t, j.ID, j2.ID)
}

// The check of a bounded model says so with every verdict: SingleLeader
// holds of lelann at max-queue 1 only (it is violated at 2), so its verdict
// is exhaustive up to the bound, with the bound's caveat, never a bare
// "holds" of a complete search.
func TestCheckSaysWhatItsSearchProves(t *testing.T) {
	srv := newServer(t)
	w := do(srv, "POST", "/api/check?algo=lelann&n=3&crashes=1&max-queue=1")
	require.Equal(t, http.StatusAccepted, w.Code, w.Body.String())
	var j webui.Job
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &j))
	j = waitJob(t, srv, j.ID)
	require.Empty(t, j.Error)
	require.NotNil(t, j.Result)
	assert.Equal(t, "exhaustive up to the channel bound", j.Result.Proof)
	assert.Positive(t, j.Result.Discarded)
	byName := map[string]webui.Verdict{}
	for _, v := range j.Result.Verdicts {
		byName[v.Name] = v
	}
	single := byName["SingleLeader"]
	assert.Equal(t, "holds", single.Status)
	assert.Equal(t, "exhaustive up to the channel bound", single.Proof)
	assert.Equal(t, fmt.Sprintf("for the bounded model only: exhaustive up to 1 message per channel; the bound discarded %d successors", j.Result.Discarded), single.Caveat)
	term := byName["Termination"]
	assert.Equal(t, "violated", term.Status)
	assert.Equal(t, check.CaveatRunUnbounded, term.Caveat)

	// The JSON names both for every verdict.
	w = do(srv, "GET", "/api/check/"+strconv.Itoa(j.ID))
	assert.Contains(t, w.Body.String(), `"proof":"exhaustive up to the channel bound","caveat":"for the bounded model only: exhaustive up to 1 message per channel`)
}

// finishedCheck starts the Check button's check of query on srv and waits
// for its result, which it requires.
func finishedCheck(t *testing.T, srv http.Handler, query string) webui.Job {
	t.Helper()
	w := do(srv, "POST", "/api/check?"+query)
	require.Equal(t, http.StatusAccepted, w.Code, w.Body.String())
	var j webui.Job
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &j))
	j = waitJob(t, srv, j.ID)
	require.Empty(t, j.Error)
	require.NotNil(t, j.Result)
	return j
}

func waitJob(t *testing.T, srv http.Handler, id int) webui.Job {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		w := do(srv, "GET", "/api/check/"+strconv.Itoa(id))
		require.Equal(t, http.StatusOK, w.Code, w.Body.String())
		var j webui.Job
		require.NoError(t, json.Unmarshal(w.Body.Bytes(), &j))
		if !j.Running {
			return j
		}
		require.True(t, time.Now().Before(deadline), "the check did not finish")
		time.Sleep(20 * time.Millisecond)
	}
}

func TestTraceFileOpensAtItsLastStep(t *testing.T) {
	opt := options(t, cfg)
	rep, err := check.Run(check.Request{Spec: opt.Start.Spec, Config: opt.Start.Config, Continue: true})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, rep.Files()[0].Write(&b))
	f, err := trace.Read(&b)
	require.NoError(t, err)
	opt.Trace, opt.TraceName = f, "lasso.json"
	srv, err := webui.New(opt)
	require.NoError(t, err)
	defer srv.Close()
	assert.Equal(t, lassoCx, srv.Home())
	assert.Contains(t, do(srv, "GET", "/api/home").Body.String(), `"note":"lasso.json: Termination violated (fair-cycle, 8 steps; every step replays)"`)
	v := view(t, srv, "/api/view?"+srv.Home())
	assert.Equal(t, 8, v.At)

	// A file whose end violates nothing opens as a walk, and says why.
	short := *f
	short.Steps, short.Kind, short.CycleStart = f.Steps[:4], cex.Stuck, nil
	opt.Trace = &short
	srv, err = webui.New(opt)
	require.NoError(t, err)
	defer srv.Close()
	assert.Equal(t, cfg+"&path=2.0.0", srv.Home())
	assert.Contains(t, do(srv, "GET", "/api/home").Body.String(), `"note":"lasso.json: not a counterexample: `)

	// A file whose steps do not replay is refused: steps match as data, so
	// another message in step 3 is another step.
	other := model.Msg("ELECTION", model.Int(2)).WithText("ELECTION(3)")
	f.Steps[3].Step.Msg = &other
	opt.Trace = f
	_, err = webui.New(opt)
	assert.ErrorContains(t, err, "step 3")
}

func TestConcurrentTabs(t *testing.T) {
	srv := newServer(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 5 {
				target := "/api/view?" + lasso + "&at=" + strconv.Itoa((i+k)%9)
				if w := do(srv, "GET", target); w.Code != 200 {
					t.Errorf("%s: %d %s", target, w.Code, w.Body)
				}
			}
			if w := do(srv, "POST", "/api/check?"+cfg); w.Code != 200 && w.Code != 202 {
				t.Errorf("check: %d %s", w.Code, w.Body)
			}
		}()
	}
	wg.Wait()
}

// FuzzQuery: whatever the query, the answer is a view or a 4xx with a
// message, never a panic or a 5xx.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{cfg, lasso, lasso + "&at=3", cfg + "&path=99", cfg + "&path=1..2", "algo=ring&n=1", "%zz", "path=1&cycle=0", cfg + "&seed=3", "algo=bully&n=3&crash-any=true&path=0.0.0.0"} {
		f.Add(s)
	}
	srv := newServer(f)
	f.Fuzz(func(t *testing.T, q string) {
		for _, api := range []string{"/api/view", "/api/random"} {
			r := httptest.NewRequest("GET", "http://127.0.0.1/", nil)
			r.URL.Path, r.URL.RawQuery = api, q
			w := httptest.NewRecorder()
			srv.ServeHTTP(w, r)
			if w.Code != 200 && (w.Code < 400 || w.Code >= 500) {
				t.Fatalf("%s?%s: status %d: %s", api, q, w.Code, w.Body)
			}
			if w.Code >= 400 {
				var p webui.Problem
				if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil || p.Error == "" {
					t.Fatalf("%s?%s: %d without a message: %s", api, q, w.Code, w.Body)
				}
			}
		}
	})
}

func TestStopCheck(t *testing.T) {
	srv := newServer(t)
	big := "algo=bully&crash-any=true&n=6"
	w := do(srv, "POST", "/api/check?"+big)
	require.Equal(t, http.StatusAccepted, w.Code, w.Body.String())
	var j webui.Job
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &j))
	assert.True(t, j.Running)
	// Progress comes every second while the search runs.
	for deadline := time.Now().Add(30 * time.Second); j.Progress.States == 0; time.Sleep(50 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "no progress")
		w = do(srv, "GET", "/api/check/"+strconv.Itoa(j.ID))
		require.NoError(t, json.Unmarshal(w.Body.Bytes(), &j))
		require.True(t, j.Running, "bully --n 6 --crash-any takes longer than this")
	}
	assert.Positive(t, j.Progress.Seconds)
	w = do(srv, "POST", "/api/check/"+strconv.Itoa(j.ID)+"/stop")
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	j = waitJob(t, srv, j.ID)
	require.NotNil(t, j.Result, j.Error)
	assert.False(t, j.Result.Complete, "stopped: incomplete")
	for _, v := range j.Result.Verdicts {
		assert.NotEqual(t, "holds", v.Status, "never holds after a stopped search: %s", v.Name)
	}
	// Checking again starts a new search.
	w = do(srv, "POST", "/api/check?"+big)
	require.Equal(t, http.StatusAccepted, w.Code, w.Body.String())
	var again webui.Job
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &again))
	assert.NotEqual(t, j.ID, again.ID)
	do(srv, "POST", "/api/check/"+strconv.Itoa(again.ID)+"/stop")
	waitJob(t, srv, again.ID)
}

// boom is a system whose steps panic, as a student's handler may.
type boom struct{}

func (boom) NewExpander() ts.Expander { return boomExp{} }
func (boom) Predicates() []string     { return []string{"SingleLeader", "Agreement", "Stable"} }
func (boom) FairClass(int32) string   { return "" }
func (boom) Properties() []model.PropertyInfo {
	return boomFactory{}.Properties()
}
func (boom) Explain(int, model.Evidence) string { return "" }

type boomFactory struct{}

func (boomFactory) Properties() []model.PropertyInfo {
	return []model.PropertyInfo{{Name: "SingleLeader"}, {Name: "Agreement"}, {Name: "Termination", Kind: model.EventuallyAlways}}
}
func (boomFactory) System(model.Config, []string, ...model.Option) (model.System, error) {
	return boom{}, nil
}

type boomExp struct{}

func (boomExp) Initial(out *model.Batch) {
	out.Reset()
	out.Add(0, model.NoFairness, 0, []byte{0})
}
func (boomExp) Expand([]byte, *model.Batch)    { panic("index out of range in a handler") }
func (boomExp) Label([]byte, ts.Action) string { return "step" }
func (boomExp) Step([]byte, ts.Action) model.StepInfo {
	return model.StepInfo{Kind: model.KindInitiate, Action: "step", Process: 1}
}
func (boomExp) Snapshot([]byte) model.Snapshot { return model.Snapshot{} }
func (boomExp) Describe([]byte) string         { return "" }
func (boomExp) Fields([]byte) []model.Field    { return nil }

func TestPanickingAlgorithm(t *testing.T) {
	spec := specs.Spec{Name: "boom", Build: boomFactory{}}
	m := webui.Model{Spec: spec, Config: model.Config{N: 2}}
	srv, err := webui.New(webui.Options{
		Parse: func(url.Values) (webui.Model, error) { return m, nil },
		Query: func(webui.Model) url.Values { return url.Values{"algo": {"boom"}} },
		Start: m,
	})
	require.NoError(t, err)
	defer srv.Close()
	w := do(srv, "GET", "/api/view?algo=boom")
	assert.Equal(t, http.StatusInternalServerError, w.Code)
	assert.Contains(t, w.Body.String(), "internal error: index out of range in a handler")
	w = do(srv, "POST", "/api/check?algo=boom")
	require.Equal(t, http.StatusAccepted, w.Code, w.Body.String())
	j := waitJob(t, srv, 1)
	assert.Contains(t, j.Error, "the check panicked")
	// The server still answers.
	assert.Equal(t, http.StatusOK, do(srv, "GET", "/api/home").Code)
}

// A leads-to's counterexample opens with its premise marked (in the URL,
// the view, the property list and the chart), and a Sometimes example
// opens as an example, not as a violation.
func TestLeadsToAndExampleFilesOpen(t *testing.T) {
	opt := options(t, "algo=chang-roberts&crashes=1&n=3")
	rep, err := check.Run(check.Request{Spec: opt.Start.Spec, Config: opt.Start.Config, Continue: true, Properties: []string{"LeaderCrashRecovered"}})
	require.NoError(t, err)
	f := rep.Files()[0]
	require.NotNil(t, f.Premise)
	opt.Trace, opt.TraceName = f, "lcr.json"
	srv, err := webui.New(opt)
	require.NoError(t, err)
	defer srv.Close()
	assert.Contains(t, srv.Home(), "&property=LeaderCrashRecovered&kind=fair-cycle&premise="+strconv.Itoa(*f.Premise))
	v := view(t, srv, "/api/view?"+srv.Home()+"&at="+strconv.Itoa(*f.Premise))
	require.NotNil(t, v.Premise)
	assert.Equal(t, *f.Premise, *v.Premise)
	assert.Contains(t, v.Properties, webui.Property{Name: "LeaderCrashed", Kind: "premise", Holds: true, Of: []string{"LeaderCrashRecovered"}}, "the premise holds at its step")
	assert.Contains(t, v.Chart, "◀ premise")
	// A premise where it does not hold is refused.
	w := do(srv, "GET", "/api/view?"+strings.Replace(srv.Home(), "premise="+strconv.Itoa(*f.Premise), "premise=0", 1))
	assert.Equal(t, http.StatusBadRequest, w.Code)
	assert.Contains(t, w.Body.String(), "the premise of LeaderCrashRecovered does not hold at step 0")

	opt = options(t, "algo=bully&crashes=1&n=4")
	rep, err = check.Run(check.Request{Spec: opt.Start.Spec, Config: opt.Start.Config, Properties: []string{"TakeOver"}})
	require.NoError(t, err)
	opt.Trace, opt.TraceName = rep.Files()[0], "takeover.json"
	srv, err = webui.New(opt)
	require.NoError(t, err)
	defer srv.Close()
	assert.Contains(t, do(srv, "GET", "/api/home").Body.String(), `"note":"takeover.json: TakeOver is reachable (an example, 3 steps; every step replays)"`)
	v = view(t, srv, "/api/view?"+srv.Home())
	assert.Equal(t, cex.Example, v.Kind)
	assert.Contains(t, v.Properties, webui.Property{Name: "TakeOver", Kind: "sometimes", Holds: true, Of: []string{"TakeOver"}})
	assert.Contains(t, v.Chart, "TakeOver is reachable: an example")
}

// Only a violation is marked as one: an invariant that does not hold, or
// the goal of the property the path is a counterexample of, where the
// path shows its violation (the lasso's cycle); a goal not reached on a
// path walked by hand, or before the cycle, is not.
func TestOnlyViolationsAreMarkedViolated(t *testing.T) {
	srv := newServer(t)
	stable := func(query string) webui.Property {
		t.Helper()
		v := view(t, srv, "/api/view?"+query)
		i := slices.IndexFunc(v.Properties, func(p webui.Property) bool { return p.Name == "Stable" })
		require.GreaterOrEqual(t, i, 0, query)
		return v.Properties[i]
	}
	assert.False(t, stable(cfg).Violated, "the initial state")
	assert.False(t, stable(lasso).Violated, "a path walked by hand")
	assert.False(t, stable(lassoCx+"&at=4").Violated, "before the cycle")
	for _, at := range []string{"5", "6", "8"} {
		p := stable(lassoCx + "&at=" + at)
		assert.False(t, p.Holds)
		assert.True(t, p.Violated, "on the cycle, step %s", at)
	}

	// A state where no fair step is enabled and Stable does not hold
	// violates Termination on any path that reaches it, walked by hand too.
	stuckOpt := options(t, "algo=chang-roberts&crashes=1&n=3")
	rep, err := check.Run(check.Request{Spec: stuckOpt.Start.Spec, Config: stuckOpt.Start.Config, Continue: true, Properties: []string{"Termination"}})
	require.NoError(t, err)
	i := slices.IndexFunc(rep.Files(), func(f *trace.File) bool { return f.Kind == cex.Stuck })
	require.GreaterOrEqual(t, i, 0, "a stuck counterexample")
	stuckOpt.Trace, stuckOpt.TraceName = rep.Files()[i], "stuck.json"
	srv3, err := webui.New(stuckOpt)
	require.NoError(t, err)
	defer srv3.Close()
	q, err := url.ParseQuery(srv3.Home())
	require.NoError(t, err)
	q.Del("property")
	q.Del("kind")
	byHand := view(t, srv3, "/api/view?"+q.Encode())
	require.True(t, byHand.Quiescent)
	assert.Contains(t, byHand.Properties, webui.Property{Name: "Stable", Kind: "eventually-always", Holds: false, Of: []string{"Termination", "LeaderCrashRecovered"}, Violated: true})

	// An invariant that does not hold is violated in any state where it
	// does not: SingleLeader at the end of Bully's two-leader run with
	// early timeouts, opened from the check's trace; not at its start.
	opt := options(t, "algo=bully&n=3&crashes=1&timing=partial&delay=1&timeout=3&timeout-coord=3")
	rep, err = check.Run(check.Request{Spec: opt.Start.Spec, Config: opt.Start.Config, Properties: []string{"SingleLeader"}})
	require.NoError(t, err)
	require.NotEmpty(t, rep.Files(), "bully with early timeouts elects two leaders")
	opt.Trace, opt.TraceName = rep.Files()[0], "two.json"
	srv2, err := webui.New(opt)
	require.NoError(t, err)
	defer srv2.Close()
	v := view(t, srv2, "/api/view?"+srv2.Home())
	assert.Contains(t, v.Properties, webui.Property{Name: "SingleLeader", Kind: "invariant", Holds: false, Violated: true})
	v = view(t, srv2, "/api/view?"+srv2.Home()+"&at=0")
	assert.Contains(t, v.Properties, webui.Property{Name: "SingleLeader", Kind: "invariant", Holds: true})
}

// selfish is an algorithm as a student writes it, without FormatLocal:
// whoever starts an election declares itself leader.
type selfish struct{}

type selfishLocal struct {
	Electing bool
	Elected  int
}

type selfishMsg struct{ Leader int }

func (selfish) Init() selfishLocal          { return selfishLocal{} }
func (selfish) Elected(l *selfishLocal) int { return l.Elected }
func (selfish) CanInitiate(_ *model.Ctx[selfishMsg], _ *selfishLocal, suspects bool) bool {
	return suspects
}
func (selfish) Initiate(c *model.Ctx[selfishMsg], l *selfishLocal) {
	l.Electing, l.Elected = true, c.ID()
	c.SendNext(model.CW, selfishMsg{Leader: c.ID()})
}
func (selfish) Receive(_ *model.Ctx[selfishMsg], l *selfishLocal, _ int, m selfishMsg) {
	l.Elected = m.Leader
}
func (selfish) FormatMsg(m selfishMsg) string { return fmt.Sprintf("LEADER(%d)", m.Leader) }

// The explorer shows a process of an algorithm without FormatLocal field
// by field, and marks the fields a step changed.
func TestFieldsWithoutFormatLocal(t *testing.T) {
	reg := specs.Builtin()
	require.NoError(t, reg.Register(specs.Spec{Name: "selfish", Build: specs.Builder(selfish{})}))
	parse, enc := cli.ExploreModels(reg)
	q, err := url.ParseQuery("algo=selfish&n=2")
	require.NoError(t, err)
	start, err := parse(q)
	require.NoError(t, err)
	srv, err := webui.New(webui.Options{Parse: parse, Query: enc, Start: start, LocalOnly: true})
	require.NoError(t, err)
	defer srv.Close()
	v := view(t, srv, "/api/view?algo=selfish&n=2&path=0")
	require.Equal(t, "initiate p1", v.History[0].Label)
	var fields []string
	for _, f := range v.Processes[0].Fields {
		fields = append(fields, fmt.Sprintf("%s=%s changed=%t", f.Name, f.Text, f.Changed))
	}
	assert.Equal(t, []string{"electing=true changed=true", "elected=1 changed=true"}, fields)
	assert.False(t, v.Processes[1].Fields[1].Changed)
}
