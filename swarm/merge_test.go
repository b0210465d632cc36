package swarm_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/swarm"
	"github.com/mcheck/mcheck/trace"
)

var settings = swarm.Settings{
	Strategy: swarm.Simulation, Config: trace.Config{Algo: "bully", N: 3, IDs: []int{1, 2, 3}, Detector: "perfect", MaxQueue: 6},
	Properties: []string{"A", "B", "C", "D"}, Runs: 10, Depth: 1000,
}

// tr is a counterexample of prop with steps steps.
func tr(prop string, steps int) *trace.File {
	return &trace.File{Format: trace.Format, Config: settings.Config, Property: prop, Kind: cex.Invariant, Steps: make([]trace.Step, steps+1)}
}

// member i of k, whose states are the fingerprints of states i*50 to
// i*50+99 (each overlaps the next by 50), and which found found.
func member(i, k int, found ...*trace.File) swarm.Input {
	sk := explore.NewSketch()
	for s := i * 50; s < i*50+100; s++ {
		sk.Add(explore.RunSeed(1, int64(s)))
	}
	r := &swarm.Result{
		Format: swarm.Format, Member: i, Members: k, Settings: settings,
		Derived:  swarm.Derived{Seed: swarm.Member{Index: i, Count: k}.Seed(0), Scheduler: swarm.Member{Index: i, Count: k}.Scheduler().String()},
		Coverage: swarm.Coverage{Complete: true, States: 100, Sketch: sk, Steps: int64(1000 + i), Runs: 10},
	}
	for j, f := range found {
		status := check.Violated
		if f.Kind == cex.Example {
			status = check.Reachable
		}
		r.Found = append(r.Found, swarm.Found{By: &swarm.Run{Index: int64(j), Seed: explore.RunSeed(r.Derived.Seed, int64(j))}, Status: status, Proof: check.Sampled, Trace: f})
	}
	return swarm.Input{Name: fmt.Sprintf("member-%d-of-%d.json", i, k), Result: r}
}

// The union of what the members found: every property any member
// violated, with the shortest counterexample of it (of those as short,
// the lowest member's), each replayed; the sums of what they covered, and
// their states counted together from their sketches.
func TestMergeUnion(t *testing.T) {
	replayed := 0
	replay := func(f *trace.File) (*trace.File, error) {
		replayed++
		shown := *f
		shown.Summary = "replayed"
		return &shown, nil
	}
	in := []swarm.Input{
		member(3, 4, tr("A", 4), tr("C", 7)),
		member(0, 4, tr("A", 5), tr("B", 3)),
		member(2, 4),
		member(1, 4, tr("A", 4)),
	}
	m, err := swarm.Merge(in, replay)
	require.NoError(t, err)
	assert.Equal(t, 5, replayed, "every counterexample is replayed")
	assert.Equal(t, []string{"member-0-of-4.json", "member-1-of-4.json", "member-2-of-4.json", "member-3-of-4.json"}, m.Names)
	require.Len(t, m.Violations, 3)

	a := m.Violations[0]
	assert.Equal(t, "A", a.Property)
	assert.Equal(t, 1, a.Shortest.Member, "4 steps in members 1 and 3: the lower")
	assert.Equal(t, 4, a.Shortest.Steps())
	assert.Equal(t, "replayed", a.Shortest.Trace.Summary, "what is shown is the replayed run")
	assert.Equal(t, &swarm.Run{Index: 0, Seed: explore.RunSeed(swarm.Member{Index: 1, Count: 4}.Seed(0), 0)}, a.Shortest.By)
	var by []int
	for _, f := range a.All {
		by = append(by, f.Member)
	}
	assert.Equal(t, []int{0, 1, 3}, by)

	assert.Equal(t, "B", m.Violations[1].Property)
	assert.Equal(t, 0, m.Violations[1].Shortest.Member)
	assert.Equal(t, 3, m.Violations[1].Shortest.Steps())
	assert.Equal(t, "C", m.Violations[2].Property)
	assert.Equal(t, 3, m.Violations[2].Shortest.Member)
	assert.Equal(t, 7, m.Violations[2].Shortest.Steps())

	assert.Equal(t, int64(40), m.Runs)
	assert.Equal(t, int64(4006), m.Steps)
	assert.Equal(t, int64(100), m.MostStates)
	assert.Equal(t, int64(400), m.SumStates)
	assert.InDelta(t, 250, m.Union, 5, "states 0..249, each member's overlapping the next")
}

// Bad input is refused, saying which file and why.
func TestMergeRefuses(t *testing.T) {
	identity := func(f *trace.File) (*trace.File, error) { return f, nil }
	other := member(1, 4)
	other.Result.Settings.Seed = 7
	otherConfig := member(1, 4)
	otherConfig.Result.Settings.Config.N = 4
	for _, c := range []struct {
		name string
		in   []swarm.Input
		want string
	}{
		{"none", nil, "no member results to merge"},
		{"another K", []swarm.Input{member(0, 4), member(1, 3)}, "member-1-of-3.json is member 1 of 3, member-0-of-4.json member 0 of 4: members of different swarms"},
		{"another seed", []swarm.Input{member(0, 4), other}, "member-0-of-4.json and member-1-of-4.json are members of different swarms: seed 0 vs 7"},
		{"another config", []swarm.Input{member(0, 4), otherConfig}, `are members of different swarms: config "bully, N=3, ids 1,2,3, no crashes, perfect detector, max-queue 6" vs "bully, N=4,`},
		{"twice", []swarm.Input{member(0, 2), member(1, 2), member(1, 2)}, "member-1-of-2.json and member-1-of-2.json are both member 1 of 2: give each member once"},
		{"missing", []swarm.Input{member(0, 4), member(2, 4)}, "members 1, 3 of 4 missing (2 given): give every member's result, or run the missing ones again (I/4 for member I)"},
	} {
		_, err := swarm.Merge(c.in, identity)
		assert.ErrorContains(t, err, c.want, c.name)
	}

	_, err := swarm.Merge([]swarm.Input{member(0, 1, tr("B", 2))}, func(*trace.File) (*trace.File, error) {
		return nil, errors.New("step 2 is not enabled")
	})
	assert.EqualError(t, err, "member-0-of-1.json: the invariant counterexample of B does not replay: step 2 is not enabled")
}

// ex is an example of Sometimes property prop with steps steps.
func ex(prop string, steps int) *trace.File {
	f := tr(prop, steps)
	f.Kind = cex.Example
	return f
}

// An example of a Sometimes is merged as what the members judged it,
// reachable, not as a violation; members that disagree are refused.
func TestMergeKeepsWhatMembersJudged(t *testing.T) {
	identity := func(f *trace.File) (*trace.File, error) { return f, nil }
	m, err := swarm.Merge([]swarm.Input{member(0, 2, ex("D", 3)), member(1, 2, tr("A", 2), ex("D", 2))}, identity)
	require.NoError(t, err)
	require.Len(t, m.Violations, 2)
	assert.Equal(t, "A", m.Violations[0].Property)
	assert.Equal(t, check.Violated, m.Violations[0].Status)
	assert.Equal(t, "D", m.Violations[1].Property)
	assert.Equal(t, check.Reachable, m.Violations[1].Status)
	assert.Equal(t, 1, m.Violations[1].Shortest.Member)
	assert.Equal(t, check.Sampled, m.Violations[1].Shortest.Proof)

	odd := member(1, 2, ex("D", 2))
	odd.Result.Found[0].Status = check.Violated
	_, err = swarm.Merge([]swarm.Input{member(0, 2, ex("D", 3)), odd}, identity)
	assert.EqualError(t, err, "member-0-of-2.json found D reachable, member-1-of-2.json found it violated: members of different swarms")
}

// A counterexample that the channel bound did not cut is shown before a
// shorter one that may be the bound's artefact, with its caveat.
func TestMergePrefersARunTheBoundDidNotCut(t *testing.T) {
	identity := func(f *trace.File) (*trace.File, error) { return f, nil }
	cut, whole := member(0, 2, tr("A", 2)), member(1, 2, tr("A", 5))
	cut.Result.Found[0].Caveat = check.CaveatRunBounded
	whole.Result.Found[0].Caveat = check.CaveatRunUnbounded
	m, err := swarm.Merge([]swarm.Input{cut, whole}, identity)
	require.NoError(t, err)
	require.Len(t, m.Violations, 1)
	assert.Equal(t, 1, m.Violations[0].Shortest.Member)
	assert.Equal(t, check.CaveatRunUnbounded, m.Violations[0].Shortest.Caveat)

	// Only cut runs: the shortest, with its caveat.
	other := member(1, 2, tr("A", 5))
	other.Result.Found[0].Caveat = check.CaveatRunBounded
	m, err = swarm.Merge([]swarm.Input{cut, other}, identity)
	require.NoError(t, err)
	assert.Equal(t, 0, m.Violations[0].Shortest.Member)
	assert.Equal(t, check.CaveatRunBounded, m.Violations[0].Shortest.Caveat)
}

// Members are listed compactly: ranges, at most so many, then how many
// more.
func TestRanges(t *testing.T) {
	for _, c := range []struct {
		ids  []int
		most int
		want string
	}{
		{[]int{3}, 30, "3"},
		{[]int{0, 1, 2, 3, 5, 9, 10}, 30, "0-3, 5, 9-10"},
		{[]int{0, 2, 4, 6, 8}, 3, "0, 2, 4 and 2 more"},
		{[]int{0, 1, 2, 4, 5, 6, 7}, 1, "0-2 and 4 more"},
		{[]int{0, 2, 4}, 3, "0, 2, 4"},
	} {
		assert.Equal(t, c.want, swarm.Ranges(c.ids, c.most), "%v", c.ids)
	}
}

// A swarm of 100,000 with one member given names the missing ones in a
// few ranges, not each.
func TestMergeNamesMissingMembersCompactly(t *testing.T) {
	identity := func(f *trace.File) (*trace.File, error) { return f, nil }
	_, err := swarm.Merge([]swarm.Input{member(5, 100_000)}, identity)
	assert.EqualError(t, err, "members 0-4, 6-99999 of 100000 missing (1 given): give every member's result, or run the missing ones again (I/100000 for member I)")

	var in []swarm.Input
	for i := 0; i < 200; i += 2 {
		in = append(in, member(i, 200))
	}
	_, err = swarm.Merge(in, identity)
	assert.EqualError(t, err, "members 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 37, 39, 41, 43, 45, 47, 49, 51, 53, 55, 57, 59 and 70 more of 200 missing (100 given): give every member's result, or run the missing ones again (I/200 for member I)")
}

// Members that did not finish make the merge incomplete, and are named.
func TestMergeNamesUnfinishedMembers(t *testing.T) {
	identity := func(f *trace.File) (*trace.File, error) { return f, nil }
	in := []swarm.Input{member(0, 3), member(1, 3), member(2, 3)}
	m, err := swarm.Merge(in, identity)
	require.NoError(t, err)
	assert.Empty(t, m.Unfinished)
	for _, i := range []int{0, 2} {
		in[i].Result.Coverage.Complete, in[i].Result.Coverage.Unfinished = false, true
	}
	m, err = swarm.Merge(in, identity)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 2}, m.Unfinished)
}
