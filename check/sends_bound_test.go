package check_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/internal/slow"
	"github.com/mcheck/mcheck/itf"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/specs/bully"
	"github.com/mcheck/mcheck/specs/changroberts"
	"github.com/mcheck/mcheck/specs/hirschsinclair"
	"github.com/mcheck/mcheck/specs/lelann"
	"github.com/mcheck/mcheck/specs/ring"
	"github.com/mcheck/mcheck/trace"
)

// messageBound is the invariant "no run sends more than bound messages"
// of one figure of the measures ("total", a message type, "lost"),
// counting the sends one further than the bound, so that a state past it
// shows bound+1.
func messageBound[L, M any](figure string, bound int) model.Property[L, M] {
	count := func(v *model.View[L, M]) int {
		switch figure {
		case "total":
			return v.Sent()
		case "lost":
			return v.Lost()
		}
		return v.SentOf(figure)
	}
	return model.Property[L, M]{
		Name: "SendsAtMost", Kind: model.Invariant, Optional: true, CountSends: bound + 1,
		Doc:   fmt.Sprintf("at most %d messages (%s)", bound, figure),
		Holds: func(v *model.View[L, M]) bool { return count(v) <= bound },
	}
}

// withBound is the built-in algorithm algo with SendsAtMost(figure, bound).
func withBound(t testing.TB, algo, figure string, bound int) specs.Spec {
	t.Helper()
	var b specs.Factory
	switch algo {
	case "ring":
		b = specs.Builder[ring.Local, ring.Msg](ring.Algorithm{}, messageBound[ring.Local, ring.Msg](figure, bound))
	case "chang-roberts":
		b = specs.Builder[changroberts.Local, changroberts.Msg](changroberts.Algorithm{}, messageBound[changroberts.Local, changroberts.Msg](figure, bound))
	case "lelann":
		b = specs.Builder[lelann.Local, lelann.Msg](lelann.Algorithm{}, messageBound[lelann.Local, lelann.Msg](figure, bound))
	case "hirschberg-sinclair":
		b = specs.Builder[hirschsinclair.Local, hirschsinclair.Msg](hirschsinclair.Algorithm{}, messageBound[hirschsinclair.Local, hirschsinclair.Msg](figure, bound))
	case "bully":
		b = specs.Builder[bully.Local, bully.Msg](bully.Algorithm{}, messageBound[bully.Local, bully.Msg](figure, bound))
	default:
		require.FailNow(t, "no algorithm "+algo)
	}
	return specs.Spec{Name: algo, Build: b}
}

// checkBound checks SendsAtMost(figure, bound) alone on algo under cfg,
// to the end.
func checkBound(t *testing.T, algo string, cfg model.Config, figure string, bound int) (*check.Report, check.Verdict) {
	t.Helper()
	rep, err := check.Run(check.Request{Spec: withBound(t, algo, figure, bound), Config: cfg, Properties: []string{"SendsAtMost"}, Continue: true})
	require.NoError(t, err)
	require.True(t, rep.Stats.Complete)
	for _, v := range rep.Verdicts {
		if v.Name == "SendsAtMost" {
			return rep, v
		}
	}
	require.FailNow(t, "no verdict of SendsAtMost")
	return nil, check.Verdict{}
}

// figureOf is one figure's count in a snapshot's sends.
func figureOf(t *testing.T, s *model.SendsSnapshot, figure string) int {
	t.Helper()
	switch figure {
	case "total":
		return s.Total
	case "lost":
		return s.Lost
	}
	for _, tc := range s.ByType {
		if tc.Type == figure {
			return tc.Count
		}
	}
	require.FailNow(t, "no count of "+figure)
	return 0
}

// What is compared. --complexity's maximum is over complete runs (from
// the initial state to a quiescent one); an invariant over the counted
// sends is over every reachable state, so over every finite run. Sends
// only grow along a run, so the largest count in a reachable state is the
// complexity maximum exactly when every reachable state can still reach a
// quiescent state (a run can be completed without sending less); where
// some cannot, the invariant can see more (TestMessageBoundBeyondCompleteRuns),
// and where the maximum is unbounded no bound holds
// (TestMessageBoundUnboundedMaximum).
//
// The configurations are every scenario of the claims table (docs/complexity.md, "The
// notes' claims beside the model") at N = 3..5, which covers every
// built-in algorithm: chang-roberts with one initiator (the leader, its
// successor) and with all initiating at decreasing IDs; ring, lelann and
// hirschberg-sinclair with all initiating; bully with its coordinator down
// and the second highest or the lowest detecting. In each (every process
// it names initiating, no faults beyond --down, nothing discarded) every
// state can reach a quiescent one, so for every figure (the total, each
// message type, the lost) the invariant "at most max" holds, and "at most
// max-1" fails in a state that shows max, after one that showed less.
// The largest search is bully's lowest-detects at N = 5 (115,112 states
// without the counts, 139,832 with them, and ten checks: two thirds of
// this test's time), so the fast loop stops that scenario at N = 4 and
// the slow tests (-tags slow, as .ci/run runs them) check it at N = 5.
func TestMessageBoundIsTheComplexityMaximum(t *testing.T) {
	type cfgCase struct {
		algo string
		cfg  model.Config
	}
	var cases []cfgCase
	for n := 3; n <= 5; n++ {
		cases = append(cases,
			cfgCase{"chang-roberts", model.Config{N: n, Initiators: []int{n}}},
			cfgCase{"chang-roberts", model.Config{N: n, Initiators: []int{1}}},
			cfgCase{"chang-roberts", model.Config{N: n, IDs: decreasing(n)}},
			cfgCase{"ring", model.Config{N: n}},
			cfgCase{"lelann", model.Config{N: n}},
			cfgCase{"hirschberg-sinclair", model.Config{N: n}},
			cfgCase{"bully", model.Config{N: n, Down: []int{n}, Initiators: []int{n - 1}, InitialLeader: true}},
		)
	}
	// The lowest detecting sends more than the synchronous schedule
	// (README, "Where the model and the notes differ").
	for n := 3; n <= slow.Size(4, 5); n++ {
		cases = append(cases, cfgCase{"bully", model.Config{N: n, Down: []int{n}, Initiators: []int{1}, InitialLeader: true}})
	}
	for _, c := range cases {
		t.Run(trace.ConfigOf(c.algo, c.cfg.WithDefaults()).Describe(), func(t *testing.T) {
			m := complexity(t, c.algo, c.cfg).Complexity.Measures
			require.True(t, m.CompleteRuns)
			names, figs := m.Figures()
			for i, figure := range names {
				require.False(t, figs[i].Unbounded, figure)
				max := figs[i].Max

				rep, v := checkBound(t, c.algo, c.cfg, figure, max)
				assert.Equal(t, check.Holds, v.Status, "at most %d (%s)", max, figure)
				assert.Equal(t, max+1, rep.SendCap)
				assert.Zero(t, rep.Stats.Discarded)
				if max == 0 {
					continue // nothing below 0 to fail
				}

				rep, v = checkBound(t, c.algo, c.cfg, figure, max-1)
				require.Equal(t, check.Violated, v.Status, "at most %d (%s)", max-1, figure)
				assert.Equal(t, max, rep.SendCap)
				steps := v.File.Steps
				last, before := steps[len(steps)-1].State.Sent, steps[len(steps)-2].State.Sent
				require.NotNil(t, last, "the counterexample's states count the sends")
				assert.Equal(t, max, figureOf(t, last, figure), "%s: the counterexample ends where the count reaches the maximum", figure)
				assert.Equal(t, max, last.Cap)
				assert.Less(t, figureOf(t, before, figure), max, "%s: and only there", figure)
			}
		})
	}
}

func decreasing(n int) []int {
	ids := make([]int, n)
	for p := range ids {
		ids[p] = n - p
	}
	return ids
}

// Where they differ: Chang-Roberts, N=3, one crash. Its complete runs
// send at most 13 messages, but when p3 crashes after sending ELECTION(3),
// that message circulates for ever between p1 and p2 (Termination's
// lasso), and no quiescent state is reachable from there: the invariant
// fails for any bound, 13 included, and the counterexample ends in a
// state from which no run can be completed.
func TestMessageBoundBeyondCompleteRuns(t *testing.T) {
	cfg := model.Config{N: 3, MaxCrashes: 1}
	m := complexity(t, "chang-roberts", cfg).Complexity.Measures
	require.False(t, m.Total.Unbounded)
	require.Equal(t, 13, m.Total.Max)

	for _, bound := range []int{13, 30} {
		rep, v := checkBound(t, "chang-roberts", cfg, "total", bound)
		require.Equal(t, check.Violated, v.Status, "at most %d messages", bound)
		assert.Equal(t, bound+1, v.File.Steps[len(v.File.Steps)-1].State.Sent.Total)

		// Every state reachable from the counterexample's last state has a
		// fair step enabled: no run from there is ever complete.
		sys, err := withBound(t, "chang-roberts", "total", bound).Build.System(rep.Config, []string{"SendsAtMost"})
		require.NoError(t, err)
		exp, err := model.ExpanderOf(sys)
		require.NoError(t, err)
		// The trace's last state in this system: its states are handles
		// of the search's kernel, so the run is taken again here.
		var b model.Batch
		exp.Initial(&b)
		var last []byte
		for i, st := range v.Trace.Steps {
			if i > 0 {
				exp.Expand(last, &b)
			}
			j := slices.IndexFunc(b.Succs, func(s model.Succ) bool { return s.Action == st.Action })
			require.GreaterOrEqual(t, j, 0, "step %d of the trace is not a step of the system", i)
			last = slices.Clone(b.State(j))
		}
		seen := map[string]bool{string(last): true}
		for todo := [][]byte{last}; len(todo) > 0; {
			s := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			exp.Expand(s, &b)
			fair := false
			for i, succ := range b.Succs {
				fair = fair || succ.Fair != model.NoFairness
				if next := string(b.State(i)); !seen[next] {
					seen[next] = true
					todo = append(todo, []byte(next))
				}
			}
			require.True(t, fair, "a quiescent state is reachable: %s", exp.Describe(s))
		}
		assert.Greater(t, len(seen), 1)
	}
}

// An unbounded maximum: Chang-Roberts, N=3, with the unreliable detector,
// where a false suspicion can start an election again and again
// (TestWitnessFiles). The invariant fails whatever the bound, each time
// in a state that shows one message past it.
func TestMessageBoundUnboundedMaximum(t *testing.T) {
	cfg := model.Config{N: 3, Detector: model.Unreliable, InitialLeader: true, MaxQueue: 2}
	m := complexity(t, "chang-roberts", cfg).Complexity.Measures
	require.True(t, m.Total.Unbounded)
	for _, bound := range []int{5, 20, 60} {
		_, v := checkBound(t, "chang-roberts", cfg, "total", bound)
		require.Equal(t, check.Violated, v.Status, "at most %d messages", bound)
		assert.Equal(t, bound+1, v.File.Steps[len(v.File.Steps)-1].State.Sent.Total)
	}
}

// A trace of a check that counted the sends shows them in every state, as
// data (the snapshot, its fields, ITF variables) and as text, and replays
// with them: also the trace of a property that does not read them, which
// the replay checks with the sends counted as the trace counts them.
// Chang-Roberts with three processes of ID 1 elects three leaders.
func TestTracesCarryTheSendsCounted(t *testing.T) {
	cfg := model.Config{N: 3, IDs: []int{1, 1, 1}, Anonymous: true}
	spec := withBound(t, "chang-roberts", "total", 4)
	rep, err := check.Run(check.Request{Spec: spec, Config: cfg, Properties: []string{"SingleLeader", "SendsAtMost"}, Continue: true})
	require.NoError(t, err)
	assert.Equal(t, 5, rep.SendCap)
	files := map[string]*trace.File{}
	for _, f := range rep.Files() {
		files[f.Property] = f
	}
	require.Contains(t, files, "SingleLeader")
	require.Contains(t, files, "SendsAtMost")
	reg := &specs.Registry{}
	require.NoError(t, reg.Register(spec))

	for name, f := range files {
		assert.Equal(t, 5, f.SendCap(), name)
		for i, s := range f.Steps {
			require.NotNil(t, s.State.Sent, "%s step %d", name, i)
		}
		require.NoError(t, trace.Replay(f, reg), name)

		var buf bytes.Buffer
		require.NoError(t, itf.Write(&buf, f))
		back, err := itf.Read(buf.Bytes())
		require.NoError(t, err, name)
		require.Len(t, back.Steps, len(f.Steps))
		for i := range f.Steps {
			assert.Equal(t, f.Steps[i].State.Sent, back.Steps[i].State.Sent, "%s step %d through ITF", name, i)
		}
		require.NoError(t, trace.Replay(back, reg), name)

		// A count the run does not have is found out.
		bad, err := itf.Read(buf.Bytes())
		require.NoError(t, err)
		last := bad.Steps[len(bad.Steps)-1].State.Sent
		last.Total--
		var div *trace.DivergenceError
		require.ErrorAs(t, trace.Replay(bad, reg), &div, name)
		assert.Contains(t, div.Reason, fmt.Sprintf("sent is %d, the trace says %d", last.Total+1, last.Total), name)
	}

	require.NoError(t, trace.Replay(files["SingleLeader"], specs.Builtin()), "through the built-in chang-roberts, which has no property that counts")

	f := files["SendsAtMost"]
	assert.Equal(t, 5, f.Steps[len(f.Steps)-1].State.Sent.Total)
	var text bytes.Buffer
	trace.WriteText(&text, f, false)
	assert.Contains(t, text.String(), "      (sends counted since the initial state, each count up to 5: 5 means 5 or more)\n")
	assert.Contains(t, text.String(), "| sent=0 (ELECTION=0 ELECTED=0) lost=0\n", "the initial state in full")
	assert.Contains(t, text.String(), "      sent: 0 → 1\n      sent ELECTION: 0 → 1\n", "a step's changes")

	// Without a property that reads them, the same trace has none.
	plain, err := check.Run(check.Request{Spec: spec, Config: cfg, Properties: []string{"SingleLeader"}})
	require.NoError(t, err)
	require.NotNil(t, plain.Verdicts[0].File)
	assert.Zero(t, plain.SendCap)
	assert.Zero(t, plain.Verdicts[0].File.SendCap())
	assert.Nil(t, plain.Verdicts[0].File.Steps[0].State.Sent)
}

// A property that reads the sends without declaring CountSends is told
// so, as the check's error.
func TestUndeclaredSendsAreAnError(t *testing.T) {
	type view = model.View[ring.Local, ring.Msg]
	p := model.Property[ring.Local, ring.Msg]{Name: "Undeclared", Holds: func(v *view) bool { return v.Sent() < 5 }}
	spec := specs.Spec{Name: "ring", Build: specs.Builder[ring.Local, ring.Msg](ring.Algorithm{}, p)}
	_, err := check.Run(check.Request{Spec: spec, Config: model.Config{N: 3}, Properties: []string{"Undeclared"}})
	assert.ErrorIs(t, err, model.ErrSendsNotCounted)
	assert.EqualError(t, err, "ring: "+model.ErrSendsNotCounted.Error())
}
