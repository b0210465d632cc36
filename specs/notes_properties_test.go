package specs_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	cr "github.com/mcheck/mcheck/specs/changroberts"
	hs "github.com/mcheck/mcheck/specs/hirschsinclair"
	"github.com/mcheck/mcheck/specs/lelann"
	"github.com/mcheck/mcheck/specs/ring"
	"github.com/mcheck/mcheck/trace"
)

// The notes' claims as built-in optional properties (docs/semantics.md
// section 2.10): exact verdicts and counts, shortest counterexamples, and
// where a bound is tight, the next smaller bound fails.

func TestNotesPropertiesHoldWithoutFaults(t *testing.T) {
	perm4 := model.Config{N: 4, Perm: true}
	for _, c := range []struct {
		algo, property string
		cfg            model.Config
		states         int64
	}{
		{"chang-roberts", "NoEarlyAnnounce", perm4, 1_988},
		{"chang-roberts", "MessageBound", perm4, 3_292},
		{"lelann", "MessageBound", perm4, 3_648},
		{"ring", "MessageBound", model.Config{N: 4, Perm: true, Initiators: []int{1}}, 288},
		{"hirschberg-sinclair", "WinnersPerPhase", perm4, 45_328},
		{"hirschberg-sinclair", "MessageBound", perm4, 89_520},
	} {
		t.Run(c.algo+"/"+c.property, func(t *testing.T) {
			rep, v := checkOne(t, c.algo, c.cfg, c.property, 0)
			assert.Equal(t, check.Holds, v.Status, v.Summary)
			assert.Equal(t, c.states, rep.Stats.States)
		})
	}
}

// A crash leaves the crashed initiator's ELECTION on its way: nobody
// eliminated it when the winner announces itself (the notes assume no
// failures).
func TestNoEarlyAnnounceFailsAfterACrash(t *testing.T) {
	_, v := checkOne(t, "chang-roberts", model.Config{N: 3, MaxCrashes: 1}, "NoEarlyAnnounce", 0)
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, cex.Step, v.Kind)
	assert.Equal(t, "step 5, deliver p2→p3 ELECTION(3), announces p3 while ELECTION(1) on p1→p2 is still on its way", v.Summary)
	assert.Equal(t, []string{"initiate p1", "crash p1", "initiate p3", "deliver p3→p2 ELECTION(3)", "deliver p2→p3 ELECTION(3)"}, labels(v.Trace))
	require.NotNil(t, v.File)
}

// The notes' bound for Hirschberg-Sinclair assumes no failures: a crash
// lets more messages go round; their winners per phase still hold.
func TestHirschbergSinclairBoundFailsWithACrash(t *testing.T) {
	cfg := model.Config{N: 3, MaxCrashes: 1}
	// With a crash the sends grow up to the counts' cap: stop at the
	// violation (a shortest one) instead of exploring every count.
	rep, err := check.Run(check.Request{Spec: lookup(t, "hirschberg-sinclair"), Config: cfg, Properties: []string{"MessageBound"}, MaxStates: 2_000_000})
	require.NoError(t, err)
	v := rep.Verdicts[len(rep.Verdicts)-1]
	require.Equal(t, "MessageBound", v.Name)
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, "after 40 steps 44 messages were sent, more than the notes' bound 43", v.Summary)
	_, v = checkOne(t, "hirschberg-sinclair", cfg, "WinnersPerPhase", 0)
	assert.Equal(t, check.Holds, v.Status, v.Summary)
}

// The ring algorithm's bound is the notes' count for one initiator: with
// every process an initiator it fails.
func TestRingBoundIsForOneInitiator(t *testing.T) {
	_, v := checkOne(t, "ring", model.Config{N: 4, Perm: true}, "MessageBound", 0)
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, "after 12 steps 12 messages were sent, more than 3N-1 = 11", v.Summary)
}

// The notes' own worst case for Bully (the smallest ID detects the crash
// of the largest) sends more ELECTION messages than their N(N-1)/2: the
// new coordinator hears a late ELECTION and calls an election again.
func TestBullyElectionBoundFailsInTheNotesOwnWorstCase(t *testing.T) {
	_, v := checkOne(t, "bully", model.Config{N: 4, Down: []int{4}, Initiators: []int{1}, InitialLeader: true}, "MessageBound", 0)
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, "after 5 steps 7 ELECTION messages were sent, more than N(N-1)/2 = 6", v.Summary)
	assert.Equal(t, []string{"detect p1", "deliver p1→p2 ELECTION(1)", "deliver p1→p3 ELECTION(1)", "timeout-ok p3", "deliver p2→p3 ELECTION(2)"}, labels(v.Trace))
	require.NotNil(t, v.File)
	require.NoError(t, trace.Replay(v.File, specs.Builtin()))
}

// Tight bounds: one less than the notes' bound fails, with a shortest run
// to the state that exceeds it.
func TestNotesBoundsAreTight(t *testing.T) {
	crBound := only(t, cr.Algorithm{}.Properties(), "MessageBound")
	crBound.Name, crBound.Doc, crBound.Explain = "OneLess", "at most N(N+1)/2 + N - 1 messages", nil
	crBound.Holds = func(v *model.View[cr.Local, cr.Msg]) bool { return v.Sent() <= v.N()*(v.N()+1)/2+v.N()-1 }
	tight(t, cr.Algorithm{}, crBound, "after 16 steps OneLess (at most N(N+1)/2 + N - 1 messages) does not hold")

	// The ring algorithm's 3N-1 is the notes' count for one initiator.
	ringBound := only(t, ring.Algorithm{}.Properties(), "MessageBound")
	ringBound.Name, ringBound.Doc, ringBound.Explain = "OneLess", "at most 3N-2 messages", nil
	ringBound.Holds = func(v *model.View[ring.Local, ring.Msg]) bool { return v.Sent() <= 3*v.N()-2 }
	tight(t, ring.Algorithm{}, ringBound, "after 11 steps OneLess (at most 3N-2 messages) does not hold", 1)

	llBound := only(t, lelann.Algorithm{}.Properties(), "MessageBound")
	llBound.Name, llBound.Doc, llBound.Explain = "OneLess", "at most N² - 1 messages", nil
	llBound.Holds = func(v *model.View[lelann.Local, lelann.Msg]) bool { return v.Sent() <= v.N()*v.N()-1 }
	tight(t, lelann.Algorithm{}, llBound, "after 13 steps OneLess (at most N² - 1 messages) does not hold")

	// Two processes win phase 0 on 4 processes (IDs 1,3,2,4 and the like):
	// ⌊4/(2^0+1)⌋ = 2 is reached.
	hsWinners := only(t, hs.Algorithm{}.Properties(), "WinnersPerPhase")
	hsWinners.Name, hsWinners.Doc, hsWinners.Explain = "OneLess", "at most ⌊N/2⌋ - 1 processes win phase 0", nil
	hsWinners.Holds = func(v *model.View[hs.Local, hs.Msg]) bool {
		won := 0
		for p := 0; p < v.N(); p++ {
			if v.Local(p).Phase > 0 {
				won++
			}
		}
		return won <= v.N()/2-1
	}
	tight(t, hs.Algorithm{}, hsWinners, "after 10 steps OneLess (at most ⌊N/2⌋ - 1 processes win phase 0) does not hold")
}

func TestHirschbergSinclairBoundIsTheNotesSum(t *testing.T) {
	// 5n + Σ_{k=1}^{⌈log2(n-1)⌉+1} 4·2^k·n/(2^(k-1)+1), rounded down:
	// n=4: 20 + 16 + 64/3 + 128/5 = 82.93; n=16: 565.98.
	for n, want := range map[int]int{2: 18, 3: 43, 4: 82, 16: 565} {
		assert.Equal(t, want, hs.Bound(n), "n=%d", n)
	}
}

func tight[L, M any](t *testing.T, alg model.Algorithm[L, M], p model.Property[L, M], summary string, initiators ...int) {
	t.Helper()
	rep, err := mchecktest.Run(alg, mchecktest.Config{N: 4, Perm: true, Initiators: initiators, Check: p.Name, Properties: []model.AnyProperty{p}})
	require.NoError(t, err)
	v := mchecktest.Verdict(rep, p.Name)
	require.Equal(t, check.Violated, v.Status, v.Summary)
	assert.Equal(t, summary, v.Summary)
}

func only[L, M any](t *testing.T, props []model.Property[L, M], name string) model.Property[L, M] {
	t.Helper()
	for _, p := range props {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no property %s", name)
	return model.Property[L, M]{}
}
