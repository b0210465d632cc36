package claims_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/claims"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

func row(t *testing.T, name string) claims.Row {
	t.Helper()
	for _, r := range claims.Rows() {
		if r.Name == name {
			return r
		}
	}
	require.FailNow(t, "no row "+name)
	return claims.Row{}
}

func measure(t *testing.T, name string, n int) *check.Report {
	t.Helper()
	rep, err := claims.Measure(row(t, name), n)
	require.NoError(t, err)
	require.True(t, rep.Stats.Complete)
	require.Zero(t, rep.Stats.Discarded, "the measures are of the unbounded model")
	m := rep.Complexity.Measures
	require.NotNil(t, m, rep.Complexity.Skipped)
	require.True(t, m.CompleteRuns)
	return rep
}

// typeIndex finds a message type's index.
func typeIndex(t *testing.T, rep *check.Report, name string) int {
	for i, ty := range rep.Complexity.Types {
		if ty == name {
			return i
		}
	}
	require.FailNow(t, "no message type "+name)
	return -1
}

// witnessCount recounts a witness run's sends from its steps.
func witnessCount(tr []model.Sends) int {
	n := 0
	for _, s := range tr {
		n += s.Total()
	}
	return n
}

func sendsOf(rep *check.Report, name string) []model.Sends {
	tr, _ := rep.Complexity.Witness(name)
	var out []model.Sends
	for _, s := range tr.Steps[1:] {
		out = append(out, s.Sent)
	}
	return out
}

// Chang-Roberts with one initiator (notes: best case 2N messages and 2N
// latencies when the leader initiates; worst case 3N-1 and 3N-1 when its
// successor does).
func TestChangRobertsSingleInitiator(t *testing.T) {
	for n := 3; n <= 6; n++ {
		t.Run(fmt.Sprint("N=", n), func(t *testing.T) {
			for _, c := range []struct {
				row  string
				want int
			}{
				{"chang-roberts, one initiator: the leader", 2 * n},
				{"chang-roberts, one initiator: the leader's successor", 3*n - 1},
			} {
				rep := measure(t, c.row, n)
				m := rep.Complexity.Measures
				assert.Equal(t, c.want, m.Total.Max, c.row)
				assert.False(t, m.Total.Unbounded)
				assert.Equal(t, c.want, m.Total.Min, "%s: one run only", c.row)
				assert.Equal(t, c.want, witnessCount(sendsOf(rep, "max")), "the witness sends what it claims")
				s := rep.Complexity.Sync
				assert.Equal(t, c.want, s.Latency, "%s: synchronous latency", c.row)
				assert.Equal(t, c.want, s.Sent.Total())
				assert.False(t, s.Unbounded || s.Overflow)
			}
		})
	}
}

// All initiate with IDs in decreasing order: N(N+1)/2 + N at most, and the
// synchronous schedule sends all of them.
func TestChangRobertsAllInitiatorsDecreasing(t *testing.T) {
	for n := 3; n <= 6; n++ {
		rep := measure(t, "chang-roberts, all initiate, IDs decreasing", n)
		m := rep.Complexity.Measures
		want := n*(n+1)/2 + n
		assert.Equal(t, want, m.Total.Max, "N=%d", n)
		assert.Equal(t, 2*n, m.Total.Min, "N=%d: the leader's ELECTION overtakes the others", n)
		assert.Equal(t, n, m.ByType[typeIndex(t, rep, "ELECTED")].Max)
		assert.Equal(t, want, rep.Complexity.Sync.Sent.Total(), "N=%d", n)
		assert.Equal(t, want, witnessCount(sendsOf(rep, "max")))
		assert.Equal(t, 2*n, witnessCount(sendsOf(rep, "min")))
	}
}

// The slides' running tally for N=5: 5, 9, 12, 14, 15 ELECTION messages
// after rounds 0..4, then 5 ELECTED: 20.
func TestChangRobertsSlidesTally(t *testing.T) {
	rep := measure(t, "chang-roberts, all initiate, IDs decreasing", 5)
	s := rep.Complexity.Sync
	tally := make([]int, s.Rounds)
	for _, st := range s.Steps {
		tally[st.Round] += st.Sent.Total()
	}
	for r := 1; r < len(tally); r++ {
		tally[r] += tally[r-1]
	}
	assert.Equal(t, []int{5, 9, 12, 14, 15, 16, 17, 18, 19, 20, 20}, tally)
	assert.Equal(t, 10, s.Latency)
}

func TestLeLannQuadraticInEveryRun(t *testing.T) {
	for n := 3; n <= 6; n++ {
		m := measure(t, "lelann, all initiate", n).Complexity.Measures
		assert.Equal(t, n*n, m.Total.Min, "N=%d", n)
		assert.Equal(t, n*n, m.Total.Max, "N=%d", n)
	}
}

// The notes bound Hirschberg-Sinclair's messages in the worst arrangement
// of IDs, so the row searches every arrangement: IDs 1..N is not the worst
// (N=4: 32 messages at most, against 36). N=5 (1.5 million states) is left
// to the table.
func TestHirschbergSinclairWorstArrangementUnderBound(t *testing.T) {
	const row = "hirschberg-sinclair, all initiate, every arrangement (--ids perm)"
	for _, c := range []struct{ n, min, max, oneToN int }{{3, 21, 26, 26}, {4, 24, 36, 32}} {
		rep := measure(t, row, c.n)
		m := rep.Complexity.Measures
		assert.Equal(t, factorial(c.n), rep.Arrangements)
		assert.False(t, m.Total.Unbounded)
		assert.Equal(t, c.min, m.Total.Min, "N=%d", c.n)
		assert.Equal(t, c.max, m.Total.Max, "N=%d", c.n)
		assert.Equal(t, c.max, witnessCount(sendsOf(rep, "max")), "the witness sends what it claims")
		assert.LessOrEqual(t, m.Total.Max, claims.HSBound(c.n), "N=%d", c.n)
		assert.LessOrEqual(t, rep.Complexity.Sync.Sent.Total(), m.Total.Max)

		sp, err := specs.Builtin().Lookup("hirschberg-sinclair")
		require.NoError(t, err)
		one, err := check.Run(check.Request{Spec: sp, Config: model.Config{N: c.n}, Complexity: true, Workers: 1})
		require.NoError(t, err)
		assert.Equal(t, c.oneToN, one.Complexity.Measures.Total.Max, "N=%d, IDs 1..N", c.n)
	}
}

// Every arrangement of Chang-Roberts with all initiating: the worst is the
// notes' N(N+1)/2 + N, attained by IDs decreasing clockwise, and so is the
// worst synchronous schedule.
func TestChangRobertsWorstArrangement(t *testing.T) {
	for n := 3; n <= 5; n++ {
		rep := measure(t, "chang-roberts, all initiate, every arrangement (--ids perm)", n)
		want := n*(n+1)/2 + n
		assert.Equal(t, want, rep.Complexity.Measures.Total.Max, "N=%d", n)
		assert.Equal(t, 2*n, rep.Complexity.Measures.Total.Min, "N=%d", n)
		s := rep.Complexity.Sync
		assert.Equal(t, want, s.Sent.Total(), "N=%d", n)
		assert.Equal(t, append([]int{1}, decreasingFrom(n)...), s.Arrangement, "N=%d: 1, then N down to 2", n)
	}
}

func factorial(n int) int {
	if n <= 1 {
		return 1
	}
	return n * factorial(n-1)
}

// decreasingFrom is n, n-1, ..., 2.
func decreasingFrom(n int) []int {
	var ids []int
	for id := n; id >= 2; id-- {
		ids = append(ids, id)
	}
	return ids
}

// Bully's synchronous schedule with the coordinator down: the lowest
// detector causes N(N-1)/2 ELECTION messages in 4 latencies; the second
// highest N-2 COORDINATOR messages (in 3 latencies here: see the README,
// "Where the model and the notes differ").
func TestBullySynchronous(t *testing.T) {
	sp, err := specs.Builtin().Lookup("bully")
	require.NoError(t, err)
	for n := 3; n <= 6; n++ {
		for _, c := range []struct {
			row       string
			typ       int // index in ELECTION, OK, COORDINATOR
			msgs      int
			latency   int
			elections int
		}{
			{"bully, coordinator down, lowest detects", 0, n * (n - 1) / 2, 4, n * (n - 1) / 2},
			{"bully, coordinator down, second highest detects", 2, n - 2, 3, 1},
		} {
			sys, err := sp.Build.System(row(t, c.row).Config(n), nil)
			require.NoError(t, err)
			s := sys.(interface{ Synchronous() model.SyncRun }).Synchronous()
			assert.Equal(t, c.msgs, int(s.Sent.ByType[c.typ]), "%s N=%d", c.row, n)
			assert.Equal(t, c.latency, s.Latency, "%s N=%d", c.row, n)
			assert.Equal(t, c.elections, int(s.Sent.ByType[0]), "%s N=%d: ELECTION", c.row, n)
			assert.False(t, s.Unbounded || s.Overflow)
		}
	}
}
