// Package spectest holds what the built-in specs' tests share: the ring
// the handler tests run on, its environment, the runners of their tables
// (given a local state in an environment, call a handler, assert the local
// state and the sends) and the codec round trip.
package spectest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/specs/internal/wire"
)

// RoundTrip checks one half of a Codec (AppendLocal/DecodeLocal or
// AppendMsg/DecodeMsg) on each value: encoding appends to what is there,
// decoding restores the value and returns the bytes after it, and every
// truncated encoding fails with wire.ErrShort.
func RoundTrip[T any](t *testing.T, encode func([]byte, *T) []byte, decode func([]byte, *T) ([]byte, error), values ...T) {
	t.Helper()
	for _, v := range values {
		tail := []byte{0xfe, 0xed}
		b := encode([]byte{0xaa}, &v)
		require.Equal(t, byte(0xaa), b[0], "encoding must append")
		var got T
		rest, err := decode(append(b[1:], tail...), &got)
		require.NoError(t, err)
		assert.Equal(t, v, got)
		assert.Equal(t, tail, rest)

		enc := encode(nil, &v)
		for n := 0; n < len(enc); n++ {
			_, err := decode(enc[:n], &got)
			assert.ErrorIs(t, err, wire.ErrShort, "%+v truncated to %d bytes", v, n)
		}
	}
}
