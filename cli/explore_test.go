package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/internal/flagval"
	"github.com/mcheck/mcheck/specs"
)

func TestExploreBadInput(t *testing.T) {
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "corrupt.json")
	require.NoError(t, os.WriteFile(corrupt, []byte(`{"format": "mcheck-trace/1"`), 0o644))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{}, "mcheck: explore: no algorithm: give --algo, one of bully, chang-roberts, hirschberg-sinclair, lelann, ring, ring-timeout"},
		{[]string{"--algo", "paxos"}, `mcheck: explore: --algo: unknown algorithm "paxos"`},
		{[]string{"--algo", "ring", "--n", "40"}, "mcheck: explore: --n 40 is out of range: use 2 to 16 processes"},
		{[]string{"--algo", "ring", "--json"}, "mcheck: explore: --json does not apply to explore (usage: " + exploreUsage + ")"},
		{[]string{"--algo", "ring", "--msc", "x.svg"}, "mcheck: explore: --msc does not apply to explore"},
		{[]string{"--bogus"}, "mcheck: explore: unknown flag --bogus"},
		{[]string{"--algo", "ring", corrupt}, "mcheck: explore: a trace file brings its configuration: drop --algo"},
		{[]string{filepath.Join(dir, "missing.json")}, "mcheck: explore: " + filepath.Join(dir, "missing.json") + ": no such file or directory"},
		{[]string{corrupt}, "mcheck: explore: " + corrupt + ": malformed trace file: not a JSON trace"},
		{[]string{corrupt, corrupt}, "mcheck: explore: give at most one trace file"},
		{[]string{corrupt, "--workers", "300000"}, "mcheck: explore: --workers 300000 is more than "},
		{[]string{corrupt, "--memory", "1000TiB"}, "mcheck: explore: --memory 1000.0 TiB is more than the "},
		{[]string{"--algo", "ring", "--addr", "nonsense"}, "mcheck: explore: --addr nonsense: listen tcp: address nonsense: missing port in address (--addr 127.0.0.1:0 picks a free port)"},
	} {
		var out, errb bytes.Buffer
		code := Main(append([]string{"explore"}, tc.args...), specs.Builtin(), &out, &errb)
		assert.Equal(t, ExitIncomplete, code, tc.args)
		assert.True(t, strings.HasPrefix(errb.String(), tc.want), "%v: %s", tc.args, errb.String())
		assert.Equal(t, 1, strings.Count(errb.String(), "\n"), "one line: %s", errb.String())
	}
}

// syncBuffer is a Buffer the server writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var openURL = regexp.MustCompile(`^mcheck explore: open (http://127\.0\.0\.1:\d+/)\?(\S+) \(Ctrl-C stops\)\n$`)

// serve runs mcheck explore ARGS until the test ends, and returns the
// server's address and the query of the page it prints.
func serve(t *testing.T, args ...string) (base, query string) {
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb syncBuffer
	done := make(chan int)
	go func() {
		done <- serveExplorer(ctx, append(args, "--addr", "127.0.0.1:0"), specs.Builtin(), &out, &errb)
	}()
	t.Cleanup(func() {
		cancel()
		assert.Equal(t, ExitHolds, <-done, "stopped by its context: exit 0")
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		if m := openURL.FindStringSubmatch(out.String()); m != nil {
			return m[1], m[2]
		}
		require.True(t, time.Now().Before(deadline), "no URL printed: %q %q", out.String(), errb.String())
		time.Sleep(10 * time.Millisecond)
	}
}

func getJSON(t *testing.T, url string, v any) int {
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(body, v), string(body))
	return resp.StatusCode
}

func TestExploreServesTheConfiguration(t *testing.T) {
	base, query := serve(t, "--algo", "chang-roberts", "--n", "4", "--crashes", "1")
	assert.Equal(t, "algo=chang-roberts&crashes=1&n=4", query)
	resp, err := http.Get(base + "?" + query)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	var view struct {
		Steps []struct{ Label string }
	}
	assert.Equal(t, http.StatusOK, getJSON(t, base+"api/view?"+query, &view))
	assert.Len(t, view.Steps, 8)
	var problem struct{ Error string }
	assert.Equal(t, http.StatusBadRequest, getJSON(t, base+"api/view?algo=ring&detector=psychic", &problem))
	assert.Equal(t, `configuration: --detector: "psychic" is unknown: use perfect, incomplete, unreliable, eventual or heartbeat (docs/model.md explains them)`, problem.Error)

	// auto is a search over models, which the command refuses too: the
	// page and its Check button refuse it rather than check the default.
	for _, tc := range []struct{ query, want string }{
		{"algo=lelann&n=3&max-queue=auto", "configuration: max-queue=auto deepens the channel bound over several checks, and the page walks one model: give a bound, like max-queue=2"},
		{"algo=bully&n=3&timing=partial&timeout=auto", "configuration: timeout=auto searches the timeouts over several checks, and the page walks one model: give a timeout, like timeout=3"},
	} {
		problem.Error = ""
		assert.Equal(t, http.StatusBadRequest, getJSON(t, base+"api/view?"+tc.query, &problem), tc.query)
		assert.Equal(t, tc.want, problem.Error, tc.query)
		req, err := http.NewRequest(http.MethodPost, base+"api/check?"+tc.query, nil)
		require.NoError(t, err)
		req.Header.Set("X-Mcheck", "1")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "%s: %s", tc.query, body)
		assert.Contains(t, string(body), tc.want, tc.query)
	}
}

func TestExploreOpensATraceFileAtItsLastStep(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runMain(t, "--algo", "chang-roberts", "--n", "4", "--crashes", "1", "--continue", "--trace-out", dir+"/")
	require.Equal(t, ExitViolation, code, stderr)
	_, query := serve(t, filepath.Join(dir, "Termination-fair-cycle.trace.json"))
	assert.Equal(t, "algo=chang-roberts&crashes=1&n=4&path=2.0.0.0.4.0.0.0&cycle=5&property=Termination&kind=fair-cycle", query)
	_, query = serve(t, filepath.Join(dir, "Termination-stuck.trace.json"))
	assert.Equal(t, "algo=chang-roberts&crashes=1&n=4&path=0.0.0.5&property=Termination&kind=stuck", query)
}

func TestExploreQueryRoundTrips(t *testing.T) {
	parse, query := ExploreModels(specs.Builtin())
	for _, args := range [][]string{
		{"--algo", "bully", "--n", "4", "--crash-any"},
		{"--algo", "bully", "--n", "3", "--initial-leader=false", "--detector", "unreliable", "--restarts", "1"},
		{"--algo", "lelann", "--ids", "3,9,4,8", "--initiators", "9", "--down", "4", "--max-queue", "3"},
		{"--algo", "ring"},
	} {
		var o options
		fs := newFlagSet(&o)
		require.NoError(t, flagval.Parse(fs, args))
		m, err := modelOf(fs, &o, specs.Builtin())
		require.NoError(t, err, args)
		back, err := parse(query(m))
		require.NoError(t, err, args)
		assert.Equal(t, m.Spec.Name, back.Spec.Name)
		assert.Equal(t, m.Config.WithDefaults(), back.Config.WithDefaults(), args)
	}
}

func runMain(t *testing.T, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main(args, specs.Builtin(), &out, &errb)
	return code, out.String(), errb.String()
}
