package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckListShowsEveryPropertyOfTheAlgorithm(t *testing.T) {
	code, out, stderr := run("--algo", "chang-roberts", "--n", "4", "--check", "list")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, `Properties of chang-roberts (--check NAME,...; all checks those marked *):
  * SingleLeader                      invariant          at most one live process has elected itself [safety]
  * Agreement                         invariant          live processes whose elected value names a live process agree on it [safety]
  * Termination                       eventually-always  <>[]Stable under weak fairness: eventually every live process has elected the largest live ID, for good [liveness]
    LeaderNotDemoted                  step               a live leader stays leader while it is alive
    LeaderCrashRecovered              leads-to           LeaderCrashed ~> Stable under weak fairness: from every state where a live process's elected leader has crashed (the state right after the leader's crash, while anybody still names it), every fair run reaches a state where every live process has elected the largest live ID
    Quiescent                         eventually-always  <>[]Quiet under weak fairness: eventually no message is in flight and no fair step is enabled, for good (stricter than Termination: an ELECTED that circulates forever after everybody agrees passes Termination, not Quiescent)
    NonParticipantForwardsNoElection  step               a process that sends an ELECTION is a participant after the step
    NoEarlyAnnounce                   step               when a process announces itself (sends ELECTED with its own ID), no ELECTION is left in any channel (the other runs were eliminated before)
    MessageBound                      invariant          at most N(N+1)/2 + N messages are sent (the notes' worst case with every process an initiator) (counts the sends, up to 153)
`, out)

	// --help for an algorithm ends with the same list.
	code, out, _ = run("--algo", "bully", "--help")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "Properties of bully")
	assert.Contains(t, out, "WaitingAfterOK")

	// An unknown name lists what the algorithm has.
	code, _, stderr = run("--algo", "lelann", "--check", "BusyElectsNobody")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `--check: unknown property "BusyElectsNobody": use a comma list of SingleLeader, Agreement, Termination, LeaderNotDemoted, LeaderCrashRecovered, Quiescent, DecidedKnowsAllLive, MessageBound, safety, liveness, all`)
}

func TestStepPropertyOnTheCommandLine(t *testing.T) {
	args := []string{"--algo", "bully", "--n", "3", "--crashes", "1", "--restarts", "1", "--check", "leader-not-demoted"}
	code, out, _ := run(args...)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "  LeaderNotDemoted  VIOLATED  step 5, deliver p1→p2 ELECTION(1), demotes the live leader p2 (now elected=⊥)\n")
	assert.Contains(t, out, "LeaderNotDemoted counterexample (ends in the step that breaks it), 5 steps:")

	code, out, _ = run(append(args, "--json")...)
	assert.Equal(t, 1, code)
	var rep struct {
		Properties []struct {
			Name, Status, Kind string
			Trace              []struct{ Action string }
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	last := rep.Properties[len(rep.Properties)-1]
	assert.Equal(t, "LeaderNotDemoted", last.Name)
	assert.Equal(t, "violated", last.Status)
	assert.Equal(t, "step", last.Kind)
	require.Len(t, last.Trace, 6)
	assert.Equal(t, "deliver p1→p2 ELECTION(1)", last.Trace[5].Action)
}

func TestOwnPropertyTurnsReductionOffAndSaysSo(t *testing.T) {
	code, out, _ := run("--algo", "ring", "--n", "4", "--check", "safety,BusyElectsNobody")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "states       503 distinct\n")
	assert.Contains(t, out, "note         no partial-order reduction for this check: BusyElectsNobody may read more of a state than the elected values and liveness, which the reduction keeps visible\n")
	assert.True(t, strings.Contains(out, "  BusyElectsNobody  holds\n"), out)
}
