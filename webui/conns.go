package webui

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// connLimit keeps at most max connections open, as the HTTP server
// reports their states (http.Server.ConnState). A connection accepted at
// the limit closes the one that has waited longest without a request in
// progress (kept alive between requests, or opened and silent), so that
// idle and slow connections never keep out one that has a request; only
// when every open connection is serving a request does it wait for one to
// finish.
type connLimit struct {
	max int

	mu     sync.Mutex
	cond   *sync.Cond
	open   map[net.Conn]connState
	next   uint64 // the number of the next connection admitted
	closed bool   // the listener is closed: nobody waits any more
}

// connState is what the server last said of a connection, and since when;
// seq numbers the connections in the order they came, for equal times.
type connState struct {
	active bool
	since  time.Time
	seq    uint64
}

func newConnLimit(max int) *connLimit {
	l := &connLimit{max: max, open: map[net.Conn]connState{}}
	l.cond = sync.NewCond(&l.mu)
	return l
}

// track is the server's ConnState hook.
func (l *connLimit) track(c net.Conn, st http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch st {
	case http.StateActive, http.StateIdle:
		if old, ok := l.open[c]; ok {
			l.open[c] = connState{active: st == http.StateActive, since: time.Now(), seq: old.seq}
		}
	case http.StateHijacked, http.StateClosed:
		delete(l.open, c)
	}
	// A waiting Accept may now go on, or find one to close.
	l.cond.Broadcast()
}

// admit counts c among the open connections, making room first: it closes
// the connection idle longest, or waits while every one is active. It
// reports false when the listener closed while it waited.
func (l *connLimit) admit(c net.Conn) bool {
	l.mu.Lock()
	for len(l.open) >= l.max && !l.closed {
		var victim net.Conn
		var oldest connState
		for o, st := range l.open {
			if !st.active && (victim == nil || st.since.Before(oldest.since) || st.since.Equal(oldest.since) && st.seq < oldest.seq) {
				victim, oldest = o, st
			}
		}
		if victim == nil {
			l.cond.Wait()
			continue
		}
		delete(l.open, victim)
		l.mu.Unlock()
		victim.Close() // its server goroutine sees the error and ends
		l.mu.Lock()
	}
	if l.closed {
		l.mu.Unlock()
		return false
	}
	l.open[c] = connState{since: time.Now(), seq: l.next}
	l.next++
	l.mu.Unlock()
	return true
}

func (l *connLimit) stop() {
	l.mu.Lock()
	l.closed = true
	l.cond.Broadcast()
	l.mu.Unlock()
}

// limitListener admits each connection it accepts through its connLimit.
type limitListener struct {
	net.Listener
	l *connLimit
}

func (ln *limitListener) Accept() (net.Conn, error) {
	c, err := ln.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if !ln.l.admit(c) {
		c.Close()
		return nil, net.ErrClosed
	}
	return c, nil
}

func (ln *limitListener) Close() error {
	ln.l.stop()
	return ln.Listener.Close()
}
