package model_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	cr "github.com/mcheck/mcheck/specs/changroberts"
)

// An oracle of docs/semantics.md section 1's unordered channels
// (--channels unordered) for Chang-Roberts (section 3), written from the
// text alone: a channel is a multiset (here a sorted slice of crMsg, the
// oracle's own order), a delivery takes any message in it, one step per
// distinct message, crashes repair the ring and lose what was on its way to
// the crashed process. Plain slices and a breadth-first search, nothing of
// the kernel's. Its counts and SingleLeader verdict must be the kernel's
// exactly (TestUnorderedCountsAgreeWithAnOracle).

type uState struct {
	alive, participant []bool
	elected            []int // 0: ⊥
	chans              [][]crMsg
	crashes            int
	sent               int // by the step that made this state (not part of the state)
}

func (s *uState) clone() *uState {
	c := *s
	c.sent = 0
	c.alive, c.participant, c.elected = slices.Clone(s.alive), slices.Clone(s.participant), slices.Clone(s.elected)
	c.chans = make([][]crMsg, len(s.chans))
	for i, q := range s.chans {
		c.chans[i] = slices.Clone(q)
	}
	return &c
}

func (s *uState) key() string {
	var b strings.Builder
	fmt.Fprint(&b, s.alive, s.participant, s.elected, s.crashes)
	for i, q := range s.chans {
		if len(q) > 0 {
			fmt.Fprint(&b, "|", i, q)
		}
	}
	return b.String()
}

func crLess(a, b crMsg) int {
	switch {
	case a.elected != b.elected:
		if !a.elected {
			return -1
		}
		return 1
	default:
		return a.j - b.j
	}
}

type uOracle struct {
	n, maxCrashes, bound int
}

// next is the nearest live position after p, clockwise (p itself when alone).
func (o *uOracle) next(s *uState, p int) int {
	for d := 1; d <= o.n; d++ {
		if q := (p + d) % o.n; s.alive[q] {
			return q
		}
	}
	return p
}

func (o *uOracle) send(s *uState, p int, m crMsg) {
	q := o.next(s, p)
	s.sent++
	if !s.alive[q] {
		return // lost (never here: next is live)
	}
	ch := &s.chans[p*o.n+q]
	i, _ := slices.BinarySearchFunc(*ch, m, crLess)
	*ch = slices.Insert(*ch, i, m)
}

func (o *uOracle) suspects(s *uState, p int) bool {
	return s.elected[p] == 0 || !s.alive[s.elected[p]-1] // ids p+1
}

// succs are the successors of s, one per enabled action instance.
func (o *uOracle) succs(s *uState) []*uState {
	var out []*uState
	for ch, q := range s.chans {
		from, to := ch/o.n, ch%o.n
		for i, m := range q {
			if i > 0 && q[i-1] == m || !s.alive[to] {
				continue
			}
			t := s.clone()
			t.chans[ch] = slices.Delete(t.chans[ch], i, i+1)
			o.receive(t, to, m)
			out = append(out, t)
			_ = from
		}
	}
	for p := range o.n {
		if s.alive[p] && !s.participant[p] && o.suspects(s, p) {
			t := s.clone()
			t.participant[p], t.elected[p] = true, 0
			o.send(t, p, crMsg{j: p + 1})
			out = append(out, t)
		}
		if s.alive[p] && s.crashes < o.maxCrashes && slices.Contains(without(s.alive, p), true) {
			t := s.clone()
			t.alive[p], t.participant[p], t.elected[p] = false, false, 0
			for from := range o.n {
				t.chans[from*o.n+p] = nil
			}
			t.crashes++
			out = append(out, t)
		}
	}
	return out
}

func without(b []bool, p int) []bool {
	c := slices.Clone(b)
	c[p] = false
	return c
}

func (o *uOracle) receive(s *uState, p int, m crMsg) {
	id := p + 1
	if m.elected {
		s.participant[p], s.elected[p] = false, m.j
		if m.j != id {
			o.send(s, p, m)
		}
		return
	}
	switch {
	case m.j > id:
		s.participant[p], s.elected[p] = true, 0
		o.send(s, p, m)
	case m.j < id && !s.participant[p]:
		s.participant[p], s.elected[p] = true, 0
		o.send(s, p, crMsg{j: id})
	case m.j == id:
		s.participant[p], s.elected[p] = false, id
		o.send(s, p, crMsg{elected: true, j: id})
	}
}

func (o *uOracle) overflows(s *uState) bool {
	return slices.ContainsFunc(s.chans, func(q []crMsg) bool { return len(q) > o.bound })
}

type uCounts struct {
	states, transitions, discarded int64
	depth                          int
	twoLeaders                     bool
}

func (o *uOracle) search() uCounts {
	init := &uState{alive: make([]bool, o.n), participant: make([]bool, o.n), elected: make([]int, o.n), chans: make([][]crMsg, o.n*o.n)}
	for p := range init.alive {
		init.alive[p] = true
	}
	seen := map[string]bool{init.key(): true}
	var c uCounts
	level := []*uState{init}
	for depth := 0; len(level) > 0; depth++ {
		c.depth = depth
		var nextLevel []*uState
		for _, s := range level {
			c.states++
			leaders := 0
			for p := range o.n {
				if s.alive[p] && s.elected[p] == p+1 {
					leaders++
				}
			}
			c.twoLeaders = c.twoLeaders || leaders > 1
			for _, t := range o.succs(s) {
				if o.overflows(t) {
					c.discarded++
					continue
				}
				c.transitions++
				if k := t.key(); !seen[k] {
					seen[k] = true
					nextLevel = append(nextLevel, t)
				}
			}
		}
		level = nextLevel
	}
	return c
}

func TestUnorderedCountsAgreeWithAnOracle(t *testing.T) {
	for _, o := range []uOracle{
		{n: 3, bound: 6},
		{n: 3, maxCrashes: 1, bound: 3},
		{n: 3, maxCrashes: 2, bound: 2},
		{n: 4, bound: 8},
		{n: 4, maxCrashes: 1, bound: 2},
	} {
		t.Run(fmt.Sprintf("%+v", o), func(t *testing.T) {
			want := o.search()
			mc := model.Config{N: o.n, MaxCrashes: o.maxCrashes, MaxQueue: o.bound, Channels: model.Unordered}
			spec := specs.Spec{Name: "chang-roberts", Build: specs.Builder[cr.Local, cr.Msg](cr.Algorithm{})}
			rep, err := check.Run(check.Request{Spec: spec, Config: mc, Properties: []string{"SingleLeader"}, Continue: true, Workers: 1, MaxStates: 2_000_000})
			require.NoError(t, err)
			require.True(t, rep.Stats.Complete)
			assert.Equal(t, []any{want.states, want.transitions, want.depth, want.discarded},
				[]any{rep.Stats.States, rep.Stats.Transitions, rep.Stats.Depth, rep.Stats.Discarded}, "states, transitions, depth, discarded")
			wantStatus := check.Holds
			if want.twoLeaders {
				wantStatus = check.Violated
			}
			assert.Equal(t, wantStatus, rep.Verdicts[0].Status, "SingleLeader")
			// FIFO explores other states: the option reaches the kernel.
			mc.Channels = model.FIFO
			fifo, err := check.Run(check.Request{Spec: spec, Config: mc, Properties: []string{"SingleLeader"}, Continue: true, Workers: 1, MaxStates: 2_000_000})
			require.NoError(t, err)
			assert.NotEqual(t, rep.Stats.Transitions, fifo.Stats.Transitions)
		})
	}
}

// The synchronous schedule (docs/semantics.md section 5.5) delivers in the
// order sent with unordered channels too, so it is the FIFO schedule step
// for step: same steps, rounds, latency, sends, stop and repetition, for
// every built-in algorithm, every arrangement of 3 IDs, none or one
// process down, and bounds that stop it.
func TestUnorderedSynchronousIsTheFIFOSchedule(t *testing.T) {
	reg := specs.Builtin()
	type syncer interface{ Synchronous() model.SyncRun }
	type step struct {
		round int
		kind  model.Kind
		p, q  int
		sent  int
	}
	steps := func(r model.SyncRun) []step {
		var out []step
		for _, s := range r.Steps {
			out = append(out, step{round: s.Round, kind: s.Action.Kind(), p: s.Action.P(), q: s.Action.Q(), sent: s.Sent.Total()})
		}
		return out
	}
	reordered := 0
	for _, name := range reg.Names() {
		spec, err := reg.Lookup(name)
		require.NoError(t, err)
		for _, ids := range permutations([]int{1, 2, 3}) {
			for _, down := range [][]int{nil, {3}} {
				for _, bound := range []int{1, 2, 6} {
					cfg := model.Config{N: 3, IDs: ids, Down: down, MaxQueue: bound, InitialLeader: name == "bully"}
					sys, err := spec.Build.System(cfg, nil)
					require.NoError(t, err)
					fifo := sys.(syncer).Synchronous()
					cfg.Channels = model.Unordered
					sys, err = spec.Build.System(cfg, nil)
					require.NoError(t, err)
					un := sys.(syncer).Synchronous()
					what := fmt.Sprintf("%s ids %v down %v bound %d", name, ids, down, bound)
					require.Equal(t, steps(fifo), steps(un), what)
					assert.Equal(t, []any{fifo.Rounds, fifo.Latency, fifo.Sent, fifo.Overflow, fifo.Unbounded, fifo.Blocked.Kind()},
						[]any{un.Rounds, un.Latency, un.Sent, un.Overflow, un.Unbounded, un.Blocked.Kind()}, what)
					for _, s := range un.Steps {
						if s.Action.Kind() == model.KindDeliver && s.Action.Timer() > 0 {
							reordered++ // a delivery that is not of the sorted channel's first element
						}
					}
				}
			}
		}
	}
	assert.Positive(t, reordered, "some schedule delivers a message that does not sort first")
}

// messages is section 5.3's messages.min and messages.max (the total) over
// the complete runs of the oracle's graph without crashes, where every
// run ends (no cycle): a quiescent state has empty channels and no
// initiate enabled, so no step at all.
func (o *uOracle) messages() (lo, hi int) {
	type memo struct{ lo, hi int }
	seen := map[string]memo{}
	var walk func(s *uState) memo
	walk = func(s *uState) memo {
		k := s.key()
		if m, ok := seen[k]; ok {
			return m
		}
		succs := o.succs(s)
		m := memo{lo: 1 << 30, hi: -1}
		if len(succs) == 0 {
			m = memo{0, 0}
		}
		for _, t := range succs {
			if o.overflows(t) {
				panic("the oracle's measures assume no step is discarded")
			}
			r := walk(t)
			if r.hi >= 0 {
				m.lo, m.hi = min(m.lo, t.sent+r.lo), max(m.hi, t.sent+r.hi)
			}
		}
		seen[k] = m
		return m
	}
	init := &uState{alive: make([]bool, o.n), participant: make([]bool, o.n), elected: make([]int, o.n), chans: make([][]crMsg, o.n*o.n)}
	for p := range init.alive {
		init.alive[p] = true
	}
	m := walk(init)
	return m.lo, m.hi
}

// --complexity with unordered channels: messages.min and max as the
// oracle's graph gives them, and more than FIFO's maximum where a message
// can be overtaken.
func TestUnorderedMessagesAgreeWithAnOracle(t *testing.T) {
	spec := specs.Spec{Name: "chang-roberts", Build: specs.Builder[cr.Local, cr.Msg](cr.Algorithm{})}
	for _, n := range []int{3, 4} {
		o := uOracle{n: n, bound: 2 * n}
		lo, hi := o.messages()
		mc := model.Config{N: n, Channels: model.Unordered}
		rep, err := check.Run(check.Request{Spec: spec, Config: mc, Properties: []string{"SingleLeader"}, Complexity: true, Workers: 1, MaxStates: 2_000_000})
		require.NoError(t, err)
		require.NotNil(t, rep.Complexity.Measures, rep.Complexity.Skipped)
		tot := rep.Complexity.Measures.Total
		assert.Equal(t, []any{lo, hi, false}, []any{tot.Min, tot.Max, tot.Unbounded}, "N=%d messages.min, max", n)
		mc.Channels = model.FIFO
		fifo, err := check.Run(check.Request{Spec: spec, Config: mc, Properties: []string{"SingleLeader"}, Complexity: true, Workers: 1, MaxStates: 2_000_000})
		require.NoError(t, err)
		assert.Greater(t, hi, fifo.Complexity.Measures.Total.Max, "N=%d: FIFO's maximum", n)
	}
}
