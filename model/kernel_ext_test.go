package model_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/ring"
)

// The kernel with the built-in ring algorithm, through the public API only.

func ringSystem(t *testing.T, cfg model.Config, opts ...model.Option) *model.Kernel[ring.Local, ring.Msg] {
	t.Helper()
	k, err := model.New[ring.Local, ring.Msg](ring.Algorithm{}, cfg, nil, opts...)
	require.NoError(t, err)
	return k
}

// walk follows a path of labels from the initial state and returns the
// descriptions of the states along it.
func walk(t *testing.T, sys model.System, labels ...string) []string {
	t.Helper()
	x, err := model.ExpanderOf(sys)
	require.NoError(t, err)
	var b model.Batch
	x.Initial(&b)
	require.Len(t, b.Succs, 1)
	state := slices.Clone(b.State(0))
	out := []string{x.Describe(state)}
	for _, want := range labels {
		x.Expand(state, &b)
		var have []string
		next := -1
		for i, s := range b.Succs {
			l := x.Label(state, s.Action)
			have = append(have, l)
			if l == want {
				next = i
			}
		}
		require.GreaterOrEqual(t, next, 0, "no step %q from %s; enabled: %q", want, x.Describe(state), have)
		state = slices.Clone(b.State(next))
		out = append(out, x.Describe(state))
	}
	return out
}

// TestRingLabelsNameProcessesByID and the lone survivor's ring are step
// scripts now: specs/testdata/steps/ring.txt.

// Messages to a process that crashes are gone; what it sent is still delivered.
func TestRingCrashDropsIncomingKeepsOutgoing(t *testing.T) {
	k := ringSystem(t, model.Config{N: 3, MaxCrashes: 1})
	states := walk(t, k, "initiate p1", "initiate p2", "crash p2", "deliver p2→p3 ELECTION(2)")
	assert.Equal(t, []string{
		"p1{busy=false elected=⊥} p2{busy=false elected=⊥} p3{busy=false elected=⊥}",
		"p1{busy=true elected=⊥} p2{busy=false elected=⊥} p3{busy=false elected=⊥} | p1→p2 [ELECTION(1)]",
		"p1{busy=true elected=⊥} p2{busy=true elected=⊥} p3{busy=false elected=⊥} | p1→p2 [ELECTION(1)] | p2→p3 [ELECTION(2)]",
		"p1{busy=true elected=⊥} p2✝ p3{busy=false elected=⊥} | p2→p3 [ELECTION(2)] | crashes=1 restarts=0",
		// p3 raises it to ELECTION(3) and sends it to p1, skipping the crashed p2.
		"p1{busy=true elected=⊥} p2✝ p3{busy=true elected=⊥} | p3→p1 [ELECTION(3)] | crashes=1 restarts=0",
	}, states)
}

// ---- an independent reading of docs/semantics.md for the ring algorithm ----

type refMsg struct {
	elected bool
	j       int
}

type refState struct {
	alive             []bool
	busy              []bool
	elected           []int
	chans             [][]refMsg // chan(p,q) at p*n+q
	crashes, restarts int
}

func (s *refState) clone() *refState {
	c := &refState{alive: slices.Clone(s.alive), busy: slices.Clone(s.busy), elected: slices.Clone(s.elected),
		chans: make([][]refMsg, len(s.chans)), crashes: s.crashes, restarts: s.restarts}
	for i, q := range s.chans {
		c.chans[i] = slices.Clone(q)
	}
	return c
}

func (s *refState) key() string {
	var sb strings.Builder
	fmt.Fprint(&sb, s.alive, s.busy, s.elected, s.crashes, s.restarts)
	for i, q := range s.chans {
		if len(q) > 0 {
			fmt.Fprint(&sb, "|", i, q)
		}
	}
	return sb.String()
}

type refRing struct {
	n, maxQueue, maxCrashes, maxRestarts int
	ids                                  []int
	initiator                            []bool
	unreliable                           bool
}

func (r *refRing) pos(id int) int { return slices.Index(r.ids, id) }

func (r *refRing) next(s *refState, p int) int {
	for i := 1; i < r.n; i++ {
		if q := (p + i) % r.n; s.alive[q] {
			return q
		}
	}
	return p
}

func (r *refRing) send(s *refState, p int, m refMsg) {
	if q := r.next(s, p); s.alive[q] {
		s.chans[p*r.n+q] = append(s.chans[p*r.n+q], m)
	}
}

func (r *refRing) suspects(s *refState, p int) bool {
	return s.elected[p] == 0 || !s.alive[r.pos(s.elected[p])]
}

func (r *refRing) initiate(s *refState, p int) *refState {
	s = s.clone()
	s.busy[p], s.elected[p] = true, 0
	r.send(s, p, refMsg{false, r.ids[p]})
	return s
}

// succs lists the successors of s (discarded ones as nil).
func (r *refRing) succs(s *refState) []*refState {
	var out []*refState
	for p := 0; p < r.n; p++ {
		for q := 0; q < r.n; q++ {
			if !s.alive[q] || len(s.chans[p*r.n+q]) == 0 {
				continue
			}
			t := s.clone()
			m := t.chans[p*r.n+q][0]
			t.chans[p*r.n+q] = t.chans[p*r.n+q][1:]
			id := r.ids[q]
			if !m.elected {
				t.busy[q], t.elected[q] = true, 0
				switch {
				case m.j > id:
					r.send(t, q, m)
				case m.j < id:
					r.send(t, q, refMsg{false, id})
				default:
					r.send(t, q, refMsg{true, id})
				}
			} else {
				t.busy[q], t.elected[q] = false, m.j
				if m.j != id {
					r.send(t, q, m)
				}
			}
			out = append(out, t)
		}
	}
	for q := 0; q < r.n; q++ {
		if !s.alive[q] {
			if s.restarts < r.maxRestarts {
				t := s.clone()
				t.alive[q], t.busy[q], t.elected[q] = true, false, 0
				t.restarts++
				out = append(out, t)
			}
			continue
		}
		if r.initiator[q] && !s.busy[q] && r.suspects(s, q) {
			out = append(out, r.initiate(s, q))
		}
		if e := s.elected[q]; r.unreliable && r.initiator[q] && e != 0 && e != r.ids[q] && s.alive[r.pos(e)] && !s.busy[q] {
			out = append(out, r.initiate(s, q))
		}
		others := slices.Contains(s.alive[:q], true) || slices.Contains(s.alive[q+1:], true)
		if s.crashes < r.maxCrashes && others {
			t := s.clone()
			t.alive[q], t.busy[q], t.elected[q] = false, false, 0
			for p := 0; p < r.n; p++ {
				t.chans[p*r.n+q] = nil
			}
			t.crashes++
			out = append(out, t)
		}
	}
	for i, t := range out {
		for _, c := range t.chans {
			if len(c) > r.maxQueue {
				out[i] = nil
			}
		}
	}
	return out
}

type refCounts struct {
	States, Transitions, Discarded int64
	Depth                          int
}

func refExplore(cfg model.Config) refCounts {
	cfg = cfg.WithDefaults()
	r := &refRing{n: cfg.N, maxQueue: cfg.MaxQueue, maxCrashes: cfg.MaxCrashes, maxRestarts: cfg.MaxRestarts,
		ids: cfg.IDs, initiator: make([]bool, cfg.N), unreliable: cfg.Detector == model.Unreliable}
	maxID := slices.Max(cfg.IDs)
	s0 := &refState{alive: make([]bool, r.n), busy: make([]bool, r.n), elected: make([]int, r.n), chans: make([][]refMsg, r.n*r.n)}
	for p := range r.n {
		r.initiator[p] = cfg.Initiators == nil || slices.Contains(cfg.Initiators, cfg.IDs[p])
		s0.alive[p] = !slices.Contains(cfg.Down, cfg.IDs[p])
		if cfg.InitialLeader && s0.alive[p] {
			s0.elected[p] = maxID
		}
	}
	var c refCounts
	seen := map[string]bool{s0.key(): true}
	level := []*refState{s0}
	for depth := 0; len(level) > 0; depth++ {
		c.Depth = depth
		var next []*refState
		for _, s := range level {
			for _, t := range r.succs(s) {
				if t == nil {
					c.Discarded++
					continue
				}
				c.Transitions++
				if k := t.key(); !seen[k] {
					seen[k] = true
					next = append(next, t)
				}
			}
		}
		level = next
	}
	c.States = int64(len(seen))
	return c
}

func TestRingCountsMatchAnIndependentReadingOfTheSemantics(t *testing.T) {
	for _, cfg := range []model.Config{
		// (With crashes the ring without pruning grows fast: small channel
		// bounds keep these to a few thousand states.)
		{N: 3},
		{N: 4, MaxQueue: 1},
		{N: 2, MaxCrashes: 1, MaxRestarts: 2},
		{N: 3, MaxQueue: 1, MaxCrashes: 1, MaxRestarts: 1},
		{N: 3, MaxQueue: 1, MaxCrashes: 2, MaxRestarts: 1},
		{N: 3, IDs: []int{3, 9, 4}, Down: []int{9}, MaxCrashes: 1, MaxRestarts: 1, MaxQueue: 1},
		{N: 3, IDs: []int{3, 9, 4}, Down: []int{9}, InitialLeader: true, Detector: model.Unreliable},
		{N: 3, InitialLeader: true, Detector: model.Unreliable, MaxCrashes: 1, MaxQueue: 1},
		{N: 3, Initiators: []int{2}, MaxCrashes: 1},
	} {
		t.Run(fmt.Sprintf("%+v", cfg), func(t *testing.T) {
			want := refExplore(cfg)
			t.Logf("%+v", want)
			for _, opts := range [][]model.Option{nil, {model.WithGenericHashing()}} {
				res, err := explore.Run(ringSystem(t, cfg, opts...), explore.Options{Continue: true})
				require.NoError(t, err)
				require.True(t, res.Complete)
				assert.Equal(t, want, refCounts{res.States, res.Transitions, res.Discarded, res.Depth}, "generic=%v", opts != nil)
			}
		})
	}
	// shared/reference-counts.md: ring --n 3 has 106 states and depth 22.
	c := refExplore(model.Config{N: 3})
	assert.Equal(t, int64(106), c.States)
	assert.Equal(t, 22, c.Depth)
}

// wrongWay is the ring algorithm with a false promise: it claims to send
// clockwise only, but sends counter-clockwise.
type wrongWay struct{ ring.Algorithm }

func (wrongWay) Around() []model.Dir { return []model.Dir{model.CW} }
func (wrongWay) Initiate(c *model.Ctx[ring.Msg], l *ring.Local) {
	c.SendNext(model.CCW, ring.Msg{Kind: ring.Election, J: c.ID()})
}

// The reduction relies on RingLocal, so the kernel checks the promise on
// every step while reducing (and only then).
func TestReductionChecksTheRingLocalPromise(t *testing.T) {
	k, err := model.New[ring.Local, ring.Msg](wrongWay{}, model.Config{N: 3}, nil)
	require.NoError(t, err)
	x := k.NewExpander()
	var b model.Batch
	x.Initial(&b)
	state := slices.Clone(b.State(0))
	x.Expand(state, &b) // no reduction asked: no check
	require.PanicsWithValue(t, "mcheck: the algorithm is RingLocal (sends only to Next[cw]) but p1 sent to p3: drop the RingLocal method Around",
		func() { x.(model.Reducer).ExpandReduced(state, &b) })
	require.True(t, x.(model.Reducer).Reduces())
}
