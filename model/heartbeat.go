package model

import "errors"

// The heartbeat detector (docs/semantics.md section 6.5): per ordered pair
// (p, q) of distinct positions, silence(p,q), the ticks since p last heard
// from q, capped at C = max(TO, P+D-1). The silences of a state are one
// component, written after the timers (when shape.heartbeat), hashed as
// one (hashHB), copied whole when a step changes them (heartbeat, tick,
// crash: e.hbDirty). A world holds them in hb, p*N+q, the diagonal 0.

// heartbeat is a kernel's heartbeat detector: off unless Config.Detector
// is Heartbeat in a timed mode.
type heartbeat struct {
	on  bool
	to  uint8 // TO: p trusts q while silence(p,q) < to
	due uint8 // G = P+D-1: after gst (sync: always) no tick while a silence of two live processes is due
	cap uint8 // C = max(TO, G)
}

func newHeartbeat(cfg *Config) heartbeat {
	if cfg.Detector != Heartbeat || !cfg.Timed() {
		return heartbeat{}
	}
	due := cfg.HeartbeatPeriod + cfg.Delay - 1
	return heartbeat{on: true, to: uint8(cfg.HeartbeatTimeout), due: uint8(due), cap: uint8(max(cfg.HeartbeatTimeout, due))}
}

// initialHB sets the silences of the initial state w: 0 towards a live
// process, C towards a down one; a down process's row is 0.
func (k *Kernel[L, M]) initialHB(w *world[L, M]) {
	n := k.n
	for p := 0; p < n; p++ {
		for q := 0; q < n; q++ {
			s := uint8(0)
			if p != q && w.alive&(1<<p) != 0 && w.alive&(1<<q) == 0 {
				s = k.hb.cap
			}
			w.hb[p*n+q] = s
		}
	}
}

// trusts reports whether p trusts r in w: r is p, or p heard from r
// within TO ticks.
func (k *Kernel[L, M]) trusts(w *world[L, M], p, r int) bool {
	return p == r || w.hb[p*k.n+r] < k.hb.to
}

// hbSuspects is suspects(p) in w with the heartbeat detector: no process
// carrying the ID el is trusted by p.
func (e *expander[L, M]) hbSuspects(w *world[L, M], p, el int) bool {
	for r, id := range e.k.layouts[w.lay].ids {
		if id == el && e.k.trusts(w, p, r) {
			return false
		}
	}
	return true
}

// expandHB emits the heartbeat steps of cur: heartbeat q→p for live p ≠ q
// with silence(p,q) ≥ 1, in the order of (q, p).
func (e *expander[L, M]) expandHB(out *Batch) {
	k, cur, n := e.k, &e.cur, e.k.n
	for q := 0; q < n; q++ {
		if cur.alive&(1<<q) == 0 {
			continue
		}
		for p := 0; p < n; p++ {
			if p == q || cur.alive&(1<<p) == 0 || cur.hb[p*n+q] == 0 {
				continue
			}
			e.heartbeat(q, p)
			e.emit(out, mkAction(KindHeartbeat, q, p, 0), k.fair.class(famHeartbeat, q*n+p))
		}
	}
}

// heartbeat(q→p): p hears from q.
func (e *expander[L, M]) heartbeat(q, p int) {
	e.begin()
	e.hbDirty = true
	e.nxt.hb[p*e.k.n+q] = 0
}

// hbTick is tick's part for the silences: each live p's grows by one, up
// to C.
func (e *expander[L, M]) hbTick() {
	k, nxt, n := e.k, &e.nxt, e.k.n
	e.hbDirty = true
	for p := 0; p < n; p++ {
		if nxt.alive&(1<<p) == 0 {
			continue
		}
		row := nxt.hb[p*n : p*n+n]
		for q := range row {
			if q != p && row[q] < k.hb.cap {
				row[q]++
			}
		}
	}
}

// hbCrash is crash(p)'s part: p's row is 0, as a crashed process holds.
func (e *expander[L, M]) hbCrash(p int) {
	n := e.k.n
	e.hbDirty = true
	clear(e.nxt.hb[p*n : p*n+n])
}

// hbTickGuard is tick's conditions for the silences in cur: whether a
// silence can still grow (something for time to act on), and whether a
// heartbeat is due (a silence of two live processes at G or more).
func (e *expander[L, M]) hbTickGuard() (grows, due bool) {
	k, cur, n := e.k, &e.cur, e.k.n
	for p := 0; p < n; p++ {
		if cur.alive&(1<<p) == 0 {
			continue
		}
		for q := 0; q < n; q++ {
			if q == p {
				continue
			}
			s := cur.hb[p*n+q]
			grows = grows || s < k.hb.cap
			due = due || cur.alive&(1<<q) != 0 && s >= k.hb.due
		}
	}
	return grows, due
}

// readHB reads the silences that encode wrote into w and returns the rest.
func (k *Kernel[L, M]) readHB(b []byte, w *world[L, M]) ([]byte, error) {
	if len(b) < len(w.hb) {
		return nil, errShort
	}
	for i, s := range b[:len(w.hb)] {
		if s > k.hb.cap || s != 0 && i/k.n == i%k.n {
			return nil, errBadSilence
		}
	}
	copy(w.hb, b)
	return b[len(w.hb):], nil
}

// silenceValue shows p's silences towards the others, in position order.
func (k *Kernel[L, M]) silenceValue(w *world[L, M], p int) Value {
	n := k.n
	vs := make([]Value, 0, n-1)
	for q := 0; q < n; q++ {
		if q != p {
			vs = append(vs, Int(int(w.hb[p*n+q])))
		}
	}
	return Seq(vs...)
}

var errBadSilence = errors.New("a silence is beyond its cap, or a process's towards itself is not 0")
