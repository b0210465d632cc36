package webui_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/webui"
)

// The HTTP server has a time for every part of a connection's life, so
// that a client that sends slowly or never, one that never reads the
// answer, or an idle connection cannot hold the server's goroutines and
// memory (1000 idle connections stayed open, 200 clients that never read
// pinned 171 MB).
func TestHTTPServerHasTimeouts(t *testing.T) {
	hs := newServer(t).HTTPServer()
	assert.Positive(t, hs.ReadHeaderTimeout)
	assert.Positive(t, hs.ReadTimeout)
	assert.Positive(t, hs.WriteTimeout)
	assert.Positive(t, hs.IdleTimeout)
	assert.LessOrEqual(t, hs.ReadHeaderTimeout, hs.ReadTimeout)
	assert.LessOrEqual(t, hs.IdleTimeout, 2*time.Minute)
	assert.Positive(t, hs.MaxHeaderBytes)
	assert.LessOrEqual(t, hs.MaxHeaderBytes, 1<<20)
	assert.NotNil(t, hs.Handler)
}

// Idle and slow connections do not lock the explorer out: with MaxConns
// connections open, half of them silent since they connected and half
// kept alive after a request, a new client is answered at once (well
// before any of the server's timeouts), and the connection silent longest
// is the one closed to make room.
func TestIdleConnectionsDoNotLockOut(t *testing.T) {
	srv := newServer(t)
	ln, err := srv.Listen("127.0.0.1:0")
	require.NoError(t, err)
	hs := srv.HTTPServer()
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	addr := ln.Addr().String()

	var held []net.Conn
	t.Cleanup(func() {
		for _, c := range held {
			c.Close()
		}
	})
	for range webui.MaxConns / 2 {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		held = append(held, c)
	}
	for range webui.MaxConns - webui.MaxConns/2 {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		held = append(held, c)
		require.NoError(t, c.SetDeadline(time.Now().Add(5*time.Second)))
		_, err = c.Write([]byte("GET /api/home HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
		require.NoError(t, err)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		require.NoError(t, err)
		_, err = io.Copy(io.Discard, resp.Body)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
	}

	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	start := time.Now()
	resp, err := client.Get("http://" + addr + "/api/home")
	require.NoError(t, err, "a new client is locked out by %d idle connections", webui.MaxConns)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Less(t, time.Since(start), time.Second)

	// The first connection, silent longest, was closed to make room.
	require.NoError(t, held[0].SetReadDeadline(time.Now().Add(2*time.Second)))
	_, err = held[0].Read(make([]byte, 1))
	assert.ErrorIs(t, err, io.EOF)
}

// Each check has a time limit: one that reaches it reports what it found,
// incomplete, and says why.
func TestCheckHasATimeLimit(t *testing.T) {
	opt := options(t, cfg)
	opt.Limits.CheckTime = time.Nanosecond
	srv, err := webui.New(opt)
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	j := finishedCheck(t, srv, cfg)
	assert.False(t, j.Result.Complete)
	assert.Equal(t, "interrupted: time limit of 1ns reached", j.Result.Stopped)
	for _, v := range j.Result.Verdicts {
		assert.NotEqual(t, "holds", v.Status, v.Name)
	}
}

// A configuration the page cannot show, or too large for any run, is a
// bad request (400) that says why, not an internal error (500).
func TestBadConfigurationsAreBadRequests(t *testing.T) {
	srv := newServer(t)
	for _, c := range []struct{ query, why string }{
		{"algo=chang-roberts&n=8&ids=perm", "ids=perm checks every arrangement of the IDs, one initial state each, and the page walks one run from one initial state: give the IDs in one order (ids=1,2,3,4,5,6,7,8)"},
		{"algo=chang-roberts&n=3&ids=perm", "give the IDs in one order (ids=1,2,3)"},
		{"algo=chang-roberts&n=16&ids=perm", "use at most 8 processes with perm"},
		{"algo=ring&n=17", "out of range"},
		{"algo=bully&n=4&crashes=9", "crashes"},
	} {
		for _, api := range []string{"/api/view?", "/api/random?seed=1&"} {
			w := do(srv, "GET", api+c.query)
			assert.Equal(t, http.StatusBadRequest, w.Code, "%s%s: %s", api, c.query, w.Body.String())
			var p struct{ Error string }
			require.NoError(t, json.Unmarshal(w.Body.Bytes(), &p))
			assert.True(t, strings.HasPrefix(p.Error, "configuration: "), p.Error)
			assert.Contains(t, p.Error, c.why)
		}
	}
}

// A check stopped at the state limit says so in the words of whoever set
// the limit: the field's name, or the flag mcheck explore passes.
func TestCheckStoppedAtTheStateLimitNamesIt(t *testing.T) {
	for _, c := range []struct {
		name func(string) string
		want string
	}{
		{nil, "MaxStates 5 reached"},
		{func(f string) string { return map[string]string{"MaxStates": "--max-states"}[f] }, "--max-states 5 reached"},
	} {
		opt := options(t, cfg)
		opt.Limits.MaxStates, opt.Limits.Name = 5, c.name
		srv, err := webui.New(opt)
		require.NoError(t, err)
		t.Cleanup(srv.Close)
		j := finishedCheck(t, srv, cfg)
		assert.False(t, j.Result.Complete)
		assert.Equal(t, c.want, j.Result.Stopped)
	}
}
