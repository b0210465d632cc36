package model

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// noDirections is RingLocal with no direction to send in.
type noDirections struct{ bareAlg }

func (noDirections) Around() []Dir { return nil }

// typedAs is MsgTyper with the given names.
type typedAs struct {
	bareAlg
	names []string
}

func (a typedAs) MsgTypes() []string { return a.names }
func (typedAs) MsgType(*tMsg) int    { return 0 }

// An optional interface that says something impossible is an error of
// New, not a kernel that misbehaves later.
func TestOptionalInterfacesThatSayTooLittle(t *testing.T) {
	_, err := New[tLocal, tMsg](noDirections{}, Config{N: 3}, nil)
	require.EqualError(t, err, "RingLocal: Around() names no direction")

	_, err = New[tLocal, tMsg](typedAs{}, Config{N: 3}, nil)
	require.EqualError(t, err, fmt.Sprintf("MsgTyper: 0 message types: name 1 to %d", MaxMsgTypes))

	many := make([]string, MaxMsgTypes+1)
	for i := range many {
		many[i] = string(rune('A' + i))
	}
	_, err = New[tLocal, tMsg](typedAs{names: many}, Config{N: 3}, nil)
	require.ErrorContains(t, err, fmt.Sprintf("MsgTyper: %d message types", MaxMsgTypes+1))

	_, err = New[tLocal, tMsg](typedAs{names: []string{"ONE"}}, Config{N: 3}, nil)
	require.NoError(t, err)
}
