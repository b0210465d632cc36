// Package webui is mcheck's explorer: a local web server whose page walks a
// model by hand (choose the next step, go back and forth, run at random to a
// quiescent state), draws the path as a message-sequence chart, and runs the
// check in the background to load its counterexamples. The URL holds the
// configuration and the path as step indices, so a link shows the same state.
//
// The page's files are embedded; the server reads and writes no file.
package webui

import (
	"cmp"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/trace"
)

//go:embed static
var static embed.FS

// Limits on what a request may ask for.
const (
	// MaxPath is the longest path a URL may hold.
	MaxPath = 4096
	// maxQuery bounds a URL's query in bytes.
	maxQuery = 64 << 10
	// maxRandomSteps bounds one random run.
	maxRandomSteps = 1000
	// maxJobs is how many checks are kept; maxRunning run at once.
	maxJobs    = 16
	maxRunning = 2
)

// The page's own URL parameters; every other one is the configuration's.
const (
	paramPath  = "path"
	paramAt    = "at"
	paramCycle = "cycle"
	paramSeed  = "seed"
	// paramProperty and paramKind say which property the path is a
	// counterexample of, and how: the page verifies it and titles the chart.
	paramProperty = "property"
	paramKind     = "kind"
	// paramPremise is, for a leads-to's counterexample, the step where its
	// premise holds.
	paramPremise = "premise"
	// paramSends is how far the states count the sends (Model.Sends),
	// when not as the Check button's check counts them: a trace file's.
	paramSends = "sends"
	// paramSendTypes are the message types counted (Model.SendTypes),
	// comma-separated; absent: every type.
	paramSendTypes = "sendtypes"
	// maxSends bounds it; the model refuses what its states cannot hold.
	maxSends = 1 << 16
)

// Options configure a Server.
type Options struct {
	// Parse reads a configuration from the URL's parameters (the page's own
	// parameters taken out); its error is shown on the page.
	Parse func(q url.Values) (Model, error)
	// Query writes a configuration as parameters Parse reads back.
	Query func(m Model) url.Values
	// Start is the configuration the page opens with.
	Start Model
	// Trace, when set, is a trace file of Start, opened at its last step;
	// TraceName names it on the page.
	Trace     *trace.File
	TraceName string
	// LocalOnly refuses requests whose Host is not a loopback name or
	// address, so that a web page elsewhere cannot reach the server by
	// rebinding its DNS name to 127.0.0.1.
	LocalOnly bool
	// Limits of the Check button's search.
	Limits Limits
}

// Limits bound the checks the Check button runs (zero: no bound, one worker
// per CPU); the checks that run at once share MemoryBudget. CheckTime
// bounds each check's time (0: DefaultCheckTime): one that reaches it
// reports what it found, incomplete.
type Limits struct {
	MaxStates    int64
	MemoryBudget int64
	Workers      int
	CheckTime    time.Duration
	// Name names these fields ("MaxStates") in what the page shows of a
	// check that stopped at one (check.Request.Name); nil: their names.
	// mcheck explore passes its flags, which set them.
	Name func(field string) string
}

// DefaultCheckTime is the time limit of a check without Limits.CheckTime:
// the page's checks are for exploring, a long search is the command's.
const DefaultCheckTime = 10 * time.Minute

// The HTTP server's limits (HTTPServer, Listen): a client that sends its
// request slowly or never, one that never reads the answer, and a
// connection left open hold a goroutine and buffers each, so each has a
// time, and there are at most MaxConns connections at once. No request of
// the page takes long (a check runs in the background and the page polls
// it), and a browser opens a new connection at once when one was closed,
// so the times for a request's header and an idle connection are short.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 15 * time.Second
	maxHeaderBytes    = 64 << 10
	// MaxConns is how many connections the server keeps open at once: at
	// the limit, a new one closes the connection idle longest (see
	// connLimit), and waits only while every one is serving a request.
	MaxConns = 64
)

// HTTPServer is an http.Server for s with the timeouts above, which tells
// the connection limit of s.Listen what its connections do.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ConnState:         s.conns.track,
	}
}

// Listen listens on addr ("tcp") for s.HTTPServer, keeping at most
// MaxConns connections open; idle ones make room for new ones.
func (s *Server) Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return &limitListener{Listener: ln, l: s.conns}, nil
}

// Server serves the explorer. It is safe for concurrent use.
type Server struct {
	opt    Options
	home   string // the query of the page the server opens with
	note   string // what the page says about it (the trace file)
	mux    *http.ServeMux
	conns  *connLimit
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	nextJob int
	jobs    []*job
}

// New builds a server. With opt.Trace, the trace's steps must replay.
func New(opt Options) (*Server, error) {
	if opt.Parse == nil || opt.Query == nil {
		return nil, errors.New("webui: Options.Parse and Options.Query are required")
	}
	s := &Server{opt: opt, mux: http.NewServeMux(), conns: newConnLimit(MaxConns)}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	home := pageQuery{cfg: opt.Query(opt.Start), sends: opt.Start.Sends, sendTypes: opt.Start.SendTypes}
	if f := opt.Trace; f != nil {
		ss, err := open(opt.Start)
		if err != nil {
			return nil, err
		}
		path, notViolated, err := ss.pathOfFile(f)
		if err != nil {
			return nil, err
		}
		home.path, home.at, home.cycle = path, len(path), f.CycleStart
		switch {
		case !f.ClaimsProperty():
			// A measure's witness claims no violation: a walk.
			s.note = trace.Printable(fmt.Sprintf("%s: %s is a measure's run (%s, %s), not a counterexample", opt.TraceName, f.Property, f.Kind, plural.Count(len(f.Steps)-1, "step")))
		case notViolated != nil:
			// The note says what the replay checked; the file's summary is
			// its own text, which nothing checks (trace.Replayed).
			s.note = trace.Printable(fmt.Sprintf("%s: %v", opt.TraceName, notViolated))
		case f.Kind == cex.Example:
			home.cx = counterexample{property: f.Property, kind: f.Kind}
			s.note = trace.Printable(fmt.Sprintf("%s: %s is reachable (an example, %s; every step replays)", opt.TraceName, f.Property, plural.Count(len(f.Steps)-1, "step")))
		default:
			home.cx = counterexample{property: f.Property, kind: f.Kind, premise: f.Premise}
			s.note = trace.Printable(fmt.Sprintf("%s: %s violated (%s, %s; every step replays)", opt.TraceName, f.Property, f.Kind, plural.Count(len(f.Steps)-1, "step")))
		}
		if f.Config.Perm {
			s.note += arrangementNote(opt.Start)
		}
	}
	s.home = home.encode()

	sub, err := fs.Sub(static, "static")
	if err != nil {
		return nil, err
	}
	files := http.FileServerFS(sub)
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", files))
	s.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/"
		files.ServeHTTP(w, r2) // index.html
	})
	s.mux.HandleFunc("GET /api/home", s.handleHome)
	s.mux.HandleFunc("GET /api/view", s.handleView)
	s.mux.HandleFunc("GET /api/random", s.handleRandom)
	s.mux.HandleFunc("POST /api/check", s.handleCheck)
	s.mux.HandleFunc("GET /api/check/{id}", s.handleJob)
	s.mux.HandleFunc("POST /api/check/{id}/stop", s.handleStop)
	return s, nil
}

// Home is the query of the page the server opens with.
func (s *Server) Home() string { return s.home }

// Close stops the checks that are running.
func (s *Server) Close() { s.cancel() }

// ServeHTTP checks what every request must satisfy, then routes it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			fail(w, http.StatusInternalServerError, fmt.Sprintf("internal error: %v", v))
		}
	}()
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:")
	h.Set("Referrer-Policy", "no-referrer")
	switch {
	case s.opt.LocalOnly && !localHost(r.Host):
		fail(w, http.StatusForbidden, fmt.Sprintf("host %q is not this machine: open the page at 127.0.0.1 or localhost", r.Host))
	case len(r.URL.RawQuery) > maxQuery:
		fail(w, http.StatusRequestURITooLong, fmt.Sprintf("the URL's query has %d bytes, at most %d are accepted", len(r.URL.RawQuery), maxQuery))
	case r.Method == http.MethodPost && r.Header.Get("X-Mcheck") != "1":
		// A form on another site cannot set this header.
		fail(w, http.StatusForbidden, "POST requests come from the explorer's page only (header X-Mcheck: 1)")
	default:
		s.mux.ServeHTTP(w, r)
	}
}

func localHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

func fail(w http.ResponseWriter, status int, msg string) {
	reply(w, status, Problem{Error: msg})
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // the client went away
}

// pageQuery is a URL's query: the configuration, the path, the step shown,
// and what the path is a counterexample of.
type pageQuery struct {
	cfg   url.Values
	path  []int
	at    int
	cycle *int
	cx    counterexample
	seed  uint64
	sends *int
	// sendTypes: Model.SendTypes.
	sendTypes []string
}

// badRequest is a request the page cannot show; its message says why.
type badRequest struct {
	status int
	msg    string
}

func (e *badRequest) Error() string { return e.msg }

func bad(format string, args ...any) error {
	return &badRequest{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// parseQuery reads a URL's query. Every number is checked here, so later
// code can index with it.
func parseQuery(raw string) (pageQuery, error) {
	var q pageQuery
	vals, err := url.ParseQuery(raw)
	if err != nil {
		return q, bad("malformed URL query: %v", err)
	}
	one := func(name string) (string, bool, error) {
		v, ok := vals[name]
		delete(vals, name)
		if len(v) > 1 {
			return "", false, bad("%s is given %d times", name, len(v))
		}
		if !ok {
			return "", false, nil
		}
		return v[0], true, nil
	}
	p, _, err := one(paramPath)
	if err != nil {
		return q, err
	}
	if p != "" {
		parts := strings.Split(p, ".")
		if len(parts) > MaxPath {
			return q, &badRequest{http.StatusRequestEntityTooLarge, fmt.Sprintf("the path has %d steps, at most %d are accepted", len(parts), MaxPath)}
		}
		for i, w := range parts {
			n, err := strconv.ParseUint(w, 10, 16)
			if err != nil {
				return q, bad("step %d of the path is %q, not a step index (the path is step indices separated by dots, like 0.3.1)", i+1, w)
			}
			q.path = append(q.path, int(n))
		}
	}
	q.at = len(q.path)
	if v, ok, err := one(paramAt); err != nil {
		return q, err
	} else if ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > len(q.path) {
			return q, bad("at=%q: want a step of the path, 0 to %d", v, len(q.path))
		}
		q.at = n
	}
	if v, ok, err := one(paramCycle); err != nil {
		return q, err
	} else if ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n >= len(q.path) {
			return q, bad("cycle=%q: want a step of the path before its last, 0 to %d", v, len(q.path)-1)
		}
		q.cycle = &n
	}
	if q.cx.property, _, err = one(paramProperty); err != nil {
		return q, err
	}
	if v, _, err := one(paramKind); err != nil {
		return q, err
	} else if q.cx.kind, err = cex.Parse(v); v != "" && err != nil {
		return q, bad("%s=%q: %v", paramKind, v, err)
	}
	if (q.cx.property == "") != (q.cx.kind == 0) {
		return q, bad("give both %s= and %s= (the property a path violates and how), or neither", paramProperty, paramKind)
	}
	if v, ok, err := one(paramPremise); err != nil {
		return q, err
	} else if ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > len(q.path) || q.cx.property == "" {
			return q, bad("premise=%q: want a step of the path, 0 to %d, of a leads-to's counterexample (with %s= and %s=)", v, len(q.path), paramProperty, paramKind)
		}
		q.cx.premise = &n
	}
	if v, ok, err := one(paramSeed); err != nil {
		return q, err
	} else if ok {
		if q.seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			return q, bad("seed=%q: want a number from 0 to 2^64-1", v)
		}
	}
	if v, ok, err := one(paramSends); err != nil {
		return q, err
	} else if ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > maxSends {
			return q, bad("%s=%q: want how far the states count the sends, 0 (not at all) to %d", paramSends, v, maxSends)
		}
		q.sends = &n
	}
	if v, ok, err := one(paramSendTypes); err != nil {
		return q, err
	} else if ok {
		if q.sends == nil || v == "" {
			return q, bad("%s=%q: want the message types whose sends the states count, comma-separated, with %s=", paramSendTypes, v, paramSends)
		}
		q.sendTypes = strings.Split(v, ",")
	}
	q.cfg = vals
	return q, nil
}

func (q pageQuery) encode() string {
	var sb strings.Builder
	sb.WriteString(q.cfg.Encode())
	if q.sends != nil {
		sb.WriteString("&" + paramSends + "=" + strconv.Itoa(*q.sends))
		if len(q.sendTypes) > 0 {
			sb.WriteString("&" + paramSendTypes + "=" + url.QueryEscape(strings.Join(q.sendTypes, ",")))
		}
	}
	if len(q.path) > 0 {
		sb.WriteString("&" + paramPath + "=")
		for i, p := range q.path {
			if i > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(strconv.Itoa(p))
		}
		if q.at != len(q.path) {
			sb.WriteString("&" + paramAt + "=" + strconv.Itoa(q.at))
		}
	}
	if q.cycle != nil {
		sb.WriteString("&" + paramCycle + "=" + strconv.Itoa(*q.cycle))
	}
	if q.cx.property != "" {
		sb.WriteString("&" + paramProperty + "=" + url.QueryEscape(q.cx.property) + "&" + paramKind + "=" + url.QueryEscape(q.cx.kind.String()))
	}
	if q.cx.premise != nil {
		sb.WriteString("&" + paramPremise + "=" + strconv.Itoa(*q.cx.premise))
	}
	return sb.String()
}

// model parses q's configuration and canonicalises it.
func (s *Server) model(q *pageQuery) (Model, error) {
	if len(q.cfg) == 0 {
		return Model{}, bad("the URL has no configuration: open %s", "/?"+s.home)
	}
	m, err := s.opt.Parse(q.cfg)
	if err != nil {
		return Model{}, bad("configuration: %v", err)
	}
	q.cfg = s.opt.Query(m)
	m.Sends, m.SendTypes = q.sends, q.sendTypes
	return m, nil
}

// load parses a request's query and replays its path.
func (s *Server) load(r *http.Request) (pageQuery, *session, *walk, error) {
	q, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		return q, nil, nil, err
	}
	m, err := s.model(&q)
	if err != nil {
		return q, nil, nil, err
	}
	ss, err := open(m)
	if err != nil {
		return q, nil, nil, bad("configuration: %v", err)
	}
	if m.Config.Perm {
		// Every arrangement is an initial state of its own; the page
		// walks one run from one initial state.
		return q, nil, nil, bad("configuration: ids=perm checks every arrangement of the IDs, one initial state each, and the page walks one run from one initial state: give the IDs in one order (ids=%s) to walk it, and check ids=perm with the command", joinIDs(m.Config.WithDefaults().IDs))
	}
	w, err := ss.walk(q.path)
	var pe *pathError
	switch {
	case errors.As(err, &pe):
		return q, nil, nil, bad("%v", err)
	case err != nil:
		return q, nil, nil, err
	}
	if q.cycle != nil {
		if err := w.checkCycle(*q.cycle); err != nil {
			return q, nil, nil, bad("%v", err)
		}
	}
	if q.cx.property != "" {
		if err := ss.verify(w, q.cycle, q.cx); err != nil {
			return q, nil, nil, bad("the path is no %s counterexample of %s: %v", q.cx.kind, q.cx.property, err)
		}
	}
	return q, ss, w, nil
}

// joinIDs writes IDs as a URL gives them: 1,2,3.
func joinIDs(ids []int) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.Itoa(id)
	}
	return strings.Join(parts, ",")
}

func failErr(w http.ResponseWriter, err error) {
	var br *badRequest
	if errors.As(err, &br) {
		fail(w, br.status, br.msg)
		return
	}
	fail(w, http.StatusInternalServerError, err.Error())
}

func (s *Server) handleHome(w http.ResponseWriter, r *http.Request) {
	reply(w, http.StatusOK, map[string]string{"query": s.home, "note": s.note})
}

func (s *Server) handleView(w http.ResponseWriter, r *http.Request) {
	q, ss, wk, err := s.load(r)
	if err != nil {
		failErr(w, err)
		return
	}
	reply(w, http.StatusOK, s.render(q, ss, wk))
}

func (s *Server) render(q pageQuery, ss *session, wk *walk) View {
	v := ss.view(wk, q.at, q.cycle, q.cx)
	v.Config, v.Path, v.Query = ss.configOf(), q.path, q.encode()
	if v.Path == nil {
		v.Path = []int{}
	}
	return v
}

// handleRandom extends the path from step at with random steps (seeded by
// the request) to a quiescent state, and shows its end.
func (s *Server) handleRandom(w http.ResponseWriter, r *http.Request) {
	q, ss, wk, err := s.load(r)
	if err != nil {
		failErr(w, err)
		return
	}
	if _, ok := r.URL.Query()[paramSeed]; !ok {
		fail(w, http.StatusBadRequest, "a random run needs seed=N, so that it can be repeated")
		return
	}
	limit := min(MaxPath, q.at+maxRandomSteps)
	var note string
	q.path, q.cycle, q.cx, note = ss.random(wk, q.path, q.at, q.seed, limit)
	q.at = len(q.path)
	v := s.render(q, ss, wk)
	v.Note = note
	reply(w, http.StatusOK, v)
}

// job is a check started from the page.
type job struct {
	id     int
	key    string // the configuration's query
	cancel context.CancelFunc

	mu   sync.Mutex
	prog Progress
	done bool
	res  *Result
	err  error
}

func (j *job) state() Job {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := Job{ID: j.id, Running: !j.done, Progress: j.prog, Result: j.res}
	if j.err != nil {
		out.Error = j.err.Error()
	}
	return out
}

// handleCheck starts the check of the request's configuration, or returns
// the one running or complete for it (tabs share it).
func (s *Server) handleCheck(w http.ResponseWriter, r *http.Request) {
	q, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		failErr(w, err)
		return
	}
	m, err := s.model(&q)
	if err != nil {
		failErr(w, err)
		return
	}
	if _, err := open(m); err != nil {
		fail(w, http.StatusBadRequest, "configuration: "+err.Error())
		return
	}
	key := q.cfg.Encode()
	s.mu.Lock()
	running := 0
	for i := 0; i < len(s.jobs); i++ {
		j := s.jobs[i]
		st := j.state()
		if j.key == key {
			if st.Running || st.Error == "" && st.Result.Complete {
				s.mu.Unlock()
				reply(w, http.StatusOK, st)
				return
			}
			// Stopped or failed: check again.
			s.jobs = append(s.jobs[:i], s.jobs[i+1:]...)
			i--
			continue
		}
		if st.Running {
			running++
		}
	}
	if running >= maxRunning {
		s.mu.Unlock()
		fail(w, http.StatusTooManyRequests, fmt.Sprintf("%d checks are running already: stop one or wait for it", running))
		return
	}
	s.nextJob++
	limit := cmp.Or(s.opt.Limits.CheckTime, DefaultCheckTime)
	ctx, cancel := check.WithTimeLimit(s.ctx, limit)
	j := &job{id: s.nextJob, key: key, cancel: cancel}
	s.jobs = append(s.jobs, j)
	s.evict()
	s.mu.Unlock()

	go s.run(ctx, j, m, q.cfg)
	reply(w, http.StatusAccepted, j.state())
}

// evict forgets the oldest finished checks beyond maxJobs.
func (s *Server) evict() {
	for i := 0; len(s.jobs) > maxJobs && i < len(s.jobs); {
		if !s.jobs[i].state().Running {
			s.jobs = append(s.jobs[:i], s.jobs[i+1:]...)
			continue
		}
		i++
	}
}

func (s *Server) run(ctx context.Context, j *job, m Model, cfg url.Values) {
	defer j.cancel()
	defer func() {
		// An algorithm's handler may panic; that ends this check, not the server.
		if v := recover(); v != nil {
			j.mu.Lock()
			j.done, j.err = true, fmt.Errorf("the check panicked: %v", v)
			j.mu.Unlock()
		}
	}()
	res, err := runCheck(ctx, m, s.opt.Limits, func(p Progress) {
		j.mu.Lock()
		j.prog = p
		j.mu.Unlock()
	})
	if res != nil {
		for i := range res.Counterexamples {
			cx := &res.Counterexamples[i]
			cx.Query = pageQuery{cfg: cfg, path: cx.Path, at: len(cx.Path), cycle: cx.Cycle, cx: counterexample{cx.Property, cx.Kind, cx.Premise}}.encode()
		}
	}
	j.mu.Lock()
	j.done, j.res, j.err = true, res, err
	j.mu.Unlock()
}

func (s *Server) job(w http.ResponseWriter, r *http.Request) *job {
	id, err := strconv.Atoi(r.PathValue("id"))
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, j := range s.jobs {
		if err == nil && j.id == id {
			return j
		}
	}
	fail(w, http.StatusNotFound, fmt.Sprintf("no check %q: start one with the Check button", r.PathValue("id")))
	return nil
}

func (s *Server) handleJob(w http.ResponseWriter, r *http.Request) {
	if j := s.job(w, r); j != nil {
		reply(w, http.StatusOK, j.state())
	}
}

func (s *Server) handleStop(w http.ResponseWriter, r *http.Request) {
	if j := s.job(w, r); j != nil {
		j.cancel()
		reply(w, http.StatusOK, j.state())
	}
}
