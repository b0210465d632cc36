package model

import (
	"errors"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
)

// numbering numbers values by a key: the processes' local states
// by their Codec bytes (localtable.go), and without a Codec the local
// states and messages by themselves or their hashstructure hash
// (intern.go). A state holds each value as its number, so that what every
// state would otherwise compute again for the same value (decoding it,
// hashing it) is computed once, when the value is first numbered. Distinct
// values are few (tens to thousands) even when states are millions.
//
// The numbering depends on the order in which workers meet values, so an
// encoding that holds numbers is read only by the kernel that wrote it;
// fingerprints hash the values' canonical bytes, the same in every kernel
// and at any worker count.
//
// Workers read the table without a lock through index, a map that is never
// written again once published; keys it does not have take the lock
// (number), and it is published anew after about as many such calls as the
// table has values, so that copying it costs a constant per call. The
// values by number are published at once (vals): a number is handed out
// only once its value is readable, and stored states hold numbers.
//
// Callers look a key up in index themselves, where a key made from bytes
// (m[string(b)]) or boxed in an interface costs no allocation, and call
// number with the key made for keeps only when index does not have it.
type numbering[K comparable, V any] struct {
	read  atomic.Pointer[map[K]uint32]
	known atomic.Pointer[[]V]

	mu     sync.Mutex
	byKey  map[K]uint32 // under mu, as are values and misses
	values []V
	misses int
	bytes  atomic.Int64 // about what the table holds (sharedBytes)
}

// entryBytes is about what numbering one value costs the table besides what
// its key and its value hold on the heap: an entry in byKey and one in the
// published copy of it (a key and a number, in a map between half and seven
// eighths full, about 64 bytes each), and its place in values and in the
// published values (8 bytes each, in arrays that grow by doubling).
const entryBytes = 2*64 + 2*16

// sharedBytes is about what the table holds: entryBytes for every value,
// and what number's make said each holds besides.
func (t *numbering[K, V]) sharedBytes() int64 { return t.bytes.Load() }

var errUnknownNumber = errors.New("a number that was never given")

func newNumbering[K comparable, V any]() *numbering[K, V] {
	t := &numbering[K, V]{byKey: map[K]uint32{}}
	t.publish()
	return t
}

// publish makes what the table has numbered so far the readers' view.
// Under mu, or before the table is shared.
func (t *numbering[K, V]) publish() {
	vals, index := slices.Clip(t.values), maps.Clone(t.byKey)
	t.read.Store(&index)
	t.known.Store(&vals)
	t.misses = 0
}

// index is the readers' view of the keys, for a lookup without the lock.
func (t *numbering[K, V]) index() map[K]uint32 { return *t.read.Load() }

// number is the number of key, which index did not have: its number if
// another caller gave it one since, or a new one for the value make builds
// (make also says what the value and the key hold on the heap, for
// sharedBytes), or make's error (a corrupt state). make runs under the
// lock.
func (t *numbering[K, V]) number(key K, make func() (V, int64, error)) (uint32, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.misses++; t.misses > len(t.values)+16 {
		defer t.publish()
	}
	if i, ok := t.byKey[key]; ok {
		return i, nil
	}
	v, size, err := make()
	if err != nil {
		return 0, err
	}
	i := uint32(len(t.values))
	t.values = append(t.values, v)
	t.byKey[key] = i
	t.bytes.Add(entryBytes + size)
	vals := slices.Clip(t.values) // later appends write past its end
	t.known.Store(&vals)
	return i, nil
}

// val is the value numbered i.
func (t *numbering[K, V]) val(i uint32) (V, error) {
	if vs := *t.known.Load(); int(i) < len(vs) {
		return vs[i], nil
	}
	var zero V
	return zero, errUnknownNumber
}

// vals is the readers' view of the values: an expander keeps it and
// indexes it, and takes it again when it meets a number it does not have
// (a call on a generic table per lookup measured 4% of a step).
func (t *numbering[K, V]) vals() []V { return *t.known.Load() }

// mustVal is val for a number the kernel itself gave.
func (t *numbering[K, V]) mustVal(i uint32) V {
	v, err := t.val(i)
	if err != nil {
		panic("mcheck: internal error: " + err.Error())
	}
	return v
}

// memo remembers numbers by a key that is never 0, as a cache that keeps
// the last key of each slot: a lookup is a multiply, a load and a compare,
// against a Go map's hash and probe (Go maps for such lookups took about a
// tenth of a search, measured when channel contents were numbered too). A
// key it has forgotten is looked up again where it came from.
type memo struct{ slots []memoSlot }

type memoSlot struct {
	key uint64
	val uint32
}

const memoBits = 10

func newMemo() memo { return memo{slots: make([]memoSlot, 1<<memoBits)} }

func (m memo) slot(key uint64) *memoSlot {
	return &m.slots[(key*0x9e3779b97f4a7c15)>>(64-memoBits)]
}

func (m memo) get(key uint64) (uint32, bool) {
	s := m.slot(key)
	return s.val, s.key == key
}

func (m memo) put(key uint64, val uint32) { *m.slot(key) = memoSlot{key, val} }
