package check_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/specs/changroberts"
	"github.com/mcheck/mcheck/trace"
)

func builtin(t *testing.T, algo string) specs.Spec {
	t.Helper()
	spec, err := specs.Builtin().Lookup(algo)
	require.NoError(t, err)
	return spec
}

func run(t *testing.T, req check.Request) *check.Report {
	t.Helper()
	rep, err := check.Run(req)
	require.NoError(t, err)
	return rep
}

// changRoberts is chang-roberts with extra properties of a test's own.
func changRoberts(extra ...model.Property[changroberts.Local, changroberts.Msg]) specs.Spec {
	return specs.Spec{Name: "chang-roberts", Build: specs.Builder(changroberts.Algorithm{}, extra...)}
}

// nobodyElects is a step property that the first election breaks: no
// step turns a process's elected from ⊥ to a leader.
var nobodyElects = model.Property[changroberts.Local, changroberts.Msg]{
	Name: "NobodyElects", Kind: model.StepProperty,
	Step: func(before *model.View[changroberts.Local, changroberts.Msg], _ model.Action, after *model.View[changroberts.Local, changroberts.Msg]) bool {
		for p := range after.N() {
			if before.Elected(p) == 0 && after.Elected(p) != 0 {
				return false
			}
		}
		return true
	},
}

// fewMessages is an invariant that reads the channels, more than the
// elected values and liveness that partial-order reduction keeps visible.
var fewMessages = model.Property[changroberts.Local, changroberts.Msg]{
	Name: "FewMessages", Kind: model.Invariant,
	Holds: func(v *model.View[changroberts.Local, changroberts.Msg]) bool {
		n := 0
		for p := range v.N() {
			for q := range v.N() {
				n += len(v.Chan(p, q))
			}
		}
		return n <= v.N()
	},
}

func labelsOf(f *trace.File) []string {
	out := make([]string, len(f.Steps))
	for i, s := range f.Steps {
		out[i] = s.Label()
	}
	return out
}

// A violated invariant is reported violated, with its shortest
// counterexample replayed; the property the first violation left
// undecided is unknown, and says why.
func TestViolatedInvariantIsViolated(t *testing.T) {
	cfg := model.Config{N: 3, MaxCrashes: 1, MaxRestarts: 1, InitialLeader: true}
	rep := run(t, check.Request{Spec: builtin(t, "bully"), Config: cfg})
	require.True(t, rep.Violated())
	single := verdict(t, rep, "SingleLeader")
	require.Equal(t, check.Violated, single.Status)
	assert.Equal(t, cex.Invariant, single.Kind)
	require.NotNil(t, single.File)
	assert.Equal(t, []string{"initial state", "crash p3", "detect p2", "timeout-ok p2", "restart p3"}, labelsOf(single.File))
	assert.Equal(t, "SingleLeader", single.File.Property)
	assert.Equal(t, "after 4 steps p2 and p3 each consider themselves leader", single.Summary)
	assert.Equal(t, "after 4 steps live processes disagree on a live leader: p1, p3 elected 3; p2 elected 2", verdict(t, rep, "Agreement").Summary)
	assert.False(t, single.Bounded)
	term := verdict(t, rep, "Termination")
	assert.Equal(t, check.Unknown, term.Status)
	assert.Equal(t, "the search stopped at the first violation; Continue decides it", term.Summary)
	named := run(t, check.Request{Spec: builtin(t, "bully"), Config: cfg, Name: flagLike})
	assert.Equal(t, "the search stopped at the first violation; --continue decides it", verdict(t, named, "Termination").Summary, "in the caller's words")
	assert.Equal(t, []*trace.File{single.File, verdict(t, rep, "Agreement").File}, rep.Files())
}

// A violated step property is reported violated by the step that breaks
// it, not held for an invariant that holds.
func TestViolatedStepPropertyIsViolated(t *testing.T) {
	rep := run(t, check.Request{Spec: changRoberts(nobodyElects), Config: model.Config{N: 3}, Properties: []string{"SingleLeader", "NobodyElects"}})
	v := verdict(t, rep, "NobodyElects")
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, cex.Step, v.Kind)
	require.NotNil(t, v.File)
	assert.Equal(t, []string{"initial state", "initiate p3", "deliver p3→p1 ELECTION(3)", "deliver p1→p2 ELECTION(3)", "deliver p2→p3 ELECTION(3)"}, labelsOf(v.File))
	assert.Equal(t, "step 4, deliver p2→p3 ELECTION(3), breaks NobodyElects", v.Summary)
	assert.Equal(t, check.Unknown, verdict(t, rep, "SingleLeader").Status, "the search stopped at the violation")

	rep = run(t, check.Request{Spec: changRoberts(nobodyElects), Config: model.Config{N: 3}, Properties: []string{"SingleLeader", "NobodyElects"}, Continue: true})
	assert.Equal(t, check.Holds, verdict(t, rep, "SingleLeader").Status)
	assert.Equal(t, check.Violated, verdict(t, rep, "NobodyElects").Status)
	assert.True(t, rep.Stats.Complete)
}

// Holds needs a complete, exhaustive search: a search cut by --max-states
// leaves every property it did not violate unknown, and so does a
// bitstate search.
func TestHoldsNeedsACompleteExhaustiveSearch(t *testing.T) {
	spec, cfg := builtin(t, "lelann"), model.Config{N: 4}
	full := run(t, check.Request{Spec: spec, Config: cfg})
	require.True(t, full.Stats.Complete)
	for _, v := range full.Verdicts {
		assert.Equal(t, check.Holds, v.Status, v.Name)
	}
	cut := run(t, check.Request{Spec: spec, Config: cfg, MaxStates: 20})
	require.False(t, cut.Stats.Complete)
	for _, v := range cut.Verdicts {
		assert.Equal(t, check.Unknown, v.Status, v.Name)
		assert.Equal(t, "the search did not finish: MaxStates 20 reached", v.Summary, v.Name)
	}
	named := run(t, check.Request{Spec: spec, Config: cfg, MaxStates: 20, Name: flagLike})
	assert.Equal(t, "--max-states 20 reached", named.Stats.Stopped, "in the caller's words")
	assert.Equal(t, "the search did not finish: --max-states 20 reached", named.Verdicts[0].Summary)
	// 622 states in 4 KiB of bits, 3 bits a state: some may be missed.
	bits := run(t, check.Request{Spec: spec, Config: model.Config{N: 5}, Properties: safety, Strategy: check.Bitstate{Bytes: 4096}})
	require.NotNil(t, bits.Bitstate)
	require.True(t, bits.Stats.Complete)
	assert.Equal(t, int64(622), bits.Stats.States)
	for _, name := range safety {
		v := verdict(t, bits, name)
		assert.Equal(t, check.Unknown, v.Status, name)
		assert.Contains(t, v.Summary, "no violation in a bitstate search, which may miss states", name)
		assert.Contains(t, v.Summary, "at least 99.5699%", name)
	}
	assert.Equal(t, check.Unchecked, verdict(t, bits, "Termination").Status)
}

// Partial-order reduction is used only where it is sound: invariants over
// the elected values and liveness, without liveness properties, step
// properties, bitstate or measures. Where a property turns it off, the
// report says why; liveness, bitstate and measures turn it off silently.
func TestReductionOnlyWhereSound(t *testing.T) {
	lelann, cr := builtin(t, "lelann"), builtin(t, "chang-roberts")
	four := model.Config{N: 4}
	const full, reduced = 152, 111 // lelann N=4, safety: every state; the reduced graph
	stepOff := "the step property NonParticipantForwardsNoElection needs every step"
	for _, c := range []struct {
		name    string
		req     check.Request
		reduced bool
		off     string
	}{
		{"safety", check.Request{Spec: lelann, Config: four, Properties: safety, Reduce: true}, true, ""},
		{"not asked", check.Request{Spec: lelann, Config: four, Properties: safety}, false, ""},
		{"liveness", check.Request{Spec: lelann, Config: four, Reduce: true}, false, ""},
		{"bitstate", check.Request{Spec: lelann, Config: four, Properties: safety, Reduce: true, Strategy: check.Bitstate{Bytes: 1 << 16}}, false, ""},
		{"measures", check.Request{Spec: lelann, Config: four, Properties: safety, Reduce: true, Complexity: true}, false, ""},
		{"step property", check.Request{Spec: cr, Config: four, Properties: append([]string{"NonParticipantForwardsNoElection"}, safety...), Reduce: true}, false, stepOff},
		{"step property, not asked", check.Request{Spec: cr, Config: four, Properties: append([]string{"NonParticipantForwardsNoElection"}, safety...)}, false, ""},
		{"step property and liveness", check.Request{Spec: cr, Config: four, Properties: []string{"NonParticipantForwardsNoElection", "Termination"}, Reduce: true}, false, ""},
		{"step property and bitstate", check.Request{Spec: cr, Config: four, Properties: []string{"NonParticipantForwardsNoElection"}, Reduce: true, Strategy: check.Bitstate{Bytes: 1 << 16}}, false, ""},
		{"an invariant over the channels", check.Request{Spec: changRoberts(fewMessages), Config: model.Config{N: 3}, Properties: []string{"FewMessages", "SingleLeader"}, Reduce: true, Continue: true}, false,
			"FewMessages may read more of a state than the elected values and liveness, which the reduction keeps visible"},
		{"a step property of bully, which never reduces", check.Request{Spec: builtin(t, "bully"), Config: model.Config{N: 3}, Properties: []string{"WaitingAfterOK"}, Reduce: true}, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := run(t, c.req)
			require.True(t, rep.Stats.Complete)
			assert.Equal(t, c.reduced, rep.Stats.Reduced)
			assert.Equal(t, c.reduced, rep.Stats.ReducedStates > 0)
			assert.Equal(t, c.off, rep.ReductionOff)
			if c.req.Spec.Name == "lelann" && c.req.Strategy == nil && !c.req.Complexity && c.req.Properties != nil {
				want := int64(full)
				if c.reduced {
					want = reduced
				}
				assert.Equal(t, want, rep.Stats.States)
			}
		})
	}
}

// The reduced graph keeps every violation reachable but not every
// shortest path to one: a violation found with reduction is searched for
// again in full, so that the counterexample is a shortest one. LeLann,
// N=3, one crash: the reduced search's counterexample has 10 steps, the
// shortest 9.
func TestReducedViolationIsRerunInFull(t *testing.T) {
	spec, cfg := builtin(t, "lelann"), model.Config{N: 3, MaxCrashes: 1}
	plain := run(t, check.Request{Spec: spec, Config: cfg, Properties: safety})
	require.False(t, plain.RerunFull)
	rep := run(t, check.Request{Spec: spec, Config: cfg, Properties: safety, Reduce: true})
	assert.True(t, rep.RerunFull)
	assert.False(t, rep.Stats.Reduced, "the report is of the full search")
	assert.Equal(t, plain.Stats.States, rep.Stats.States)
	assert.Equal(t, int64(390), rep.Stats.States)
	for _, name := range safety {
		v := verdict(t, rep, name)
		require.Equal(t, check.Violated, v.Status, name)
		assert.Len(t, v.File.Steps, 10, "%s: 9 steps", name)
		assert.Equal(t, labelsOf(verdict(t, plain, name).File), labelsOf(v.File), name)
	}
}

// An interrupted check keeps the reduced search's counterexample: a rerun
// would stop at once and lose it.
func TestInterruptedReducedViolationIsKept(t *testing.T) {
	spec, cfg := builtin(t, "lelann"), model.Config{N: 3, MaxCrashes: 1}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rep := run(t, check.Request{Spec: spec, Config: cfg, Properties: safety, Reduce: true, Continue: true, Context: ctx, ProgressEvery: 1,
		Progress: func(p explore.Progress) {
			if p.Depth > 11 { // past the violations, at depth 10
				cancel()
			}
		}})
	require.Error(t, ctx.Err())
	assert.False(t, rep.RerunFull)
	assert.False(t, rep.Stats.Complete)
	assert.True(t, rep.Stats.Reduced)
	for _, name := range safety {
		v := verdict(t, rep, name)
		require.Equal(t, check.Violated, v.Status, name)
		assert.Len(t, v.File.Steps, 11, "%s: the reduced search's 10 steps", name)
	}
}

// everyoneDecides is an eventually-always property with no explanation of
// its own: the report says generically what fails.
var everyoneDecides = model.Property[changroberts.Local, changroberts.Msg]{
	Name: "EveryoneDecides", Kind: model.EventuallyAlways,
	Holds: func(v *model.View[changroberts.Local, changroberts.Msg]) bool {
		for p := range v.N() {
			if v.Alive(p) && v.Elected(p) == 0 {
				return false
			}
		}
		return true
	},
}

// An eventually-always property is violated by a fair cycle and, besides
// it, by a stuck state; each is explained from its own trace: what goes
// round the cycle, how many steps it has, how many steps lead to the stuck
// state.
func TestEventuallyAlwaysVerdicts(t *testing.T) {
	crash := model.Config{N: 4, MaxCrashes: 1}
	// Without Continue the first stuck state stops the search: no lasso.
	rep := run(t, check.Request{Spec: builtin(t, "chang-roberts"), Config: crash, Properties: []string{"Termination"}})
	first := verdict(t, rep, "Termination")
	require.Equal(t, check.Violated, first.Status)
	assert.Equal(t, cex.Stuck, first.Kind)
	assert.Len(t, first.File.Steps, 5)
	assert.Empty(t, first.Also)
	assert.Equal(t, explore.StopFirstViolation, rep.Stats.Stop)

	// Continue: the search goes on to the whole graph and its fair cycles.
	rep = run(t, check.Request{Spec: builtin(t, "chang-roberts"), Config: crash, Properties: []string{"Termination"}, Continue: true})
	term := verdict(t, rep, "Termination")
	require.Equal(t, check.Violated, term.Status)
	assert.Equal(t, cex.FairCycle, term.Kind)
	assert.Equal(t, "ELECTION(4) of crashed p4 circulates forever; Stable (elected=3) is never reached: p1 elected=⊥, p2 elected=⊥, p3 elected=⊥", term.Summary)
	assert.Len(t, term.File.Steps, 9)
	assert.Equal(t, 5, *term.File.CycleStart)
	require.Len(t, term.Also, 1)
	stuck := term.Also[0]
	assert.Equal(t, cex.Stuck, stuck.Kind)
	assert.Equal(t, "stuck without a leader: no fair step is enabled, and p1 elected=⊥, p2 elected=⊥, p3 elected=⊥ (Stable needs elected=3)", stuck.Summary)
	assert.Len(t, stuck.File.Steps, 5)
	assert.Equal(t, []*trace.File{term.File, stuck.File}, rep.Files())
	assert.False(t, term.Bounded || stuck.Bounded, "the circulating election needs no bound")

	rep = run(t, check.Request{Spec: changRoberts(everyoneDecides), Config: crash, Properties: []string{"EveryoneDecides"}, Continue: true})
	v := verdict(t, rep, "EveryoneDecides")
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, "a fair cycle of 3 steps repeats forever through a state where EveryoneDecides does not hold", v.Summary)
	require.Len(t, v.Also, 1)
	assert.Equal(t, "stuck after 4 steps: no fair step is enabled, and EveryoneDecides does not hold", v.Also[0].Summary)

	// At bound 2 the bound cuts a step of this cycle.
	unreliable := model.Config{N: 3, Detector: model.Unreliable, InitialLeader: true, MaxQueue: 2}
	rep = run(t, check.Request{Spec: builtin(t, "bully"), Config: unreliable, Properties: []string{"Termination"}, Continue: true})
	term = verdict(t, rep, "Termination")
	require.Equal(t, check.Violated, term.Status)
	assert.True(t, term.Bounded)
	assert.Equal(t, "elections repeat forever: suspect p1 (an unreliable detector's false suspicion or early timeout) starts a new one each time round a fair cycle of 11 steps; Stable (elected=3) is not kept: p1 elected=⊥", term.Summary)

	rep = run(t, check.Request{Spec: builtin(t, "lelann"), Config: model.Config{N: 4}, Properties: []string{"Termination"}})
	assert.Equal(t, check.Holds, verdict(t, rep, "Termination").Status)
}

// flagLike names fields as a command line would ("MaxStates" is
// --max-states); "" leaves the field's own name.
func flagLike(field string) string {
	return map[string]string{"MaxStates": "--max-states", "Continue": "--continue", "MaxQueue": "--max-queue"}[field]
}
