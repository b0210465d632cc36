package report

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The collision odds are a number in scientific form, and exactly 0 only
// where there were not two states to collide, which is said, not written
// "about 0".
func TestOdds(t *testing.T) {
	assert.Equal(t, "about 1.5e-10", odds(1.5e-10))
	assert.Equal(t, "about 3.8e-17", odds(3.8e-17))
	assert.Equal(t, "about 0.0035", odds(0.0035))
	assert.Equal(t, "0, with fewer than two states to tell apart", odds(0))
}
