package webui_test

import (
	"encoding/json"
	"net"
	"net/http"
	"runtime"
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

// The explorer's listener accepts at most MaxConns connections at once:
// the next is accepted once one of them closes.
func TestListenLimitsConnections(t *testing.T) {
	ln, err := webui.Listen("127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	accept := func() (net.Conn, error) {
		c, err := ln.Accept()
		if err == nil {
			held = append(held, c)
		}
		return c, err
	}
	for range webui.MaxConns {
		c, err := net.Dial("tcp", ln.Addr().String())
		require.NoError(t, err)
		held = append(held, c)
		_, err = accept()
		require.NoError(t, err)
	}
	extra, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer extra.Close()
	got := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			got <- c
		}
	}()
	// Over the limit, the connection waits (a connection accepted here
	// would show at once: it is already there).
	for range 1000 {
		runtime.Gosched()
		select {
		case c := <-got:
			c.Close()
			t.Fatalf("a connection over the limit of %d was accepted", webui.MaxConns)
		default:
		}
	}
	require.NoError(t, held[len(held)-1].Close())
	c := <-got
	c.Close()
}

// Each check has a time limit: one that reaches it reports what it found,
// incomplete, and says why.
func TestCheckHasATimeLimit(t *testing.T) {
	opt := options(t, cfg)
	opt.Limits.CheckTime = time.Nanosecond
	srv, err := webui.New(opt)
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	w := do(srv, "POST", "/api/check?"+cfg)
	require.Equal(t, http.StatusAccepted, w.Code, w.Body.String())
	var j webui.Job
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &j))
	j = waitJob(t, srv, j.ID)
	require.Empty(t, j.Error)
	require.NotNil(t, j.Result)
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
