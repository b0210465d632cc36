package ts_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/zeebo/xxh3"

	"github.com/mcheck/mcheck/ts"
)

// Systems fill batches with Add.
func TestBatchAdd(t *testing.T) {
	var b ts.Batch
	state := []byte{1, 2, 3}
	b.Add(7, 2, 0b101, state)
	b.Add(8, ts.NoFairness, 0, []byte{4})
	state[0] = 9 // Add copied the encoding
	assert.Len(t, b.Succs, 2)
	assert.Equal(t, []byte{1, 2, 3}, b.State(0))
	assert.Equal(t, []byte{4}, b.State(1))
	assert.Equal(t, ts.Succ{Action: 7, Fair: 2, FP: xxh3.Hash([]byte{1, 2, 3}), Props: 0b101}, withoutOffsets(b.Succs[0]))
	b.Reset()
	assert.Empty(t, b.Succs)
}

// An expander may append a successor's encoding to Tail in place and
// Commit it: the same successor as Add, with the step's sends.
func TestBatchCommit(t *testing.T) {
	var b ts.Batch
	b.Add(1, ts.NoFairness, 0, []byte{5})
	sent := ts.Sends{ByType: [ts.MaxMsgTypes]uint16{2}, Lost: 1}
	b.Commit(append(b.Tail(), 1, 2, 3), 7, 2, xxh3.Hash([]byte{1, 2, 3}), 0b101, sent)
	assert.Len(t, b.Succs, 2)
	assert.Equal(t, []byte{5}, b.State(0))
	assert.Equal(t, []byte{1, 2, 3}, b.State(1))
	assert.Equal(t, ts.Succ{Action: 7, Fair: 2, FP: xxh3.Hash([]byte{1, 2, 3}), Props: 0b101, Sent: sent}, withoutOffsets(b.Succs[1]))
	assert.Equal(t, 2, b.Succs[1].Sent.Total())
}

func withoutOffsets(s ts.Succ) ts.Succ {
	return ts.Succ{Action: s.Action, Fair: s.Fair, FP: s.FP, Props: s.Props, Sent: s.Sent}
}
