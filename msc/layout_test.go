package msc

import (
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

func loadChart(t *testing.T, path string) *chart {
	t.Helper()
	fh, err := os.Open(path)
	require.NoError(t, err)
	defer fh.Close()
	f, err := trace.Read(fh)
	require.NoError(t, err)
	// As the model renders the run: the kernel's data (each process's
	// elected leader) is not in the file.
	f, err = trace.Replayed(f, specs.Builtin())
	require.NoError(t, err)
	c, err := analyze(f)
	require.NoError(t, err)
	return c
}

const (
	lasso     = "../testdata/golden/circulating-election.Termination-fair-cycle.trace.json"
	stuck     = "../testdata/golden/circulating-election.Termination-stuck.trace.json"
	bully     = "../testdata/golden/bully-restart.SingleLeader-invariant.trace.json"
	unrel     = "../testdata/golden/bully-unreliable-termination.Termination-fair-cycle.trace.json"
	lelann6   = "../testdata/msc/lelann6-crash.Termination-fair-cycle.trace.json"
	elect4    = "ELECTION(4)"
	electionM = "ELECTION"
)

func TestMessagesOfTheLasso(t *testing.T) {
	c := loadChart(t, lasso)
	// initiate p2; p2→p3, p3→p4, p4→p1 delivered; crash p4; then ELECTION(4)
	// goes p1→p2→p3→p1 (the ring repaired) and is in flight p1→p2 at the end.
	want := []message{
		{from: 1, to: 2, text: "ELECTION(2)", sent: 1, end: 2, fate: delivered},
		{from: 2, to: 3, text: "ELECTION(3)", sent: 2, end: 3, fate: delivered},
		{from: 3, to: 0, text: elect4, sent: 3, end: 4, fate: delivered},
		{from: 0, to: 1, text: elect4, sent: 4, end: 6, fate: delivered},
		{from: 1, to: 2, text: elect4, sent: 6, end: 7, fate: delivered},
		{from: 2, to: 0, text: elect4, sent: 7, end: 8, fate: delivered},
		{from: 0, to: 1, text: elect4, sent: 8, end: 8, fate: inFlight},
	}
	assert.Equal(t, want, c.msgs)
	assert.Equal(t, 5, c.cycle)
	assert.Equal(t, []mark{{row: 1, lane: 1, kind: markStart, text: "initiate"}, {row: 5, lane: 3, kind: markCrash, text: "crash"}}, c.marks)
	assert.Equal(t, []string{electionM}, c.kinds)
	assert.False(t, c.alive[5][3])
	assert.True(t, c.alive[4][3])
	assert.Empty(t, c.warnings)
}

func TestLostMessage(t *testing.T) {
	c := loadChart(t, stuck)
	last := c.msgs[len(c.msgs)-1]
	assert.Equal(t, message{from: 2, to: 3, text: "ELECTION(3)", sent: 3, end: 4, fate: lost}, last)
}

func TestNotesAndRestart(t *testing.T) {
	c := loadChart(t, bully)
	assert.Equal(t, []note{
		{row: 0, lane: 0, text: "elected = 3"}, {row: 0, lane: 1, text: "elected = 3"}, {row: 0, lane: 2, text: "elected = 3"},
		{row: 2, lane: 1, text: "elected := ⊥"}, {row: 3, lane: 1, text: "elected := 2"}, {row: 4, lane: 2, text: "elected := 3"},
	}, c.notes, "no note for the crash's reset of p3; a note for what the restart decides")
	kinds := []int{}
	for _, m := range c.marks {
		kinds = append(kinds, m.kind)
	}
	assert.Equal(t, []int{markCrash, markStart, markTimeout, markRestart}, kinds)
	// restart p3 broadcasts COORDINATOR(3): two messages, in flight.
	n := 0
	for _, m := range c.msgs {
		if m.sent == 4 {
			n++
			assert.Equal(t, inFlight, m.fate)
		}
	}
	assert.Equal(t, 2, n)
}

// Every delivery of the big trace matches its action, and FIFO order holds.
func TestMessagesOfTheBigTrace(t *testing.T) {
	c := loadChart(t, lelann6)
	require.Len(t, c.lanes, 6)
	for _, r := range c.rows[1:] {
		if r.deliver < 0 {
			continue
		}
		m := c.msgs[r.deliver]
		assert.Equal(t, "deliver "+c.lanes[m.from]+"→"+c.lanes[m.to]+" "+m.text, r.action)
		assert.Less(t, m.sent, m.end)
	}
	for i, a := range c.msgs {
		for _, b := range c.msgs[i+1:] {
			if a.from == b.from && a.to == b.to && a.sent < b.sent && a.fate == delivered && b.fate == delivered {
				assert.Less(t, a.end, b.end, "FIFO: %v before %v", a, b)
			}
		}
	}
	assert.Empty(t, c.warnings)
}

// The layout: no two labels overlap, and arrows pass under labels only
// where nothing else was free (one label in the dense middle of the
// 6-process trace, where three parallel bundles of arrows meet at p3).
func TestLabelsAvoidArrowsAndEachOther(t *testing.T) {
	for _, tc := range []struct {
		path      string
		crossings int
	}{{lasso, 0}, {stuck, 0}, {bully, 0}, {unrel, 0}, {lelann6, 1}, {race, 0}, {partial, 0}, {crLasso, 0}} {
		c := loadChart(t, tc.path)
		l := pickLayout(c)
		labels := l.labels()
		for i, a := range labels {
			for _, b := range labels[i+1:] {
				assert.False(t, a.b.overlaps(b.b), "%s: labels %v and %v overlap", tc.path, a.parts, b.parts)
			}
			assert.GreaterOrEqual(t, a.b.x0, l.lanesLeft, "%s: %v is in the gutter", tc.path, a.parts)
			assert.LessOrEqual(t, a.b.x1, l.lanesRight+4, "%s: %v is past the lanes", tc.path, a.parts)
		}
		assert.LessOrEqual(t, l.crossings(), tc.crossings, tc.path)
	}
}

func TestSegmentHitsBox(t *testing.T) {
	b := box{10, 10, 20, 20}
	assert.True(t, segmentHitsBox(point{0, 0}, point{30, 30}, b))
	assert.True(t, segmentHitsBox(point{15, 0}, point{15, 30}, b))
	assert.True(t, segmentHitsBox(point{12, 12}, point{13, 13}, b), "inside")
	assert.False(t, segmentHitsBox(point{0, 0}, point{30, 0}, b))
	assert.False(t, segmentHitsBox(point{0, 30}, point{9, 21}, b))
	assert.False(t, segmentHitsBox(point{0, 0}, point{5, 5}, b), "stops short")
}

// Which step sent which message is the steps' data (trace.Step.Sends, the
// kernel's), not worked out from the snapshots: a file as read, without
// that data, is no chart until it is replayed.
func TestChartNeedsTheStepsSends(t *testing.T) {
	fh, err := os.Open(lasso)
	require.NoError(t, err)
	defer fh.Close()
	f, err := trace.Read(fh)
	require.NoError(t, err)
	_, err = analyze(f)
	require.EqualError(t, err, "msc: step 1 has no record of what it sends: draw the run as the model renders it (trace.New, or trace.Replayed for a file)")

	c := loadChart(t, lasso)
	for _, m := range c.msgs {
		if m.sent == 0 {
			continue
		}
		sends := c.f.Steps[m.sent].Sends
		assert.True(t, slices.ContainsFunc(sends, func(s model.Send) bool {
			return s.FromName() == c.lanes[m.from] && s.ToName() == c.lanes[m.to] && s.Msg.String() == m.text
		}), "%s from %s to %s is one of step %d's sends", m.text, c.lanes[m.from], c.lanes[m.to], m.sent)
	}
}
