package model

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/mcheck/mcheck/ts"
)

// world is a decoded global state. Expanders keep two and reuse their memory
// from state to state: cur (the state being expanded) and nxt (a successor).
//
// Channels stay encoded: a channel is its messages' encodings back to back,
// head first, as the state's encoding holds them. A message is decoded when
// it is delivered (or a guard or property looks at it), and encoded once,
// when it is sent; loading a state, hashing a channel and encoding a state
// copy bytes instead of going through the codec message by message.
type world[L, M any] struct {
	alive uint64
	local []L
	chans [][]byte // chan(p,q) at p*N+q
	count []int    // messages in each channel
	busy  chanSet  // the non-empty channels
	// msgs caches the decoded messages of the channels in decoded, for
	// guards and properties that look at channels (chanMsgs): a property
	// that reads every channel of every successor would otherwise decode
	// N² channels a transition. Whatever changes a channel drops it. A
	// successor (nxt) has cur as its twin: the channels a step has not
	// changed since sync are cur's, decoded once for all the successors.
	msgs     [][]M
	decoded  chanSet
	twin     *world[L, M]
	changed  chanSet // since the copy from twin
	crashes  int
	restarts int
	lay      int // the arrangement of IDs (Kernel.layouts)
}

func (w *world[L, M]) init(n int) {
	w.local = make([]L, n)
	w.chans = make([][]byte, n*n)
	w.count = make([]int, n*n)
	w.msgs = make([][]M, n*n)
}

// changedChan records that channel ch changed.
func (w *world[L, M]) changedChan(ch int) {
	w.decoded.remove(ch)
	w.changed.add(ch)
}

func (w *world[L, M]) copyFrom(src *world[L, M]) {
	w.alive, w.crashes, w.restarts, w.lay = src.alive, src.crashes, src.restarts, src.lay
	copy(w.local, src.local)
	for ch := range w.busy.union(src.busy).all() {
		w.chans[ch] = append(w.chans[ch][:0], src.chans[ch]...)
		w.count[ch] = src.count[ch]
	}
	w.busy, w.decoded, w.changed = src.busy, chanSet{}, chanSet{}
}

// expander generates the steps of states of one Kernel; one per goroutine.
type expander[L, M any] struct {
	k        *Kernel[L, M]
	cur, nxt world[L, M]
	w        *world[L, M] // the world that Ctx reads and changes
	ctx      Ctx[M]
	guard    GuardCtx[M]
	// Views for the properties: of any world, and of cur and nxt for
	// step properties.
	view, before, after View[L, M]
	overflow            bool  // a send in this step went over the channel bound
	sent                Sends // what this step sent and lost
	msg                 M     // scratch for decoding
	typed               M     // scratch for typing a sent message
	dirty               []int // channels of nxt the current step changed
	// The fingerprint (fingerprint.go): the component hashes of cur, the
	// process whose local state the current step may change (-1: none),
	// and per channel the last step whose fingerprint counted it.
	h         hashes
	stepProc  int
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
}

// env, for Ctx.
func (e *expander[L, M]) n() int           { return e.k.n }
func (e *expander[L, M]) idOf(p int) int   { return e.lay().ids[p] }
func (e *expander[L, M]) byID() []int      { return e.lay().byID }
func (e *expander[L, M]) posOf(id int) int { return e.lay().posOf(id) }

// lay is the arrangement of IDs of the world that Ctx reads.
func (e *expander[L, M]) lay() *layout          { return &e.k.layouts[e.w.lay] }
func (e *expander[L, M]) alive(p int) bool      { return e.w.alive&(1<<p) != 0 }
func (e *expander[L, M]) next(p int, d Dir) int { return e.nextAlive(e.w, p, d) }

func (e *expander[L, M]) suspects(p int) bool {
	el := e.k.alg.Elected(&e.w.local[p])
	if el == 0 {
		return true
	}
	return !e.lay().aliveID(e.w.alive, el)
}

func (e *expander[L, M]) send(from, to int, m M) {
	if e.reducing {
		e.checkRingLocal(from, to)
	}
	// Through e.typed, not &m: m's address would go through an interface
	// and escape, one allocation per message sent.
	e.typed = m
	e.sent.ByType[e.k.msgType(&e.typed)]++
	if !e.alive(to) {
		e.sent.Lost++
		return // lost: the receiver is crashed
	}
	ch := from*e.k.n + to
	e.touch(ch)
	e.w.chans[ch] = e.k.codec.AppendMsg(e.w.chans[ch], &e.typed)
	e.w.count[ch]++
	e.w.changedChan(ch)
	e.w.busy.add(ch)
	if e.w.count[ch] > e.k.cfg.MaxQueue {
		e.overflow = true
	}
}

func (e *expander[L, M]) pending(to int, pred func(from int, m M) bool) bool {
	if e.reducing && e.k.around != nil {
		panic("mcheck: the algorithm is RingLocal but a timer guard calls Pending: drop the RingLocal method Around")
	}
	for from := 0; from < e.k.n; from++ {
		for _, m := range e.k.chanMsgs(e.w, from*e.k.n+to) {
			if pred(from, m) {
				return true
			}
		}
	}
	return false
}

// at points the Ctx at world w and process p.
func (e *expander[L, M]) at(w *world[L, M], p int) *Ctx[M] {
	e.w, e.ctx.self = w, p
	e.ctx.ids, e.ctx.alive = e.k.layouts[w.lay].ids, w.alive
	return &e.ctx
}

// guardAt points the GuardCtx at world w and process p.
func (e *expander[L, M]) guardAt(w *world[L, M], p int) *GuardCtx[M] {
	e.w, e.guard.self = w, p
	e.guard.ids, e.guard.alive = e.k.layouts[w.lay].ids, w.alive
	return &e.guard
}

// begin starts a step: nxt := cur. Only the channels the previous step
// changed are copied back (sync made nxt equal to cur for the state being
// expanded), so a step costs what it touches, not N² channel copies.
func (e *expander[L, M]) begin() {
	nxt, cur := &e.nxt, &e.cur
	for _, ch := range e.dirty {
		nxt.chans[ch] = append(nxt.chans[ch][:0], cur.chans[ch]...)
		nxt.count[ch] = cur.count[ch]
		nxt.busy.setTo(ch, cur.count[ch] > 0)
		nxt.decoded.remove(ch)
		nxt.changed.remove(ch) // cur's again
	}
	e.dirty = e.dirty[:0]
	nxt.alive, nxt.crashes, nxt.restarts, nxt.lay = cur.alive, cur.crashes, cur.restarts, cur.lay
	// A step changes the local state of its own process only (handlers get
	// no other), so that one is all there is to put back.
	if p := e.stepProc; p >= 0 {
		nxt.local[p] = cur.local[p]
	}
	e.overflow = false
	e.sent = Sends{}
	e.stepProc = -1
}

// sync makes nxt a full copy of cur, once per expanded state.
func (e *expander[L, M]) sync() {
	e.nxt.copyFrom(&e.cur)
	e.nxt.twin = &e.cur
	e.dirty = e.dirty[:0]
	e.stepProc = -1
}

// touch records that a step changes channel ch of nxt.
func (e *expander[L, M]) touch(ch int) { e.dirty = append(e.dirty, ch) }

// Initial implements Expander.
// Implements Expander: one initial state per arrangement of IDs, whose
// action is the arrangement's index.
func (e *expander[L, M]) Initial(out *Batch) {
	out.Reset()
	k, w := e.k, &e.nxt
	e.w, w.twin = w, nil
	for i := range k.layouts {
		lay := &k.layouts[i]
		w.alive, w.crashes, w.restarts, w.lay = 1<<k.n-1, 0, 0, i
		w.alive &^= lay.down
		maxID := slices.Max(lay.ids)
		for p := range w.local {
			if k.cfg.InitialLeader && w.alive&(1<<p) != 0 {
				w.local[p] = k.leader.InitLeader(maxID)
			} else {
				w.local[p] = k.alg.Init()
			}
		}
		for i := range w.chans {
			w.chans[i], w.count[i] = w.chans[i][:0], 0
		}
		w.busy, w.decoded = chanSet{}, chanSet{}
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
	n := k.n
	for ch := range cur.busy.all() {
		from, to := ch/n, ch%n
		e.deliver(from, to)
		e.emit(out, mkAction(KindDeliver, from, to, 0), k.classDeliver(from, to))
	}
	unreliable := k.cfg.Detector == Unreliable
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
			if unreliable && e.falselySuspects(p) && k.alg.CanInitiate(e.at(cur, p), &cur.local[p], true) {
				e.initiate(p)
				e.emit(out, mkAction(KindSuspect, p, 0, 0), NoFairness)
			}
		}
		for t := range k.timers {
			tm := &k.timers[t]
			if !tm.Armed(&cur.local[p]) {
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
}

// apply takes the step a from cur into nxt; a must be enabled in cur. It
// is what Expand does for that step, so a lazily expanded successor can be
// computed again (Materialize).
func (e *expander[L, M]) apply(a Action) {
	switch p := a.P(); a.Kind() {
	case KindDeliver:
		e.deliver(p, a.Q())
	case KindInitiate, KindSuspect:
		e.initiate(p)
	case KindTimeout, KindEarlyTimeout:
		e.fire(p, a.Timer())
	case KindRestart:
		e.restart(p)
	case KindCrash:
		e.crash(p)
	}
}

// deliver, initiate, fire, restart and crash take a step from cur into
// nxt: deliver(from→to) (chan(from,to) non-empty), initiate(p), timer t of
// p, restart(p) (p down), crash(p) (p live).
func (e *expander[L, M]) deliver(from, to int) {
	e.begin()
	e.stepProc = to
	ch := from*e.k.n + to
	e.touch(ch)
	q := e.nxt.chans[ch]
	// e.msg, not a local: its address goes through an interface and would
	// escape, one allocation per message.
	rest := e.k.decodeMsg(q, &e.msg)
	e.nxt.chans[ch] = q[:copy(q, rest)]
	e.nxt.changedChan(ch)
	if e.nxt.count[ch]--; e.nxt.count[ch] == 0 {
		e.nxt.busy.remove(ch)
	}
	e.k.alg.Receive(e.at(&e.nxt, to), &e.nxt.local[to], from, e.msg)
}

func (e *expander[L, M]) initiate(p int) {
	e.begin()
	e.stepProc = p
	e.k.alg.Initiate(e.at(&e.nxt, p), &e.nxt.local[p])
}

func (e *expander[L, M]) fire(p, t int) {
	e.begin()
	e.stepProc = p
	e.k.timers[t].Fire(e.at(&e.nxt, p), &e.nxt.local[p])
}

func (e *expander[L, M]) restart(p int) {
	e.begin()
	e.stepProc = p
	k, nxt := e.k, &e.nxt
	nxt.alive |= 1 << p
	nxt.local[p] = k.alg.Init()
	nxt.restarts++
	if k.restart != nil {
		k.restart.OnRestart(e.at(nxt, p), &nxt.local[p])
	}
}

// crash(p): p's local state is reset and the messages on their way to it
// are lost.
func (e *expander[L, M]) crash(p int) {
	e.begin()
	e.stepProc = p
	n, nxt := e.k.n, &e.nxt
	nxt.alive &^= 1 << p
	nxt.local[p] = e.k.alg.Init()
	for from := 0; from < n; from++ {
		if ch := from*n + p; nxt.count[ch] > 0 {
			e.sent.Lost += uint16(nxt.count[ch])
			e.touch(ch)
			nxt.chans[ch], nxt.count[ch] = nxt.chans[ch][:0], 0
			nxt.busy.remove(ch)
			nxt.changedChan(ch)
		}
	}
	nxt.crashes++
}

// canInitiate is the guard of initiate(p) in cur (perfect-detector
// suspicion), for a live initiator p.
func (e *expander[L, M]) canInitiate(p int) bool {
	return e.k.alg.CanInitiate(e.at(&e.cur, p), &e.cur.local[p], e.suspects(p))
}

// initiateClass is the fairness class of initiate(p): none when the
// incomplete detector need never report the crash of p's leader.
func (e *expander[L, M]) initiateClass(p int) int32 {
	k := e.k
	if k.cfg.Detector == Incomplete && k.alg.Elected(&e.cur.local[p]) != 0 {
		e.w = &e.cur
		if e.suspects(p) {
			return NoFairness
		}
	}
	return k.classInitiate(p)
}

// falselySuspects is the extra guard of the unreliable detector's suspect(p):
// p has a leader other than itself, and that leader is live, so the
// perfect detector would not suspect it.
func (e *expander[L, M]) falselySuspects(p int) bool {
	e.w = &e.cur
	return !e.suspects(p) && e.k.alg.Elected(&e.cur.local[p]) != e.k.layouts[e.cur.lay].ids[p]
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

// succFP is the fingerprint of nxt, a successor of cur: cur's, plus the
// differences of the header, the step's process and the channels the step
// touched.
func (e *expander[L, M]) succFP() uint64 {
	nxt, h := &e.nxt, &e.h
	fp, cur := h.fp, &e.cur
	if nxt.alive != cur.alive || nxt.crashes != cur.crashes || nxt.restarts != cur.restarts || nxt.lay != cur.lay {
		fp += hashHead(nxt.lay, nxt.crashes, nxt.restarts, nxt.alive) - h.head
	}
	if p := e.stepProc; p >= 0 {
		e.scratch = e.k.codec.AppendLocal(e.scratch[:0], &nxt.local[p])
		fp += e.k.keys.hashLocal(p, e.scratch) - h.local[p]
	}
	if e.stamp++; e.stamp == 0 {
		clear(e.chanStamp)
		e.stamp = 1
	}
	for _, ch := range e.dirty {
		if e.chanStamp[ch] == e.stamp {
			continue
		}
		e.chanStamp[ch] = e.stamp
		fp += e.k.keys.hashChan(ch, nxt.count[ch], nxt.chans[ch]) - h.chans[ch]
	}
	return fp
}

// fingerprint is the fingerprint of w, from scratch.
func (e *expander[L, M]) fingerprint(w *world[L, M]) uint64 {
	fp := hashHead(w.lay, w.crashes, w.restarts, w.alive)
	for p := range w.local {
		e.scratch = e.k.codec.AppendLocal(e.scratch[:0], &w.local[p])
		fp += e.k.keys.hashLocal(p, e.scratch)
	}
	for ch, q := range w.chans {
		fp += e.k.keys.hashChan(ch, w.count[ch], q)
	}
	return fp
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

// The canonical encoding: crashes, restarts (uvarints), alive (2 bytes),
// every local state, the number of non-empty channels, then for each of them
// in index order: index, number of messages, number of bytes (uvarint), the
// messages. The byte count lets decoding copy a channel whole.
func (e *expander[L, M]) encode(b []byte, w *world[L, M]) []byte {
	if len(e.k.layouts) > 1 {
		b = binary.AppendUvarint(b, uint64(w.lay))
	}
	b = binary.AppendUvarint(b, uint64(w.crashes))
	b = binary.AppendUvarint(b, uint64(w.restarts))
	b = binary.LittleEndian.AppendUint16(b, uint16(w.alive))
	c := e.k.codec
	for p := range w.local {
		b = c.AppendLocal(b, &w.local[p])
	}
	b = binary.AppendUvarint(b, uint64(w.busy.count()))
	for ch := range w.busy.all() {
		q := w.chans[ch]
		b = append(b, byte(ch), byte(w.count[ch]))
		b = binary.AppendUvarint(b, uint64(len(q)))
		b = append(b, q...)
	}
	return b
}

var errShort = errors.New("truncated state")

// decode reads state b into w and, if h is not nil, the hashes of its
// components, from their encodings.
func (e *expander[L, M]) decode(b []byte, w *world[L, M], h *hashes) error {
	var err error
	w.lay = 0
	if len(e.k.layouts) > 1 {
		if w.lay, b, err = readUvarint(b); err != nil {
			return err
		}
		if w.lay >= len(e.k.layouts) {
			return fmt.Errorf("arrangement %d out of range", w.lay)
		}
	}
	if w.crashes, b, err = readUvarint(b); err != nil {
		return err
	}
	if w.restarts, b, err = readUvarint(b); err != nil {
		return err
	}
	if len(b) < 2 {
		return errShort
	}
	w.alive, b = uint64(binary.LittleEndian.Uint16(b)), b[2:]
	c := e.k.codec
	for p := range w.local {
		start := b
		if b, err = c.DecodeLocal(b, &w.local[p]); err != nil {
			return err
		}
		if h != nil {
			h.local[p] = e.k.keys.hashLocal(p, start[:len(start)-len(b)])
		}
	}
	for ch := range w.busy.all() {
		w.chans[ch], w.count[ch] = w.chans[ch][:0], 0
		if h != nil {
			h.chans[ch] = 0
		}
	}
	w.busy, w.decoded = chanSet{}, chanSet{}
	if h != nil {
		h.head = hashHead(w.lay, w.crashes, w.restarts, w.alive)
	}
	nonEmpty := 0
	if nonEmpty, b, err = readUvarint(b); err != nil {
		return err
	}
	for ; nonEmpty > 0; nonEmpty-- {
		if len(b) < 2 {
			return errShort
		}
		ch, size := int(b[0]), int(b[1])
		b = b[2:]
		if ch >= len(w.chans) {
			return fmt.Errorf("channel index %d out of range", ch)
		}
		var bytes int
		if bytes, b, err = readUvarint(b); err != nil {
			return err
		}
		if bytes > len(b) {
			return errShort
		}
		if size == 0 {
			return fmt.Errorf("channel %d is empty but listed", ch)
		}
		w.chans[ch] = append(w.chans[ch][:0], b[:bytes]...)
		w.count[ch] = size
		w.busy.add(ch)
		if h != nil {
			h.chans[ch] = e.k.keys.hashChan(ch, size, b[:bytes])
		}
		b = b[bytes:]
	}
	if len(b) != 0 {
		return fmt.Errorf("%d bytes left over", len(b))
	}
	if h != nil {
		h.fp = h.head
		for _, x := range h.local {
			h.fp += x
		}
		for ch := range w.busy.all() {
			h.fp += h.chans[ch]
		}
	}
	return nil
}

// decodeMsg decodes the message at the head of b, a channel of a stored or
// computed state, and returns the rest.
func (k *Kernel[L, M]) decodeMsg(b []byte, m *M) []byte {
	rest, err := k.codec.DecodeMsg(b, m)
	if err != nil {
		panic(fmt.Sprintf("mcheck: internal error: a channel's message does not decode: %v", err))
	}
	return rest
}

// decodeChan appends the messages of channel b to dst, head first.
func (k *Kernel[L, M]) decodeChan(dst []M, b []byte) []M {
	var zero M
	for len(b) > 0 {
		// Into dst itself: a local's address would go through the codec
		// interface and escape, an allocation per message.
		dst = append(dst, zero)
		b = k.decodeMsg(b, &dst[len(dst)-1])
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
		w.msgs[ch] = k.decodeChan(w.msgs[ch][:0], w.chans[ch])
	}
	w.decoded.add(ch)
}

func readUvarint(b []byte) (int, []byte, error) {
	v, k := binary.Uvarint(b)
	if k <= 0 {
		return 0, nil, errShort
	}
	return int(v), b[k:], nil
}

func (e *expander[L, M]) load(state []byte) *world[L, M] {
	e.nxt.twin = nil // cur is no longer what nxt was copied from
	if err := e.decode(state, &e.cur, &e.h); err != nil {
		panic(fmt.Sprintf("mcheck: internal error: stored state does not decode: %v", err))
	}
	e.w = &e.cur
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
	if a := Action(ta); a.Kind() > KindRestart {
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
		if q := w.chans[p*k.n+a.Q()]; len(q) > 0 {
			k.decodeMsg(q, &e.msg)
			m := k.msgValue(e.msg)
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
	}
	return s
}

// Snapshot implements Expander.
func (e *expander[L, M]) Snapshot(state []byte) Snapshot {
	k := e.k
	w := e.load(state)
	lay := &k.layouts[w.lay]
	snap := Snapshot{Crashes: w.crashes, Restarts: w.restarts, Channels: []ChannelSnapshot{}}
	for p := range w.local {
		snap.Processes = append(snap.Processes, ProcessSnapshot{
			ID: lay.ids[p], Alias: lay.alias(p), Alive: w.alive&(1<<p) != 0, Fields: e.localFields(p),
		})
	}
	for ch := range w.busy.all() {
		c := ChannelSnapshot{From: lay.ids[ch/k.n], To: lay.ids[ch%k.n], FromAlias: lay.alias(ch / k.n), ToAlias: lay.alias(ch % k.n)}
		for _, m := range k.chanMsgs(w, ch) {
			c.Messages = append(c.Messages, k.msgValue(m))
		}
		snap.Channels = append(snap.Channels, c)
	}
	return snap
}

// Fields implements Expander.
func (e *expander[L, M]) Fields(state []byte) []Field { return e.Snapshot(state).Fields() }

// Describe implements Expander.
func (e *expander[L, M]) Describe(state []byte) string { return e.Snapshot(state).String() }

func (e *expander[L, M]) localFields(p int) []Field {
	l := &e.w.local[p]
	if e.k.format != nil {
		return e.k.format.FormatLocal(e.at(e.w, p), l)
	}
	return []Field{{"state", Str(fmt.Sprintf("%+v", *l))}}
}
