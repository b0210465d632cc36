package model

import (
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/mitchellh/hashstructure/v2"
)

// internCodec is the generic path for algorithms without a Codec: each
// distinct local state and message is identified by its hashstructure/v2
// hash and numbered the first time it is seen, and a global state is encoded
// as those numbers. Distinct values are few (tens to thousands) even when
// global states are millions, so the tables stay small; the cost is one
// reflective hash per value encoded, which is why built-in specs bring a
// Codec of their own.
type internCodec[L, M any] struct {
	mu     sync.RWMutex
	locals internTable[L]
	msgs   internTable[M]
}

type internTable[T any] struct {
	index  map[uint64]uint32
	values []T
}

func newInternCodec[L, M any]() (*internCodec[L, M], error) {
	for _, t := range []reflect.Type{reflect.TypeFor[L](), reflect.TypeFor[M]()} {
		if err := checkHashable(t, t.String()); err != nil {
			return nil, fmt.Errorf("generic state hashing: %w", err)
		}
	}
	return &internCodec[L, M]{
		locals: internTable[L]{index: map[uint64]uint32{}},
		msgs:   internTable[M]{index: map[uint64]uint32{}},
	}, nil
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

func intern[T any](mu *sync.RWMutex, t *internTable[T], v *T) uint32 {
	h, err := hashstructure.Hash(*v, hashstructure.FormatV2, nil)
	if err != nil {
		// checkHashable ruled out the types hashstructure refuses.
		panic(fmt.Sprintf("mcheck: hashstructure: %v", err))
	}
	mu.RLock()
	i, ok := t.index[h]
	mu.RUnlock()
	if ok {
		return i
	}
	mu.Lock()
	defer mu.Unlock()
	if i, ok := t.index[h]; ok {
		return i
	}
	i = uint32(len(t.values))
	t.index[h] = i
	t.values = append(t.values, *v)
	return i
}

func lookup[T any](mu *sync.RWMutex, t *internTable[T], b []byte, v *T) ([]byte, error) {
	i, k := binary.Uvarint(b)
	if k <= 0 {
		return nil, errShort
	}
	mu.RLock()
	defer mu.RUnlock()
	if i >= uint64(len(t.values)) {
		return nil, errors.New("unknown interned value")
	}
	*v = t.values[i]
	return b[k:], nil
}

func (c *internCodec[L, M]) AppendLocal(b []byte, l *L) []byte {
	return binary.AppendUvarint(b, uint64(intern(&c.mu, &c.locals, l)))
}

func (c *internCodec[L, M]) DecodeLocal(b []byte, l *L) ([]byte, error) {
	return lookup(&c.mu, &c.locals, b, l)
}

func (c *internCodec[L, M]) AppendMsg(b []byte, m *M) []byte {
	return binary.AppendUvarint(b, uint64(intern(&c.mu, &c.msgs, m)))
}

func (c *internCodec[L, M]) DecodeMsg(b []byte, m *M) ([]byte, error) {
	return lookup(&c.mu, &c.msgs, b, m)
}
