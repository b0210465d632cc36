package model

import (
	"fmt"
	"math/bits"
	"slices"
)

// Partial-order reduction (Reducer) for the kernel. It applies where its
// soundness argument is short enough to check by hand:
//
//   - The algorithm is RingLocal: a process p sends only to Next(d) for the
//     declared directions and never reads its channels beyond the message
//     it receives (no Ctx.Pending).
//   - No crash and no restart can happen any more (the crash budget is
//     spent, and so is the restart budget or nobody is down). The set of
//     live processes is then fixed, so every handler reads the same ring
//     whenever it runs, and the only processes that can ever send to p are
//     its live predecessors prev(p, d).
//
// Steps then belong to processes: deliver(r→p), initiate, suspect and
// timeouts of p are p's steps; they read and write p's local state, take
// the head of a channel into p, and append to channels out of p. Steps of
// different processes commute, except that p can receive nothing on an
// empty channel from r until r acts, and that a step of p over the channel
// bound can become possible once a receiver of p takes a message.
//
// The stubborn set for a seed process p is the closure of {p} under
//
//	q in S, r = prev(q, d), chan(r→q) empty               =>  r in S
//	q in S, q had a step over the bound, chan(q→y) non-empty  =>  y in S
//
// and the reduced set is every enabled step of the processes in S. Steps
// outside S can then neither change what a step in S reads nor enable a
// disabled one, and steps in S stay enabled whatever happens outside (only
// the process itself consumes its messages). The key step must change
// nobody's elected value (liveness cannot change here), so that a state
// violating an invariant keeps violating it when the key step is moved in
// front. The seeds with such a key give the candidate sets, fewest steps
// first (the lowest seed on a tie), so the choice is deterministic.

// Reduces implements Reducer: only RingLocal algorithms reduce, and only
// with FIFO channels.
// With unordered channels a send can add a delivery to the receiver's
// steps (a new message value), which the closure below does not follow.
func (e *expander[L, M]) Reduces() bool { return e.k.around != nil && !e.k.shape.unordered }

// ExpandReduced implements Reducer.
func (e *expander[L, M]) ExpandReduced(state []byte, out *Batch) {
	e.reducing = true
	e.Expand(state, out)
	e.reducing = false
	e.stubborn(out)
}

// stubborn lists the candidate sets, one per seed process whose closure
// has an invisible key step and leaves some step out; fewest steps first,
// then by seed, without repeats.
func (e *expander[L, M]) stubborn(out *Batch) {
	k, cur := e.k, &e.cur
	all := len(out.Succs)
	out.Group = append(out.Group[:0], e.owner...)
	// Timed kernels never reduce: a tick is a step of every process at
	// once (it ages every channel and counts every timer down), and the
	// soundness argument above, of steps that belong to one process, does
	// not cover it (check.Run says so when a reduction was asked for).
	if k.around == nil || k.shape.timed || all <= 1 || cur.crashes < k.cfg.MaxCrashes ||
		(cur.restarts < k.cfg.MaxRestarts && cur.alive != 1<<k.n-1) {
		return
	}
	e.cands = e.cands[:0]
	for p := 0; p < k.n; p++ {
		if cur.alive&(1<<p) == 0 {
			continue
		}
		set := e.closure(p)
		cost, key := 0, false
		for i, o := range e.owner {
			if set&(1<<o) != 0 {
				cost++
				key = key || !e.visible[i]
			}
		}
		if key && cost < all && !slices.ContainsFunc(e.cands, func(c candidate) bool { return c.set == set }) {
			e.cands = append(e.cands, candidate{set, cost})
		}
	}
	slices.SortStableFunc(e.cands, func(a, b candidate) int { return a.cost - b.cost })
	for _, c := range e.cands {
		out.Stubborn = append(out.Stubborn, c.set)
	}
}

type candidate struct {
	set  uint64
	cost int
}

// closure is the stubborn set of processes grown from seed.
func (e *expander[L, M]) closure(seed int) uint64 {
	k, cur, n := e.k, &e.cur, e.k.n
	set, work := uint64(1)<<seed, uint64(1)<<seed
	add := func(r int) {
		if set&(1<<r) == 0 {
			set |= 1 << r
			work |= 1 << r
		}
	}
	for work != 0 {
		q := bits.TrailingZeros64(work)
		work &^= 1 << q
		for _, d := range k.around {
			if r := e.nextAlive(cur, q, d.Back()); cur.count[r*n+q] == 0 {
				add(r)
			}
		}
		if e.discardedBy&(1<<q) != 0 {
			for y := 0; y < n; y++ {
				if cur.count[q*n+y] > 0 {
					add(y)
				}
			}
		}
	}
	return set
}

// nextAlive is Ctx.Next of p in world w.
func (e *expander[L, M]) nextAlive(w *world[L, M], p int, d Dir) int {
	return nextLive(p, d, w.alive)
}

// checkRingLocal enforces RingLocal's promise on a send, whenever the
// reduction relies on it.
func (e *expander[L, M]) checkRingLocal(w *world[L, M], from, to int) {
	if e.k.around == nil {
		return
	}
	for _, d := range e.k.around {
		if e.nextAlive(w, from, d) == to {
			return
		}
	}
	panic(fmt.Sprintf("mcheck: the algorithm is RingLocal (sends only to Next%v) but %s sent to %s: drop the RingLocal method Around",
		e.k.around, e.k.name(from), e.k.name(to)))
}
