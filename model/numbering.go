package model

import (
	"errors"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
)

// numbering numbers values by their canonical bytes (issue 31), for the
// processes' local states (localtable.go): a state holds each as its
// number, so that what every state would otherwise compute again for the
// same value (decoding it, hashing it) is computed once, when the value is
// first numbered. Distinct local states are few (tens to thousands) even
// when states are millions.
//
// The numbering depends on the order in which workers meet values, so an
// encoding that holds numbers is read only by the kernel that wrote it;
// fingerprints hash the values' canonical bytes, the same in every kernel
// and at any worker count.
//
// Workers read the table without a lock through read, an index that is
// never written again once published, as internTable does: keys it does
// not have take the lock, and it is published anew after about as many
// such calls as the table has values. The values by number are published
// at once (known): a number is handed out only once its value is readable,
// and stored states hold numbers.
type numbering[V any] struct {
	read  atomic.Pointer[map[string]uint32]
	known atomic.Pointer[[]V]

	mu     sync.Mutex
	byKey  map[string]uint32 // under mu, as are values and misses
	values []V
	misses int
	// make builds the value of key, under mu; it may number other keys
	// first (numberLocked). valBytes is what a value holds on the heap
	// besides its key and its place in values.
	make     func(key []byte) (V, error)
	valBytes int64
	bytes    atomic.Int64 // about what the table holds (sharedBytes)
}

// entryBytes is about what numbering one value costs the table besides its
// key's bytes and the value's own: an entry in byKey and one in the
// published copy of it (a string header and a number, in a map between half
// and seven eighths full, about 64 bytes each), and its place in values
// and in the published values (8 bytes each, in arrays that grow by
// doubling).
const entryBytes = 2*64 + 2*16

// sharedBytes is about what the table holds: the bytes of every key and
// value, and entryBytes each.
func (t *numbering[V]) sharedBytes() int64 { return t.bytes.Load() }

var errUnknownNumber = errors.New("a number that was never given")

func newNumbering[V any](make func(key []byte) (V, error), valBytes int64) *numbering[V] {
	t := &numbering[V]{make: make, valBytes: valBytes}
	t.byKey = map[string]uint32{}
	t.publish()
	return t
}

// publish makes what the table has numbered so far the readers' view.
// Under mu, or before the table is shared.
func (t *numbering[V]) publish() {
	vals, index := slices.Clip(t.values), maps.Clone(t.byKey)
	t.read.Store(&index)
	t.known.Store(&vals)
	t.misses = 0
}

// number is the number of key, given it the first time, or make's error
// (a corrupt state).
func (t *numbering[V]) number(key []byte) (uint32, error) {
	if i, ok := (*t.read.Load())[string(key)]; ok {
		return i, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.misses++; t.misses > len(t.values)+16 {
		defer t.publish()
	}
	return t.numberLocked(key)
}

// numberLocked is number under mu.
func (t *numbering[V]) numberLocked(key []byte) (uint32, error) {
	if i, ok := t.byKey[string(key)]; ok {
		return i, nil
	}
	key = slices.Clone(key) // the caller's buffer; the value may keep it
	v, err := t.make(key)
	if err != nil {
		return 0, err
	}
	i := uint32(len(t.values))
	t.values = append(t.values, v)
	t.byKey[string(key)] = i
	t.bytes.Add(int64(len(key)) + t.valBytes + entryBytes)
	vals := slices.Clip(t.values) // later appends write past its end
	t.known.Store(&vals)
	return i, nil
}

// val is the value numbered i.
func (t *numbering[V]) val(i uint32) (V, error) {
	if vs := *t.known.Load(); int(i) < len(vs) {
		return vs[i], nil
	}
	var zero V
	return zero, errUnknownNumber
}

// vals is the readers' view of the values: an expander keeps it and
// indexes it, and takes it again when it meets a number it does not have
// (a call on a generic table per lookup measured 4% of a step).
func (t *numbering[V]) vals() []V { return *t.known.Load() }

// mustVal is val for a number the kernel itself gave.
func (t *numbering[V]) mustVal(i uint32) V {
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
