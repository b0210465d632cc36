package model_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// Property-based tests of the kernel: random walks of enabled steps on
// random configurations of every built-in algorithm, from a fixed list of
// seeds (so every run walks the same paths), checking in each state the
// invariants the kernel owns (docs/semantics.md section 1):
//   - no message waits in a channel to a crashed process;
//   - a crashed process holds the algorithm's initial local state;
//   - every channel holds at most --max-queue messages;
//   - crashes and restarts stay within their limits, one process stays live;
//   - the encoding of the state decodes and encodes back to itself.
func TestKernelInvariantsOnRandomWalks(t *testing.T) {
	reg := specs.Builtin()
	algos := reg.Names()
	var crashed, queued int // states with a crashed process, with a message
	for seed := uint64(1); seed <= 60; seed++ {
		rng := rand.New(rand.NewPCG(seed, 2026))
		algo := algos[rng.IntN(len(algos))]
		cfg := randomConfig(rng)
		t.Run(fmt.Sprintf("seed %d %s %+v", seed, algo, cfg), func(t *testing.T) {
			spec, err := reg.Lookup(algo)
			require.NoError(t, err)
			sys, err := spec.Build.System(cfg, nil)
			require.NoError(t, err)
			fresh := cfg
			fresh.InitialLeader = false
			plain, err := spec.Build.System(fresh, nil)
			require.NoError(t, err)
			initial := initialProcesses(t, plain)
			full := cfg.WithDefaults()
			rt, ok := sys.(interface{ RoundTrip([]byte) ([]byte, error) })
			require.True(t, ok, "%T has no RoundTrip", sys)

			x, err := model.ExpanderOf(sys)
			require.NoError(t, err)
			var b model.Batch
			x.Initial(&b)
			state := slices.Clone(b.State(0))
			steps := 0
			for range 400 {
				checkKernelInvariants(t, x, rt, state, full, initial)
				snap := x.Snapshot(state)
				if slices.ContainsFunc(snap.Processes, func(p model.ProcessSnapshot) bool { return !p.Alive }) {
					crashed++
				}
				if len(snap.Channels) > 0 {
					queued++
				}
				x.Expand(state, &b)
				if len(b.Succs) == 0 {
					x.Initial(&b) // quiescent: walk again from the start
				}
				j := rng.IntN(len(b.Succs))
				state = slices.Clone(b.State(j))
				steps++
			}
			require.Equal(t, 400, steps)
		})
	}
	// The walks reach what the invariants are about.
	require.Greater(t, crashed, 1000, "states with a crashed process")
	require.Greater(t, queued, 1000, "states with messages in flight")
}

func randomConfig(rng *rand.Rand) model.Config {
	n := 2 + rng.IntN(4)
	cfg := model.Config{
		N:             n,
		MaxCrashes:    rng.IntN(n),
		MaxRestarts:   rng.IntN(3),
		MaxQueue:      rng.IntN(4), // 0: the default, 2N
		InitialLeader: rng.IntN(2) == 0,
	}
	if rng.IntN(2) == 0 {
		cfg.Detector = model.Unreliable
	}
	if rng.IntN(3) == 0 {
		ids := rng.Perm(3 * n)[:n]
		for i := range ids {
			ids[i]++
		}
		cfg.IDs = ids
	}
	return cfg
}

// initialProcesses is the local state of each process (by name) at the
// start of an election: what a crashed process must hold.
func initialProcesses(t *testing.T, sys model.System) map[string][]model.Field {
	x, err := model.ExpanderOf(sys)
	require.NoError(t, err)
	var b model.Batch
	x.Initial(&b)
	require.Len(t, b.Succs, 1)
	out := map[string][]model.Field{}
	for _, p := range x.Snapshot(b.State(0)).Processes {
		out[p.Name()] = p.Fields
	}
	return out
}

func checkKernelInvariants(t *testing.T, x model.Expander, rt interface{ RoundTrip([]byte) ([]byte, error) }, state []byte, cfg model.Config, initial map[string][]model.Field) {
	t.Helper()
	snap := x.Snapshot(state)
	alive := map[string]bool{}
	live := 0
	for _, p := range snap.Processes {
		alive[p.Name()] = p.Alive
		if p.Alive {
			live++
			continue
		}
		require.Equal(t, initial[p.Name()], p.Fields, "crashed %s does not hold the initial local state in\n%s", p.Name(), x.Describe(state))
	}
	require.Positive(t, live, "no live process in\n%s", x.Describe(state))
	for _, c := range snap.Channels {
		require.True(t, alive[c.ToName()], "messages %v wait for crashed %s in\n%s", c.Messages, c.ToName(), x.Describe(state))
		require.LessOrEqual(t, len(c.Messages), cfg.MaxQueue, "chan %s over the bound", c.Ends())
		require.NotEmpty(t, c.Messages, "a snapshot lists non-empty channels only")
	}
	require.LessOrEqual(t, snap.Crashes, cfg.MaxCrashes, "crashes")
	require.LessOrEqual(t, snap.Restarts, cfg.MaxRestarts, "restarts")
	require.GreaterOrEqual(t, snap.Crashes, 0)
	require.GreaterOrEqual(t, snap.Restarts, 0)
	back, err := rt.RoundTrip(state)
	require.NoError(t, err)
	require.Equal(t, state, back, "the encoding does not round-trip: %s", strings.TrimSpace(x.Describe(state)))
}
