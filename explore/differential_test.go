package explore_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/slow"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/ts"
)

// naiveBFS is the simplest possible search: a Go map from the full state
// encoding to its depth. No fingerprints, no parallelism, no reduction.
func naiveBFS(sys model.System) (states, transitions, discarded int64, depth int) {
	return naiveBFSSteps(sys, nil)
}

// naiveBFSSteps is naiveBFS, showing each transition to step (unless nil).
func naiveBFSSteps(sys model.System, step func(*model.Succ)) (states, transitions, discarded int64, depth int) {
	exp := sys.NewExpander()
	var b model.Batch
	exp.Initial(&b)
	seen := map[string]int{string(b.State(0)): 0}
	frontier := []string{string(b.State(0))}
	for len(frontier) > 0 {
		var next []string
		for _, s := range frontier {
			exp.Expand([]byte(s), &b)
			transitions += int64(len(b.Succs))
			discarded += int64(b.Discarded)
			for i := range b.Succs {
				if step != nil {
					step(&b.Succs[i])
				}
				key := string(b.State(i))
				if _, ok := seen[key]; !ok {
					seen[key] = depth + 1
					next = append(next, key)
				}
			}
		}
		if len(next) > 0 {
			depth++
		}
		frontier = next
	}
	return int64(len(seen)), transitions, discarded, depth
}

type diffConfig struct {
	algo string
	cfg  model.Config
}

// differentialConfigs covers every algorithm and fault mode at N = 3..5
// (N = 6 where it is small), each small enough for the naive search.
func differentialConfigs() []diffConfig {
	var out []diffConfig
	for _, algo := range []string{"ring", "chang-roberts", "lelann", "hirschberg-sinclair", "bully"} {
		il := algo == "bully"
		for n := 3; n <= 5; n++ {
			out = append(out, diffConfig{algo, model.Config{N: n, InitialLeader: il}})
		}
		out = append(out,
			diffConfig{algo, model.Config{N: 3, MaxCrashes: 2, InitialLeader: il, MaxQueue: 4}},
			diffConfig{algo, model.Config{N: 3, MaxCrashes: 1, MaxRestarts: 1, InitialLeader: il, MaxQueue: 2}},
			diffConfig{algo, model.Config{N: 3, Detector: model.Unreliable, InitialLeader: il, MaxQueue: 2}},
			diffConfig{algo, model.Config{N: 4, IDs: []int{3, 9, 4, 8}, Initiators: []int{3, 9}, InitialLeader: il}},
			diffConfig{algo, model.Config{N: 4, Down: []int{4}, MaxCrashes: 1, InitialLeader: true, MaxQueue: 3}},
		)
	}
	out = append(out,
		diffConfig{"chang-roberts", model.Config{N: 6}},
		diffConfig{"lelann", model.Config{N: 6}},
		diffConfig{"chang-roberts", model.Config{N: 4, MaxCrashes: 1}},
		diffConfig{"lelann", model.Config{N: 4, MaxCrashes: 3}},
		diffConfig{"bully", model.Config{N: 4, MaxCrashes: 3, InitialLeader: true}},
		diffConfig{"bully", model.Config{N: 3}},
		diffConfig{"bully", model.Config{N: 3, MaxCrashes: 1, MaxRestarts: 1, InitialLeader: true}},
	)
	return out
}

// maxDifferentialStates keeps the naive search quick; a configuration
// above it fails the test, so that the table is changed rather than CI slowed.
const maxDifferentialStates = 300_000

// raceDifferentialStates: under -race the tests over the differential
// table skip its configurations above this many states (-race makes the
// naive search's map thirty times slower); every algorithm keeps
// configurations below it there.
const raceDifferentialStates = 5_000

// skipBigUnderRace skips t under -race (without -tags slow) when sys has
// more than raceDifferentialStates states.
func skipBigUnderRace(t *testing.T, sys model.System) {
	t.Helper()
	if bigUnderRace(t, sys, raceDifferentialStates) {
		explore.SkipUnderRace(t, fmt.Sprintf("more than %d states", raceDifferentialStates))
	}
}

// bigUnderRace reports whether the tests run at their smaller sizes
// (explore.SlimRace) and sys has more than limit states.
func bigUnderRace(t *testing.T, sys model.System, limit int64) bool {
	t.Helper()
	if !explore.SlimRace {
		return false
	}
	res, err := explore.Run(sys, explore.Options{Continue: true, MaxStates: limit, Workers: 1})
	require.NoError(t, err)
	return !res.Complete
}

func TestExplorerAgreesWithNaiveBFS(t *testing.T) {
	reg := specs.Builtin()
	for _, c := range differentialConfigs() {
		t.Run(fmt.Sprintf("%s/%+v", c.algo, c.cfg), func(t *testing.T) {
			spec, err := reg.Lookup(c.algo)
			require.NoError(t, err)
			sys, err := spec.Build.System(c.cfg, []string{"SingleLeader", "Agreement", "Termination"})
			require.NoError(t, err)
			skipBigUnderRace(t, sys)
			states, transitions, discarded, depth := naiveBFS(sys)
			for _, workers := range []int{1, 2, 3} {
				res, err := explore.Run(sys, explore.Options{Continue: true, MaxStates: maxDifferentialStates, Workers: workers})
				require.NoError(t, err)
				require.True(t, res.Complete, "too big for the differential test: %s", res.Stopped)
				require.Equal(t, states, res.States, "states, %d workers", workers)
				require.Equal(t, transitions, res.Transitions, "transitions, %d workers", workers)
				require.Equal(t, discarded, res.Discarded, "discarded, %d workers", workers)
				require.Equal(t, depth, res.Depth, "depth, %d workers", workers)
			}
		})
	}
}

// Verdicts and traces, liveness included, do not depend on the number of
// workers: the same violations, found at the same states, with the same steps.
func TestSameResultAtAnyWorkerCount(t *testing.T) {
	t.Parallel()
	reg := specs.Builtin()
	for _, c := range []diffConfig{
		{"chang-roberts", model.Config{N: 3, MaxCrashes: 2}},
		{"ring", model.Config{N: 3, MaxCrashes: 1, MaxQueue: 4}},
		{"lelann", model.Config{N: 3, MaxCrashes: 2}},
		{"bully", model.Config{N: 3, MaxCrashes: 1, MaxRestarts: 1, InitialLeader: true}},
		{"bully", model.Config{N: 3, Detector: model.Unreliable, InitialLeader: true, MaxQueue: 2}},
		{"hirschberg-sinclair", model.Config{N: 3, MaxCrashes: 2, MaxQueue: 3}},
	} {
		spec, err := reg.Lookup(c.algo)
		require.NoError(t, err)
		sys, err := spec.Build.System(c.cfg, []string{"SingleLeader", "Agreement", "Termination"})
		require.NoError(t, err)
		// Under -race the configurations up to 20,000 states: all but
		// bully's with the unreliable detector, half of the test's time.
		big := bigUnderRace(t, sys, 20_000)
		for _, cont := range []bool{true, false} {
			// With liveness the search keeps the graph; without, it drops
			// the reaches of a new state that cannot win their claims.
			for _, live := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%+v/continue=%v/liveness=%v", c.algo, c.cfg, cont, live), func(t *testing.T) {
					if big {
						explore.SkipUnderRace(t, "more than 20,000 states")
					}
					opts := explore.Options{Targets: explore.Targets{Invariants: []int{0, 1}}, Continue: cont}
					if live {
						opts.Goal, opts.Liveness = explore.GoalOf(2), true
					}
					var first *explore.Result
					// One worker with the chunks from the last to the first
					// is an order that workers may meet them in.
					for _, run := range []struct {
						workers int
						reverse bool
					}{{1, false}, {1, true}, {2, false}, {4, false}} {
						opts.Workers = run.workers
						o := opts
						if run.reverse {
							o = explore.InReverse(o)
						}
						res, err := explore.Run(sys, o)
						require.NoError(t, err)
						res.Elapsed, res.CycleCheck, res.MemBytes = 0, 0, 0
						if first == nil {
							first = res
							continue
						}
						require.Equal(t, first.Stats, res.Stats, "%+v", run)
						require.Equal(t, first.Violations, res.Violations, "%+v", run)
					}
				})
			}
		}
	}
}

// Moving the frontier and the parent links to files changes nothing: the
// same counts, the same violations and traces, liveness included.
func TestSpillingToDiskChangesNothing(t *testing.T) {
	t.Parallel()
	reg := specs.Builtin()
	for _, c := range []diffConfig{
		{"chang-roberts", model.Config{N: 3, MaxCrashes: 2}},
		{"lelann", model.Config{N: 4, MaxCrashes: 1}},
		{"bully", model.Config{N: 3, MaxCrashes: 1, MaxRestarts: 1, InitialLeader: true}},
		{"hirschberg-sinclair", model.Config{N: 5}},
		// Levels of more than one batch (14 levels above 8,192 states, up
		// to 57,804): a batch's writes go to the files while the next
		// batch is expanded. Slow (11 s, 195 s under -race): -tags slow.
		{"hirschberg-sinclair", model.Config{N: 7}},
	} {
		t.Run(fmt.Sprintf("%s/%+v", c.algo, c.cfg), func(t *testing.T) {
			if c.cfg.N == 7 {
				slow.Test(t)
			}
			spec, err := reg.Lookup(c.algo)
			require.NoError(t, err)
			sys, err := spec.Build.System(c.cfg, []string{"SingleLeader", "Agreement", "Termination"})
			require.NoError(t, err)
			for _, liveness := range []bool{false, true} {
				opts := explore.Options{Targets: explore.Targets{Invariants: []int{0, 1},
					Goal: explore.GoalOf(2)}, Liveness: liveness, Continue: true, Workers: 2,
				}
				inMemory, err := explore.Run(sys, opts)
				require.NoError(t, err)
				spilled, err := explore.Run(sys, explore.SpillEverything(opts))
				require.NoError(t, err)
				inMemory.Elapsed, inMemory.CycleCheck, inMemory.MemBytes = 0, 0, 0
				spilled.Elapsed, spilled.CycleCheck, spilled.MemBytes = 0, 0, 0
				require.Equal(t, inMemory.Stats, spilled.Stats)
				require.Equal(t, inMemory.Violations, spilled.Violations)
				require.True(t, spilled.Complete)
			}
		})
	}
}

// Partial-order reduction never changes a verdict. More than that, the
// stubborn sets keep
//   - every reachable combination of liveness and elected values (the key
//     step changes neither, see model.Reducer), so any invariant over them,
//     not only SingleLeader and Agreement, gets the same answer;
//   - every reachable terminal state, exactly (the classic property of
//     stubborn sets; it checks the commutation conditions on their own).
//
// On every configuration of the differential table, and more with
// violations, the reduced search finds exactly what the full one finds,
// with no more states, at 1 and 2 workers.
func TestReductionKeepsVerdicts(t *testing.T) {
	reg := specs.Builtin()
	configs := append(differentialConfigs(),
		diffConfig{"lelann", model.Config{N: 3, MaxCrashes: 1}},
		diffConfig{"lelann", model.Config{N: 4, MaxCrashes: 1, MaxQueue: 2}},
		diffConfig{"chang-roberts", model.Config{N: 4, MaxCrashes: 1, MaxRestarts: 1, MaxQueue: 2}},
		diffConfig{"hirschberg-sinclair", model.Config{N: 5, Initiators: []int{2, 5}}},
		diffConfig{"hirschberg-sinclair", model.Config{N: 3, MaxCrashes: 1, MaxQueue: 2}},
		diffConfig{"ring", model.Config{N: 4, Detector: model.Unreliable, InitialLeader: true, MaxQueue: 2}},
		diffConfig{"lelann", model.Config{N: 4, Detector: model.Unreliable, MaxQueue: 2}},
		diffConfig{"chang-roberts", model.Config{N: 5, MaxQueue: 1}},
		diffConfig{"ring", model.Config{N: 6, MaxQueue: 1}},
		diffConfig{"ring", model.Config{N: 5, MaxQueue: 2}},
	)
	invs := []int{0, 1}
	reducedSomewhere := false
	for _, c := range configs {
		t.Run(fmt.Sprintf("%s/%+v", c.algo, c.cfg), func(t *testing.T) {
			spec, err := reg.Lookup(c.algo)
			require.NoError(t, err)
			inner, err := spec.Build.System(c.cfg, []string{"SingleLeader", "Agreement", "Termination"})
			require.NoError(t, err)
			skipBigUnderRace(t, inner)
			full := &observed{System: inner}
			opts := explore.Options{Targets: explore.Targets{Invariants: invs}, Continue: true, Workers: 1}
			fullRes, err := explore.Run(full.reset(), opts)
			require.NoError(t, err)
			require.True(t, fullRes.Complete)
			var first *explore.Result
			for _, workers := range []int{1, 2} {
				red := &observed{System: inner}
				opts.Reduce, opts.Workers = true, workers
				res, err := explore.Run(red.reset(), opts)
				require.NoError(t, err)
				require.True(t, res.Complete)
				res.Elapsed, res.CycleCheck, res.MemBytes = 0, 0, 0
				if first == nil {
					first = res
				} else {
					require.Equal(t, first.Stats, res.Stats, "the reduced search at 1 and 2 workers")
					require.Equal(t, first.Violations, res.Violations)
				}
				require.LessOrEqual(t, res.States, fullRes.States)
				require.Equal(t, violated(fullRes), violated(res), "violated invariants")
				require.Equal(t, full.views, red.views, "reachable liveness and elected values")
				require.Equal(t, full.terminal, red.terminal, "reachable terminal states")
				if res.States < fullRes.States {
					reducedSomewhere = true
				}
			}
		})
	}
	require.True(t, reducedSomewhere, "the reduction never reduced anything")
}

// observed wraps a system and records, for every state the search expands,
// its liveness and elected values, and the state itself if it has no step
// at all (not even one over the channel bound).
type observed struct {
	model.System
	mu       sync.Mutex
	views    map[model.Procs]bool
	terminal map[string]bool
}

func (o *observed) reset() *observed {
	o.views, o.terminal = map[model.Procs]bool{}, map[string]bool{}
	return o
}

func (o *observed) NewExpander() ts.Expander {
	return &observedExp{Expander: o.System.NewExpander(), o: o}
}

type observedExp struct {
	ts.Expander
	o *observed
}

func (e *observedExp) Expand(state []byte, out *model.Batch) {
	e.Expander.Expand(state, out)
	e.note(state, out)
}

func (e *observedExp) ExpandReduced(state []byte, out *model.Batch) {
	e.Expander.(model.Reducer).ExpandReduced(state, out)
	e.note(state, out)
}

func (e *observedExp) Reduces() bool { return e.Expander.(model.Reducer).Reduces() }

func (e *observedExp) note(state []byte, out *model.Batch) {
	v := e.Expander.(model.Viewer).View(state)
	e.o.mu.Lock()
	defer e.o.mu.Unlock()
	e.o.views[v] = true
	if len(out.Succs) == 0 && out.Discarded == 0 {
		e.o.terminal[string(state)] = true
	}
}

func violated(r *explore.Result) []int {
	var out []int
	for _, v := range r.Violations {
		out = append(out, v.Predicate)
	}
	return out
}
