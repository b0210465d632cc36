// Package wire holds the few encoding primitives the built-in specs use for
// their canonical state encodings.
package wire

import (
	"encoding/binary"
	"errors"
)

// ErrShort reports an encoding that ends too early.
var ErrShort = errors.New("truncated encoding")

// AppendUint appends a non-negative int as a uvarint.
func AppendUint(b []byte, v int) []byte { return binary.AppendUvarint(b, uint64(v)) }

// AppendBool appends one byte, 0 or 1.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// Reader reads what AppendUint and AppendBool wrote; the first error sticks.
type Reader struct {
	B   []byte
	Err error
}

// Uint reads a uvarint.
func (r *Reader) Uint() int {
	v, k := binary.Uvarint(r.B)
	if k <= 0 {
		r.fail()
		return 0
	}
	r.B = r.B[k:]
	return int(v)
}

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if len(r.B) == 0 {
		r.fail()
		return 0
	}
	v := r.B[0]
	r.B = r.B[1:]
	return v
}

// Bool reads one byte as a bool.
func (r *Reader) Bool() bool { return r.Byte() != 0 }

// Done returns the unread bytes and the first error.
func (r *Reader) Done() ([]byte, error) { return r.B, r.Err }

func (r *Reader) fail() {
	if r.Err == nil {
		r.Err = ErrShort
	}
	r.B = nil
}
