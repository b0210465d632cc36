package specs_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/internal/slow"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/specs/bully"
	"github.com/mcheck/mcheck/specs/changroberts"
	"github.com/mcheck/mcheck/specs/hirschsinclair"
	"github.com/mcheck/mcheck/specs/lelann"
	"github.com/mcheck/mcheck/specs/ring"
	"github.com/mcheck/mcheck/specs/ringtimeout"
	"github.com/mcheck/mcheck/trace"
)

// quiet is an invariant that the first send breaks: every channel is
// empty. Its counterexample is the first step of a run.
func quiet[L, M any]() model.Property[L, M] {
	return model.Property[L, M]{Name: "Quiet", Kind: model.Invariant, Holds: func(v *model.View[L, M]) bool {
		for p := range v.N() {
			for q := range v.N() {
				if len(v.Chan(p, q)) > 0 {
					return false
				}
			}
		}
		return true
	}}
}

// withQuiet is the built-in algorithms under their names, each with quiet.
func withQuiet(t *testing.T) *specs.Registry {
	t.Helper()
	reg := &specs.Registry{}
	require.NoError(t, reg.Register(
		specs.Spec{Name: "ring", Build: specs.Builder(ring.Algorithm{}, quiet[ring.Local, ring.Msg]())},
		specs.Spec{Name: "chang-roberts", Build: specs.Builder(changroberts.Algorithm{}, quiet[changroberts.Local, changroberts.Msg]())},
		specs.Spec{Name: "lelann", Build: specs.Builder(lelann.Algorithm{}, quiet[lelann.Local, lelann.Msg]())},
		specs.Spec{Name: "hirschberg-sinclair", Build: specs.Builder(hirschsinclair.Algorithm{}, quiet[hirschsinclair.Local, hirschsinclair.Msg]())},
		specs.Spec{Name: "bully", Build: specs.Builder(bully.Algorithm{}, quiet[bully.Local, bully.Msg]())},
		specs.Spec{Name: "ring-timeout", Build: specs.Builder(ringtimeout.Algorithm{}, quiet[ringtimeout.Local, ringtimeout.Msg]())},
	))
	require.Equal(t, specs.Builtin().Names(), reg.Names(), "every built-in algorithm")
	return reg
}

// firstLevels gives, for N processes with IDs 1..N, no faults and no
// initial leader, the number of states at depth 2 and the transitions out
// of depth 1. Depth 1 is N states (one initiation each, the only steps
// enabled at first), N transitions out of depth 0. From the state where p
// initiated, every other process may initiate and p's messages may be
// delivered; the states at depth 2 are the pairs of initiators (their
// messages go over distinct channels, so the order does not matter) and,
// for each p, one state per message of p delivered.
//   - ring, chang-roberts, lelann: one message (cw): N-1+1 steps from each
//     state at depth 1, C(N,2)+N states.
//     ring-timeout too: asynchronously its timeout waits for the perfect
//     detector, and the ACK comes with the delivery.
//   - hirschberg-sinclair: two probes (cw, ccw): N+1 steps, C(N,2)+2N.
//   - bully: p at position i sends ELECTION to the N-1-i higher processes;
//     the highest elects itself and sends COORDINATOR to the N-1 lower. So
//     N-1 initiations plus those messages: (N-1)² + N(N-1)/2 + 2(N-1)
//     steps, and C(N,2) + N(N-1)/2 + N-1 = N²-1 states.
var firstLevels = map[string]func(n int) (depth2, out1 int){
	"ring":                func(n int) (int, int) { return n * (n + 1) / 2, n * n },
	"chang-roberts":       func(n int) (int, int) { return n * (n + 1) / 2, n * n },
	"lelann":              func(n int) (int, int) { return n * (n + 1) / 2, n * n },
	"ring-timeout":        func(n int) (int, int) { return n * (n + 1) / 2, n * n },
	"hirschberg-sinclair": func(n int) (int, int) { return n*(n-1)/2 + 2*n, n * (n + 1) },
	"bully":               func(n int) (int, int) { return n*n - 1, (n-1)*(n-1) + n*(n-1)/2 + 2*(n-1) },
}

// levels explores the first depths breadth first through the kernel alone
// (no explore package): the states at each depth and the transitions out
// of each. Every state has n live processes with IDs 1..n in ring order.
func levels(t *testing.T, sys model.System, n, depth int) (sizes, out []int) {
	t.Helper()
	exp, err := model.ExpanderOf(sys)
	require.NoError(t, err)
	var b model.Batch
	exp.Initial(&b)
	require.Len(t, b.Succs, 1)
	seen := map[string]bool{string(b.State(0)): true}
	level := [][]byte{bytes.Clone(b.State(0))}
	sizes = []int{1}
	for range depth {
		var next [][]byte
		steps := 0
		for _, s := range level {
			snap := exp.Snapshot(s)
			require.Len(t, snap.Processes, n)
			for p, ps := range snap.Processes {
				require.Equal(t, p+1, ps.ID)
				require.True(t, ps.Alive)
			}
			exp.Expand(s, &b)
			require.Zero(t, b.Discarded, "the default bound 2N cuts nothing this early")
			for j := range b.Succs {
				steps++
				if k := string(b.State(j)); !seen[k] {
					seen[k] = true
					next = append(next, []byte(k))
				}
			}
		}
		sizes, out = append(sizes, len(next)), append(out, steps)
		level = next
	}
	return sizes, out
}

// Every algorithm runs with 9 to 16 processes, the upper range of --n,
// where the kernel's channel sets span several words: the first levels
// have the sizes the algorithm's rules give, a search cut at 2,000 states
// finds no violation of SingleLeader or Agreement, and the counterexample
// of Quiet (the first send) is written, read back and replayed.
func TestEveryAlgorithmWithNineToSixteenProcesses(t *testing.T) {
	reg := withQuiet(t)
	for _, algo := range reg.Names() {
		for n := 9; n <= 16; n++ {
			if !slow.On && n != 9 && n != 16 {
				continue // the fast loop takes the ends, -tags slow every N
			}
			t.Run(fmt.Sprintf("%s/N=%d", algo, n), func(t *testing.T) {
				spec, err := reg.Lookup(algo)
				require.NoError(t, err)
				cfg := model.Config{N: n}
				sys, err := spec.Build.System(cfg, nil)
				require.NoError(t, err)
				depth2, out1 := firstLevels[algo](n)
				sizes, out := levels(t, sys, n, 2)
				assert.Equal(t, []int{1, n, depth2}, sizes)
				assert.Equal(t, []int{n, out1}, out)

				rep, err := check.Run(check.Request{Spec: spec, Config: cfg, Properties: []string{"Quiet", "SingleLeader", "Agreement"},
					Continue: true, MaxStates: 2000, Workers: 2})
				require.NoError(t, err)
				assert.Equal(t, int64(2000), rep.Stats.States)
				assert.False(t, rep.Stats.Complete)
				assert.GreaterOrEqual(t, rep.Stats.Depth, 2)
				assert.Equal(t, 2*n, rep.Config.MaxQueue)
				for _, v := range rep.Verdicts {
					want := map[string]check.Status{"Quiet": check.Violated, "SingleLeader": check.Unknown, "Agreement": check.Unknown}[v.Name]
					if want == "" {
						want = check.Unchecked
					}
					assert.Equal(t, want, v.Status, v.Name)
				}
				files := rep.Files()
				require.Len(t, files, 1)
				f := files[0]
				require.Len(t, f.Steps, 2)
				assert.Equal(t, model.KindInitiate, f.Steps[1].Step.Kind)
				var buf bytes.Buffer
				require.NoError(t, f.Write(&buf))
				read, err := trace.Read(&buf)
				require.NoError(t, err)
				require.NoError(t, trace.Replay(read, reg))
			})
		}
	}
}
