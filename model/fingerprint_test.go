package model_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/internal/slow"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/ts"
)

// A successor's fingerprint is computed from the parts its step changed
// (model/fingerprint.go). It must equal the fingerprint of its encoding
// computed from scratch, and the lazy expansion (fingerprints first,
// encodings of chosen successors later) must give the successors Expand
// gives, byte for byte: over the first states of every built-in algorithm
// under crashes, restarts, the unreliable detector and time. With the sends
// counted in the state (up to 8, so that circulating messages reach the
// cap), also each successor's counts are its parent's plus what its step
// sent and lost, stopping at the cap.
func TestIncrementalFingerprintsAndLazyExpansion(t *testing.T) {
	configs := []model.Config{
		{N: 3, MaxCrashes: 2},
		{N: 4, MaxCrashes: 3},
		{N: 3, MaxCrashes: 1, MaxRestarts: 1},
		{N: 3, MaxCrashes: 1, Detector: model.Unreliable},
		{N: 3, IDs: []int{3, 1, 2}, Perm: true, MaxCrashes: 1},
		{N: 3, MaxCrashes: 2, Timing: model.Sync, Timeout: 2},
		{N: 3, MaxCrashes: 1, MaxRestarts: 1, Timing: model.Partial, Delay: 2},
	}
	for _, name := range specs.Builtin().Names() {
		spec, err := specs.Builtin().Lookup(name)
		require.NoError(t, err)
		for _, cfg := range configs {
			for _, v := range []struct{ generic, counted bool }{{false, false}, {true, false}, {false, true}} {
				generic := v.generic
				t.Run(fmt.Sprintf("%s/%+v/generic=%v/counted=%v", name, cfg, generic, v.counted), func(t *testing.T) {
					names, err := properties.Select(spec.Build.Properties(), "all")
					require.NoError(t, err)
					var opts []model.Option
					if generic {
						opts = append(opts, model.WithGenericHashing())
					}
					const sendCap = 8
					if v.counted {
						opts = append(opts, model.WithSendCounts(sendCap))
					}
					sys, err := spec.Build.System(cfg, names, opts...)
					if err != nil {
						t.Skipf("configuration not accepted by %s: %v", name, err)
					}
					fper, ok := sys.(interface{ Fingerprint([]byte) (uint64, error) })
					require.True(t, ok, "%T has no Fingerprint", sys)
					x := sys.NewExpander()
					lazy, ok := x.(ts.LazyExpander)
					require.True(t, ok)
					mx, err := model.ExpanderOf(sys)
					require.NoError(t, err)
					var full, lz ts.Batch
					x.Initial(&full)
					seen := map[string]bool{}
					var queue [][]byte
					var before *model.SendsSnapshot // the counts of the state check's batch expands; nil: the initial states
					check := func(b *ts.Batch) {
						for i := range b.Succs {
							s := b.State(i)
							fp, err := fper.Fingerprint(s)
							require.NoError(t, err)
							require.Equal(t, fp, b.Succs[i].FP, "fingerprint of successor %d", i)
							if v.counted {
								requireCountedSends(t, mx, before, b.Succs[i].Sent, s, sendCap)
							}
							if !seen[string(s)] && len(seen) < slow.Size(300, 3000) {
								seen[string(s)] = true
								queue = append(queue, slices.Clone(s))
							}
						}
					}
					check(&full)
					for len(queue) > 0 {
						s := queue[0]
						queue = queue[1:]
						x.Expand(s, &full)
						if v.counted {
							before = mx.Snapshot(s).Sent
						}
						check(&full)
						lz.Lazy = true
						lazy.Expand(s, &lz)
						require.Len(t, lz.Succs, len(full.Succs))
						// Materialize in reverse order: each is taken again from
						// the expanded state, whatever was computed before.
						for i := len(lz.Succs) - 1; i >= 0; i-- {
							lazy.Materialize(&lz, i)
						}
						for i := range full.Succs {
							require.Equal(t, full.Succs[i].FP, lz.Succs[i].FP)
							require.Equal(t, full.Succs[i].Props, lz.Succs[i].Props)
							require.Equal(t, full.Succs[i].Action, lz.Succs[i].Action)
							require.Equal(t, full.Succs[i].Sent, lz.Succs[i].Sent)
							require.Equal(t, full.State(i), lz.State(i))
						}
					}
				})
			}
		}
	}
}

// requireCountedSends checks the sends counted in succ, a successor by a
// step that sent sent of a state that counted before (nil for the initial
// states, which count nothing): before's counts plus the step's, each up
// to cap.
func requireCountedSends(t *testing.T, x model.Expander, before *model.SendsSnapshot, sent model.Sends, succ []byte, cap int) {
	t.Helper()
	got := x.Snapshot(succ).Sent
	require.NotNil(t, got)
	want := model.SendsSnapshot{Cap: cap}
	total := 0
	for i, tc := range got.ByType {
		n := int(sent.ByType[i])
		if before != nil {
			n += before.ByType[i].Count
		}
		want.ByType = append(want.ByType, model.TypeCount{Type: tc.Type, Count: min(n, cap)})
		total += min(n, cap)
	}
	want.Total = min(total, cap)
	want.Lost = int(sent.Lost)
	if before != nil {
		want.Lost += before.Lost
	}
	want.Lost = min(want.Lost, cap)
	if !reflect.DeepEqual(want, *got) {
		require.Equal(t, want, *got, "the sends counted after %s", x.Describe(succ))
	}
}

// No two distinct reachable states share a fingerprint, over whole state
// spaces of every built-in algorithm (about 10^5 states each: a collision
// of a good 64-bit hash has odds near 10^-9 here). A weak combination of
// component hashes fails this: seeded xxh3 with nearby seeds per channel
// made ELECT(1,3,4) on one channel collide with ELECT(1,3,2) on the next
// but one (lelann, N = 4, three crashes).
func TestNoFingerprintCollisions(t *testing.T) {
	for _, c := range []struct {
		algo string
		cfg  model.Config
	}{
		{"lelann", model.Config{N: 4, MaxCrashes: 3}},
		{"chang-roberts", model.Config{N: 4, MaxCrashes: 2}},
		{"ring", model.Config{N: 4, MaxCrashes: 1}},
		{"bully", model.Config{N: 3, MaxCrashes: 2, MaxRestarts: 1}},
		{"hirschberg-sinclair", model.Config{N: 4, MaxCrashes: 1}},
	} {
		t.Run(c.algo, func(t *testing.T) {
			spec, err := specs.Builtin().Lookup(c.algo)
			require.NoError(t, err)
			sys, err := spec.Build.System(c.cfg, nil)
			require.NoError(t, err)
			x := sys.NewExpander()
			var b ts.Batch
			x.Initial(&b)
			byFP := map[uint64]string{}
			var queue []string
			add := func() {
				for i := range b.Succs {
					s := string(b.State(i))
					if old, ok := byFP[b.Succs[i].FP]; ok {
						require.Equal(t, old, s, "two states share fingerprint %#x", b.Succs[i].FP)
						continue
					}
					byFP[b.Succs[i].FP] = s
					queue = append(queue, s)
				}
			}
			add()
			for len(queue) > 0 && len(byFP) < slow.Size(20_000, 300_000) {
				x.Expand([]byte(queue[0]), &b)
				queue = queue[1:]
				add()
			}
			t.Logf("%d states", len(byFP))
		})
	}
}
