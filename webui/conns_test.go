package webui

import (
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// At the limit, a new connection closes the one idle longest, and waits
// while every one serves a request, until one of them is idle or closed.
func TestConnLimitClosesIdleAndWaitsForBusy(t *testing.T) {
	l := newConnLimit(2)
	pipe := func() *conn {
		a, b := net.Pipe()
		t.Cleanup(func() { a.Close(); b.Close() })
		return &conn{Conn: a}
	}
	closed := func(c *conn) bool { return c.closed.Load() }
	c1, c2 := pipe(), pipe()
	require.True(t, l.admit(c1))
	require.True(t, l.admit(c2))
	l.track(c1, http.StateActive)
	l.track(c2, http.StateActive)

	c3 := pipe()
	admitted := make(chan bool, 1)
	go func() { admitted <- l.admit(c3) }()
	select {
	case <-admitted:
		t.Fatal("a connection was admitted while every open one served a request")
	case <-time.After(100 * time.Millisecond):
	}
	l.track(c2, http.StateIdle)
	select {
	case ok := <-admitted:
		assert.True(t, ok)
	case <-time.After(2 * time.Second):
		t.Fatal("the connection was not admitted once one was idle")
	}
	assert.True(t, closed(c2), "the idle one made room")
	assert.False(t, closed(c1), "the busy one is served on")

	// A closed listener lets nobody wait.
	l.track(c3, http.StateActive)
	go func() { admitted <- l.admit(pipe()) }()
	time.Sleep(20 * time.Millisecond)
	l.stop()
	select {
	case ok := <-admitted:
		assert.False(t, ok)
	case <-time.After(2 * time.Second):
		t.Fatal("a closed listener still waits")
	}
}

// conn is a connection that says whether it was closed.
type conn struct {
	net.Conn
	closed atomic.Bool
}

func (c *conn) Close() error {
	c.closed.Store(true)
	return c.Conn.Close()
}
