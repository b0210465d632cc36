package ringdetect_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"example.com/coursework/ringdetect"
	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/specs/ring"
	"github.com/mcheck/mcheck/trace"
)

// crashAny is the configuration of the notes' problem: three processes,
// any of them may crash at any step (one stays live), perfect detector.
var crashAny = mchecktest.Config{N: 3, CrashAny: true, Continue: true}

// actions lists a counterexample's steps as the report prints them.
func actions(f *trace.File) []string {
	var out []string
	for _, s := range f.Steps {
		out = append(out, s.Label())
	}
	return out
}

// The fixes, one at a time, each checked with N=3 and --crash-any. Every
// test asserts what the checker reports; t.Log shows the whole report with
// go test -v.

// Without any check: the notes' problem. P3 starts an election and
// crashes; its ELECTION(3) goes round the repaired ring forever (here the
// ring has shrunk to p2 alone, which forwards it to itself).
func TestNoCheckElectionOfCrashedProcessCirculates(t *testing.T) {
	rep, err := mchecktest.Run(ringdetect.Algorithm{}, crashAny)
	require.NoError(t, err)
	t.Log(mchecktest.Failure(rep, false))

	assert.Equal(t, check.Holds, mchecktest.Status(rep, "SingleLeader"))
	assert.Equal(t, check.Holds, mchecktest.Status(rep, "Agreement"))
	v := mchecktest.Verdict(rep, "Termination")
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, cex.FairCycle, v.Kind)
	assert.Equal(t, "ELECTION(3) of crashed p3 circulates forever; Stable (elected=2) is never reached: p2 elected=⊥", v.Summary)
	assert.Equal(t, []string{
		"initial state",
		"crash p1",
		"initiate p3",
		"crash p3",
		"deliver p3→p2 ELECTION(3)", // ◀ the cycle starts here
		"deliver p2→p2 ELECTION(3)", // ↩ and returns to the state after step 4
	}, actions(v.File))
	assert.Equal(t, 4, *v.File.CycleStart)

	// Circulating messages pile up until the channel bound (2N = 6) stops
	// them: this model is infinite, the search explores its bounded part.
	assert.Equal(t, int64(577_370), rep.Stats.States)
	assert.Equal(t, int64(1_191_631), rep.Stats.Transitions)
	assert.Equal(t, int64(372_079), rep.Stats.Discarded)
}

// Option 2 of the notes, CheckOriginator: ELECTION(k) of a crashed Pk is
// dropped, and the receiver starts a new election. The circulating ELECTION
// is gone, but the checker finds the same failure one message later: P3
// crashes after it has won, while its ELECTED(3) is on the ring, and
// ELECTED(3) circulates forever instead: only P3 itself would stop it,
// and nobody asks the detector about the k of an ELECTED(k).
func TestCheckOriginatorElectedOfCrashedProcessCirculates(t *testing.T) {
	rep, err := mchecktest.Run(ringdetect.Algorithm{CheckOriginator: true}, crashAny)
	require.NoError(t, err)
	t.Log(mchecktest.Failure(rep, false))

	assert.Equal(t, check.Holds, mchecktest.Status(rep, "SingleLeader"))
	assert.Equal(t, check.Holds, mchecktest.Status(rep, "Agreement"))
	v := mchecktest.Verdict(rep, "Termination")
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, cex.FairCycle, v.Kind)
	assert.Equal(t, "ELECTED(3) of crashed p3 circulates forever; Stable (elected=2) is never reached: p2 elected=3", v.Summary)
	assert.Equal(t, []string{
		"initial state",
		"crash p1",
		"initiate p3",
		"deliver p3→p2 ELECTION(3)",
		"deliver p2→p3 ELECTION(3)",
		"crash p3",                 // after sending ELECTED(3)
		"deliver p3→p2 ELECTED(3)", // ◀ the cycle starts here
		"deliver p2→p2 ELECTED(3)",
		"initiate p2", // p2 suspects the crashed p3...
		"deliver p2→p2 ELECTED(3)",
		"deliver p2→p2 ELECTION(2)",
		"deliver p2→p2 ELECTED(3)",
		"deliver p2→p2 ELECTED(2)", // ...and even wins its election,
		"deliver p2→p2 ELECTED(3)", // ↩ but ELECTED(3) overwrites it
	}, actions(v.File))
	assert.Equal(t, 6, *v.File.CycleStart)
	// The stuck state of the next test is already there as well.
	require.Len(t, v.Also, 1)
	assert.Equal(t, cex.Stuck, v.Also[0].Kind)
	assert.Equal(t, int64(308_150), rep.Stats.States)
	assert.Equal(t, int64(191_311), rep.Stats.Discarded)
}

// CheckOriginator and CheckLeader: no message of a crashed process
// circulates any more, and the model becomes finite (nothing discarded).
// Termination still fails, now with a stuck state: a crash empties the
// channels into the crashed process, so an ELECTION sent to P3 just before
// it crashed is lost, and p1 and p2 wait (busy) forever for an election
// that no message carries any more. Neither detector check can help: no
// process ever receives a message about the lost election.
func TestBothChecksStuckAfterALostMessage(t *testing.T) {
	rep, err := mchecktest.Run(ringdetect.Algorithm{CheckOriginator: true, CheckLeader: true}, crashAny)
	require.NoError(t, err)
	t.Log(mchecktest.Failure(rep, false))

	v := mchecktest.Verdict(rep, "Termination")
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, cex.Stuck, v.Kind)
	assert.Empty(t, v.Also, "no fair cycle is left, only the stuck state")
	assert.Equal(t, "stuck without a leader: no fair step is enabled, and p1 elected=⊥, p2 elected=⊥ (Stable needs elected=2)", v.Summary)
	assert.Equal(t, []string{
		"initial state",
		"initiate p1",
		"deliver p1→p2 ELECTION(1)", // p2 sends ELECTION(2) to p3...
		"crash p3",                  // ...and it is lost with p3
	}, actions(v.File))
	assert.Equal(t, check.Holds, mchecktest.Status(rep, "SingleLeader"))
	assert.Equal(t, check.Holds, mchecktest.Status(rep, "Agreement"))
	assert.Equal(t, int64(2_252), rep.Stats.States)
	assert.Equal(t, int64(6_116), rep.Stats.Transitions)
	assert.Equal(t, int64(0), rep.Stats.Discarded)
}

// All three fixes: Resend sends the last message again when the process it
// went to crashes (the detector justifies it). Now every property holds
// under the perfect detector, on a complete search of a finite model.
func TestFixedRingHolds(t *testing.T) {
	fixed := ringdetect.Algorithm{CheckOriginator: true, CheckLeader: true, Resend: true}
	for _, tc := range []struct {
		cfg                 mchecktest.Config
		states, transitions int64
	}{
		{crashAny, 11_689, 30_125},
		{mchecktest.Config{N: 3, Crashes: 1}, 2_964, 6_012},
		{mchecktest.Config{N: 4, Crashes: 1}, 71_813, 177_289},
	} {
		rep := mchecktest.Check(t, fixed, tc.cfg) // fails the test on any violation
		require.NotNil(t, rep)
		assert.Equal(t, tc.states, rep.Stats.States, "%+v", tc.cfg)
		assert.Equal(t, tc.transitions, rep.Stats.Transitions, "%+v", tc.cfg)
		assert.Equal(t, int64(0), rep.Stats.Discarded, "%+v", tc.cfg)
	}
}

// The Codec is an optimisation only: hashstructure/v2 (the path of
// algorithms without one) finds exactly the same states.
func TestCodecAgreesWithGenericHashing(t *testing.T) {
	fixed := ringdetect.Algorithm{CheckOriginator: true, CheckLeader: true, Resend: true}
	spec := specs.Spec{Name: "ringdetect", Build: specs.Builder(fixed)}
	cfg := model.Config{N: 3, MaxCrashes: 2}
	fast, err := check.Run(check.Request{Spec: spec, Config: cfg, Continue: true})
	require.NoError(t, err)
	slow, err := check.Run(check.Request{Spec: spec, Config: cfg, Continue: true, Generic: true})
	require.NoError(t, err)
	assert.Equal(t, int64(11_689), fast.Stats.States)
	assert.Equal(t, fast.Stats.States, slow.Stats.States)
	assert.Equal(t, fast.Stats.Transitions, slow.Stats.Transitions)
}

// The handler on its own, without the kernel: option 2 drops ELECTION(3)
// of the crashed p3 and starts p1's own election instead.
func TestCheckOriginatorHandler(t *testing.T) {
	env := model.NewTestEnv[ringdetect.Msg](1, 2, 3)
	env.Alive[2] = false // p3 has crashed
	var l ringdetect.Local
	alg := ringdetect.Algorithm{CheckOriginator: true}
	alg.Receive(env.Ctx(0), &l, 2, ringdetect.Msg{Kind: ring.Election, J: 3})
	assert.Equal(t, ringdetect.Local{Busy: true}, l)
	require.Len(t, env.Sent, 1)
	assert.Equal(t, model.Sent[ringdetect.Msg]{From: 0, To: 1, Msg: ringdetect.Msg{Kind: ring.Election, J: 1}}, env.Sent[0])

	// Without the check p1 forwards it.
	env.Reset()
	l = ringdetect.Local{}
	ringdetect.Algorithm{}.Receive(env.Ctx(0), &l, 2, ringdetect.Msg{Kind: ring.Election, J: 3})
	require.Len(t, env.Sent, 1)
	assert.Equal(t, 3, env.Sent[0].Msg.J)
}

// TestShowFailure checks what a student sees when the check fails: the
// violated property with its one-line explanation, then the report with the
// counterexample. To see it as a failing test, run
//
//	MCHECK_SHOW_FAILURE=1 go test ./ringdetect -run ShowFailure
func TestShowFailure(t *testing.T) {
	rep, err := mchecktest.Run(ringdetect.Algorithm{CheckOriginator: true}, crashAny)
	require.NoError(t, err)
	msg := mchecktest.Failure(rep, false)
	require.True(t, strings.HasPrefix(msg, "Termination VIOLATED: ELECTED(3) of crashed p3 circulates forever"), msg)
	require.Contains(t, msg, "counterexample")
	if os.Getenv("MCHECK_SHOW_FAILURE") != "" {
		t.Error(msg)
	}
}
