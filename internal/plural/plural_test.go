package plural_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/internal/plural"
)

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		noun string
		want string
	}{
		{1, "message", "1 message"},
		{0, "message", "0 messages"},
		{2, "step", "2 steps"},
		{-1, "step", "-1 steps"},
		{1, "process", "1 process"},
		{3, "process", "3 processes"},
		{2, "crash", "2 crashes"},
		{2, "property", "2 properties"},
		{2, "day", "2 days"},
		{2, "ID", "2 IDs"},
	} {
		assert.Equal(t, c.want, plural.Count(c.n, c.noun))
	}
	assert.Equal(t, "1 run", plural.Count(uint64(1), "run"))
	assert.Equal(t, "states", plural.Noun(int64(1_000), "state"))
	assert.Equal(t, "state", plural.Noun(int64(1), "state"))
}
