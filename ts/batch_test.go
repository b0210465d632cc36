package ts_test

import (
	"reflect"
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

// Reset keeps the searcher's Settings and empties every other field: a
// field of Batch is a setting or one expansion's result, and a result that
// outlived Reset would leak into the next state's expansion.
func TestBatchResetKeepsSettingsOnly(t *testing.T) {
	var b ts.Batch
	b.Add(7, 2, 1, []byte{1})
	v := reflect.ValueOf(&b).Elem()
	var set func(f reflect.Value)
	set = func(f reflect.Value) {
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int, reflect.Int32:
			f.SetInt(3)
		case reflect.Uint64, reflect.Uint32:
			f.SetUint(3)
		case reflect.Slice:
			if f.Len() == 0 {
				f.Set(reflect.Append(f, reflect.Zero(f.Type().Elem())))
			}
		case reflect.Struct:
			for i := range f.NumField() {
				set(f.Field(i))
			}
		default:
			t.Fatalf("a field of kind %s: teach this test to fill it", f.Kind())
		}
	}
	typ := v.Type()
	for i := range typ.NumField() {
		if typ.Field(i).IsExported() {
			set(v.Field(i))
		}
	}
	settings := b.Settings
	assert.Equal(t, ts.Settings{Lazy: true, NoStateProps: true, StatePropsOnly: 3, NoSuccProps: true, SuccPropsOnly: 3}, settings)
	b.Reset()
	for i := range typ.NumField() {
		f, fv := typ.Field(i), v.Field(i)
		switch {
		case f.Name == "Settings":
			assert.Equal(t, settings, b.Settings, "Reset keeps the settings")
		case fv.Kind() == reflect.Slice:
			assert.Zero(t, fv.Len(), "Reset empties %s", f.Name)
		default:
			assert.True(t, fv.IsZero(), "Reset zeroes %s", f.Name)
		}
	}
}
