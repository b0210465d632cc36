package model_test

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// An oracle of docs/semantics.md section 6.4's timers as handlers drive
// them (restarted, stopped, armed in the initial state and at a restart),
// written from the text alone for the lease algorithm of lease_test.go:
// plain slices, a breadth-first search, nothing of the kernel's. Its
// counts and first SingleLeader violation must be the kernel's exactly
// (TestLeaseCountsAgreeWithAnOracle).

type lMsg struct {
	beat   bool
	j, age int
}

type lState struct {
	alive, leading    []bool
	elected, timer    []int // timer -1: off
	chans             [][]lMsg
	crashes, restarts int
	gst               bool
}

func (s *lState) clone() *lState {
	c := *s
	c.alive, c.leading = slices.Clone(s.alive), slices.Clone(s.leading)
	c.elected, c.timer = slices.Clone(s.elected), slices.Clone(s.timer)
	c.chans = make([][]lMsg, len(s.chans))
	for i, q := range s.chans {
		c.chans[i] = slices.Clone(q)
	}
	return &c
}

func (s *lState) key() string {
	var b strings.Builder
	fmt.Fprint(&b, s.alive, s.leading, s.elected, s.timer, s.crashes, s.restarts, s.gst)
	for i, q := range s.chans {
		if len(q) > 0 {
			fmt.Fprint(&b, "|", i, q)
		}
	}
	return b.String()
}

type lOracle struct {
	n, h, l, d                     int
	maxCrashes, maxRestarts, queue int
	partial, initialLeader, stop   bool
	unordered                      bool // channels as multisets (section 1.3), kept sorted
}

// The armed timer of a local state: beat (0) while leading, else lease (1).
func armed(leading bool) int {
	if leading {
		return 0
	}
	return 1
}

func (o *lOracle) duration(t int) int {
	if t == 0 {
		return o.h
	}
	return o.l
}

// A step of process p being built: what its handler asked of the timer.
type lStep struct {
	o          *lOracle
	s          *lState
	p          int
	wasLeading bool
	op         string // "", "restart", "stop"
}

func (o *lOracle) begin(s *lState, p int) *lStep {
	return &lStep{o: o, s: s.clone(), p: p, wasLeading: s.leading[p]}
}

func (x *lStep) broadcast(beat bool) {
	for q := range x.o.n {
		if q != x.p && x.s.alive[q] {
			x.s.chans[x.p*x.o.n+q] = append(x.s.chans[x.p*x.o.n+q], lMsg{beat, x.p + 1, 0})
		}
	}
}

// end applies section 6.4 to p's timer: fired is the timer whose timeout
// the step was (-1: none), fresh a restart.
func (x *lStep) end(fired int, fresh bool) {
	after, before := armed(x.s.leading[x.p]), armed(x.wasLeading)
	switch {
	case x.op == "stop":
		x.s.timer[x.p] = -1
	case x.op == "restart" || after == fired || fresh || after != before:
		x.s.timer[x.p] = x.o.duration(after)
	}
}

func (x *lStep) receive(m lMsg) {
	p := x.p
	switch {
	case x.s.leading[p]:
	case !m.beat:
		x.s.elected[p], x.op = m.j, "restart"
	case m.j == x.s.elected[p]:
		x.op = "restart"
	case x.o.stop:
		x.op = "stop"
	}
}

// expire: the next ID below the leader (below every ID when none is
// known) becomes the leader.
func (x *lStep) expire() {
	p, below := x.p, x.s.elected[x.p]
	if below == 0 {
		below = x.o.n + 1
	}
	next := below - 1 // IDs are 1..n
	x.s.elected[p] = next
	if next == p+1 {
		x.s.leading[p] = true
		x.broadcast(false)
	}
}

func (o *lOracle) initial() *lState {
	s := &lState{alive: make([]bool, o.n), leading: make([]bool, o.n), elected: make([]int, o.n), timer: make([]int, o.n), chans: make([][]lMsg, o.n*o.n)}
	for p := range o.n {
		s.alive[p] = true
		if o.initialLeader {
			s.elected[p], s.leading[p] = o.n, p+1 == o.n
		}
		s.timer[p] = o.duration(armed(s.leading[p])) // armed in the initial state: running
	}
	return s
}

type lSucc struct {
	s         *lState
	discarded bool
}

func (o *lOracle) successors(s *lState) []lSucc {
	var out []lSucc
	emit := func(x *lStep) {
		over := false
		for _, q := range x.s.chans {
			over = over || len(q) > o.queue
			if o.unordered {
				slices.SortFunc(q, func(a, b lMsg) int {
					return cmp.Or(a.age-b.age, cmp.Compare(fmt.Sprint(a.beat), fmt.Sprint(b.beat)), a.j-b.j)
				})
			}
		}
		out = append(out, lSucc{x.s, over})
	}
	for from := range o.n {
		for p := range o.n {
			ch := s.chans[from*o.n+p]
			for i, m := range ch {
				if i > 0 && (!o.unordered || ch[i-1] == m) || m.age < 1 {
					continue // FIFO: the head only; unordered: each distinct message
				}
				x := o.begin(s, p)
				x.s.chans[from*o.n+p] = slices.Delete(x.s.chans[from*o.n+p], i, i+1)
				x.receive(m)
				x.end(-1, false)
				emit(x)
			}
		}
	}
	for p := range o.n {
		if !s.alive[p] {
			if s.restarts < o.maxRestarts {
				x := o.begin(s, p)
				x.s.alive[p], x.s.elected[p], x.s.leading[p], x.s.timer[p] = true, 0, false, -1
				x.s.restarts++
				x.end(-1, true)
				emit(x)
			}
			continue
		}
		if s.timer[p] == 0 {
			x := o.begin(s, p)
			t := armed(s.leading[p])
			if t == 0 {
				x.broadcast(true)
			} else {
				x.expire()
			}
			x.end(t, false)
			emit(x)
		}
		others := false
		for q := range o.n {
			others = others || q != p && s.alive[q]
		}
		if s.crashes < o.maxCrashes && others {
			x := o.begin(s, p)
			x.s.alive[p], x.s.elected[p], x.s.leading[p], x.s.timer[p] = false, 0, false, -1
			for from := range o.n {
				x.s.chans[from*o.n+p] = nil
			}
			x.s.crashes++
			emit(x)
		}
	}
	noZero, noOld, something := true, true, false
	for p := range o.n {
		noZero = noZero && s.timer[p] != 0
		something = something || s.timer[p] > 0
	}
	for _, q := range s.chans {
		something = something || len(q) > 0
		for _, m := range q {
			noOld = noOld && (m.age != o.d || o.partial && !s.gst)
		}
	}
	if noZero && noOld && something {
		x := o.begin(s, 0)
		for i, q := range x.s.chans {
			for j := range q {
				x.s.chans[i][j].age = min(q[j].age+1, o.d)
			}
		}
		for p := range o.n {
			if x.s.timer[p] > 0 {
				x.s.timer[p]--
			}
		}
		emit(x)
	}
	if o.partial && !s.gst {
		x := o.begin(s, 0)
		x.s.gst = true
		emit(x)
	}
	return out
}

func (o *lOracle) singleLeader(s *lState) bool {
	leaders := 0
	for p := range o.n {
		if s.alive[p] && s.elected[p] == p+1 {
			leaders++
		}
	}
	return leaders <= 1
}

type lResult struct {
	states, transitions, discarded int64
	depth, singleLeaderAt          int
}

func (o *lOracle) search() lResult {
	r := lResult{singleLeaderAt: -1}
	seen := map[string]bool{}
	level := []*lState{o.initial()}
	seen[level[0].key()] = true
	r.states = 1
	if !o.singleLeader(level[0]) {
		r.singleLeaderAt = 0
	}
	for depth := 0; len(level) > 0; depth++ {
		r.depth = depth
		var next []*lState
		for _, s := range level {
			for _, y := range o.successors(s) {
				if y.discarded {
					r.discarded++
					continue
				}
				r.transitions++
				if k := y.s.key(); !seen[k] {
					seen[k] = true
					r.states++
					next = append(next, y.s)
					if r.singleLeaderAt < 0 && !o.singleLeader(y.s) {
						r.singleLeaderAt = depth + 1
					}
				}
			}
		}
		level = next
	}
	return r
}

func TestLeaseCountsAgreeWithAnOracle(t *testing.T) {
	cases := []lOracle{
		{n: 2, h: 1, l: 2, d: 1, initialLeader: true},
		{n: 2, h: 2, l: 3, d: 1, maxCrashes: 1, maxRestarts: 1},
		{n: 3, h: 2, l: 2, d: 1, initialLeader: true},
		{n: 3, h: 2, l: 4, d: 1, initialLeader: true, maxCrashes: 1},
		{n: 3, h: 2, l: 3, d: 2, initialLeader: true, maxCrashes: 1, stop: true},
		{n: 3, h: 1, l: 2, d: 1, initialLeader: true, maxCrashes: 1, maxRestarts: 1, stop: true},
		{n: 3, h: 2, l: 3, d: 1, maxCrashes: 1, stop: true},
		{n: 2, h: 1, l: 3, d: 2, initialLeader: true, maxCrashes: 1, partial: true, queue: 2},
		{n: 2, h: 2, l: 3, d: 2, maxCrashes: 1, maxRestarts: 1, partial: true, stop: true, queue: 2},
		{n: 3, h: 1, l: 2, d: 1, initialLeader: true, maxCrashes: 1, queue: 1, stop: true},
		{n: 2, h: 1, l: 3, d: 2, initialLeader: true, maxCrashes: 1, partial: true, queue: 2, unordered: true},
		{n: 2, h: 2, l: 3, d: 2, maxCrashes: 1, maxRestarts: 1, partial: true, stop: true, queue: 2, unordered: true},
	}
	for _, o := range cases {
		mc := model.Config{N: o.n, Timing: model.Sync, Delay: o.d, MaxCrashes: o.maxCrashes, MaxRestarts: o.maxRestarts,
			InitialLeader: o.initialLeader, MaxQueue: o.queue}
		if o.unordered {
			mc.Channels = model.Unordered
		}
		if o.partial {
			mc.Timing = model.Partial
		}
		o.queue = mc.WithDefaults().MaxQueue
		t.Run(fmt.Sprintf("%+v", o), func(t *testing.T) {
			want := o.search()
			if o.unordered { // the case tells the two disciplines apart
				fifo := o
				fifo.unordered = false
				require.NotEqual(t, fifo.search(), want, "FIFO's counts")
			}
			spec := specs.Spec{Name: "lease", Build: specs.Builder[leaseLocal, leaseMsg](lease{H: o.h, L: o.l, Stop: o.stop})}
			rep, err := check.Run(check.Request{Spec: spec, Config: mc, Properties: []string{"SingleLeader"}, Continue: true, Workers: 1, MaxStates: 2_000_000})
			require.NoError(t, err)
			require.True(t, rep.Stats.Complete)
			assert.Equal(t, []any{want.states, want.transitions, want.depth, want.discarded},
				[]any{rep.Stats.States, rep.Stats.Transitions, rep.Stats.Depth, rep.Stats.Discarded}, "states, transitions, depth, discarded")
			sl := rep.Verdicts[0]
			if want.singleLeaderAt < 0 {
				assert.Equal(t, check.Holds, sl.Status, "SingleLeader")
			} else if assert.Equal(t, check.Violated, sl.Status, "SingleLeader") {
				assert.Len(t, sl.Trace.Steps, want.singleLeaderAt+1, "the shortest SingleLeader counterexample")
			}
			t.Logf("%d states, %d transitions, depth %d, discarded %d, SingleLeader at %d",
				want.states, want.transitions, want.depth, want.discarded, want.singleLeaderAt)
		})
	}
}
