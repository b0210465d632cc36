package model

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/mitchellh/hashstructure/v2"
)

// internCodec is the generic path for algorithms without a Codec: each
// distinct local state and message is numbered the first time it is seen,
// and a global state is encoded as those numbers. Distinct values are few
// (tens to thousands) even when global states are millions, so the tables
// stay small. A value is identified by itself, as the key of a Go map, when
// Go's == is the identity (byEquality), and otherwise (slices, maps,
// floats) by its hashstructure/v2 hash, a reflective walk that costs more
// than the rest of a step: built-in specs bring a Codec of their own.
type internCodec[L, M any] struct {
	locals *internTable[L]
	msgs   *internTable[M]
}

// internTable numbers the values of one type. Workers read it without a
// lock, through read, a view that is never written again once published;
// a value that the view does not have yet takes the lock, and the view is
// published anew after about as many such calls as the table has values,
// so that copying it costs a constant per call.
type internTable[T any] struct {
	read atomic.Pointer[internView[T]]

	mu     sync.Mutex
	all    internView[T] // every value numbered so far, under mu
	misses int           // calls that took the lock since read was published

	// equal: byEquality holds for T, and the views' byValue numbers the
	// values themselves; their byHash numbers hashstructure hashes
	// otherwise.
	equal bool
	// deep: T holds slices or maps, so values are stored and handed out
	// as copies of their own. A handler that changes such a value in
	// place (a fault, CheckSteps tells) then changes only its own copy,
	// never the value the table holds for every state that has it.
	deep bool

	bytes atomic.Int64 // about what the table holds (sharedBytes)
}

// internEntryBytes is about what numbering one value costs an internTable
// besides the value itself: an entry in the index and one in its published
// copy (an interface or a hash and a number, in a map between half and
// seven eighths full, about 64 bytes each). The value is counted three
// times: in values and the published values (arrays that grow by
// doubling), and boxed as byValue's key. What a deep value's slices and
// maps point to is not counted.
const internEntryBytes = 2 * 64

// sharedBytes is about what the table holds.
func (t *internTable[T]) sharedBytes() int64 { return t.bytes.Load() }

// internView is an index of values and the values by number.
type internView[T any] struct {
	byValue map[any]uint32 // keys are Ts
	byHash  map[uint64]uint32
	values  []T
}

func newInternCodec[L, M any]() (*internCodec[L, M], error) {
	for _, t := range []reflect.Type{reflect.TypeFor[L](), reflect.TypeFor[M]()} {
		if err := checkHashable(t, t.String()); err != nil {
			return nil, fmt.Errorf("generic state hashing: %w", err)
		}
	}
	return &internCodec[L, M]{locals: newInternTable[L](), msgs: newInternTable[M]()}, nil
}

func newInternTable[T any]() *internTable[T] {
	t := reflect.TypeFor[T]()
	tab := &internTable[T]{equal: byEquality(t), deep: hasRefs(t)}
	if tab.equal {
		tab.all.byValue = map[any]uint32{}
	} else {
		tab.all.byHash = map[uint64]uint32{}
	}
	tab.publish()
	return tab
}

// publish makes what the table has numbered so far the readers' view.
// Under mu, or before the table is shared.
func (t *internTable[T]) publish() {
	t.read.Store(&internView[T]{
		byValue: maps.Clone(t.all.byValue),
		byHash:  maps.Clone(t.all.byHash),
		values:  slices.Clip(t.all.values), // later appends write past its end
	})
	t.misses = 0
}

// missed counts a call that took the lock. Under mu.
func (t *internTable[T]) missed() {
	if t.misses++; t.misses > len(t.all.values)+16 {
		t.publish()
	}
}

// byEquality reports whether Go's == on values of t is the identity that
// hashstructure gives them, so that a map keyed by the value can number
// them: t is comparable (no slices or maps; checkHashable ruled out
// pointers, interfaces, chans and funcs), holds no floats (NaN != NaN
// would number one state again at every step, and -0 == +0 would merge
// two that hashstructure tells apart), no field with a hash tag
// (hashstructure honours `hash:"ignore"` and the like) and no struct that
// chooses its own hash or fields (hashstructure.Hashable, Includable).
func byEquality(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.Slice, reflect.Map:
		return false
	case reflect.Array:
		return byEquality(t.Elem())
	case reflect.Struct:
		for _, own := range []reflect.Type{reflect.TypeFor[hashstructure.Hashable](), reflect.TypeFor[hashstructure.Includable]()} {
			if t.Implements(own) || reflect.PointerTo(t).Implements(own) {
				return false
			}
		}
		for i := range t.NumField() {
			if f := t.Field(i); f.Tag.Get("hash") != "" || !byEquality(f.Type) {
				return false
			}
		}
	}
	return t.Comparable()
}

// checkHashable rejects types whose values hashstructure cannot tell apart:
// it skips unexported struct fields, so two different states would merge.
func checkHashable(t reflect.Type, path string) error {
	switch t.Kind() {
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				return fmt.Errorf("field %s.%s is unexported, and hashstructure ignores unexported fields: export it or give the algorithm a Codec", path, f.Name)
			}
			if err := checkHashable(f.Type, path+"."+f.Name); err != nil {
				return err
			}
		}
	case reflect.Pointer, reflect.Interface:
		// hashstructure hashes a nil pointer like a pointer to the zero
		// value, and a nil interface like 0: states would merge.
		return fmt.Errorf("%s is a %s, and hashstructure cannot tell nil from a zero value: use a plain value, or give the algorithm a Codec", path, t.Kind())
	case reflect.Slice, reflect.Array:
		return checkHashable(t.Elem(), path+"[]")
	case reflect.Map:
		if err := checkHashable(t.Key(), path+"[key]"); err != nil {
			return err
		}
		return checkHashable(t.Elem(), path+"[]")
	case reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return fmt.Errorf("%s has kind %s, which cannot be part of a state", path, t.Kind())
	}
	return nil
}

// number is v's number, given it the first time v is seen.
func (t *internTable[T]) number(v *T) uint32 {
	var h uint64
	if t.equal {
		if i, ok := t.read.Load().byValue[*v]; ok {
			return i
		}
	} else {
		var err error
		if h, err = hashstructure.Hash(*v, hashstructure.FormatV2, nil); err != nil {
			// checkHashable ruled out the types hashstructure refuses.
			panic(fmt.Sprintf("mcheck: hashstructure: %v", err))
		}
		if i, ok := t.read.Load().byHash[h]; ok {
			return i
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.missed()
	var i uint32
	var ok bool
	if t.equal {
		i, ok = t.all.byValue[*v]
	} else {
		i, ok = t.all.byHash[h]
	}
	if ok {
		return i
	}
	i = uint32(len(t.all.values))
	if t.equal {
		t.all.byValue[*v] = i
	} else {
		t.all.byHash[h] = i
	}
	t.all.values = append(t.all.values, t.copyOf(*v))
	t.bytes.Add(internEntryBytes + 3*int64(unsafe.Sizeof(*v)))
	return i
}

// value is the value numbered i, a copy of its own when the table is deep.
func (t *internTable[T]) value(i uint64) (T, error) {
	if vs := t.read.Load().values; i < uint64(len(vs)) {
		return t.copyOf(vs[i]), nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.missed()
	if i >= uint64(len(t.all.values)) {
		var zero T
		return zero, errors.New("unknown interned value")
	}
	return t.copyOf(t.all.values[i]), nil
}

// decode reads a number that AppendLocal or AppendMsg wrote into v.
func decode[T any](t *internTable[T], b []byte, v *T) ([]byte, error) {
	i, k := binary.Uvarint(b)
	if k <= 0 {
		return nil, errShort
	}
	x, err := t.value(i)
	if err != nil {
		return nil, err
	}
	*v = x
	return b[k:], nil
}

// copyOf is v, with slices and maps of its own when the table is deep.
func (t *internTable[T]) copyOf(v T) T {
	if !t.deep {
		return v
	}
	return deepCopy(reflect.ValueOf(v)).Interface().(T)
}

// hasRefs reports whether values of t share memory when copied: slices and
// maps (checkHashable rules out pointers, interfaces, chans and funcs).
func hasRefs(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Map:
		return true
	case reflect.Array:
		return hasRefs(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasRefs(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// deepCopy copies v with new slices and maps throughout.
func deepCopy(v reflect.Value) reflect.Value {
	t := v.Type()
	if !hasRefs(t) {
		return v
	}
	switch t.Kind() {
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(t, v.Len(), v.Len())
		if !hasRefs(t.Elem()) {
			reflect.Copy(c, v)
			return c
		}
		for i := range v.Len() {
			c.Index(i).Set(deepCopy(v.Index(i)))
		}
		return c
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeMapWithSize(t, v.Len())
		for it := v.MapRange(); it.Next(); {
			c.SetMapIndex(deepCopy(it.Key()), deepCopy(it.Value()))
		}
		return c
	}
	c := reflect.New(t).Elem() // a struct or an array
	c.Set(v)
	if t.Kind() == reflect.Array {
		for i := range v.Len() {
			c.Index(i).Set(deepCopy(v.Index(i)))
		}
		return c
	}
	for i := range v.NumField() {
		if hasRefs(t.Field(i).Type) {
			c.Field(i).Set(deepCopy(v.Field(i)))
		}
	}
	return c
}

// sharedBytes is about what the codec's tables hold.
func (c *internCodec[L, M]) sharedBytes() int64 {
	return c.locals.sharedBytes() + c.msgs.sharedBytes()
}

func (c *internCodec[L, M]) AppendLocal(b []byte, l *L) []byte {
	return binary.AppendUvarint(b, uint64(c.locals.number(l)))
}

func (c *internCodec[L, M]) DecodeLocal(b []byte, l *L) ([]byte, error) {
	return decode(c.locals, b, l)
}

func (c *internCodec[L, M]) AppendMsg(b []byte, m *M) []byte {
	return binary.AppendUvarint(b, uint64(c.msgs.number(m)))
}

func (c *internCodec[L, M]) DecodeMsg(b []byte, m *M) ([]byte, error) {
	return decode(c.msgs, b, m)
}
