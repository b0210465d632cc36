package cex_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
)

// The names are those of the trace format (mcheck-trace/2): files written
// before the type existed must read the same.
func TestNamesAreTheFileFormat(t *testing.T) {
	want := []string{"invariant", "step", "stuck", "fair-cycle", "example", "witness", "unbounded-lasso"}
	require.Len(t, cex.Kinds, len(want))
	for i, k := range cex.Kinds {
		assert.Equal(t, want[i], k.String())
		b, err := json.Marshal(k)
		require.NoError(t, err)
		assert.Equal(t, `"`+want[i]+`"`, string(b))
		var back cex.Kind
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, k, back)
		assert.NotEmpty(t, k.Text())
		assert.NotEmpty(t, k.Chart())
	}
}

func TestNoKind(t *testing.T) {
	var k cex.Kind
	b, err := json.Marshal(k)
	require.NoError(t, err)
	assert.Equal(t, `""`, string(b), "a run that is no counterexample writes no kind, as before")
	require.NoError(t, json.Unmarshal([]byte(`""`), &k))
	assert.Equal(t, cex.Kind(0), k)
}

func TestUnknownName(t *testing.T) {
	var k cex.Kind
	err := json.Unmarshal([]byte(`"sometimes"`), &k)
	var unknown *cex.UnknownError
	require.ErrorAs(t, err, &unknown)
	assert.Equal(t, `kind "sometimes" is none of "invariant", "step", "stuck", "fair-cycle", "example", "witness", "unbounded-lasso"`, unknown.Error())
	_, err = json.Marshal(cex.Kind(200))
	assert.Error(t, err)
}
