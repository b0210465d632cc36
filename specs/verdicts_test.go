package specs_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/specs/lelann"
)

// Whole-check verdicts of the built-in algorithms (docs/semantics.md sections 1-3),
// with every counterexample replayed through the report's Expander.

const (
	holds    = check.Holds
	violated = check.Violated
	unknown  = check.Unknown
)

// want is the expected verdict of each property; kind is Termination's
// (first) counterexample kind when it is violated, also the kinds of its
// further counterexamples (Verdict.Also).
type want struct {
	single, agree, term check.Status
	kind                string
	also                []string
}

// unsafeWant is the verdicts of a run that reaches two leaders: both safety
// properties violated, and Termination stuck when the search goes on past
// them (unknown when it stops at the first violation).
func unsafeWant(cont bool) want {
	if !cont {
		return want{violated, violated, unknown, "", nil}
	}
	return want{violated, violated, violated, "stuck", nil}
}

func lookup(t *testing.T, name string) specs.Spec {
	t.Helper()
	sp, err := specs.Builtin().Lookup(name)
	require.NoError(t, err)
	return sp
}

func forwardFirst() specs.Spec {
	return specs.Spec{
		Name:    "lelann-forward-first",
		Summary: "LeLann with the joiner's sends swapped",
		Build:   specs.Builder(lelann.Algorithm{ForwardFirst: true}),
	}
}

// run checks all three properties. MaxStates is only a guard against a
// runaway search: every case here finishes far below it, or stops early.
func run(t *testing.T, sp specs.Spec, cfg model.Config, cont bool) *check.Report {
	t.Helper()
	rep, err := check.Run(check.Request{Spec: sp, Config: cfg, Continue: cont, MaxStates: 2_000_000})
	require.NoError(t, err)
	var vs []string
	for _, v := range rep.Verdicts {
		s := v.Name + "=" + string(v.Status)
		if v.Kind != 0 {
			s += "/" + v.Kind.String()
		}
		for _, a := range v.Also {
			s += "+" + a.Kind.String()
		}
		vs = append(vs, s)
	}
	t.Logf("%s %+v continue=%v: states=%d transitions=%d discarded=%d depth=%d complete=%v (%v): %s",
		sp.Name, rep.Config, cont, rep.Stats.States, rep.Stats.Transitions, rep.Stats.Discarded, rep.Stats.Depth,
		rep.Stats.Complete, rep.Stats.Elapsed, strings.Join(vs, " "))
	return rep
}

func verdict(t *testing.T, rep *check.Report, name string) check.Verdict {
	t.Helper()
	for _, v := range rep.Verdicts {
		if v.Name == name {
			return v
		}
	}
	require.FailNow(t, "no verdict for "+name)
	return check.Verdict{}
}

// expect asserts the exact statuses, replays every counterexample, and
// checks what the statuses imply about the search.
func expect(t *testing.T, rep *check.Report, cont bool, w want) {
	t.Helper()
	require.Len(t, rep.Verdicts, 3)
	term := verdict(t, rep, "Termination")
	got := want{
		single: verdict(t, rep, "SingleLeader").Status,
		agree:  verdict(t, rep, "Agreement").Status,
		term:   term.Status,
		kind:   term.Kind.String(),
	}
	for _, a := range term.Also {
		got.also = append(got.also, a.Kind.String())
	}
	require.Equal(t, w, got, "verdicts (SingleLeader, Agreement, Termination, kind, also)")

	invViolated := false
	for _, v := range rep.Verdicts {
		switch v.Status {
		case violated:
			require.NotNil(t, v.Trace, v.Name)
			assert.NotEmpty(t, v.Summary, v.Name)
			if v.Name == "Termination" {
				require.Contains(t, []cex.Kind{cex.Stuck, cex.FairCycle}, v.Kind)
			} else {
				invViolated = true
				require.Equal(t, cex.Invariant, v.Kind, v.Name)
				assert.Empty(t, v.Also, v.Name)
			}
			replay(t, rep, v.Name, v.Kind, v.Trace)
			for _, a := range v.Also {
				assert.NotEqual(t, v.Kind, a.Kind, "further counterexamples are of other kinds")
				assert.NotEmpty(t, a.Summary, v.Name)
				require.NotNil(t, a.Trace, v.Name)
				replay(t, rep, v.Name, a.Kind, a.Trace)
			}
		case holds:
			assert.Nil(t, v.Trace, v.Name)
			assert.True(t, rep.Stats.Complete, "%s holds only on a complete search", v.Name)
		case unknown:
			assert.Nil(t, v.Trace, v.Name)
		default:
			t.Errorf("%s: unexpected status %q", v.Name, v.Status)
		}
	}
	stopped := invViolated || term.Status == violated && term.Kind == cex.Stuck && !term.Bounded
	if !cont && stopped {
		// The search stops at the first definite violation (an invariant,
		// a stuck state the bound did not make): nothing else is decided.
		assert.False(t, rep.Stats.Complete, "a search that stops at a violation is incomplete")
		assert.Equal(t, "stopped at the first violation", rep.Stats.Stopped)
		for _, v := range rep.Verdicts {
			assert.NotEqual(t, holds, v.Status, "%s must not hold on an incomplete search", v.Name)
			if v.Status == unknown {
				assert.Contains(t, v.Summary, "Continue decides it", v.Name)
			}
		}
	}
	if !stopped || cont {
		// Without a definite violation (or with --continue) the search
		// finishes, the fair-cycle check too.
		assert.True(t, rep.Stats.Complete, "no invariant violation and no limit hit: the search must finish")
		assert.Empty(t, rep.Stats.LivenessSkipped)
	}
}

// Properties as docs/semantics.md section 2.2 defines them, computed here from a
// state's View independently of the properties package.
func maxLive(v *model.Procs) int {
	m := 0
	for p := 0; p < v.N; p++ {
		if v.IsAlive(p) {
			m = max(m, v.ID[p])
		}
	}
	return m
}

func isStable(v *model.Procs) bool {
	m := maxLive(v)
	for p := 0; p < v.N; p++ {
		if v.IsAlive(p) && v.Elected[p] != m {
			return false
		}
	}
	return true
}

func liveLeaders(v *model.Procs) []int {
	var ls []int
	for p := 0; p < v.N; p++ {
		if v.IsAlive(p) && v.Elected[p] == v.ID[p] {
			ls = append(ls, v.ID[p])
		}
	}
	return ls
}

func agrees(v *model.Procs) bool {
	seen := 0
	for p := 0; p < v.N; p++ {
		e := v.Elected[p]
		if !v.IsAlive(p) || e == 0 || !v.AliveID(e) {
			continue
		}
		if seen != 0 && e != seen {
			return false
		}
		seen = e
	}
	return true
}

func view(t *testing.T, rep *check.Report, state []byte) model.Procs {
	t.Helper()
	vw, ok := rep.Expander.(model.Viewer)
	require.True(t, ok, "the expander of a built-in spec is a Viewer")
	return vw.View(state)
}

// replay checks that the counterexample of v is a run of the system: it
// starts in the initial state, every step is an enabled action leading to the
// recorded state, and its end violates the property the way its kind says.
func replay(t *testing.T, rep *check.Report, name string, kind cex.Kind, tr *explore.Trace) {
	t.Helper()
	steps := tr.Steps
	require.NotEmpty(t, steps, name)
	exp := rep.Expander
	var b model.Batch
	exp.Initial(&b)
	require.Len(t, b.Succs, 1)
	require.Equal(t, b.State(0), steps[0].State, "%s: the trace starts in the initial state", name)
	assert.Empty(t, steps[0].Label)

	fairOf := make([]int32, len(steps)) // fairness class of the step into steps[i]
	fairOf[0] = model.NoFairness
	for i := 0; i+1 < len(steps); i++ {
		exp.Expand(steps[i].State, &b)
		found := -1
		for j := range b.Succs {
			if b.Succs[j].Action == steps[i+1].Action && bytes.Equal(b.State(j), steps[i+1].State) {
				found = j
				break
			}
		}
		require.GreaterOrEqual(t, found, 0, "%s: step %d (%s) is not a successor of step %d: %s",
			name, i+1, steps[i+1].Label, i, exp.Describe(steps[i].State))
		fairOf[i+1] = b.Succs[found].Fair
		assert.Equal(t, exp.Label(steps[i].State, steps[i+1].Action), steps[i+1].Label, "%s: label of step %d", name, i+1)
	}

	final := view(t, rep, tr.Final().State)
	switch kind {
	case cex.Invariant:
		assert.Equal(t, -1, tr.CycleStart)
		switch name {
		case "SingleLeader":
			assert.Greater(t, len(liveLeaders(&final)), 1, "the last state has several live leaders")
		case "Agreement":
			assert.False(t, agrees(&final), "live processes disagree on a live leader in the last state")
		}
		// The shortest trace: no earlier state violates it.
		for i := range steps[:len(steps)-1] {
			s := view(t, rep, steps[i].State)
			if name == "SingleLeader" {
				assert.LessOrEqual(t, len(liveLeaders(&s)), 1, "step %d", i)
			} else {
				assert.True(t, agrees(&s), "step %d", i)
			}
		}
	case cex.Stuck:
		assert.Equal(t, -1, tr.CycleStart)
		assert.False(t, isStable(&final), "a stuck state is outside Stable")
		exp.Expand(tr.Final().State, &b)
		for j := range b.Succs {
			assert.Equal(t, model.NoFairness, b.Succs[j].Fair, "stuck state has fair step %s enabled",
				exp.Label(tr.Final().State, b.Succs[j].Action))
		}
	case cex.FairCycle:
		cs := tr.CycleStart
		require.GreaterOrEqual(t, cs, 0, "a lasso marks its cycle")
		require.Less(t, cs, len(steps)-1, "a cycle has at least one step")
		require.Equal(t, steps[cs].State, tr.Final().State, "the lasso returns to the start of its cycle")
		cycle := steps[cs : len(steps)-1] // its distinct positions
		outside := false
		for i := range cycle {
			s := view(t, rep, cycle[i].State)
			outside = outside || !isStable(&s)
		}
		assert.True(t, outside, "the cycle passes a state outside Stable")
		// Weak fairness: a fair class enabled in every state of the cycle is
		// taken by one of its steps.
		enabledAll := map[int32]bool{}
		for i := range cycle {
			exp.Expand(cycle[i].State, &b)
			here := map[int32]bool{}
			for j := range b.Succs {
				if f := b.Succs[j].Fair; f != model.NoFairness {
					here[f] = true
				}
			}
			if i == 0 {
				enabledAll = here
				continue
			}
			for f := range enabledAll {
				if !here[f] {
					delete(enabledAll, f)
				}
			}
		}
		taken := map[int32]bool{}
		for _, f := range fairOf[cs+1:] {
			taken[f] = true
		}
		for f := range enabledAll {
			assert.True(t, taken[f], "fair class %d is enabled throughout the cycle but never taken", f)
		}
	default:
		t.Errorf("%s: unknown kind %q", name, kind)
	}
}

func labels(tr *explore.Trace) []string {
	var ls []string
	for _, s := range tr.Steps[1:] {
		ls = append(ls, s.Label)
	}
	return ls
}

// anyStep reports whether the trace takes a step of kind k (read from the
// step's data, not its label).
func anyStep(tr *explore.Trace, k model.Kind) bool {
	for _, s := range tr.Steps[1:] {
		if model.Action(s.Action).Kind() == k {
			return true
		}
	}
	return false
}

// Bully with the perfect detector and no restarts keeps a single leader, with
// any number of crashes, starting from a known coordinator.
func TestBullySafePerfectDetectorCrashAny(t *testing.T) {
	bully := lookup(t, "bully")
	require.True(t, bully.InitialLeader, "bully starts from a known coordinator by default")
	for _, n := range []int{3, 4} {
		t.Run(fmt.Sprintf("N=%d", n), func(t *testing.T) {
			cfg := model.Config{N: n, MaxCrashes: n - 1, InitialLeader: true}
			rep := run(t, bully, cfg, false)
			expect(t, rep, false, want{holds, holds, holds, "", nil})
			assert.Equal(t, n-1, rep.Config.MaxCrashes)
		})
	}
}

// The highest process crashes, the next one times out and takes over, and
// the highest restarts and declares itself coordinator at once: two live
// leaders until the COORDINATOR messages arrive.
func TestBullyCrashRestartTwoLeaders(t *testing.T) {
	bully := lookup(t, "bully")
	cfg := model.Config{N: 3, MaxCrashes: 1, MaxRestarts: 1, InitialLeader: true}
	for _, cont := range []bool{true, false} {
		t.Run(fmt.Sprintf("continue=%v", cont), func(t *testing.T) {
			rep := run(t, bully, cfg, cont)
			expect(t, rep, cont, unsafeWant(cont))
			tr := verdict(t, rep, "SingleLeader").Trace
			last := view(t, rep, tr.Final().State)
			assert.Len(t, liveLeaders(&last), 2, "the last state has two live leaders: %s", rep.Expander.Describe(tr.Final().State))
			assert.True(t, anyStep(tr, model.KindCrash), "the trace crashes a process: %v", labels(tr))
			assert.True(t, anyStep(tr, model.KindRestart), "the trace restarts a process: %v", labels(tr))
		})
	}
}

// A false suspicion or an early timeout makes a second coordinator. The full
// search is unbounded in practice (millions of states), so this stops at the
// first violation.
func TestBullyUnreliableDetectorUnsafe(t *testing.T) {
	bully := lookup(t, "bully")
	rep := run(t, bully, model.Config{N: 3, Detector: model.Unreliable, InitialLeader: true}, false)
	expect(t, rep, false, want{violated, violated, unknown, "", nil})
	tr := verdict(t, rep, "SingleLeader").Trace
	assert.True(t, anyStep(tr, model.KindSuspect) || anyStep(tr, model.KindEarlyTimeout),
		"only a spurious action of the unreliable detector can break Bully without faults: %v", labels(tr))
	assert.False(t, anyStep(tr, model.KindCrash), "no crashes are allowed: %v", labels(tr))
}

func TestLeLannSafeWithoutFaults(t *testing.T) {
	for _, n := range []int{3, 4, 5} {
		t.Run(fmt.Sprintf("N=%d", n), func(t *testing.T) {
			rep := run(t, lookup(t, "lelann"), model.Config{N: n}, false)
			expect(t, rep, false, want{holds, holds, holds, "", nil})
			assert.Zero(t, rep.Stats.Discarded, "exhaustive: the channel bound cut nothing off")
		})
	}
	t.Run("N=4 ids 3,9,4,8", func(t *testing.T) {
		rep := run(t, lookup(t, "lelann"), model.Config{N: 4, IDs: []int{3, 9, 4, 8}}, false)
		expect(t, rep, false, want{holds, holds, holds, "", nil})
	})
}

// Forwarding before sending one's own ID lets a process decide before it has
// seen every ID: two leaders without any fault.
func TestLeLannForwardFirstBreaksSingleLeader(t *testing.T) {
	for _, n := range []int{3, 4} {
		for _, cont := range []bool{true, false} {
			t.Run(fmt.Sprintf("N=%d continue=%v", n, cont), func(t *testing.T) {
				rep := run(t, forwardFirst(), model.Config{N: n}, cont)
				expect(t, rep, cont, unsafeWant(cont))
				tr := verdict(t, rep, "SingleLeader").Trace
				last := view(t, rep, tr.Final().State)
				assert.Len(t, liveLeaders(&last), 2)
				for _, st := range tr.Steps[1:] {
					k := model.Action(st.Action).Kind()
					assert.True(t, k == model.KindInitiate || k == model.KindDeliver, "no fault in %q", st.Label)
				}
			})
		}
	}
}

// LeLann with crashes is not safe, and mcheck says so (docs/semantics.md
// section 3.3): after a crash repairs the ring, a joiner's own ELECT can come back
// ahead of an ID still queued on the old path, and it decides too early. The
// lone survivor also keeps rejoining for the ELECT of a crashed process (a
// fair cycle), and a crash can swallow the election (a stuck state).
func TestLeLannCrashAnyNotSafe(t *testing.T) {
	ll := lookup(t, "lelann")
	cfg := model.Config{N: 3, MaxCrashes: 2}
	t.Run("continue=true", func(t *testing.T) {
		rep := run(t, ll, cfg, true)
		expect(t, rep, true, want{violated, violated, violated, "fair-cycle", []string{"stuck"}})
		tr := verdict(t, rep, "SingleLeader").Trace
		last := view(t, rep, tr.Final().State)
		assert.Len(t, liveLeaders(&last), 2)
		assert.True(t, anyStep(tr, model.KindCrash), "it takes a crash: %v", labels(tr))
	})
	t.Run("continue=false", func(t *testing.T) {
		rep := run(t, ll, cfg, false)
		// The first definite answer stops the search: here the stuck
		// state, found before any invariant violation; fair cycles (they
		// need the whole graph) are not looked for.
		expect(t, rep, false, want{unknown, unknown, violated, "stuck", nil})
		assert.Equal(t, explore.StopFirstViolation, rep.Stats.Stop)
		assert.False(t, rep.Stats.Complete)
	})
}

// Every algorithm elects the largest ID for good when nothing fails.
func TestTerminationWithoutFaults(t *testing.T) {
	type tc struct {
		algo string
		cfg  model.Config
	}
	var cases []tc
	for _, algo := range []string{"ring", "chang-roberts", "lelann", "hirschberg-sinclair", "bully"} {
		def := lookup(t, algo).InitialLeader
		for _, n := range []int{3, 4, 5} {
			// The default start: an election for the ring algorithms, a known
			// coordinator for Bully.
			cases = append(cases, tc{algo, model.Config{N: n, InitialLeader: def}})
			if algo != "bully" {
				cases = append(cases, tc{algo, model.Config{N: n, InitialLeader: true}})
			}
		}
		cases = append(cases, tc{algo, model.Config{N: 4, IDs: []int{3, 9, 4, 8}, InitialLeader: def}})
	}
	// Bully from scratch: every process detects at N=3. At N=4 the full
	// interleaving of all four detections has millions of states, so one
	// process (the notes' lowest) starts it.
	cases = append(cases,
		tc{"bully", model.Config{N: 3}},
		tc{"bully", model.Config{N: 3, IDs: []int{3, 9, 4}}},
		tc{"bully", model.Config{N: 4, Initiators: []int{1}}},
		tc{"bully", model.Config{N: 4, IDs: []int{3, 9, 4, 8}, Initiators: []int{3}}},
	)
	for _, c := range cases {
		name := fmt.Sprintf("%s N=%d ids=%v initial-leader=%v initiators=%v", c.algo, c.cfg.N, c.cfg.IDs, c.cfg.InitialLeader, c.cfg.Initiators)
		t.Run(name, func(t *testing.T) {
			rep := run(t, lookup(t, c.algo), c.cfg, true)
			expect(t, rep, true, want{holds, holds, holds, "", nil})
			assert.True(t, rep.Stats.Complete)
			assert.Zero(t, rep.Stats.Discarded, "exhaustive: the channel bound cut nothing off")
			assert.Empty(t, rep.Stats.LivenessSkipped)
		})
	}
}

// On a repaired ring, a crash can swallow the only ELECTION or ELECTED (the
// live processes wait for good: a stuck state), or leave the ELECTION of a
// crashed process circulating forever (a fair cycle). The report shows the
// lasso first and the stuck state as a further counterexample.
func TestRingAlgorithmsCrashAnyDoNotTerminate(t *testing.T) {
	for _, algo := range []string{"ring", "chang-roberts"} {
		t.Run(algo, func(t *testing.T) {
			rep := run(t, lookup(t, algo), model.Config{N: 3, MaxCrashes: 2}, true)
			expect(t, rep, true, want{holds, holds, violated, "fair-cycle", []string{"stuck"}})
			term := verdict(t, rep, "Termination")
			assert.True(t, anyStep(term.Trace, model.KindCrash), "it takes a crash: %v", labels(term.Trace))
			assert.True(t, anyStep(term.Also[0].Trace, model.KindCrash), "it takes a crash: %v", labels(term.Also[0].Trace))
		})
	}
	// Without --continue the first stuck state stops the search, liveness
	// or not: the invariants are then undecided, and no lasso is looked for.
	t.Run("chang-roberts continue=false", func(t *testing.T) {
		rep := run(t, lookup(t, "chang-roberts"), model.Config{N: 3, MaxCrashes: 2}, false)
		expect(t, rep, false, want{unknown, unknown, violated, "stuck", nil})
		assert.Equal(t, explore.StopFirstViolation, rep.Stats.Stop)
	})
}

// With one crash at N=4 the run can stop without a leader: the stuck state is
// reported next to the lasso.
func TestChangRobertsOneCrashStuck(t *testing.T) {
	rep := run(t, lookup(t, "chang-roberts"), model.Config{N: 4, MaxCrashes: 1}, true)
	expect(t, rep, true, want{holds, holds, violated, "fair-cycle", []string{"stuck"}})
	stuck := verdict(t, rep, "Termination").Also[0]
	assert.True(t, anyStep(stuck.Trace, model.KindCrash), "it takes a crash: %v", labels(stuck.Trace))
	assert.Contains(t, stuck.Summary, "stuck without a leader")
}

// A lasso: under the unreliable detector a process can falsely suspect the
// live leader again and again, and each time the election runs its course,
// so Stable is left forever after (the suspicion is unfair, but every fair
// step enabled throughout is taken).
func TestChangRobertsUnreliableFairCycle(t *testing.T) {
	for _, il := range []bool{true, false} {
		t.Run(fmt.Sprintf("initial-leader=%v", il), func(t *testing.T) {
			rep := run(t, lookup(t, "chang-roberts"), model.Config{N: 3, Detector: model.Unreliable, InitialLeader: il}, true)
			expect(t, rep, true, want{holds, holds, violated, "fair-cycle", nil})
			tr := verdict(t, rep, "Termination").Trace
			cycle := &explore.Trace{Steps: tr.Steps[tr.CycleStart:], CycleStart: 0}
			assert.True(t, anyStep(cycle, model.KindSuspect), "the cycle is driven by a false suspicion: %v", labels(cycle))
		})
	}
}
