package report

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/check"
)

// The sentences of a deepening that ran out of time, rendered from data.
func TestDeepeningVerdictSentences(t *testing.T) {
	two := check.BoundRun{MaxQueue: 2, Attempt: check.Attempt{Complete: true, States: 7_644_066, Discarded: 8_418_700, Elapsed: 52300 * time.Millisecond}}
	notStarted := &check.Deepening{TimeLimit: time.Minute, Elapsed: 56 * time.Second, Verdicts: 2, Bounds: []check.BoundRun{
		{MaxQueue: 1, Attempt: check.Attempt{Complete: true, States: 110_807, Discarded: 162_956, Elapsed: 540 * time.Millisecond}},
		two, {MaxQueue: 3, Attempt: check.Attempt{NotStarted: true, Left: 3900 * time.Millisecond}},
	}}
	assert.Equal(t, "the verdicts are for every run with at most 2 messages per channel; a run that needs more was not explored, so a violation that needs one is not ruled out; bound 3 was not started with 3.9 s left: it has all 7.6 M states of bound 2 and more, which took 52 s",
		deepeningVerdict(Of(&check.Report{Deepening: notStarted}, flagWords)))
	var b bytes.Buffer
	writeDeepening(&b, Of(&check.Report{Deepening: notStarted}, flagWords))
	assert.Equal(t, `
bound deepening (--max-queue auto, time limit 1m0s; the memory budget and --max-states apply to each bound), 56.00 s in all
  max-queue 1        110,807 states       162,956 discarded      0.54 s  complete
  max-queue 2      7,644,066 states     8,418,700 discarded     52.30 s  complete
  max-queue 3   not started: 3.9 s left, less than bound 2 took
  verdict: `+deepeningVerdict(Of(&check.Report{Deepening: notStarted}, flagWords))+"\n", b.String())

	stopped := &check.Deepening{TimeLimit: time.Minute, Elapsed: 60 * time.Second, Verdicts: 2, Bounds: []check.BoundRun{
		two, {MaxQueue: 3, Attempt: check.Attempt{States: 41_234_567, Elapsed: 7 * time.Second, Stopped: "interrupted: time limit of 1m0s reached"}},
	}}
	assert.Equal(t, "the verdicts are for every run with at most 2 messages per channel; a run that needs more was not explored, so a violation that needs one is not ruled out; bound 3 stopped at 60 s with 41 M states (interrupted: time limit of 1m0s reached)",
		deepeningVerdict(Of(&check.Report{Deepening: stopped}, flagWords)))
}
