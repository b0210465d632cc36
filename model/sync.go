package model

import (
	"fmt"
	"slices"
)

// SyncRun is the synchronous schedule of docs/semantics.md section 5.5: one run,
// in rounds, fixed by the configuration, that measures time in
// communication latencies.
type SyncRun struct {
	// Arrangement is the IDs by position of the run's initial state; with
	// Config.Perm the schedule is played from every arrangement and the
	// worst is kept (unbounded, else the largest latency, then the most
	// messages, then the first).
	Arrangement []int
	Initial     []byte     // the initial state
	Steps       []SyncStep // in the order taken
	// Rounds is the number of rounds begun (round 0 included); with
	// Overflow the last of them is the round the schedule stopped in.
	Rounds int
	// Latency is the last round in which a step happened (0 if none); with
	// Overflow, of the steps taken before the stop. Not meaningful when
	// Unbounded.
	Latency int
	// Unbounded: the schedule came back to a state it was in at the end of
	// an earlier round (with the same timers armed for as long), so it
	// never ends.
	Unbounded bool
	// Overflow: a step would have gone over the channel bound; the schedule
	// stopped before it. Blocked is that step (taken from the last state
	// of Steps, or Initial).
	Overflow bool
	Blocked  Action
	Sent     Sends // all steps' sends, per type and lost
}

// SyncStep is one step of the schedule and the state after it.
type SyncStep struct {
	Round  int
	Action Action
	State  []byte
	Sent   Sends
}

// Synchronous plays the synchronous schedule: perfect-detector guards, no
// crash, restart or spurious step. Round 0: every initiator whose guard
// holds initiates, in position order. Round r >= 1: every message in flight
// at the end of round r-1 is delivered, by receiver, then sender, FIFO
// (with unordered channels too: the order sent is one they allow);
// then every process in position order takes each timeout whose timer is
// mature (armed in round a, mature from a+2) and whose guard holds. It
// ends after the first round that leaves no message in flight and no armed
// timer whose guard holds, or before a step that would go over the
// channel bound (Overflow). It is defined on the asynchronous model
// (section 6 computes it there for the timed modes too); check.Run does
// not measure a timed kernel yet, so it is not played on one.
func (k *Kernel[L, M]) Synchronous() SyncRun {
	e := k.newExpander()
	var b Batch
	e.Initial(&b)
	var worst SyncRun
	for i := range b.Succs {
		run := k.synchronousFrom(e, slices.Clone(b.State(i)))
		if i == 0 || worse(&run, &worst) {
			worst = run
		}
	}
	return worst
}

func worse(a, b *SyncRun) bool {
	if a.Unbounded != b.Unbounded {
		return a.Unbounded
	}
	if a.Latency != b.Latency {
		return a.Latency > b.Latency
	}
	return a.Sent.Total() > b.Sent.Total()
}

func (k *Kernel[L, M]) synchronousFrom(e *expander[L, M], initial []byte) SyncRun {
	run := SyncRun{Initial: initial}
	e.load(run.Initial)
	run.Arrangement = k.layouts[e.cur.lay].ids
	e.sync()
	n, nt := k.n, len(k.timers)
	armedAt := make([]int, n*nt) // round the timer was armed in
	seen := map[string]bool{}
	// Unordered channels: the elements in flight per channel in the order
	// sent (e.sendLog), so that the schedule is the FIFO one.
	var sentOrder [][]string
	if k.shape.unordered {
		sentOrder = make([][]string, n*n)
		e.logSends, e.sendLog = true, e.sendLog[:0]
		defer func() { e.logSends = false }()
	}
	round := 0
	run.Rounds = 1
	// take commits the step just made into nxt, or reports the overflow.
	// Either way the step's round has begun.
	take := func(a Action, p int) bool {
		run.Rounds = round + 1
		if e.overflow {
			run.Overflow, run.Blocked = true, a
			return false
		}
		for _, s := range e.sendLog {
			sentOrder[s.ch] = append(sentOrder[s.ch], s.elem)
		}
		e.sendLog = e.sendLog[:0]
		for t := range k.timers {
			if k.timers[t].Armed(&e.nxt.local[p]) && !k.timers[t].Armed(&e.cur.local[p]) {
				armedAt[p*nt+t] = round
			}
		}
		state := e.encode(nil, &e.nxt)
		run.Steps = append(run.Steps, SyncStep{Round: round, Action: a, State: state, Sent: e.sent})
		run.Sent.Add(e.sent)
		run.Latency = round
		e.cur.copyFromOwn(&e.nxt)
		e.sync()
		return true
	}
	for p := 0; p < n; p++ {
		if k.layouts[e.cur.lay].initMask&(1<<p) != 0 && e.cur.alive&(1<<p) != 0 && e.canInitiate(p) {
			e.initiate(p)
			if !take(mkAction(KindInitiate, p, 0, 0), p) {
				return run
			}
		}
	}
	for {
		run.Rounds = round + 1
		if k.syncDone(e) {
			return run
		}
		// The sends counted (SendCap) only grow: the schedule repeats when
		// everything else does, so they are left out of the key.
		sent := e.cur.sent
		e.cur.sent = sendCounts{}
		key := string(e.encode(nil, &e.cur))
		e.cur.sent = sent
		for i, a := range armedAt {
			if p := i / max(nt, 1); k.timers[i%nt].Armed(&e.cur.local[p]) {
				key += string(rune(min(round-a, 2)))
			} else {
				key += "-"
			}
		}
		for ch, q := range sentOrder { // the schedule follows the order sent
			if len(q) > 0 {
				key += fmt.Sprintf("|%d:%q", ch, q)
			}
		}
		if seen[key] {
			run.Unbounded = true
			return run
		}
		seen[key] = true
		round++
		inFlight := slices.Clone(e.cur.count)
		for to := 0; to < n; to++ {
			for from := 0; from < n; from++ {
				ch := from*n + to
				for range inFlight[ch] {
					i := 0
					if k.shape.unordered {
						// The first sent of those in flight: the element
						// the FIFO schedule delivers.
						i = e.findElem(&e.cur, ch, sentOrder[ch][0])
						sentOrder[ch] = sentOrder[ch][1:]
					}
					e.deliver(from, to, i)
					if !take(mkAction(KindDeliver, from, to, i), to) {
						return run
					}
				}
			}
		}
		for p := 0; p < n; p++ {
			for t := range k.timers {
				tm := &k.timers[t]
				if e.cur.alive&(1<<p) == 0 || !tm.Armed(&e.cur.local[p]) || round < armedAt[p*nt+t]+2 ||
					!tm.Justified(e.guardAt(&e.cur, p), &e.cur.local[p]) {
					continue
				}
				e.fire(p, t)
				if !take(mkAction(KindTimeout, p, 0, t), p) {
					return run
				}
			}
		}
	}
}

// syncDone: no message in flight, and no armed timer whose guard holds.
func (k *Kernel[L, M]) syncDone(e *expander[L, M]) bool {
	if e.cur.busy != (chanSet{}) {
		return false
	}
	for p := 0; p < k.n; p++ {
		for t := range k.timers {
			tm := &k.timers[t]
			if e.cur.alive&(1<<p) != 0 && tm.Armed(&e.cur.local[p]) && tm.Justified(e.guardAt(&e.cur, p), &e.cur.local[p]) {
				return false
			}
		}
	}
	return true
}
