package model

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/mcheck/mcheck/internal/apart"
)

// The global state of docs/semantics.md section 1.4, defined once, in this file.
// It has three parts, and each part's fields, copy, hash, encoding,
// decoding and snapshot are written here. Steps read and change the fields
// as the semantics says; copying, hashing, encoding, decoding and showing a
// state go through what is defined here: world.copyFrom, expander.begin,
// Kernel.initial, expander.fingerprint and succFP, expander.encode and
// decode, expander.Snapshot call the parts. Where a call measured dearer
// than its work (cachegrind: about 35 instructions a call, 1-3% of a
// transition), the whole-state operation does the part's work itself, here
// beside it: encode and decode write and read the head's bytes and the
// channel records, and succFP hashes the step's process.
//
//   - the head: the processes' kernel fields (alive, one bit each, a word
//     for the ring arithmetic) and the counters (crashes, restarts, the
//     arrangement of IDs, gst): a value copied by assignment, compared by
//     head.same and hashed as one component.
//   - the processes: per position, its record (the algorithm's local
//     state, and its number in the kernel's localTab, which the encoding
//     holds), copied, reset, encoded and hashed one at a time as one
//     component each (a step changes its own process's record only).
//   - the channels: chan(p,q) at p*N+q, a FIFO of elements kept encoded
//     back to back, head first, with their number; copied (on write, see
//     copyChan), cleared, encoded and hashed as one component each. An element (a message,
//     and its age) is written, read and shown only by pushElem (send),
//     nextElem and nextAged (deliver, chanMsgs, labels, snapshots),
//     headAge, ageChan and elemValue.
//
// Section 6 (time) adds, one place per concern, each written only when
// the kernel's shape says so (async states keep their encoding, hashes and
// fingerprints byte for byte):
//
//   - gst: a field of head, a byte after alive in encode and decode when
//     shape.partial, a bit of head.hash's word (bit 48: alive and the two
//     counters take 16 bits each), shown by head.snapshot. copyFrom, begin
//     and succFP follow by themselves.
//   - a timer per process: a world field beside local (timer, one byte a
//     process), copied by copyProc, turned off by resetProc (initial
//     state, crash, restart), set after a step by expander.rearm (Timer
//     says how), shown by procSnapshot. Encoded and hashed as a component
//     of its own, the timers (see there), when shape.timers: an algorithm
//     without timers has every timer off for good, nothing to write. (Not
//     inside the process record: a branch there cost the untimed record
//     its inlined call, +5% of the untimed successor path.)
//   - a message's age: part of the element. pushElem writes age 0 (one
//     byte) before the message, nextElem (hence deliver, chanMsgs and the
//     labels) steps over it, nextAged reads it (snapshots); headAge serves
//     deliver's guard and tick's, and ageChan ticks a channel by walking
//     it. Copying, hashing, encoding and decoding a channel copy its bytes
//     and do not change.
//
// The sends counted since the initial state (for an invariant that
// bounds messages) are the head's as well, one place again, written only
// when a property of the kernel reads them (shape.sendCap > 0; otherwise
// every state keeps its encoding, hashes and fingerprint byte for byte):
//
//   - sent: a field of head (sendCounts), added to by the step that sends
//     or loses a message (expander.send and crash, through countSent), so
//     every step path counts alike; compared by head.same, hashed in
//     head.hash (0 while nothing is counted: the unchanged fingerprints),
//     written after gst by encode and read back by decode (appendSent,
//     readSent), shown by head.snapshot. Each count stops at the cap, the
//     largest Property.CountSends: states that differ only in what was
//     sent are distinct, and the cap keeps them finitely many.
//
// The widths of the encoding's fixed-size fields are stated and checked
// with the fields (checkWidths, and the constant checks beside them).

// shape is what the states of one kernel hold beyond section 1's minimum:
// the optional fields the encoding writes.
type shape struct {
	layouts int  // arrangements of IDs; the head names its own when > 1
	timed   bool // section 6: message ages
	timers  bool // section 6: a timer per process (timed, and the algorithm has timers)
	partial bool // section 6's gst
	sendCap int  // the sends counted, each up to sendCap; 0: not counted
	types   int  // with sendCap: the message types counted (Kernel.types)
	// only, with sendCap, has a bit per slot counted when not every one
	// is (properties that count some message types only); 0: all.
	only uint16
	// unordered channels (Config.Channels): each channel's elements are
	// kept sorted by their bytes, its canonical order (unordered.go).
	unordered bool

	// heartbeat: the heartbeat detector's silences (heartbeat.go).
	heartbeat bool

	// suspicions is the eventual detector's budget of false suspicions,
	// counted in the gst byte; 0 without that detector.
	suspicions int
}

// ---- the head ----

// head is the state's header: the processes' kernel fields and the
// counters. encode writes it first and decode reads it back, in line (a
// call per state cost more than the reading): the arrangement (a uvarint,
// when the shape has several), crashes and restarts (uvarints), alive
// (aliveBytes, little-endian), gst (a byte, when the shape is partial),
// the sends counted (when the shape counts them: appendSent).
type head struct {
	alive    uint64 // bit p: position p is live
	crashes  int
	restarts int
	lay      int        // the arrangement of IDs (Kernel.layouts)
	gst      uint8      // section 6: gstTrue once the global stabilisation time has come; before it, with the eventual detector, the false suspicions used in units of suspicionUnit (a byte: hash stays inlined)
	sent     sendCounts // the sends counted, when shape.sendCap > 0; else zero
}

// Widths of the head's encoding and hash. alive is written as aliveBytes
// bytes, one bit per position; head.hash packs alive, crashes and restarts
// into one word, counterBits each, and gst above them.
const (
	aliveBytes  = 2
	counterBits = 16
	maxCounter  = 1<<counterBits - 1
	gstBit      = 3 * counterBits
	// The gst byte: its low bit is gst; above it, while gst is false, the
	// eventual detector's false suspicions used (gst resets them).
	gstTrue       = 1
	suspicionUnit = 2
)

// alive fits its bytes and the hash's low word: a compile-time check.
const _ uint = 8*aliveBytes - MaxN
const _ uint = counterBits - MaxN

// hash is the head's component hash: alive, crashes, restarts and gst
// packed into one word (checkWidths keeps each counter within
// counterBits), mixed, then the arrangement of IDs; plus the sends
// counted (0 when none are).
func (h *head) hash() uint64 {
	return mix(mix(h.alive|uint64(h.crashes)<<counterBits|uint64(h.restarts)<<(2*counterBits)|uint64(h.gst)<<gstBit^seedHead)+uint64(h.lay)) + h.sent.hash()
}

// same reports whether h and o are equal, field by field: a struct
// comparison of head, 33 bytes with gst, became a call to memequal (2% of
// the untimed successor path).
func (h *head) same(o *head) bool {
	return h.alive == o.alive && h.crashes == o.crashes && h.restarts == o.restarts && h.lay == o.lay && h.gst == o.gst &&
		h.sent[0] == o.sent[0] && h.sent[1] == o.sent[1]
}

// snapshot shows the counters, gst when the shape has it, and the sends
// when it counts them (of types, the kernel's message types); alive and
// the arrangement show in the processes (procSnapshot).
func (h *head) snapshot(s *Snapshot, sh shape, types []string) {
	s.Crashes, s.Restarts = h.crashes, h.restarts
	if sh.partial {
		gst := h.gst&gstTrue != 0
		s.GST = &gst
	}
	if sh.suspicions > 0 {
		used := int(h.gst / suspicionUnit)
		s.FalseSuspicions = &used
	}
	if sh.sendCap > 0 {
		s.Sent = h.sent.snapshot(types, sh.sendCap, sh.only)
	}
}

// ---- the sends counted ----

// sendCounts are the messages sent since the initial state (docs/semantics.md
// section 5's sends: appended or lost), per message type, and the lost
// ones, each stopping at the kernel's cap: countBits a count, packed
// countsPerWord to a word, message type t in slot t and the lost in slot
// lostSlot. Two words compare in two instructions (head.same is on every
// successor's path) and are all zero while nothing is counted.
type sendCounts [2]uint64

const (
	countBits     = 16
	maxSendCap    = 1<<countBits - 1
	countsPerWord = 64 / countBits
	lostSlot      = MaxMsgTypes
)

// Every message type and the lost fit a slot: a compile-time check.
const _ uint = 2*countsPerWord - (lostSlot + 1)

// count is the count in slot.
func (s *sendCounts) count(slot int) int {
	return int(s[slot/countsPerWord]>>(countBits*(slot%countsPerWord))) & maxSendCap
}

// add counts n more in slot, stopping at limit.
func (s *sendCounts) add(slot, n, limit int) {
	w, shift := slot/countsPerWord, countBits*(slot%countsPerWord)
	c := min(s.count(slot)+n, limit)
	s[w] = s[w]&^(maxSendCap<<shift) | uint64(c)<<shift
}

// total is the number of messages sent, up to limit, from the counts of
// the first types slots: exact while every count is below limit, and once
// one stops at limit the true total is past it too.
func (s *sendCounts) total(types, limit int) int {
	t := 0
	for slot := range types {
		t += s.count(slot)
	}
	return min(t, limit)
}

// hash is the counts' part of head.hash: 0 for no sends, so that a kernel
// that counts nothing keeps its fingerprints.
func (s *sendCounts) hash() uint64 {
	if s[0]|s[1] == 0 {
		return 0
	}
	return mix(mix(s[0]^seedSent) + s[1])
}

// appendSent writes the counts of types message types, then the lost, a
// uvarint each.
func (s *sendCounts) appendSent(b []byte, types int) []byte {
	for slot := range types {
		b = binary.AppendUvarint(b, uint64(s.count(slot)))
	}
	return binary.AppendUvarint(b, uint64(s.count(lostSlot)))
}

// readSent reads what appendSent wrote, each count at most limit, and
// returns the rest.
func (s *sendCounts) readSent(b []byte, types, limit int) ([]byte, error) {
	*s = sendCounts{}
	for i := range types + 1 {
		slot := i
		if i == types {
			slot = lostSlot
		}
		var c int
		var err error
		if c, b, err = readUvarint(b); err != nil {
			return nil, err
		}
		if c > limit {
			return nil, fmt.Errorf("a count of sends %d is beyond the cap %d", c, limit)
		}
		s.add(slot, c, limit)
	}
	return b, nil
}

// snapshot shows the counts of types, up to limit; with only (a bit per
// slot counted, 0: all), the types counted alone, and Only set.
func (s *sendCounts) snapshot(types []string, limit int, only uint16) *SendsSnapshot {
	ss := &SendsSnapshot{Lost: s.count(lostSlot), Cap: limit}
	for slot, name := range types {
		if only != 0 && only&(1<<slot) == 0 {
			continue
		}
		ss.ByType = append(ss.ByType, TypeCount{Type: name, Count: s.count(slot)})
		ss.Total += s.count(slot)
	}
	ss.Total = min(ss.Total, limit)
	if only != 0 {
		ss.Only = true
	}
	return ss
}

// ---- the processes ----

// A process's record is its local state and the local state's number in
// the kernel's localTab (lid): the encoding holds the number, decoding
// copies the value out of the table, and the hash is the table's word.
// Whatever sets a local state other than resetProc numbers it
// (expander.settle). Local states that hold slices or maps (localRefs)
// are written by value instead, as the Codec encodes them, and decoded
// afresh: a handler that writes into the old state's map then changes
// what the state's successors encode, which the replay of a counterexample
// finds (TestReplayDiagnosesTheAlgorithmsFault), as before numbering.

// copyProc makes process p's record and timer in w as they are in src;
// copyProcs makes every process's.
func (w *world[L, M]) copyProc(src *world[L, M], p int) {
	w.local[p], w.lid[p], w.timer[p] = src.local[p], src.lid[p], src.timer[p]
}
func (w *world[L, M]) copyProcs(src *world[L, M]) {
	copy(w.local, src.local)
	copy(w.lid, src.lid)
	copy(w.timer, src.timer)
	copy(w.hb, src.hb)
}

// resetProc gives process p the record of a process that has taken part in
// no election, and its timer off: after a crash, at a restart, in the
// initial state.
func (k *Kernel[L, M]) resetProc(w *world[L, M], p int) {
	w.local[p], w.lid[p], w.timer[p] = k.alg.Init(), k.initLid, timerOff
}

// procSnapshot shows process p, with its timer in a shape with timers.
func (e *expander[L, M]) procSnapshot(w *world[L, M], p int) ProcessSnapshot {
	lay := &e.k.layouts[w.lay]
	ps := ProcessSnapshot{ID: lay.ids[p], Alias: lay.alias(p), Alive: w.alive&(1<<p) != 0, Fields: e.localFields(w, p), Elected: e.k.alg.Elected(&w.local[p])}
	if e.k.shape.timers {
		t := timerValue(w.timer[p])
		ps.Timer = &t
	}
	if e.k.shape.heartbeat && ps.Alive {
		s := e.k.silenceValue(w, p)
		ps.Silence = &s
	}
	return ps
}

// ---- the timers ----

// A process's timer is one byte, timerOff or 1 + the countdown, so a
// countdown is at most maxCountdown. The timers of all processes are one
// component of the state: written after the processes' records (when
// shape.timers) and hashed as one (hashTimers), so that the records, the
// code that writes and hashes them and their fingerprints stay those of
// the untimed state, and a tick, which changes every timer, rehashes one
// component. A step changes its own process's timer only (expander.rearm).
const (
	timerOff     = 0
	maxCountdown = 1<<8 - 2
)

// readTimers reads the timers that encode wrote into w and returns the rest.
func (k *Kernel[L, M]) readTimers(b []byte, w *world[L, M]) ([]byte, error) {
	if len(b) < len(w.timer) {
		return nil, errShort
	}
	for p, t := range b[:len(w.timer)] {
		if int(t) > k.maxTimer+1 {
			return nil, fmt.Errorf("process %d's timer %d is beyond the longest timer", p, int(t)-1)
		}
		w.timer[p] = t
	}
	return b[len(w.timer):], nil
}

// timerValue shows a timer: its countdown, or off.
func timerValue(t uint8) Value {
	if t == timerOff {
		return Str("off")
	}
	return Int(int(t) - 1)
}

// ---- the channels and their elements ----

// Widths of a channel's record in the encoding: its index and its number of
// elements are one byte each.
const (
	chanIndexBits = 8
	chanCountBits = 8
	maxChanCount  = 1<<chanCountBits - 1
)

// Every channel index p*N+q fits its byte: a compile-time check.
const _ uint = 1<<chanIndexBits - MaxN*MaxN

// A message's age is one byte before it (timed shapes).
const maxAge = 1<<8 - 1

// Channels are copied on write. A world's channel is a slice of bytes
// that may share its array with the other world of its expander: sync and
// begin make nxt's channels views of cur's, without copying, and a step
// changes a channel of nxt only in ways that leave every view's bytes as
// they are: a delivery takes a shorter view (the rest), a send appends
// past the view's end (nxt's end is never before cur's: it is cur's, a
// suffix of it, or past it), a crash takes an empty view at the end, and
// a tick, which changes bytes, copies into nxt's own array first. cur's
// channels are always in cur's own arrays (decode, and copyFromOwn, which
// makes cur a copy of nxt in the synchronous schedule), with room to
// append after them once a channel was busy in cur, so that most sends of
// nxt need no new array.

// ownSlack is the room an own array keeps after a channel's bytes.
const ownSlack = 64

// copyChan makes channel ch of w a view of src's; the caller makes busy
// follow (copyFrom copies the whole set).
func (w *world[L, M]) copyChan(src *world[L, M], ch int) {
	w.chans[ch], w.count[ch] = src.chans[ch], src.count[ch]
}

// copyChanOwn makes channel ch of w a copy of src's in w's own array.
func (w *world[L, M]) copyChanOwn(src *world[L, M], ch int) {
	w.setOwn(ch, src.chans[ch])
	w.count[ch] = src.count[ch]
}

// setOwn makes channel ch of w the bytes b, copied into w's own array
// (b may be a view of it: append copies as memmove does).
func (w *world[L, M]) setOwn(ch int, b []byte) {
	if cap(w.own[ch]) < len(b)+ownSlack {
		w.own[ch] = apart.Make[byte](2*len(b) + ownSlack)[:0]
	}
	w.own[ch] = append(w.own[ch][:0], b...)
	w.chans[ch] = w.own[ch]
}

// clearChan empties channel ch of w: an empty view at its end.
func (w *world[L, M]) clearChan(ch int) {
	w.chans[ch], w.count[ch] = w.chans[ch][len(w.chans[ch]):], 0
	w.busy.remove(ch)
}

// appendChan writes channel ch's record: its index and number of elements
// (a byte each), its number of bytes (uvarint), its bytes. The byte count
// lets decoding copy a channel whole. decode reads it back, in its loop
// over the records (a call per channel cost more than the reading).
func (w *world[L, M]) appendChan(b []byte, ch int) []byte {
	q := w.chans[ch]
	b = append(b, byte(ch), byte(w.count[ch]))
	b = binary.AppendUvarint(b, uint64(len(q)))
	return append(b, q...)
}

// hashChan is channel ch's component hash.
func (k *Kernel[L, M]) hashChan(w *world[L, M], ch int) uint64 {
	return k.keys.hashChan(ch, w.count[ch], w.chans[ch])
}

// pushElem appends the element of message m to q, a channel's bytes (a
// send; the caller counts it): in a timed shape its age, 0, then the
// message.
func (k *Kernel[L, M]) pushElem(q []byte, m *M) []byte {
	if k.shape.timed {
		q = append(q, 0)
	}
	return k.codec.AppendMsg(q, m)
}

// nextElem reads the element at the head of b, a channel of a stored or
// computed state, into m and returns the rest.
func (k *Kernel[L, M]) nextElem(b []byte, m *M) []byte {
	if k.shape.timed {
		b = b[1:] // the age
	}
	rest, err := k.codec.DecodeMsg(b, m)
	if err != nil {
		panic(fmt.Sprintf("mcheck: internal error: a channel's message does not decode: %v", err))
	}
	return rest
}

// headKey is the step memo's key of the message of the element at the head
// of q, whose rest is rest: its bytes without the age (msgKey).
func (k *Kernel[L, M]) headKey(q, rest []byte) uint64 {
	if k.shape.timed {
		q = q[1:]
	}
	return msgKey(q[:len(q)-len(rest)])
}

// nextAged is nextElem with the element's age (0 in an untimed shape).
func (k *Kernel[L, M]) nextAged(b []byte, m *M) (age int, rest []byte) {
	if k.shape.timed {
		age = int(b[0])
	}
	return age, k.nextElem(b, m)
}

// headAge is the age of the message at the head of channel ch of w,
// non-empty, in a timed shape. Ages never grow from head to tail (a
// message is sent with age 0 behind older ones, and a tick ages all alike
// up to D), so the head's is the channel's oldest.
func (w *world[L, M]) headAge(ch int) int { return int(w.chans[ch][0]) }

// ageChan is a tick on channel ch of w, in a timed shape: every
// element's age becomes min(age+1, D), in w's own array.
func (e *expander[L, M]) ageChan(w *world[L, M], ch int) {
	d := uint8(e.k.cfg.Delay)
	w.setOwn(ch, w.chans[ch])
	for b := w.chans[ch]; len(b) > 0; {
		if b[0] < d {
			b[0]++
		}
		b = e.k.nextElem(b, &e.msg)
	}
}

// elemValue shows an element's message.
func (k *Kernel[L, M]) elemValue(m M) Value { return k.msgValue(m) }

// chanSnapshot shows channel ch of w, non-empty, with the ages of its
// messages in a timed shape.
func (k *Kernel[L, M]) chanSnapshot(w *world[L, M], ch int) ChannelSnapshot {
	lay := &k.layouts[w.lay]
	from, to := ch/k.n, ch%k.n
	c := ChannelSnapshot{From: lay.ids[from], To: lay.ids[to], FromAlias: lay.alias(from), ToAlias: lay.alias(to)}
	var m M
	b := w.chans[ch]
	for range w.count[ch] { // count, not bytes: a message may encode to none
		var age int
		age, b = k.nextAged(b, &m)
		c.Messages = append(c.Messages, k.elemValue(m))
		if k.shape.timed {
			c.Ages = append(c.Ages, age)
		}
	}
	return c
}

// TimerWidthError: a timer's duration does not fit the state encoding's
// countdown, so the configuration cannot be checked; a search over
// timeouts (check.SearchTimeouts) ends there.
type TimerWidthError struct{ Ticks, Max int }

func (e *TimerWidthError) Error() string {
	return fmt.Sprintf("a timer of %d ticks does not fit the state encoding: at most %d", e.Ticks, e.Max)
}

// checkWidths reports a configuration whose states would not fit the
// encoding's fixed widths above; longest is the longest of the algorithm's
// timers in ticks (timed shapes), sendCap the cap of the sends counted.
// Config.Validate keeps tighter limits of its own; this is the encoding's
// guard whatever those become.
func checkWidths(cfg *Config, timers, longest, sendCap int) error {
	switch {
	case sendCap > maxSendCap:
		return fmt.Errorf("sends counted up to %d do not fit the state encoding: count up to %d at most", sendCap, maxSendCap)
	case cfg.Timed() && cfg.Delay > maxAge:
		return fmt.Errorf("a delay of %d ticks does not fit the state encoding: a message's age is at most %d", cfg.Delay, maxAge)
	case cfg.Timed() && longest > maxCountdown:
		return &TimerWidthError{Ticks: longest, Max: maxCountdown}
	case cfg.N > MaxN:
		return fmt.Errorf("%d processes do not fit the state encoding: at most %d", cfg.N, MaxN)
	case cfg.MaxQueue > maxChanCount:
		return fmt.Errorf("a channel bound of %d does not fit the state encoding: at most %d messages a channel", cfg.MaxQueue, maxChanCount)
	case cfg.MaxCrashes > maxCounter || cfg.MaxRestarts > maxCounter:
		return fmt.Errorf("%d crashes and %d restarts do not fit the state encoding: at most %d each", cfg.MaxCrashes, cfg.MaxRestarts, maxCounter)
	case timers > maxActionField+1:
		return fmt.Errorf("%d timers do not fit an action: at most %d", timers, maxActionField+1)
	}
	return nil
}

// ---- the whole state ----

// world is a decoded global state. Expanders keep two and reuse their memory
// from state to state: cur (the state being expanded) and nxt (a successor).
//
// Channels stay encoded: a channel is its elements' encodings back to back,
// head first, as the state's encoding holds them. A message is decoded when
// it is delivered (or a guard or property looks at it), and encoded once,
// when it is sent; loading a state, hashing a channel and encoding a state
// copy bytes instead of going through the codec message by message.
type world[L, M any] struct {
	head
	local []L
	lid   []uint32 // per process, the number of its local state
	timer []uint8  // per process, in a timed shape: timerOff or 1 + countdown
	hb    []uint8  // silence(p,q) at p*N+q with the heartbeat detector; else nil
	chans [][]byte // chan(p,q) at p*N+q: a view, copied on write (copyChan)
	own   [][]byte // per channel, the world's own array
	count []int    // elements in each channel
	busy  chanSet  // the non-empty channels
	// msgs caches the decoded messages of the channels in decoded, for
	// guards and properties that look at channels (chanMsgs): a property
	// that reads every channel of every successor would otherwise decode
	// N² channels a transition. Whatever changes a channel drops it. A
	// successor (nxt) has cur as its twin: the channels a step has not
	// changed since sync are cur's, decoded once for all the successors.
	msgs    [][]M
	decoded chanSet
	twin    *world[L, M]
	changed chanSet // since the copy from twin
}

func (w *world[L, M]) init(n int) {
	// Apart: another worker's expander was made just before this one.
	w.local = apart.Make[L](n)
	w.lid = apart.Make[uint32](n)
	w.timer = apart.Make[uint8](n)
	w.chans = apart.Make[[]byte](n * n)
	w.own = apart.Make[[]byte](n * n) // made by setOwn: most of N² channels stay empty
	w.count = apart.Make[int](n * n)
	w.msgs = apart.Make[[]M](n * n)
}

// initWorld is w.init for k's states, with the heartbeat detector's
// silences when k has them.
func (k *Kernel[L, M]) initWorld(w *world[L, M]) {
	w.init(k.n)
	if k.shape.heartbeat {
		w.hb = make([]uint8, k.n*k.n)
	}
}

// changedChan records that channel ch changed.
func (w *world[L, M]) changedChan(ch int) {
	w.decoded.remove(ch)
	w.changed.add(ch)
}

// copyFrom makes w a copy of src whose channels are views of src's.
func (w *world[L, M]) copyFrom(src *world[L, M]) {
	w.head = src.head
	w.copyProcs(src)
	for ch := range w.busy.union(src.busy).all() {
		w.copyChan(src, ch)
	}
	w.busy, w.decoded, w.changed = src.busy, chanSet{}, chanSet{}
}

// copyFromOwn makes w a copy of src in w's own arrays.
func (w *world[L, M]) copyFromOwn(src *world[L, M]) {
	w.head = src.head
	w.copyProcs(src)
	for ch := range w.chans {
		w.copyChanOwn(src, ch)
	}
	w.busy, w.decoded, w.changed = src.busy, chanSet{}, chanSet{}
}

// initial makes w the initial state of arrangement i (docs/semantics.md section
// 1.9): every process live but the down ones, local states initial (or as if
// the largest ID had just been elected, with Config.InitialLeader),
// channels empty, counters 0, and the timers armed in the local states
// running.
func (k *Kernel[L, M]) initial(w *world[L, M], i int) {
	lay := &k.layouts[i]
	w.head = head{alive: (1<<k.n - 1) &^ lay.down, lay: i}
	maxID := slices.Max(lay.ids)
	for p := range w.local {
		k.resetProc(w, p)
		if k.cfg.InitialLeader && w.alive&(1<<p) != 0 {
			w.local[p] = k.leader(maxID, lay.ids[p])
		}
		// A timer armed in an initial local state runs from the start
		// (section 6.4); a down process's is off.
		if k.shape.timers && w.alive&(1<<p) != 0 {
			if t := k.armedTimer(&w.local[p], p); t >= 0 {
				w.timer[p] = k.timerStart[t]
			}
		}
	}
	for ch := range w.chans {
		w.clearChan(ch)
	}
	w.decoded = chanSet{}
	if k.shape.heartbeat {
		k.initialHB(w)
	}
}

// encode appends the canonical encoding of w: the head (see head), every
// process's record, the number of non-empty channels, then their records in
// index order.
func (e *expander[L, M]) encode(b []byte, w *world[L, M]) []byte {
	k := e.k
	if k.shape.layouts > 1 {
		b = binary.AppendUvarint(b, uint64(w.lay))
	}
	b = binary.AppendUvarint(b, uint64(w.crashes))
	b = binary.AppendUvarint(b, uint64(w.restarts))
	b = binary.LittleEndian.AppendUint16(b, uint16(w.alive))
	if k.shape.partial {
		b = append(b, w.gst)
	}
	if k.shape.sendCap > 0 {
		b = w.sent.appendSent(b, k.shape.types)
	}
	for p, id := range w.lid {
		if k.localRefs {
			b = k.codec.AppendLocal(b, &w.local[p])
		} else {
			b = binary.AppendUvarint(b, uint64(id))
		}
	}
	if k.shape.timers {
		b = append(b, w.timer...)
	}
	if k.shape.heartbeat {
		b = append(b, w.hb...)
	}
	b = binary.AppendUvarint(b, uint64(w.busy.count()))
	for ch := range w.busy.all() {
		b = w.appendChan(b, ch)
	}
	return b
}

var errShort = errors.New("truncated state")

// decode reads state b into w and, if h is not nil, the hashes of its
// components, from their encodings: the parts in encode's order, each
// read by its own function.
func (e *expander[L, M]) decode(b []byte, w *world[L, M], h *hashes) error {
	b, err := e.k.decodeHead(b, w)
	if err != nil {
		return err
	}
	if b, err = e.decodeLocals(b, w, h); err != nil {
		return err
	}
	if b, err = e.k.decodeClocks(b, w, h); err != nil {
		return err
	}
	w.emptyChans(h)
	var chansFP uint64
	if b, chansFP, err = e.k.decodeChans(b, w, h); err != nil {
		return err
	}
	if len(b) != 0 {
		return fmt.Errorf("%d bytes left over", len(b))
	}
	if h != nil {
		h.head = w.head.hash()
		h.fp = h.head + h.timers + h.hb + chansFP
		for _, x := range h.local {
			h.fp += x
		}
	}
	return nil
}

// decodeHead reads the head: the arrangement, the counters, who is live,
// gst and the counted sends, as the shape has them.
func (k *Kernel[L, M]) decodeHead(b []byte, w *world[L, M]) ([]byte, error) {
	var err error
	w.lay = 0
	if k.shape.layouts > 1 {
		if w.lay, b, err = readUvarint(b); err != nil {
			return nil, err
		}
		if w.lay >= k.shape.layouts {
			return nil, fmt.Errorf("arrangement %d out of range", w.lay)
		}
	}
	if w.crashes, b, err = readUvarint(b); err != nil {
		return nil, err
	}
	if w.restarts, b, err = readUvarint(b); err != nil {
		return nil, err
	}
	if len(b) < aliveBytes {
		return nil, errShort
	}
	w.alive, b = uint64(binary.LittleEndian.Uint16(b)), b[aliveBytes:]
	w.gst = 0
	if k.shape.partial {
		if len(b) < 1 {
			return nil, errShort
		}
		if b[0] != gstTrue && (b[0]&gstTrue != 0 || int(b[0]/suspicionUnit) > k.shape.suspicions) {
			return nil, fmt.Errorf("gst byte %d is neither gst nor a count of false suspicions up to %d", b[0], k.shape.suspicions)
		}
		w.gst, b = b[0], b[1:]
	}
	if k.shape.sendCap > 0 {
		if b, err = w.sent.readSent(b, k.shape.types, k.shape.sendCap); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// decodeLocals reads every process's local state: by value (localRefs) or
// by the number the kernel gave it.
func (e *expander[L, M]) decodeLocals(b []byte, w *world[L, M], h *hashes) ([]byte, error) {
	k := e.k
	var err error
	for p := range w.local {
		if k.localRefs {
			// By value, as the Codec writes it (see localRefs).
			start := b
			if b, err = k.codec.DecodeLocal(b, &w.local[p]); err != nil {
				return nil, err
			}
			if h != nil {
				h.local[p] = k.keys.hashLocal(p, start[:len(start)-len(b)])
			}
			continue
		}
		var id int
		if id, b, err = readUvarint(b); err != nil {
			return nil, err
		}
		if uint64(id) >= uint64(len(e.localVals)) {
			if _, err := k.localTab.val(uint32(min(id, 1<<32-1))); err != nil {
				return nil, fmt.Errorf("process %d's local state: %w", p, err)
			}
		}
		v := e.localAt(uint32(id))
		w.lid[p], w.local[p] = uint32(id), v.val
		if h != nil {
			h.local[p] = k.keys.hashLocalWord(p, v.word)
		}
	}
	return b, nil
}

// decodeClocks reads the timers and the heartbeat silences, as the shape
// has them.
func (k *Kernel[L, M]) decodeClocks(b []byte, w *world[L, M], h *hashes) ([]byte, error) {
	var err error
	if k.shape.timers {
		if b, err = k.readTimers(b, w); err != nil {
			return nil, err
		}
		if h != nil {
			h.timers = k.keys.hashTimers(w.timer)
		}
	}
	if k.shape.heartbeat {
		if b, err = k.readHB(b, w); err != nil {
			return nil, err
		}
		if h != nil {
			h.hb = k.keys.hashHB(w.hb)
		}
	}
	return b, nil
}

// emptyChans empties the channels w held before into its own arrays (see
// copyChan); the others are already. A loop over the set's words:
// busy.all's iterator cost a tenth of decoding here.
func (w *world[L, M]) emptyChans(h *hashes) {
	for i, word := range w.busy {
		for ; word != 0; word &= word - 1 {
			ch := i<<6 | bits.TrailingZeros64(word)
			w.chans[ch], w.count[ch] = w.own[ch][:0], 0
			if h != nil {
				h.chans[ch] = 0
			}
		}
	}
	w.busy, w.decoded = chanSet{}, chanSet{}
}

// decodeChans reads the non-empty channels (records of appendChan) into w,
// whose channels are empty, and returns the sum of their hashes.
func (k *Kernel[L, M]) decodeChans(b []byte, w *world[L, M], h *hashes) ([]byte, uint64, error) {
	var chansFP uint64
	nonEmpty, b, err := readUvarint(b)
	if err != nil {
		return nil, 0, err
	}
	for ; nonEmpty > 0; nonEmpty-- {
		if len(b) < 2 {
			return nil, 0, errShort
		}
		ch, count := int(b[0]), int(b[1])
		b = b[2:]
		if ch >= len(w.chans) {
			return nil, 0, fmt.Errorf("channel index %d out of range", ch)
		}
		var size int
		if size, b, err = readUvarint(b); err != nil {
			return nil, 0, err
		}
		if size > len(b) {
			return nil, 0, errShort
		}
		if count == 0 {
			return nil, 0, fmt.Errorf("channel %d is empty but listed", ch)
		}
		w.setOwn(ch, b[:size])
		w.count[ch] = count
		w.busy.add(ch)
		if h != nil {
			h.chans[ch] = k.keys.hashChan(ch, count, b[:size])
			chansFP += h.chans[ch]
		}
		b = b[size:]
	}
	return b, chansFP, nil
}

func readUvarint(b []byte) (int, []byte, error) {
	v, k := binary.Uvarint(b)
	if k <= 0 {
		return 0, nil, errShort
	}
	return int(v), b[k:], nil
}

// hashProc is process p's component hash in w. (succFP spells it out: a
// call per transition costs more than its two lines.)
func (e *expander[L, M]) hashProc(w *world[L, M], p int) uint64 {
	if e.k.localRefs {
		e.scratch = e.k.codec.AppendLocal(e.scratch[:0], &w.local[p])
		return e.k.keys.hashLocal(p, e.scratch)
	}
	return e.k.keys.hashLocalWord(p, e.localAt(w.lid[p]).word)
}

// fingerprint is the fingerprint of w, from scratch.
func (e *expander[L, M]) fingerprint(w *world[L, M]) uint64 {
	fp := w.head.hash()
	if e.k.shape.timers {
		fp += e.k.keys.hashTimers(w.timer)
	}
	if e.k.shape.heartbeat {
		fp += e.k.keys.hashHB(w.hb)
	}
	for p := range w.local {
		fp += e.hashProc(w, p)
	}
	for ch := range w.busy.all() {
		fp += e.k.hashChan(w, ch)
	}
	return fp
}

// succFP is the fingerprint of nxt, a successor of cur: cur's, plus the
// differences of the head, the step's process, the timers and the
// channels the step touched.
func (e *expander[L, M]) succFP() uint64 {
	nxt, h := &e.nxt, &e.h
	fp := h.fp
	if !nxt.head.same(&e.cur.head) {
		fp += nxt.head.hash() - h.head
	}
	if p := e.stepProc; p >= 0 {
		fp += e.hashProc(nxt, p) - h.local[p]
	}
	if e.k.shape.timers {
		fp += e.k.keys.hashTimers(nxt.timer) - h.timers
	}
	if e.k.shape.heartbeat {
		fp += e.k.keys.hashHB(nxt.hb) - h.hb
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
		fp += e.k.hashChan(nxt, ch) - h.chans[ch]
	}
	return fp
}
