package model

import (
	"fmt"
	"math/bits"

	"github.com/mcheck/mcheck/internal/apart"
	"github.com/mcheck/mcheck/ts"
)

// expander generates the steps of states of one Kernel; one per goroutine.
type expander[L, M any] struct {
	k        *Kernel[L, M]
	cur, nxt world[L, M]
	// hw is the world of the handler or guard now running: at and guardAt
	// set it, and nothing else does. Ctx's calls (the env methods below)
	// read it and a handler's sends go into it; between handler calls it
	// is stale, so the kernel's own code names its world instead.
	hw    *world[L, M]
	ctx   Ctx[M]
	guard GuardCtx[M]
	// Views for the properties: of any world, and of cur and nxt for
	// step properties.
	view, before, after View[L, M]
	overflow            bool  // a send in this step went over the channel bound
	sent                Sends // what this step sent and lost
	msg                 M     // scratch for decoding
	// The kernel's numbered local states (localAt) and a memo of short
	// encodings by packed word (localNumber).
	localVals  []*localVal[L]
	localShort memo
	// Remembered effects of handlers (stepmemo.go); nil when the kernel's
	// values cannot be shared. noMemo: this expander runs every handler.
	stepMemo []stepEffect
	rec      stepRecord
	noMemo   bool
	typed    M     // scratch for typing a sent message
	dirty    []int // channels of nxt the current step changed
	// The fingerprint (fingerprint.go): the component hashes of cur, the
	// process whose local state the current step may change (-1: none),
	// and per channel the last step whose fingerprint counted it.
	h         hashes
	stepProc  int
	allTimers bool    // the current step (a tick) may change every timer
	hbDirty   bool    // the current step changed nxt's silences (heartbeat.go)
	timerOp   TimerOp // what the current step's handler asked of its timer
	chanStamp []uint32
	stamp     uint32
	scratch   []byte
	// With reducing set (ExpandReduced), per successor: the process whose
	// step it is, and whether the step changes its elected value; and the
	// processes that had a step discarded by the channel bound.
	reducing    bool
	initial     bool // emitting the initial state
	owner       []uint8
	visible     []bool
	discardedBy uint64
	cands       []candidate
	// Unordered channels (unordered.go): scratch for the elements'
	// offsets (offs; deliverOffs for Expand's walk over a channel while its
	// steps are taken), a channel's new bytes, its elements, a message.
	offs, deliverOffs []int
	chanBuf           []byte
	elemsBuf          [][]byte
	scratchMsg        M
	logSends          bool         // record the sends into channels in sendLog
	sendLog           []loggedSend // (the synchronous schedule)
	_                 apart.Pad    // workers' expanders are made one after the other
}

// env, for Ctx.
func (e *expander[L, M]) setTimer(_ int, op TimerOp) { e.timerOp = op }
func (e *expander[L, M]) n() int                     { return e.k.n }
func (e *expander[L, M]) param(name string) int      { return e.k.times.Param(name) }
func (e *expander[L, M]) idOf(p int) int             { return e.lay().ids[p] }
func (e *expander[L, M]) byID() []int                { return e.lay().byID }
func (e *expander[L, M]) posOf(id int) int           { return e.lay().posOf(id) }

// lay is the arrangement of IDs of the handler's world.
func (e *expander[L, M]) lay() *layout          { return &e.k.layouts[e.hw.lay] }
func (e *expander[L, M]) alive(p int) bool      { return e.hw.alive&(1<<p) != 0 }
func (e *expander[L, M]) next(p int, d Dir) int { return e.nextAlive(e.hw, p, d) }
func (e *expander[L, M]) suspects(p int) bool   { return e.suspectsIn(e.hw, p) }

// suspectsIn is the perfect detector's suspects(p) in w (the heartbeat
// detector's with one).
func (e *expander[L, M]) suspectsIn(w *world[L, M], p int) bool {
	el := e.k.alg.Elected(&w.local[p])
	if el == 0 {
		return true
	}
	if e.k.shape.heartbeat {
		return e.hbSuspects(w, p, el)
	}
	return !e.k.layouts[w.lay].aliveID(w.alive, el)
}

func (e *expander[L, M]) send(from, to int, m M) {
	if e.reducing {
		e.checkRingLocal(e.hw, from, to)
	}
	// Through e.typed, not &m: m's address would go through an interface
	// and escape, one allocation per message sent.
	e.typed = m
	t := e.k.msgType(&e.typed)
	e.scratch = e.k.pushElem(e.scratch[:0], &e.typed)
	e.record(to, t, e.scratch)
	e.sendElem(e.hw, from, to, t, e.scratch)
}

// sendElem is a send into w of a message of type t whose element is elem:
// the kernel's part of a send, for the handlers' sends and the remembered
// ones (stepmemo.go).
func (e *expander[L, M]) sendElem(w *world[L, M], from, to, t int, elem []byte) {
	e.sent.ByType[t]++
	e.k.countSent(w, t, 1)
	if w.alive&(1<<to) == 0 {
		e.sent.Lost++
		e.k.countSent(w, lostSlot, 1)
		return // lost: the receiver is crashed
	}
	ch := from*e.k.n + to
	e.touch(ch)
	if e.k.shape.unordered {
		e.insertElem(w, ch, elem)
		if e.logSends {
			e.sendLog = append(e.sendLog, loggedSend{ch, string(elem)})
		}
	} else {
		w.chans[ch] = append(w.chans[ch], elem...)
	}
	w.count[ch]++
	w.changedChan(ch)
	w.busy.add(ch)
	if w.count[ch] > e.k.cfg.MaxQueue {
		e.overflow = true
	}
}

func (e *expander[L, M]) pending(to int, pred func(from int, m M) bool) bool {
	if e.reducing && e.k.around != nil {
		panic("mcheck: the algorithm is RingLocal but a timer guard calls Pending: drop the RingLocal method Around")
	}
	for from := 0; from < e.k.n; from++ {
		for _, m := range e.k.chanMsgs(e.hw, from*e.k.n+to) {
			if pred(from, m) {
				return true
			}
		}
	}
	return false
}

// at points the Ctx at world w and process p.
func (e *expander[L, M]) at(w *world[L, M], p int) *Ctx[M] {
	e.hw, e.ctx.self = w, p
	e.ctx.ids, e.ctx.alive = e.k.layouts[w.lay].ids, w.alive
	return &e.ctx
}

// guardAt points the GuardCtx at world w and process p.
func (e *expander[L, M]) guardAt(w *world[L, M], p int) *GuardCtx[M] {
	e.hw, e.guard.self = w, p
	e.guard.ids, e.guard.alive = e.k.layouts[w.lay].ids, w.alive
	return &e.guard
}

// begin starts a step: nxt := cur. Only the channels the previous step
// changed are copied back (sync made nxt equal to cur for the state being
// expanded), so a step costs what it touches, not N² channel copies.
func (e *expander[L, M]) begin() {
	nxt, cur := &e.nxt, &e.cur
	for _, ch := range e.dirty {
		nxt.copyChan(cur, ch)
		nxt.busy.setTo(ch, cur.count[ch] > 0)
		nxt.decoded.remove(ch)
		nxt.changed.remove(ch) // cur's again
	}
	e.dirty = e.dirty[:0]
	nxt.head = cur.head
	// A step changes the record and timer of its own process only
	// (handlers get no other local state), so that one is all there is to
	// put back; a tick changes every timer and no local state.
	if p := e.stepProc; p >= 0 {
		nxt.copyProc(cur, p)
	}
	if e.allTimers {
		copy(nxt.timer, cur.timer)
		e.allTimers = false
	}
	if e.hbDirty {
		copy(nxt.hb, cur.hb)
		e.hbDirty = false
	}
	e.overflow = false
	e.sent = Sends{}
	e.stepProc = -1
	e.timerOp = TimerKeep
}

// sync makes nxt a full copy of cur, once per expanded state.
func (e *expander[L, M]) sync() {
	e.nxt.copyFrom(&e.cur)
	e.nxt.twin = &e.cur
	e.dirty = e.dirty[:0]
	e.stepProc = -1
	e.allTimers = false
	e.hbDirty = false
}

// touch records that a step changes channel ch of nxt.
func (e *expander[L, M]) touch(ch int) { e.dirty = append(e.dirty, ch) }

// Initial implements Expander.
// Implements Expander: one initial state per arrangement of IDs, whose
// action is the arrangement's index.
func (e *expander[L, M]) Initial(out *Batch) {
	out.Reset()
	k, w := e.k, &e.nxt
	w.twin = nil
	for i := range k.layouts {
		k.initial(w, i)
		if k.cfg.InitialLeader { // InitLeader's local states; resetProc numbered the others
			for p := range w.local {
				e.settle(w, p)
			}
		}
		e.overflow, e.sent = false, Sends{}
		e.initial = true
		e.emit(out, Action(i), NoFairness)
		e.initial = false
	}
}

// Expand implements Expander: every enabled step, in a fixed order.
func (e *expander[L, M]) Expand(state []byte, out *Batch) {
	out.Reset()
	k, cur := e.k, e.load(state)
	if !out.NoStateProps {
		out.Props = e.askedProps(cur, false, out.StatePropsOnly) | k.stepMask
	}
	e.owner, e.visible, e.discardedBy = e.owner[:0], e.visible[:0], 0
	e.sync()
	n, timed := k.n, k.shape.timed
	for ch := range cur.busy.all() {
		from, to := ch/n, ch%n
		if k.shape.unordered {
			// Any element, one step per distinct one; the action names
			// it by its index.
			e.distinctElems(cur, ch, func(i, off int) {
				if timed && cur.chans[ch][off] == 0 {
					return // an age of 0
				}
				e.deliver(from, to, i)
				e.emit(out, mkAction(KindDeliver, from, to, i), k.classDeliver(from, to))
			})
			continue
		}
		if timed && cur.headAge(ch) == 0 {
			continue // section 6: a message is delivered 1 tick or more after it was sent
		}
		e.deliver(from, to, 0)
		e.emit(out, mkAction(KindDeliver, from, to, 0), k.classDeliver(from, to))
	}
	unreliable := k.cfg.Detector == Unreliable
	// The eventual detector's: before gst, with budget left.
	suspicious := unreliable || k.eventual && cur.gst&gstTrue == 0 && cur.gst < k.suspectBelow
	for p := 0; p < n; p++ {
		if cur.alive&(1<<p) == 0 {
			if cur.restarts < k.cfg.MaxRestarts {
				e.restart(p)
				e.emit(out, mkAction(KindRestart, p, 0, 0), NoFairness)
			}
			continue
		}
		if k.layouts[cur.lay].initMask&(1<<p) != 0 {
			if e.canInitiate(p) {
				e.initiate(p)
				e.emit(out, mkAction(KindInitiate, p, 0, 0), e.initiateClass(p))
			}
			if suspicious && e.falselySuspects(p) && k.alg.CanInitiate(e.at(cur, p), &cur.local[p], true) {
				e.suspect(p)
				e.emit(out, mkAction(KindSuspect, p, 0, 0), NoFairness)
			}
		}
		for t := range k.timers {
			tm := &k.timers[t]
			if !tm.Armed(&cur.local[p]) {
				continue
			}
			if timed {
				// The timer is the only guard (section 6); no early timeouts.
				if cur.timer[p] == expired {
					e.fire(p, t)
					e.emit(out, mkAction(KindTimeout, p, 0, t), k.classTimer(p, t))
				}
				continue
			}
			fair := NoFairness
			if tm.Justified(e.guardAt(cur, p), &cur.local[p]) {
				fair = k.classTimer(p, t)
				e.fire(p, t)
				e.emit(out, mkAction(KindTimeout, p, 0, t), fair)
			}
			if unreliable {
				e.fire(p, t)
				e.emit(out, mkAction(KindEarlyTimeout, p, 0, t), fair)
			}
		}
		if cur.crashes < k.cfg.MaxCrashes && cur.alive&^(1<<p) != 0 {
			e.crash(p)
			e.emit(out, mkAction(KindCrash, p, 0, 0), NoFairness)
		}
	}
	if k.shape.heartbeat {
		e.expandHB(out)
	}
	if timed {
		if e.canTick() {
			e.tick()
			e.emit(out, mkAction(KindTick, 0, 0, 0), k.fair.class(famTick, 0))
		}
		if k.shape.partial && cur.gst&gstTrue == 0 {
			e.stabilise()
			e.emit(out, mkAction(KindGST, 0, 0, 0), k.fair.class(famGST, 0))
		}
	}
}

// apply takes the step a from cur into nxt; a must be enabled in cur. It
// is what Expand does for that step, so a lazily expanded successor can be
// computed again (Materialize).
func (e *expander[L, M]) apply(a Action) {
	switch p := a.P(); a.Kind() {
	case KindDeliver:
		e.deliver(p, a.Q(), a.Timer())
	case KindInitiate:
		e.initiate(p)
	case KindSuspect:
		e.suspect(p)
	case KindTimeout, KindEarlyTimeout:
		e.fire(p, a.Timer())
	case KindRestart:
		e.restart(p)
	case KindCrash:
		e.crash(p)
	case KindTick:
		e.tick()
	case KindGST:
		e.stabilise()
	case KindHeartbeat:
		e.heartbeat(p, a.Q())
	}
}

// deliver, initiate, fire, restart and crash take a step from cur into
// nxt: deliver(from→to) of element i (chan(from,to) has more than i; i is
// 0, the head, but with unordered channels), initiate(p), timer t of p,
// restart(p) (p down), crash(p) (p live).
func (e *expander[L, M]) deliver(from, to, i int) {
	e.begin()
	e.stepProc = to
	ch := from*e.k.n + to
	e.touch(ch)
	q := e.nxt.chans[ch]
	at := 0
	if i > 0 {
		at = e.elemAt(q, e.nxt.count[ch], i)
	}
	// e.msg, not a local: its address goes through an interface and would
	// escape, one allocation per message.
	rest := e.k.nextElem(q[at:], &e.msg)
	head := e.k.headKey(q[at:], rest)
	if at == 0 {
		e.nxt.chans[ch] = rest // a view (copyChan)
	} else {
		e.removeElem(&e.nxt, ch, q, at, len(q)-len(rest))
	}
	e.nxt.changedChan(ch)
	if e.nxt.count[ch]--; e.nxt.count[ch] == 0 {
		e.nxt.busy.remove(ch)
	}
	c := e.at(&e.nxt, to)
	if !e.recall(stepDeliver, from, to, head) {
		e.k.alg.Receive(c, &e.nxt.local[to], from, e.msg)
		e.handled(to)
	}
	if e.k.shape.timers {
		e.rearm(to, -1, false)
	}
}

func (e *expander[L, M]) initiate(p int) {
	e.begin()
	e.stepProc = p
	c := e.at(&e.nxt, p)
	if !e.recall(stepInitiate, 0, p, 0) {
		e.k.alg.Initiate(c, &e.nxt.local[p])
		e.handled(p)
	}
	if e.k.shape.timers {
		e.rearm(p, -1, false)
	}
}

func (e *expander[L, M]) fire(p, t int) {
	e.begin()
	e.stepProc = p
	c := e.at(&e.nxt, p)
	if !e.recall(stepFire, t, p, 0) {
		e.k.timers[t].Fire(c, &e.nxt.local[p])
		e.handled(p)
	}
	if e.k.shape.timers {
		e.rearm(p, t, false)
	}
}

func (e *expander[L, M]) restart(p int) {
	e.begin()
	e.stepProc = p
	k, nxt := e.k, &e.nxt
	nxt.alive |= 1 << p
	k.resetProc(nxt, p)
	nxt.restarts++
	if k.restart != nil {
		k.restart.OnRestart(e.at(nxt, p), &nxt.local[p])
		e.settle(nxt, p)
	}
	if k.shape.timers {
		e.rearm(p, -1, true) // a restarted process's timer starts afresh, as in the initial state
	}
}

// crash(p): p's local state is reset and the messages on their way to it
// are lost.
func (e *expander[L, M]) crash(p int) {
	e.begin()
	e.stepProc = p
	n, nxt := e.k.n, &e.nxt
	nxt.alive &^= 1 << p
	e.k.resetProc(nxt, p)
	for from := 0; from < n; from++ {
		if ch := from*n + p; nxt.count[ch] > 0 {
			e.sent.Lost += uint16(nxt.count[ch])
			e.k.countSent(nxt, lostSlot, nxt.count[ch])
			e.touch(ch)
			nxt.clearChan(ch)
			nxt.changedChan(ch)
		}
	}
	nxt.crashes++
	if e.k.shape.heartbeat {
		e.hbCrash(p)
	}
}

// expired is a timer's byte at countdown 0.
const expired = 1

// rearm keeps process p's timer after a step of p in a kernel with timers
// (shape.timers; the callers ask, a call per step cost the untimed path):
// off when no timer is armed after the step or the handler stopped it;
// set to the duration of the armed timer when the step changed which timer
// is armed, was that timer's own timeout (fired), restarted the process
// (fresh) or asked for it (Ctx.RestartTimer); otherwise unchanged.
func (e *expander[L, M]) rearm(p, fired int, fresh bool) {
	k := e.k
	after := k.armedTimer(&e.nxt.local[p], p)
	switch {
	case after < 0 || e.timerOp == TimerStop:
		e.nxt.timer[p] = timerOff
	case e.timerOp == TimerRestart || after == fired || fresh || after != k.armedTimer(&e.cur.local[p], p):
		e.nxt.timer[p] = k.timerStart[after]
	}
}

// Readings of section 6 where its text leaves a choice (the literal one;
// docs/semantics.md states each in a Reading paragraph of section 6):
//   - Bully's timeouts are fair whenever enabled: section 2 makes the
//     justified ones fair, and in a timed mode the timer is the only guard.
//   - Before gst a tick with every message late and no timer running is a
//     self-loop: a transition (section 4 counts self-loops) of the fair
//     class tick; a cycle of them is unfair, gst being enabled throughout.
//   - An age is min(ticks since sent, D): the state holds the capped value
//     ("the rules below, not this sentence, decide").
//   - A timer "set when a step sets status := electing": no step of Bully
//     sets electing while electing, so the kernel's rule (Timer: set when
//     the armed timer changes) is the contract's; a timeout that leaves
//     its own timer armed (never in Bully) starts it again.

// canTick is tick's guard (section 6): (a) no timer at 0, (b) no message
// of age D (dropped with partial timing before gst), (c) a message in
// flight or a timer running.
func (e *expander[L, M]) canTick() bool {
	k, cur := e.k, &e.cur
	running := false
	for _, t := range cur.timer {
		if t == expired {
			return false
		}
		running = running || t != timerOff
	}
	grows, due := false, false
	if k.shape.heartbeat {
		grows, due = e.hbTickGuard()
	}
	if !running && !grows && cur.busy == (chanSet{}) {
		return false
	}
	if k.shape.partial && cur.gst&gstTrue == 0 {
		return true
	}
	if due {
		return false
	}
	for ch := range cur.busy.all() {
		oldest := 0
		if k.shape.unordered {
			oldest = e.oldestAge(cur, ch)
		} else {
			oldest = cur.headAge(ch) // the head is a channel's oldest
		}
		if oldest == k.cfg.Delay {
			return false
		}
	}
	return true
}

// tick: every message's age becomes min(age+1, D), every running timer
// counts down by one (none is at 0: canTick).
func (e *expander[L, M]) tick() {
	e.begin()
	nxt := &e.nxt
	for ch := range nxt.busy.all() {
		e.touch(ch)
		e.ageChan(nxt, ch)
		if e.k.shape.unordered {
			e.sortChan(nxt, ch)
		}
		nxt.changedChan(ch)
	}
	for p, t := range nxt.timer {
		if t != timerOff {
			nxt.timer[p] = t - 1
		}
	}
	e.allTimers = true
	if e.k.shape.heartbeat {
		e.hbTick()
	}
}

// stabilise is the gst step: gst := true, and the false suspicions used
// are forgotten (none can follow).
func (e *expander[L, M]) stabilise() {
	e.begin()
	e.nxt.gst = gstTrue
}

// suspect(p) is a false suspicion: initiate(p), counted against the
// eventual detector's budget.
func (e *expander[L, M]) suspect(p int) {
	e.initiate(p)
	if e.k.eventual {
		e.nxt.gst += suspicionUnit
	}
}

// canInitiate is the guard of initiate(p) in cur (perfect-detector
// suspicion), for a live initiator p.
func (e *expander[L, M]) canInitiate(p int) bool {
	return e.k.alg.CanInitiate(e.at(&e.cur, p), &e.cur.local[p], e.suspectsIn(&e.cur, p))
}

// initiateClass is the fairness class of initiate(p): none when the
// incomplete detector need never report the crash of p's leader.
func (e *expander[L, M]) initiateClass(p int) int32 {
	k := e.k
	if k.cfg.Detector == Incomplete && k.alg.Elected(&e.cur.local[p]) != 0 {
		if e.suspectsIn(&e.cur, p) {
			return NoFairness
		}
	}
	return k.classInitiate(p)
}

// falselySuspects is the extra guard of the unreliable detector's suspect(p):
// p has a leader other than itself, and that leader is live, so the
// perfect detector would not suspect it.
func (e *expander[L, M]) falselySuspects(p int) bool {
	return !e.suspectsIn(&e.cur, p) && e.k.alg.Elected(&e.cur.local[p]) != e.k.layouts[e.cur.lay].ids[p]
}

// emit records nxt as a successor, or counts it as discarded when a channel
// went over the bound.
func (e *expander[L, M]) emit(out *Batch, a Action, fair int32) {
	if e.reducing {
		owner := a.P()
		if a.Kind() == KindDeliver {
			owner = a.Q()
		}
		if e.overflow {
			e.discardedBy |= 1 << owner
		} else {
			e.owner = append(e.owner, uint8(owner))
			e.visible = append(e.visible, e.nxt.alive != e.cur.alive ||
				e.k.alg.Elected(&e.nxt.local[owner]) != e.k.alg.Elected(&e.cur.local[owner]))
		}
	}
	if e.overflow {
		out.Discarded++
		if fair != NoFairness {
			out.DiscardedFair++
		}
		return
	}
	var fp, steps uint64
	if e.initial {
		fp = e.fingerprint(&e.nxt)
	} else {
		fp = e.succFP()
	}
	if e.k.stepMask != 0 {
		steps = e.steps(a)
	}
	if out.Lazy {
		out.CommitLazy(ts.Action(a), fair, fp, steps, e.sent)
	} else {
		buf := e.encode(out.Tail(), &e.nxt)
		out.Commit(buf, ts.Action(a), fair, fp, e.askedProps(&e.nxt, out.NoSuccProps, out.SuccPropsOnly)|steps, e.sent)
	}
	// A crash counts crashes up and a restart restarts, and no step counts
	// either down: no cycle goes through them.
	if k := a.Kind(); k == KindCrash || k == KindRestart {
		out.Succs[len(out.Succs)-1].Acyclic = true
	}
}

// Materialize implements ts.LazyExpander: the step is taken again from
// cur, which the last expansion left loaded.
func (e *expander[L, M]) Materialize(out *Batch, i int) {
	e.apply(Action(out.Succs[i].Action))
	out.Fill(i, e.encode(out.Tail(), &e.nxt), e.askedProps(&e.nxt, out.NoSuccProps, out.SuccPropsOnly))
}

// props evaluates the state predicates in w; step bits are 0.
func (e *expander[L, M]) props(w *world[L, M]) uint64 {
	return e.propsOf(w, 1<<len(e.k.props)-1)
}

// askedProps evaluates the state predicates a Batch asks for in w: none,
// those of only, or (only 0) all.
func (e *expander[L, M]) askedProps(w *world[L, M], none bool, only uint64) uint64 {
	switch {
	case none:
		return 0
	case only != 0:
		return e.propsOf(w, only)
	}
	return e.props(w)
}

// propsOf evaluates the state predicates of mask in w; the other bits are 0.
func (e *expander[L, M]) propsOf(w *world[L, M], mask uint64) uint64 {
	e.view.w = w
	var holds uint64
	for m := mask &^ e.k.stepMask; m != 0; m &= m - 1 {
		if i := bits.TrailingZeros64(m); i < len(e.k.props) && e.k.props[i].Holds(&e.view) {
			holds |= 1 << i
		}
	}
	return holds
}

// steps evaluates the step predicates on the step a from cur to nxt (all
// hold for the initial state, which no step leads to).
func (e *expander[L, M]) steps(a Action) uint64 {
	if e.initial {
		return e.k.stepMask
	}
	var bits uint64
	for i := range e.k.props {
		p := &e.k.props[i]
		if p.Kind != StepProperty {
			continue
		}
		if p.Step(&e.before, a, &e.after) {
			bits |= 1 << i
		}
		if e.k.triggered.Load()&(1<<i) == 0 && (p.When == nil || p.When(&e.before, a, &e.after)) {
			e.k.triggered.Or(1 << i)
		}
	}
	return bits
}

// decodeChan appends the messages of channel b to dst, head first.
func (k *Kernel[L, M]) decodeChan(dst []M, b []byte, count int) []M {
	var zero M
	// count messages, not "until the bytes end": a message may encode to
	// no bytes at all.
	for range count {
		// Into dst itself: a local's address would go through the codec
		// interface and escape, an allocation per message.
		dst = append(dst, zero)
		b = k.nextElem(b, &dst[len(dst)-1])
	}
	if len(b) != 0 {
		panic(fmt.Sprintf("mcheck: internal error: %d bytes after a channel's %d messages", len(b), count))
	}
	return dst
}

// chanMsgs is the messages of channel ch of w, head first, decoded once
// until the channel changes; valid until then.
func (k *Kernel[L, M]) chanMsgs(w *world[L, M], ch int) []M {
	if w.count[ch] == 0 {
		return nil
	}
	if !w.decoded.has(ch) {
		k.decodeMsgs(w, ch)
	}
	return w.msgs[ch]
}

// decodeMsgs fills chanMsgs' cache for channel ch of w, from its twin's
// when the channel is still the twin's.
func (k *Kernel[L, M]) decodeMsgs(w *world[L, M], ch int) {
	if t := w.twin; t != nil && !w.changed.has(ch) {
		w.msgs[ch] = append(w.msgs[ch][:0], k.chanMsgs(t, ch)...)
	} else {
		w.msgs[ch] = k.decodeChan(w.msgs[ch][:0], w.chans[ch], w.count[ch])
	}
	w.decoded.add(ch)
}

func (e *expander[L, M]) load(state []byte) *world[L, M] {
	e.nxt.twin = nil // cur is no longer what nxt was copied from
	if err := e.decode(state, &e.cur, &e.h); err != nil {
		panic(fmt.Sprintf("mcheck: internal error: stored state does not decode: %v", err))
	}
	return &e.cur
}

// View implements Viewer.
func (e *expander[L, M]) View(state []byte) Procs {
	w := e.load(state)
	v := Procs{N: e.k.n, Alive: w.alive}
	copy(v.ID[:], e.k.layouts[w.lay].ids)
	for p := range w.local {
		v.Elected[p] = e.k.alg.Elected(&w.local[p])
	}
	return v
}

// Label implements Expander: the step rendered from its data.
func (e *expander[L, M]) Label(state []byte, ta ts.Action) string {
	if a := Action(ta); a.Kind() > KindGST && !(a.Kind() == KindHeartbeat && e.k.shape.heartbeat) {
		return fmt.Sprintf("action %#x", uint32(a))
	}
	return e.Step(state, ta).String()
}

// Step implements Expander: the step a takes from state, as data.
func (e *expander[L, M]) Step(state []byte, ta ts.Action) StepInfo {
	k, a := e.k, Action(ta)
	p := a.P()
	w := e.load(state)
	lay := &k.layouts[w.lay]
	s := StepInfo{Kind: a.Kind(), Action: a.Kind().String(), Process: lay.ids[p], Alias: lay.alias(p)}
	switch a.Kind() {
	case KindDeliver:
		s.Process, s.Alias = lay.ids[a.Q()], lay.alias(a.Q())
		s.Peer, s.PeerAlias = lay.ids[p], lay.alias(p)
		if ch := p*k.n + a.Q(); w.count[ch] > a.Timer() {
			q := w.chans[ch]
			k.nextElem(q[e.elemAt(q, w.count[ch], a.Timer()):], &e.msg)
			m := k.elemValue(e.msg)
			s.Msg = &m
		}
	case KindInitiate:
		s.Action = k.initName
	case KindTimeout:
		s.Timer = k.timers[a.Timer()].Name
		s.Action = s.Timer
	case KindEarlyTimeout:
		s.Timer = k.timers[a.Timer()].Name
		s.Action = "early-" + s.Timer
	case KindTick, KindGST:
		s.Process, s.Alias = 0, "" // a step of no process
	case KindHeartbeat:
		s.Process, s.Alias = lay.ids[a.Q()], lay.alias(a.Q())
		s.Peer, s.PeerAlias = lay.ids[p], lay.alias(p)
	}
	return s
}

// Sends implements Sender: the step a takes from state again, with the
// handlers' sends going through a recorder (the search's path has no
// recording to check for).
func (e *expander[L, M]) Sends(state []byte, ta ts.Action) []Send {
	e.load(state)
	e.sync()
	r := &recorder[L, M]{expander: e, out: []Send{}}
	was := e.noMemo
	e.ctx.env, e.noMemo = r, true // every handler runs, to be recorded
	defer func() { e.ctx.env, e.noMemo = e, was }()
	e.apply(Action(ta))
	return r.out
}

// recorder is the expander as the handlers' env, recording each send as
// data before the expander takes it.
type recorder[L, M any] struct {
	*expander[L, M]
	out []Send
}

func (r *recorder[L, M]) send(from, to int, m M) {
	lay := r.lay()
	r.out = append(r.out, Send{From: lay.ids[from], To: lay.ids[to], FromAlias: lay.alias(from), ToAlias: lay.alias(to),
		Msg: r.k.elemValue(m), Lost: !r.alive(to)})
	r.expander.send(from, to, m)
}

// Snapshot implements Expander.
func (e *expander[L, M]) Snapshot(state []byte) Snapshot {
	w := e.load(state)
	snap := Snapshot{Channels: []ChannelSnapshot{}}
	w.head.snapshot(&snap, e.k.shape, e.k.types)
	for p := range w.local {
		snap.Processes = append(snap.Processes, e.procSnapshot(w, p))
	}
	for ch := range w.busy.all() {
		snap.Channels = append(snap.Channels, e.k.chanSnapshot(w, ch))
	}
	return snap
}

// Fields implements Expander.
func (e *expander[L, M]) Fields(state []byte) []Field { return e.Snapshot(state).Fields() }

// Describe implements Expander.
func (e *expander[L, M]) Describe(state []byte) string { return e.Snapshot(state).String() }

func (e *expander[L, M]) localFields(w *world[L, M], p int) []Field {
	l := &w.local[p]
	if e.k.format != nil {
		return e.k.format.FormatLocal(e.at(w, p), l)
	}
	return reflectLocal(*l)
}
