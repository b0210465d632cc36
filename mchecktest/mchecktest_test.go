package mchecktest_test

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
	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/report"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/specs/changroberts"
	"github.com/mcheck/mcheck/specs/ring"
)

// fakeTB records what Check reports instead of failing the test running it.
// It embeds a real testing.TB for the methods Check does not use.
type fakeTB struct {
	testing.TB
	errors, fatals, logs []string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.fatals = append(f.fatals, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Logf(format string, args ...any) {
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}

// selfish is a broken algorithm written the way a student would, without a
// Codec or a formatter: whoever starts an election declares itself leader.
type selfish struct{}

type selfishLocal struct{ Elected int }

type selfishMsg struct{ Leader int }

func (selfish) Init() selfishLocal          { return selfishLocal{} }
func (selfish) Elected(l *selfishLocal) int { return l.Elected }
func (selfish) CanInitiate(_ *model.Ctx[selfishMsg], l *selfishLocal, suspects bool) bool {
	return suspects
}
func (selfish) Initiate(c *model.Ctx[selfishMsg], l *selfishLocal) {
	l.Elected = c.ID()
	c.SendNext(model.CW, selfishMsg{Leader: c.ID()})
}
func (selfish) Receive(c *model.Ctx[selfishMsg], l *selfishLocal, _ int, m selfishMsg) {
	l.Elected = m.Leader
}
func (selfish) FormatMsg(m selfishMsg) string { return fmt.Sprintf("LEADER(%d)", m.Leader) }

func TestCorrectAlgorithmPassesSilently(t *testing.T) {
	ft := &fakeTB{TB: t}
	rep := mchecktest.Check(ft, changroberts.Algorithm{}, mchecktest.Config{N: 3})
	require.NotNil(t, rep)
	assert.Empty(t, ft.errors)
	assert.Empty(t, ft.fatals)
	for _, v := range rep.Verdicts {
		assert.Equal(t, check.Holds, v.Status, v.Name)
	}
	// Counts come with the report: Chang-Roberts at N=3 without faults.
	assert.Equal(t, int64(25), rep.Stats.States)
	assert.Equal(t, int64(48), rep.Stats.Transitions)
	assert.True(t, rep.Stats.Complete)
	assert.Equal(t, "changroberts.Algorithm", rep.Algo)
	// The success line goes to t.Logf only (go test -v).
	require.Len(t, ft.logs, 1)
	assert.Equal(t, "mcheck changroberts.Algorithm: 25 states, 48 transitions: SingleLeader, Agreement, Termination hold", ft.logs[0])
}

func TestInvariantViolationFailsWithPropertyAndTrace(t *testing.T) {
	ft := &fakeTB{TB: t}
	rep := mchecktest.Check(ft, selfish{}, mchecktest.Config{N: 2, Name: "selfish"})
	require.Len(t, ft.errors, 1, "one t.Errorf with everything in it")
	msg := ft.errors[0]
	// First the violated property and its one-line explanation...
	assert.True(t, strings.HasPrefix(msg, "SingleLeader VIOLATED: after 2 steps p1 and p2 each consider themselves leader\n"), msg)
	// ...then the report as the CLI prints it, with the shortest trace.
	assert.Contains(t, msg, "mcheck selfish, N=2, ids 1,2, no crashes, perfect detector, max-queue 4\n")
	// Without FormatLocal, a process shows its struct's fields, and a step
	// what changed in each of them.
	assert.Contains(t, msg, "SingleLeader counterexample, 2 steps:\n"+
		"   0  initial state\n"+
		"      p1{elected=0} p2{elected=0}\n"+
		"   1  initiate p1\n"+
		"      p1.elected: 0 → 1\n"+
		"      chan p1→p2: [] → [LEADER(1)]\n"+
		"   2  initiate p2\n"+
		"      p2.elected: 0 → 2\n"+
		"      chan p2→p1: [] → [LEADER(2)]")
	assert.Equal(t, check.Violated, mchecktest.Status(rep, "SingleLeader"))
	assert.Empty(t, ft.logs)
	// The text is Failure's, and its report part is exactly report.Text's
	// (the mcheck command's rendering; this report suggests no option that
	// a test names otherwise than the library does).
	assert.Equal(t, mchecktest.Failure(rep, false), msg)
	var b bytes.Buffer
	report.Text(&b, report.Of(rep, nil), false)
	assert.True(t, strings.HasSuffix(msg, "\n\n"+strings.TrimRight(b.String(), "\n")))
}

func TestLivenessViolationShowsTheLasso(t *testing.T) {
	ft := &fakeTB{TB: t}
	rep := mchecktest.Check(ft, ring.Algorithm{}, mchecktest.Config{N: 3, Crashes: 1, MaxQueue: 1, Continue: true})
	require.Len(t, ft.errors, 1)
	msg := ft.errors[0]
	assert.True(t, strings.HasPrefix(msg, "Termination VIOLATED: ELECTION(3) of crashed p3 circulates forever;"), msg)
	assert.Contains(t, msg, "Termination counterexample (a lasso: a prefix, then a cycle repeated forever)")
	assert.Contains(t, msg, "◀ cycle starts here")
	assert.Contains(t, msg, "↩ back to step")
	assert.Equal(t, check.Holds, mchecktest.Status(rep, "SingleLeader"))
	assert.Equal(t, check.Violated, mchecktest.Status(rep, "Termination"))
	assert.Equal(t, cex.FairCycle, mchecktest.Verdict(rep, "Termination").Kind)
}

func TestFullStates(t *testing.T) {
	ft := &fakeTB{TB: t}
	mchecktest.Check(ft, selfish{}, mchecktest.Config{N: 2, FullStates: true})
	require.Len(t, ft.errors, 1)
	assert.Contains(t, ft.errors[0], "   1  initiate p1\n      p1{elected=1} p2{elected=0} | p1→p2 [LEADER(1)]\n")
}

func TestIncompleteSearchNeverPasses(t *testing.T) {
	ft := &fakeTB{TB: t}
	rep := mchecktest.Check(ft, changroberts.Algorithm{}, mchecktest.Config{N: 4, MaxStates: 10})
	require.Len(t, ft.errors, 1)
	msg := ft.errors[0]
	assert.Contains(t, msg, "SingleLeader unknown: the search did not finish")
	assert.Contains(t, msg, "Termination unknown: the search did not finish")
	assert.Contains(t, msg, "stopped by the state cap of 10 states (Config.MaxStates, default 2000000; -1: no cap), so no property can be said to hold: raise that cap, make the model smaller (Config.N, Config.Crashes, Config.MaxQueue)")
	assert.Contains(t, msg, "search       INCOMPLETE")
	assert.False(t, rep.Stats.Complete)
}

func TestConfig(t *testing.T) {
	rep, err := mchecktest.Run(ring.Algorithm{}, mchecktest.Config{IDs: []int{3, 9, 4, 8}, CrashAny: true, Check: "safety", MaxQueue: 1, Name: "ring"})
	require.NoError(t, err)
	assert.Equal(t, 4, rep.Config.N, "N defaults to the number of IDs")
	assert.Equal(t, 3, rep.Config.MaxCrashes, "CrashAny is N-1 crashes")
	assert.Equal(t, check.Unchecked, mchecktest.Status(rep, "Termination"))
	assert.Equal(t, check.Holds, mchecktest.Status(rep, "Agreement"))
	assert.Equal(t, check.Status(""), mchecktest.Status(rep, "NoSuchProperty"))

	rep, err = mchecktest.Run(changroberts.Algorithm{}, mchecktest.Config{})
	require.NoError(t, err)
	assert.Equal(t, 3, rep.Config.N, "N defaults to 3")
	assert.Equal(t, 6, rep.Config.MaxQueue)
	assert.Equal(t, model.Perfect, rep.Config.Detector)

	// The same numbers as the registered spec through check.Run directly.
	spec, err := specs.Builtin().Lookup("chang-roberts")
	require.NoError(t, err)
	direct, err := check.Run(check.Request{Spec: spec, Config: model.Config{N: 3, MaxCrashes: 1}, Continue: true})
	require.NoError(t, err)
	via, err := mchecktest.Run(changroberts.Algorithm{}, mchecktest.Config{N: 3, Crashes: 1, Continue: true})
	require.NoError(t, err)
	assert.Equal(t, direct.Stats.States, via.Stats.States)
	assert.Equal(t, direct.Stats.Transitions, via.Stats.Transitions)
}

func TestBadConfigIsFatal(t *testing.T) {
	for _, tc := range []struct {
		cfg  mchecktest.Config
		want string
	}{
		{mchecktest.Config{N: 3, IDs: []int{1, 2}}, "mchecktest: Config.IDs has 2 IDs but Config.N is 3: give exactly one ID per process"},
		{mchecktest.Config{N: 3, Crashes: 1, CrashAny: true}, "mchecktest: Config.CrashAny means Config.Crashes 2 for Config.N 3: give only one of them"},
		{mchecktest.Config{N: 3, Check: "Safty"}, `mchecktest: Config.Check: unknown property "Safty"`},
		{mchecktest.Config{N: 1}, "mchecktest: Config.N 1 is out of range: use 2 to 16 processes"},
		{mchecktest.Config{N: 3, Crashes: 3}, "mchecktest: Config.Crashes 3 can never happen with Config.N 3 and Config.Restarts 0"},
		{mchecktest.Config{N: 3, Initiators: []int{2}, Down: []int{2}}, "mchecktest: Config.Initiators: no initiator starts live (Config.Down)"},
		{mchecktest.Config{N: 3, MaxQueue: -1}, "mchecktest: Config.MaxQueue -1 is negative"},
		{mchecktest.Config{N: 3, InitialLeader: true}, "mchecktest: Config.InitialLeader needs the method InitLeader(leader int) mchecktest_test.selfishLocal on mchecktest_test.selfish (model.Leaderer)"},
	} {
		ft := &fakeTB{TB: t}
		rep := mchecktest.Check(ft, selfish{}, tc.cfg)
		assert.Nil(t, rep)
		require.Len(t, ft.fatals, 1, "%+v", tc.cfg)
		assert.True(t, strings.HasPrefix(ft.fatals[0], tc.want), ft.fatals[0])
		assert.NotContains(t, ft.fatals[0], "--", "library errors name Config fields, not flags")
		assert.Empty(t, ft.errors)
	}
}

// A real test, not a fake: a correct algorithm through the real *testing.T.
func TestCheckWithRealT(t *testing.T) {
	rep := mchecktest.Check(t, ring.Algorithm{}, mchecktest.Config{N: 3})
	require.NotNil(t, rep)
	assert.Equal(t, check.Holds, mchecktest.Status(rep, "Termination"))
}

// A test adds an invariant of its own over the algorithm's local state; a
// broken claim fails with the property's name and its shortest trace.
func TestConfigPropertiesAddInvariantsOverLocalState(t *testing.T) {
	type view = model.View[changroberts.Local, changroberts.Msg]
	participantsElectNobody := model.Property[changroberts.Local, changroberts.Msg]{
		Name: "ParticipantElectsNobody", Kind: model.Invariant,
		Doc: "a participant has elected nobody",
		Holds: func(v *view) bool {
			for p := 0; p < v.N(); p++ {
				if l := v.Local(p); l.Participant && l.Elected != 0 {
					return false
				}
			}
			return true
		},
	}
	ft := &fakeTB{TB: t}
	rep := mchecktest.Check(ft, changroberts.Algorithm{}, mchecktest.Config{N: 3, Properties: []model.AnyProperty{participantsElectNobody}})
	assert.Empty(t, ft.errors)
	assert.Equal(t, check.Holds, mchecktest.Status(rep, "ParticipantElectsNobody"))
	assert.Equal(t, check.Holds, mchecktest.Status(rep, "SingleLeader"), "the default properties are still checked")

	// A wrong claim: nobody is ever elected.
	nobody := model.Property[changroberts.Local, changroberts.Msg]{
		Name: "NobodyElected", Kind: model.Invariant, Doc: "no process has elected anybody",
		Holds: func(v *view) bool {
			for p := 0; p < v.N(); p++ {
				if v.Local(p).Elected != 0 {
					return false
				}
			}
			return true
		},
	}
	ft = &fakeTB{TB: t}
	rep = mchecktest.Check(ft, changroberts.Algorithm{}, mchecktest.Config{N: 3, Check: "NobodyElected", Properties: []model.AnyProperty{nobody}})
	require.Len(t, ft.errors, 1)
	msg := ft.errors[0]
	assert.True(t, strings.HasPrefix(msg, "NobodyElected VIOLATED: after 4 steps NobodyElected (no process has elected anybody) does not hold\n"), msg)
	assert.Contains(t, msg, "NobodyElected counterexample, 4 steps:")
	assert.True(t, strings.HasSuffix(msg, "   4  deliver p2→p3 ELECTION(3)\n      p3.participant: true → false\n      p3.elected: ⊥ → 3\n      chan p3→p1: [] → [ELECTED(3)]\n      chan p2→p3: [ELECTION(3)] → []"), "the trace ends in the first state with a leader")
	assert.Equal(t, check.Unchecked, mchecktest.Status(rep, "SingleLeader"))

	// A property over other types is refused with a message, not a panic.
	ft = &fakeTB{TB: t}
	wrong := model.Property[ring.Local, ring.Msg]{Name: "Wrong", Holds: func(*model.View[ring.Local, ring.Msg]) bool { return true }}
	assert.Nil(t, mchecktest.Check(ft, changroberts.Algorithm{}, mchecktest.Config{N: 3, Properties: []model.AnyProperty{wrong}}))
	require.Len(t, ft.fatals, 1)
	assert.Contains(t, ft.fatals[0], "Config.Properties: Wrong is a model.Property[")
}

// An eventually-always property of a test's own gets the same stuck states
// and lassos as Termination, replayed before they are reported.
func TestConfigPropertiesEventuallyAlways(t *testing.T) {
	type view = model.View[changroberts.Local, changroberts.Msg]
	quiet := model.Property[changroberts.Local, changroberts.Msg]{
		Name: "EventuallyNoParticipant", Kind: model.EventuallyAlways,
		Doc: "in the end no live process is a participant",
		Holds: func(v *view) bool {
			for p := 0; p < v.N(); p++ {
				if v.Alive(p) && v.Local(p).Participant {
					return false
				}
			}
			return true
		},
	}
	rep, err := mchecktest.Run(changroberts.Algorithm{}, mchecktest.Config{N: 3, Crashes: 1, Check: "safety,EventuallyNoParticipant", Continue: true, Properties: []model.AnyProperty{quiet}})
	require.NoError(t, err)
	v := mchecktest.Verdict(rep, "EventuallyNoParticipant")
	require.Equal(t, check.Violated, v.Status)
	var kinds []string
	for _, c := range append([]check.Counterexample{{Kind: v.Kind, Summary: v.Summary, File: v.File}}, v.Also...) {
		kinds = append(kinds, c.Kind.String()+": "+c.Summary)
		require.NotNil(t, c.File, "replayed")
	}
	assert.Equal(t, []string{
		"fair-cycle: a fair cycle of 2 steps repeats forever through a state where EventuallyNoParticipant (in the end no live process is a participant) does not hold",
		"stuck: stuck after 3 steps: no fair step is enabled, and EventuallyNoParticipant (in the end no live process is a participant) does not hold",
	}, kinds)
	assert.Equal(t, check.Unchecked, mchecktest.Status(rep, "Termination"))

	// Checked along with Termination (by default), each gets its own
	// counterexamples from the one search.
	both, err := mchecktest.Run(changroberts.Algorithm{}, mchecktest.Config{N: 3, Crashes: 1, Continue: true, Properties: []model.AnyProperty{quiet}})
	require.NoError(t, err)
	assert.Equal(t, rep.Stats.States, both.Stats.States)
	again := mchecktest.Verdict(both, "EventuallyNoParticipant")
	assert.Equal(t, v.File.Steps, again.File.Steps)
	assert.Equal(t, v.Summary, again.Summary)
	alone, err := mchecktest.Run(changroberts.Algorithm{}, mchecktest.Config{N: 3, Crashes: 1, Continue: true})
	require.NoError(t, err)
	term, termAlone := mchecktest.Verdict(both, "Termination"), mchecktest.Verdict(alone, "Termination")
	assert.Equal(t, termAlone.Status, term.Status)
	assert.Equal(t, termAlone.Summary, term.Summary)
	assert.Equal(t, termAlone.File.Steps, term.File.Steps)
}

// Complexity and Perm reach the check as --complexity and --ids perm do.
func TestConfigComplexityAndPerm(t *testing.T) {
	spec, err := specs.Builtin().Lookup("chang-roberts")
	require.NoError(t, err)
	direct, err := check.Run(check.Request{Spec: spec, Config: model.Config{N: 3, Perm: true}, Continue: true, Complexity: true})
	require.NoError(t, err)
	rep, err := mchecktest.Run(changroberts.Algorithm{}, mchecktest.Config{N: 3, Perm: true, Complexity: true})
	require.NoError(t, err)
	assert.Equal(t, 6, rep.Arrangements, "every arrangement of 1..3")
	assert.Equal(t, int64(168), rep.Stats.States, "mcheck --algo chang-roberts --n 3 --ids perm --complexity")
	assert.Equal(t, direct.Stats.States, rep.Stats.States)
	require.NotNil(t, rep.Complexity)
	require.NotNil(t, rep.Complexity.Measures)
	assert.Equal(t, 6, rep.Complexity.Measures.Total.Min)
	assert.Equal(t, 9, rep.Complexity.Measures.Total.Max)
}

// Sometimes and LeadsTo properties of a test's own, with the generic
// explanations: an example passes (the log line says it is reachable), an
// unreachable one fails the test, and a leads-to's counterexample says
// where its premise held.
func TestConfigPropertiesSometimesAndLeadsTo(t *testing.T) {
	type view = model.View[changroberts.Local, changroberts.Msg]
	elected := func(id int) func(v *view) bool {
		return func(v *view) bool {
			for p := 0; p < v.N(); p++ {
				if v.Alive(p) && v.Elected(p) == id {
					return true
				}
			}
			return false
		}
	}
	twoKnowsIt := model.Property[changroberts.Local, changroberts.Msg]{
		Name: "SomebodyElects2", Kind: model.Sometimes, Doc: "a live process has elected 2", Holds: elected(2),
	}
	ft := &fakeTB{}
	rep := mchecktest.Check(ft, changroberts.Algorithm{}, mchecktest.Config{N: 3, Crashes: 1, Check: "SomebodyElects2", Properties: []model.AnyProperty{twoKnowsIt}})
	require.Empty(t, ft.errors)
	require.Len(t, ft.logs, 1)
	assert.Contains(t, ft.logs[0], ": SomebodyElects2 reachable")
	v := mchecktest.Verdict(rep, "SomebodyElects2")
	assert.Equal(t, check.Reachable, v.Status)
	assert.Equal(t, "after 4 steps SomebodyElects2 (a live process has elected 2) holds", v.Summary)

	ft = &fakeTB{}
	mchecktest.Check(ft, changroberts.Algorithm{}, mchecktest.Config{N: 3, Check: "SomebodyElects2", Properties: []model.AnyProperty{twoKnowsIt}})
	require.Len(t, ft.errors, 1)
	assert.True(t, strings.HasPrefix(ft.errors[0], "SomebodyElects2 UNREACHABLE: no reachable state satisfies it (the search was exhaustive)"), ft.errors[0])

	threeThenTwo := model.Property[changroberts.Local, changroberts.Msg]{
		Name: "ThreeThenTwo", Kind: model.LeadsTo, Doc: "once 3 is elected, 2 is elected", From: elected(3), FromName: "Elected3", Holds: elected(2),
	}
	rep, err := mchecktest.Run(changroberts.Algorithm{}, mchecktest.Config{N: 3, Check: "ThreeThenTwo", Properties: []model.AnyProperty{threeThenTwo}})
	require.NoError(t, err)
	v = mchecktest.Verdict(rep, "ThreeThenTwo")
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, "after step 4 Elected3 holds; then stuck after 7 steps (no fair step is enabled), and ThreeThenTwo (once 3 is elected, 2 is elected) is never reached", v.Summary)
	assert.Equal(t, 4, *v.File.Premise)
}

// A broken variant fails at its first violation with the shortest
// counterexample, far below the state cap and not "incomplete": here the
// ring with crashes, whose Termination fails after 3 steps.
func TestBrokenVariantFailsAtTheFirstViolation(t *testing.T) {
	ft := &fakeTB{TB: t}
	rep := mchecktest.Check(ft, ring.Algorithm{}, mchecktest.Config{N: 3, Crashes: 1, MaxQueue: 1})
	require.Len(t, ft.errors, 1)
	require.Empty(t, ft.fatals)
	msg := ft.errors[0]
	assert.Contains(t, msg, "Termination VIOLATED: stuck without a leader")
	assert.Contains(t, msg, "Termination counterexample (ends in a stuck state), 3 steps:")
	assert.Contains(t, msg, "the search stopped at the first violation, so SingleLeader, Agreement are unknown: Config.Continue decides them")
	assert.True(t, strings.HasPrefix(msg, "Termination VIOLATED: "), "what failed comes first")
	assert.NotContains(t, msg, "raise that cap")
	assert.NotContains(t, msg, "so no property can be said to hold")
	assert.Equal(t, explore.StopFirstViolation, rep.Stats.Stop)
	assert.Less(t, rep.Stats.States, int64(100))

	rep, err := mchecktest.Run(ring.Algorithm{}, mchecktest.Config{N: 3, Crashes: 1, MaxQueue: 1})
	require.NoError(t, err, "a violation is a finding, not an incomplete search")
	assert.Equal(t, check.Violated, mchecktest.Status(rep, "Termination"))
}
