package model

import (
	"fmt"
	"math/bits"
	"slices"
)

// Partial-order reduction (Reducer) for the kernel; docs/semantics.md
// ("Reduction") gives the argument. It applies once no crash and no restart
// can happen any more (the crash budget is spent, and so is the restart
// budget or nobody is down): the set of live processes is then fixed, so
// whatever a handler or a guard reads of it (Alive, Next, Suspects, a send
// that is lost) reads the same whenever it runs.
//
// Steps then belong to processes: deliver(r→p), initiate, suspect and
// timeouts of p are p's steps; they read and write p's local state, take
// the head of a channel into p, append to channels out of p, and a timer's
// guard may read the channels into p (GuardCtx.Pending). Steps of different
// processes commute, except that
//   - p can receive nothing on an empty channel from r until r acts,
//   - a guard of p that calls Pending can change when anyone sends to p,
//   - a step of p over the channel bound can become possible once a
//     receiver of p takes a message.
//
// The stubborn set for a seed process p is the closure of {p} under
//
//	q in S, r may send to q, chan(r→q) empty                      =>  r in S
//	q in S, a guard of q called Pending, r may send to q          =>  r in S
//	q in S, an enabled step of q sends to y, the algorithm has timers
//	        (y's guards may call Pending)                         =>  y in S
//	q in S, q had a step over the bound, chan(q→y) non-empty       =>  y in S
//
// where "r may send to q" is r = prev(q, d) for a RingLocal algorithm (its
// sends are checked) and any live r otherwise: the kernel does not know
// whom a handler sends to before it runs. The reduced set is every enabled
// step of the processes in S. Steps outside S can then neither change what
// a step in S reads nor enable a disabled one, steps in S stay enabled
// whatever happens outside (only the process itself consumes its
// messages), and a step in S changes nothing a step outside reads. The key
// step must change nobody's elected value (liveness cannot change here),
// so that a state violating an invariant keeps violating it when the key
// step is moved in front. The seeds with such a key give the candidate
// sets, fewest steps first (the lowest seed on a tie), so the choice is
// deterministic.

// Reduces implements Reducer: every algorithm reduces (timed kernels
// expand in full, see stubborn).
func (e *expander[L, M]) Reduces() bool { return true }

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
	if k.shape.timed || all <= 1 || cur.crashes < k.cfg.MaxCrashes ||
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
		if k.around != nil {
			for _, d := range k.around {
				if r := e.nextAlive(cur, q, d.Back()); cur.count[r*n+q] == 0 {
					add(r)
				}
			}
		} else {
			reads := e.pendingBy&(1<<q) != 0
			for r := 0; r < n; r++ {
				if r != q && cur.alive&(1<<r) != 0 && (reads || cur.count[r*n+q] == 0) {
					add(r)
				}
			}
			if len(k.timers) > 0 {
				for i, o := range e.owner {
					if int(o) == q {
						for m := e.sendsTo[i]; m != 0; m &= m - 1 {
							add(bits.TrailingZeros64(m))
						}
					}
				}
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

// noteStep records, for the reduction, whose step a is, whether it changes
// what the invariants read, and whom it sent to; or that it went over the
// channel bound.
func (e *expander[L, M]) noteStep(a Action) {
	owner := a.P()
	if a.Kind() == KindDeliver {
		owner = a.Q()
	}
	if e.overflow {
		e.discardedBy |= 1 << owner
		return
	}
	e.owner = append(e.owner, uint8(owner))
	e.visible = append(e.visible, e.nxt.alive != e.cur.alive ||
		e.k.alg.Elected(&e.nxt.local[owner]) != e.k.alg.Elected(&e.cur.local[owner]))
	// A step of the owner adds to its own out-channels only (a delivery
	// takes from an in-channel, which is an out-channel only for a
	// message to itself, and the owner is in the set already).
	var to uint64
	n := e.k.n
	for y := 0; y < n; y++ {
		if ch := owner*n + y; y != owner && e.nxt.count[ch] > e.cur.count[ch] {
			to |= 1 << y
		}
	}
	e.sendsTo = append(e.sendsTo, to)
}

// nextAlive is Ctx.Next of p in world w.
func (e *expander[L, M]) nextAlive(w *world[L, M], p int, d Dir) int {
	return nextLive(p, d, w.alive)
}

// checkRingLocal enforces RingLocal's promise on a send, whenever the
// reduction relies on it.
func (e *expander[L, M]) checkRingLocal(from, to int) {
	if e.k.around == nil {
		return
	}
	for _, d := range e.k.around {
		if e.nextAlive(e.w, from, d) == to {
			return
		}
	}
	panic(fmt.Sprintf("mcheck: the algorithm is RingLocal (sends only to Next%v) but %s sent to %s: drop the RingLocal method Around",
		e.k.around, e.k.name(from), e.k.name(to)))
}
