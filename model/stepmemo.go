package model

// A handler is a function of its inputs (CheckDeterminism probes it before
// every search): the local state, the message and who sent it, and what
// Ctx shows, which is the position, the arrangement of IDs and the live
// processes. So its effect, the local state it leaves and the messages it
// sends, is remembered per expander under those inputs, as numbers, and a
// step whose inputs were seen before takes the remembered effect instead
// of running the handler, encoding its local state and numbering it
// (most steps of a search repeat a handler call seen before).
// The kernel's part of the step (the channels, losses, counts, the bound,
// timers) runs either way.
//
// Not remembered: steps of algorithms whose local states or messages hold
// slices or maps (a remembered value would be shared), restarts (rare),
// expanders that record sends or probe determinism (noMemo), and effects
// beyond the memo's fixed room (more than maxMemoSends sends, a message
// longer than 6 bytes or an element longer than 7, inputs too wide for the
// key).

// Step kinds in the memo's key.
const (
	stepDeliver = 1 + iota
	stepInitiate
	stepFire
)

const (
	maxMemoSends = 4
	stepMemoBits = 9
)

type stepKey struct{ a, b uint64 }

// stepEffect is a remembered effect: the local state's number and the
// sends, each with its receiver, type and element, and what the handler
// asked of its timer.
type stepEffect struct {
	key   stepKey
	lid   uint32
	n     uint8
	timer TimerOp // what the handler asked of its timer
	sends [maxMemoSends]memoSend
}

type memoSend struct {
	to, typ, len uint8
	elem         [7]byte
}

// stepRecord is the effect being recorded while a handler runs.
type stepRecord struct {
	on   bool // recording
	ok   bool // the effect fits a stepEffect so far
	eff  stepEffect
	slot *stepEffect
}

// msgKey is the memo's key of a message of up to 6 bytes, b: 51 bits,
// never 0; 0 when b is longer.
func msgKey(b []byte) uint64 {
	if len(b) > 6 {
		return 0
	}
	k := uint64(1)<<50 | uint64(len(b))<<48
	for i, c := range b {
		k |= uint64(c) << (8 * i)
	}
	return k
}

// recall looks for the effect of the step (kind, arg, process p, message
// msgKey; arg is the sender or the timer) from nxt, which holds p's local
// state before the step, and takes it when remembered. Otherwise it
// starts recording (when the step can be remembered) and reports false:
// the caller runs the handler and calls handled.
func (e *expander[L, M]) recall(kind, arg, p int, msg uint64) bool {
	e.rec.on = false
	if e.noMemo || e.stepMemo == nil {
		return false
	}
	w := &e.nxt
	lid, lay := w.lid[p], w.lay
	if (kind == stepDeliver && msg == 0) || lay >= 1<<20 || arg >= 1<<8 || lid >= 1<<24 {
		return false
	}
	// a: marker, kind (2 bits), arg (8), p (5), lid (24), the message's
	// low 24 bits; b: alive (16), lay (20), the message's other 27 bits.
	key := stepKey{
		a: 1<<63 | uint64(kind)<<61 | uint64(arg)<<53 | uint64(p)<<48 | uint64(lid)<<24 | msg&(1<<24-1),
		b: w.alive | uint64(lay)<<16 | msg>>24<<36,
	}
	slot := &e.stepMemo[((key.a^key.b*0x9e3779b97f4a7c15)*0xc2b2ae3d27d4eb4f)>>(64-stepMemoBits)]
	if slot.key != key {
		e.rec = stepRecord{on: true, ok: true, eff: stepEffect{key: key}, slot: slot}
		return false
	}
	w.lid[p] = slot.lid
	w.local[p] = e.localAt(slot.lid).val
	e.timerOp = slot.timer
	for i := range slot.n {
		s := &slot.sends[i]
		if e.reducing {
			e.checkRingLocal(w, p, int(s.to))
		}
		e.sendElem(w, p, int(s.to), int(s.typ), s.elem[:s.len])
	}
	return true
}

// record notes a send of the handler being recorded.
func (e *expander[L, M]) record(to, t int, elem []byte) {
	r := &e.rec
	if !r.on || !r.ok {
		return
	}
	if r.eff.n == maxMemoSends || len(elem) > len(memoSend{}.elem) {
		r.ok = false
		return
	}
	s := &r.eff.sends[r.eff.n]
	s.to, s.typ, s.len = uint8(to), uint8(t), uint8(len(elem))
	copy(s.elem[:], elem)
	r.eff.n++
}

// handled ends a step whose handler ran (recall said false): p's local
// state in nxt is numbered, and the step's effect remembered.
func (e *expander[L, M]) handled(p int) {
	e.settle(&e.nxt, p)
	e.remember(p)
}

// remember keeps the effect recorded since recall, now that p's local
// state is settled.
func (e *expander[L, M]) remember(p int) {
	r := &e.rec
	if !r.on {
		return
	}
	r.on = false
	if r.ok {
		r.eff.lid = e.nxt.lid[p]
		r.eff.timer = e.timerOp
		*r.slot = r.eff
	}
}
