package model

import (
	"bytes"
	"slices"
)

// Unordered channels (Config.Channels, docs/semantics.md section 1,
// Channels): a channel is a multiset of elements. Its canonical form is
// its elements sorted by their bytes (the age first in a timed shape), so
// states that differ only in the order of messages are one state and
// copying, hashing, encoding and decoding a channel stay those of FIFO.
// A send inserts the element at its place, a delivery takes the element
// it names (the action's last field: its index in the channel), and a tick
// sorts again where capping ages at D reorders elements. FIFO kernels
// never come here: every function below is reached through
// shape.unordered, or an index above 0, which only unordered steps have.

// elemOffsets appends to dst the offsets of the count elements of channel
// bytes b, and len(b) after them: element i is b[dst[i]:dst[i+1]].
func (e *expander[L, M]) elemOffsets(dst []int, b []byte, count int) []int {
	off := 0
	for range count {
		dst = append(dst, off)
		off = len(b) - len(e.k.nextElem(b[off:], &e.scratchMsg))
	}
	return append(dst, off)
}

// insertElem puts elem into channel ch of w at its place in the sorted
// order (after the elements equal to it); the caller counts it.
func (e *expander[L, M]) insertElem(w *world[L, M], ch int, elem []byte) {
	q := w.chans[ch]
	e.offs = e.elemOffsets(e.offs[:0], q, w.count[ch])
	at := len(q)
	for i := range w.count[ch] {
		if bytes.Compare(q[e.offs[i]:e.offs[i+1]], elem) > 0 {
			at = e.offs[i]
			break
		}
	}
	if at == len(q) {
		w.chans[ch] = append(q, elem...) // past the view's end, as a FIFO send
		return
	}
	// In the middle: in w's own array, leaving the views' bytes as they are.
	e.chanBuf = append(append(append(e.chanBuf[:0], q[:at]...), elem...), q[at:]...)
	w.setOwn(ch, e.chanBuf)
}

// elemAt is the offset of element i of channel bytes q (count elements).
func (e *expander[L, M]) elemAt(q []byte, count, i int) int {
	e.offs = e.elemOffsets(e.offs[:0], q, count)
	return e.offs[i]
}

// removeElem takes the element q[at:end] out of channel ch of w, whose
// bytes are q, in w's own array (at > 0: the head is taken by a view).
func (e *expander[L, M]) removeElem(w *world[L, M], ch int, q []byte, at, end int) {
	e.chanBuf = append(append(e.chanBuf[:0], q[:at]...), q[end:]...)
	w.setOwn(ch, e.chanBuf)
}

// distinctElems calls f with the index of the first of each run of equal
// elements of channel ch of w (the sorted order puts equal ones side by
// side), and its offset: the deliveries of an unordered channel, one per
// distinct element.
func (e *expander[L, M]) distinctElems(w *world[L, M], ch int, f func(i, off int)) {
	q := w.chans[ch]
	offs := e.elemOffsets(e.deliverOffs[:0], q, w.count[ch])
	e.deliverOffs = offs
	for i := range w.count[ch] {
		if i > 0 && bytes.Equal(q[offs[i-1]:offs[i]], q[offs[i]:offs[i+1]]) {
			continue
		}
		f(i, offs[i])
	}
}

// oldestAge is the largest age in channel ch of w, non-empty, in a timed
// shape: sorted by bytes, and the age first, the last element's.
func (e *expander[L, M]) oldestAge(w *world[L, M], ch int) int {
	q := w.chans[ch]
	return int(q[e.elemAt(q, w.count[ch], w.count[ch]-1)])
}

// sortChan puts channel ch of w, whose ages a tick has just raised, back
// in the sorted order: capping ages at D can make an element that sorted
// after another by its age sort before it by its message.
func (e *expander[L, M]) sortChan(w *world[L, M], ch int) {
	q := w.chans[ch]
	e.offs = e.elemOffsets(e.offs[:0], q, w.count[ch])
	elems := e.elemsBuf[:0]
	for i := range w.count[ch] {
		elems = append(elems, q[e.offs[i]:e.offs[i+1]])
	}
	e.elemsBuf = elems
	if slices.IsSortedFunc(elems, bytes.Compare) {
		return
	}
	slices.SortStableFunc(elems, bytes.Compare)
	e.chanBuf = e.chanBuf[:0]
	for _, el := range elems {
		e.chanBuf = append(e.chanBuf, el...)
	}
	w.setOwn(ch, e.chanBuf)
}

// findElem is the index of the first element of channel ch of w equal to
// elem, or -1.
func (e *expander[L, M]) findElem(w *world[L, M], ch int, elem string) int {
	q := w.chans[ch]
	e.offs = e.elemOffsets(e.offs[:0], q, w.count[ch])
	for i := range w.count[ch] {
		if string(q[e.offs[i]:e.offs[i+1]]) == elem {
			return i
		}
	}
	return -1
}

// loggedSend is a send into channel ch, for the synchronous schedule
// (expander.logSends).
type loggedSend struct {
	ch   int
	elem string
}
