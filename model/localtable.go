package model

import (
	"fmt"
	"unsafe"
)

// localVal is one local state, numbered by newLocalTable: a world holds
// each process's local state as its value and its number, so that loading
// a state copies values out of the table instead of decoding them, and a
// process's hash is one mix.
type localVal[L any] struct {
	val L
	// word is the local state's part of the process's component hash,
	// which adds the position: hashLocal(p) = mix(word ^ keys.local[p]).
	word uint64
}

// localTable numbers local states by their Codec encoding.
type localTable[L, M any] struct {
	*numbering[string, *localVal[L]]
	codec Codec[L, M]
}

func newLocalTable[L, M any](c Codec[L, M]) localTable[L, M] {
	return localTable[L, M]{newNumbering[string, *localVal[L]](), c}
}

// number is the number of the local state encoded as enc, given it the
// first time, or an error when enc is not one.
func (t localTable[L, M]) number(enc []byte) (uint32, error) {
	if i, ok := t.index()[string(enc)]; ok {
		return i, nil
	}
	key := string(enc) // the caller's buffer: a copy of its own
	return t.numbering.number(key, func() (*localVal[L], int64, error) {
		b := []byte(key)
		v := &localVal[L]{word: pack(b)}
		rest, err := t.codec.DecodeLocal(b, &v.val)
		if err != nil {
			return nil, 0, err
		}
		if len(rest) != 0 {
			return nil, 0, fmt.Errorf("%d bytes after a local state", len(rest))
		}
		return v, int64(len(key)) + int64(unsafe.Sizeof(*v)), nil
	})
}

// localAt is the local state numbered i.
func (e *expander[L, M]) localAt(i uint32) *localVal[L] {
	if int(i) < len(e.localVals) {
		return e.localVals[i]
	}
	e.localVals = e.k.localTab.vals()
	if int(i) < len(e.localVals) {
		return e.localVals[i]
	}
	return e.k.localTab.mustVal(i)
}

// localNumber is the number of the local state encoded as enc, or an error
// when enc is not one. Short encodings (under 8 bytes, which pack keeps
// one-to-one) are remembered in the expander's memo by their packed word.
func (e *expander[L, M]) localNumber(enc []byte) (uint32, error) {
	var packed uint64
	if len(enc) < 8 {
		packed = pack(enc) | 1<<63 // never 0: pack leaves the top bit of short encodings free
		if i, ok := e.localShort.get(packed); ok {
			return i, nil
		}
	}
	i, err := e.k.localTab.number(enc)
	if err == nil && packed != 0 {
		e.localShort.put(packed, i)
	}
	return i, err
}

// settle numbers process p's local state in w after something other than
// resetProc set it (a handler, InitLeader), and makes it the numbered
// value: what the encoding says, whether the step ran its handler or took
// a remembered effect (a Codec that drops a field drops it at once).
func (e *expander[L, M]) settle(w *world[L, M], p int) {
	if e.k.localRefs {
		return // written by value
	}
	e.scratch = e.k.codec.AppendLocal(e.scratch[:0], &w.local[p])
	i, err := e.localNumber(e.scratch)
	if err != nil {
		panic(fmt.Sprintf("mcheck: the algorithm's Codec does not decode the local state it encoded: %v", err))
	}
	w.lid[p], w.local[p] = i, e.localAt(i).val
}
