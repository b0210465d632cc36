package model

import (
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
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

// internTable numbers the values of one type, by the values themselves
// when byEquality holds for it and by their hashstructure hashes otherwise
// (one of byValue and byHash; numbering.go says how workers share them).
type internTable[T any] struct {
	byValue *numbering[any, T] // keys are Ts
	byHash  *numbering[uint64, T]
	// deep: T holds slices or maps, so values are stored and handed out
	// as copies of their own. A handler that changes such a value in
	// place (a fault, CheckSteps tells) then changes only its own copy,
	// never the value the table holds for every state that has it.
	deep bool
}

// sharedBytes is about what the table holds. What a deep value's slices
// and maps point to is not counted.
func (t *internTable[T]) sharedBytes() int64 {
	if t.byValue != nil {
		return t.byValue.sharedBytes()
	}
	return t.byHash.sharedBytes()
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
	tab := &internTable[T]{deep: hasRefs(t)}
	if byEquality(t) {
		tab.byValue = newNumbering[any, T]()
	} else {
		tab.byHash = newNumbering[uint64, T]()
	}
	return tab
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
	// The table keeps a copy of v, and counts it twice (in its values and
	// their published view) beside the key.
	keep := func() (T, int64, error) { return t.copyOf(*v), 2 * int64(unsafe.Sizeof(*v)), nil }
	if t.byValue != nil {
		if i, ok := t.byValue.index()[*v]; ok {
			return i
		}
		i, _ := t.byValue.number(*v, keep) // keep makes no error
		return i
	}
	h, err := hashstructure.Hash(*v, hashstructure.FormatV2, nil)
	if err != nil {
		// checkHashable ruled out the types hashstructure refuses.
		panic(fmt.Sprintf("mcheck: hashstructure: %v", err))
	}
	if i, ok := t.byHash.index()[h]; ok {
		return i
	}
	i, _ := t.byHash.number(h, keep)
	return i
}

var errUnknownInterned = errors.New("unknown interned value")

// value is the value numbered i, a copy of its own when the table is deep.
func (t *internTable[T]) value(i uint64) (T, error) {
	var x T
	var err error
	switch {
	case i >= 1<<32:
		err = errUnknownNumber
	case t.byValue != nil:
		x, err = t.byValue.val(uint32(i))
	default:
		x, err = t.byHash.val(uint32(i))
	}
	if err != nil {
		return x, errUnknownInterned
	}
	return t.copyOf(x), nil
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
