package trace_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/trace"
)

// A message of age D is due where the bound holds (sync, partial after
// gst) and late before gst; younger ones are unmarked.
func TestAgeMarks(t *testing.T) {
	no, yes := false, true
	for _, c := range []struct {
		age, delay int
		gst        *bool
		want       string
	}{
		{0, 1, nil, "OK(3)@0"},
		{1, 1, nil, "OK(3)@1(due)"},
		{1, 2, nil, "OK(3)@1"},
		{2, 2, nil, "OK(3)@2(due)"},
		{1, 1, &no, "OK(3)@1(late)"},
		{1, 1, &yes, "OK(3)@1(due)"},
		{1, 0, nil, "OK(3)@1"},
	} {
		assert.Equal(t, c.want, trace.MarkedAge("OK(3)", c.age, c.delay, c.gst), "%+v", c)
	}
}

// The text trace of Bully's race (T = 2D) marks the OK due after the tick
// and says, at p2's timeout, that the timeout went before the due OK.
func TestTimedTextMarksTheRace(t *testing.T) {
	var buf bytes.Buffer
	trace.WriteText(&buf, timedFile(t, model.Sync), false)
	text := buf.String()
	assert.Contains(t, text, "      chan p2→p1: [OK(2)@0] → [OK(2)@1(due)]\n")
	assert.Contains(t, text, "  timeout-ok p1   ◀ race: p1 times out before OK(2) from p2, due now, arrives (a timer at 0 and a due message go in either order)\n")
	assert.NotContains(t, text, "@1(late)")
}

// With partial timing before gst the same message is late, and the full
// states mark it too.
func TestPartialTextMarksLateMessages(t *testing.T) {
	var buf bytes.Buffer
	trace.WriteText(&buf, timedFile(t, model.Partial), true)
	text := buf.String()
	assert.Contains(t, text, "@1(late)")
	assert.NotContains(t, text, "@1(due)")
	assert.NotContains(t, text, "◀ race")
}
