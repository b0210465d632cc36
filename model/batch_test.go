package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/zeebo/xxh3"

	"github.com/mcheck/mcheck/model"
)

// Systems outside package model fill batches with Add.
func TestBatchAdd(t *testing.T) {
	var b model.Batch
	state := []byte{1, 2, 3}
	b.Add(7, 2, 0b101, state)
	b.Add(8, model.NoFairness, 0, []byte{4})
	state[0] = 9 // Add copied the encoding
	assert.Len(t, b.Succs, 2)
	assert.Equal(t, []byte{1, 2, 3}, b.State(0))
	assert.Equal(t, []byte{4}, b.State(1))
	assert.Equal(t, model.Succ{Action: 7, Fair: 2, FP: xxh3.Hash([]byte{1, 2, 3}), Props: 0b101}, withoutOffsets(b.Succs[0]))
	b.Reset()
	assert.Empty(t, b.Succs)
}

func withoutOffsets(s model.Succ) model.Succ {
	return model.Succ{Action: s.Action, Fair: s.Fair, FP: s.FP, Props: s.Props}
}
