package specs_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
)

// An oracle of docs/semantics.md section 6 (time) over sections 1-3, written
// from the contract's text alone, for Bully and the ring algorithm: plain
// slices and maps, a breadth-first search, Tarjan's components for
// Termination; nothing of the kernel's. Its counts and verdicts must be
// the kernel's exactly (TestTimedCountsAgreeWithAnOracle).

// Message kinds of the two algorithms.
const (
	oElection    = iota + 1 // both
	oElected                // ring
	oOK                     // bully
	oCoordinator            // bully
)

type oMsg struct{ kind, j, age int }

// Bully's status.
const (
	oIdle = iota
	oElecting
	oWaiting
)

// oState is a global state of section 6: per process alive, two local
// fields (bully: status and elected; ring: busy and elected; elected 0 is
// ⊥) and a timer (-1 is off); every channel's (message, age) pairs head
// first; the counters; gst.
type oState struct {
	alive             []bool
	f0, elected       []int
	timer             []int
	chans             [][]oMsg // chan(p,q) at p*n+q
	crashes, restarts int
	gst               bool
	suspicions        int   // the eventual detector's, before gst
	silence           []int // the heartbeat detector's silence(p,q) at p*n+q
}

func (s *oState) clone() *oState {
	c := *s
	c.alive = slices.Clone(s.alive)
	c.f0, c.elected, c.timer, c.silence = slices.Clone(s.f0), slices.Clone(s.elected), slices.Clone(s.timer), slices.Clone(s.silence)
	c.chans = make([][]oMsg, len(s.chans))
	for i, q := range s.chans {
		c.chans[i] = slices.Clone(q)
	}
	return &c
}

func (s *oState) key() string {
	var b strings.Builder
	fmt.Fprint(&b, s.alive, s.f0, s.elected, s.timer, s.crashes, s.restarts, s.gst, s.suspicions, s.silence)
	for i, q := range s.chans {
		if len(q) > 0 {
			fmt.Fprint(&b, "|", i, q)
		}
	}
	return b.String()
}

// oracle is one configuration.
type oracle struct {
	bully                   bool // else the ring algorithm
	n                       int
	ids                     []int // ids[p] = p+1
	maxCrashes, maxRestarts int
	maxQueue                int
	partial                 bool // else sync
	d, t, t2                int
	initialLeader           bool
	unreliable              bool
	eventual                bool // unreliable's suspect before gst only, up to budget times
	budget                  int
	heartbeat               bool // section 6.5's heartbeat detector, with
	hbP, hbTO               int  // its period and timeout
}

// step is a successor being built: the state and whether a channel went
// over the bound.
type step struct {
	o *oracle
	s *oState
}

func (x *step) send(p, q int, kind, j int) {
	if x.s.alive[q] { // to a crashed process: lost
		x.s.chans[p*x.o.n+q] = append(x.s.chans[p*x.o.n+q], oMsg{kind, j, 0})
	}
}

// Bully's timers (section 6): set with the status, and by nothing else.
func (x *step) setStatus(p, st int) {
	x.s.f0[p] = st
	switch st {
	case oElecting:
		x.s.timer[p] = x.o.t
	case oWaiting:
		x.s.timer[p] = x.o.t2
	case oIdle:
		x.s.timer[p] = -1
	}
}

// byID: positions in ascending ID order whose ID passes keep.
func (o *oracle) byID(keep func(id int) bool) []int {
	var ps []int
	for p := range o.n { // ids[p] = p+1 ascend with p
		if keep(o.ids[p]) {
			ps = append(ps, p)
		}
	}
	return ps
}

func (x *step) startElection(p int) {
	id := x.o.ids[p]
	higher := x.o.byID(func(j int) bool { return j > id })
	if len(higher) == 0 {
		x.becomeCoordinator(p)
		return
	}
	x.s.elected[p] = 0
	x.setStatus(p, oElecting)
	for _, q := range higher {
		x.send(p, q, oElection, id)
	}
}

func (x *step) becomeCoordinator(p int) {
	id := x.o.ids[p]
	x.s.elected[p] = id
	x.setStatus(p, oIdle)
	for _, q := range x.o.byID(func(j int) bool { return j < id }) {
		x.send(p, q, oCoordinator, id)
	}
}

// next is next(p, cw): the nearest live position after p, p when alone.
func (x *step) next(p int) int {
	for k := 1; k <= x.o.n; k++ {
		if q := (p + k) % x.o.n; x.s.alive[q] {
			return q
		}
	}
	return p
}

func (x *step) receive(p, from int, m oMsg) {
	id := x.o.ids[p]
	if !x.o.bully {
		switch m.kind {
		case oElection:
			x.s.f0[p], x.s.elected[p] = 1, 0
			switch {
			case m.j > id:
				x.send(p, x.next(p), oElection, m.j)
			case m.j < id:
				x.send(p, x.next(p), oElection, id)
			default:
				x.send(p, x.next(p), oElected, id)
			}
		case oElected:
			x.s.f0[p], x.s.elected[p] = 0, m.j
			if m.j != id {
				x.send(p, x.next(p), oElected, m.j)
			}
		}
		return
	}
	switch m.kind {
	case oElection:
		x.send(p, from, oOK, id)
		if x.s.f0[p] == oIdle {
			x.startElection(p)
		}
	case oOK:
		if x.s.f0[p] == oElecting {
			x.setStatus(p, oWaiting)
		}
	case oCoordinator:
		switch {
		case m.j > id:
			x.s.elected[p] = m.j
			x.setStatus(p, oIdle)
		case m.j < id && x.s.f0[p] == oIdle:
			x.startElection(p)
		}
	}
}

// canInitiate is the guard of initiate/detect given suspects(p).
func (o *oracle) canInitiate(s *oState, p int, suspects bool) bool {
	if o.bully {
		return s.f0[p] == oIdle && suspects
	}
	return s.f0[p] == 0 && suspects
}

func (x *step) initiate(p int) {
	if x.o.bully {
		x.startElection(p)
		return
	}
	x.s.f0[p], x.s.elected[p] = 1, 0
	x.send(p, x.next(p), oElection, x.o.ids[p])
}

func (o *oracle) suspects(s *oState, p int) bool {
	e := s.elected[p]
	if o.heartbeat { // p trusts r: r = p, or silence(p,r) < TO
		return e == 0 || e-1 != p && s.silence[p*o.n+e-1] >= o.hbTO
	}
	return e == 0 || !s.alive[e-1] // ids[q] = q+1
}

func (o *oracle) initial() *oState {
	s := &oState{alive: make([]bool, o.n), f0: make([]int, o.n), elected: make([]int, o.n), timer: make([]int, o.n), chans: make([][]oMsg, o.n*o.n)}
	for p := range o.n {
		s.alive[p], s.timer[p] = true, -1
		if o.initialLeader {
			s.elected[p] = o.n // the largest ID; bully idle, ring not busy
		}
	}
	if o.heartbeat {
		s.silence = make([]int, o.n*o.n) // nobody is down
	}
	return s
}

// succ is one enabled action instance: its fairness class ("" unfair)
// and the state after it, or discarded by the channel bound.
type succ struct {
	class     string
	s         *oState
	discarded bool
}

// successors lists every action instance of section 1, 3 and 6 enabled in
// s, with the bound applied after the whole step.
func (o *oracle) successors(s *oState) []succ {
	var out []succ
	emit := func(class string, x *step) {
		over := false
		for _, q := range x.s.chans {
			over = over || len(q) > o.maxQueue
		}
		out = append(out, succ{class, x.s, over})
	}
	begin := func() *step { return &step{o, s.clone()} }
	for p := range o.n {
		for q := range o.n {
			ch := s.chans[p*o.n+q]
			if !s.alive[q] || len(ch) == 0 || ch[0].age < 1 {
				continue
			}
			x := begin()
			m := x.s.chans[p*o.n+q][0]
			x.s.chans[p*o.n+q] = x.s.chans[p*o.n+q][1:]
			x.receive(q, p, m)
			emit(fmt.Sprintf("deliver %d %d", p, q), x)
		}
	}
	for p := range o.n {
		if s.alive[p] && o.canInitiate(s, p, o.suspects(s, p)) {
			x := begin()
			x.initiate(p)
			emit(fmt.Sprintf("initiate %d", p), x)
		}
		if e := s.elected[p]; (o.unreliable || o.eventual && !s.gst && s.suspicions < o.budget) && s.alive[p] && e != 0 && e != o.ids[p] && s.alive[e-1] && o.canInitiate(s, p, true) {
			x := begin()
			x.initiate(p)
			if o.eventual {
				x.s.suspicions++
			}
			emit("", x) // suspect: not fair
		}
		if o.bully && s.alive[p] && s.timer[p] == 0 {
			switch s.f0[p] {
			case oElecting: // timeout-ok
				x := begin()
				x.becomeCoordinator(p)
				emit(fmt.Sprintf("timeout-ok %d", p), x)
			case oWaiting: // timeout-coord
				x := begin()
				x.startElection(p)
				emit(fmt.Sprintf("timeout-coord %d", p), x)
			}
		}
		if s.alive[p] && s.crashes < o.maxCrashes && slices.ContainsFunc(o.byID(func(int) bool { return true }), func(q int) bool { return q != p && s.alive[q] }) {
			x := begin()
			x.s.alive[p], x.s.f0[p], x.s.elected[p], x.s.timer[p] = false, 0, 0, -1
			for from := range o.n {
				x.s.chans[from*o.n+p] = nil
			}
			x.s.crashes++
			for r := range o.n {
				if o.heartbeat {
					x.s.silence[p*o.n+r] = 0
				}
			}
			emit("", x)
		}
		if !s.alive[p] && s.restarts < o.maxRestarts {
			x := begin()
			x.s.alive[p], x.s.f0[p], x.s.elected[p], x.s.timer[p] = true, 0, 0, -1
			x.s.restarts++
			if o.bully {
				x.startElection(p) // on restart (Bully only)
			}
			emit("", x)
		}
	}
	// tick: (a) no timer at 0, (b) no message of age D (not before gst in
	// partial), (c) a channel non-empty or a timer running.
	a, b, c := true, true, false
	for p := range o.n {
		a = a && s.timer[p] != 0
		c = c || s.timer[p] > 0
	}
	due, cap := o.hbP+o.d-1, max(o.hbTO, o.hbP+o.d-1)
	if o.heartbeat {
		for q := range o.n {
			for p := range o.n {
				if p == q || !s.alive[p] {
					continue
				}
				c = c || s.silence[p*o.n+q] < cap
				b = b && (!s.alive[q] || s.silence[p*o.n+q] < due || o.partial && !s.gst)
				if s.alive[q] && s.silence[p*o.n+q] >= 1 {
					x := begin()
					x.s.silence[p*o.n+q] = 0
					emit(fmt.Sprintf("heartbeat %d %d", q, p), x)
				}
			}
		}
	}
	for _, q := range s.chans {
		c = c || len(q) > 0
		for _, m := range q {
			b = b && (m.age != o.d || o.partial && !s.gst)
		}
	}
	if a && b && c {
		x := begin()
		for i, q := range x.s.chans {
			for j := range q {
				x.s.chans[i][j].age = min(q[j].age+1, o.d)
			}
		}
		for p := range o.n {
			if x.s.timer[p] > 0 {
				x.s.timer[p]--
			}
			for q := range o.n {
				if o.heartbeat && x.s.alive[p] && q != p {
					x.s.silence[p*o.n+q] = min(x.s.silence[p*o.n+q]+1, cap)
				}
			}
		}
		emit("tick", x)
	}
	if o.partial && !s.gst {
		x := begin()
		x.s.gst = true
		x.s.suspicions = 0
		emit("gst", x)
	}
	return out
}

// maxLive is the largest live ID.
func (o *oracle) maxLive(s *oState) int {
	m := 0
	for p := range o.n {
		if s.alive[p] {
			m = max(m, o.ids[p])
		}
	}
	return m
}

func (o *oracle) stable(s *oState) bool {
	for p := range o.n {
		if s.alive[p] && s.elected[p] != o.maxLive(s) {
			return false
		}
	}
	return true
}

func (o *oracle) singleLeader(s *oState) bool {
	leaders := 0
	for p := range o.n {
		if s.alive[p] && s.elected[p] == o.ids[p] {
			leaders++
		}
	}
	return leaders <= 1
}

// oResult is what the oracle's search finds.
type oResult struct {
	states, transitions, discarded int64
	depth                          int
	singleLeaderAt                 int // steps to the first violation; -1: holds
	termination                    bool
}

type oEdge struct {
	to    int
	class string
}

func (o *oracle) search() oResult {
	r := oResult{singleLeaderAt: -1}
	index := map[string]int{}
	var states []*oState
	var edges [][]oEdge
	var fairEnabled [][]string // per state, the fair classes enabled (not discarded)
	add := func(s *oState) (int, bool) {
		k := s.key()
		if i, ok := index[k]; ok {
			return i, false
		}
		index[k] = len(states)
		states = append(states, s)
		return len(states) - 1, true
	}
	add(o.initial())
	level := []int{0}
	if !o.singleLeader(states[0]) {
		r.singleLeaderAt = 0
	}
	for depth := 0; len(level) > 0; depth++ {
		r.depth = depth
		var next []int
		for _, i := range level {
			var out []oEdge
			var enabled []string
			for _, y := range o.successors(states[i]) {
				if y.discarded {
					r.discarded++
					continue
				}
				r.transitions++
				j, fresh := add(y.s)
				if fresh {
					next = append(next, j)
					if r.singleLeaderAt < 0 && !o.singleLeader(y.s) {
						r.singleLeaderAt = depth + 1
					}
				}
				out = append(out, oEdge{j, y.class})
				if y.class != "" && !slices.Contains(enabled, y.class) {
					enabled = append(enabled, y.class)
				}
			}
			for len(edges) <= i {
				edges, fairEnabled = append(edges, nil), append(fairEnabled, nil)
			}
			edges[i], fairEnabled[i] = out, enabled
		}
		level = next
	}
	r.states = int64(len(states))
	r.termination = o.terminates(states, edges, fairEnabled)
	return r
}

// terminates is section 2's Termination: no reachable state outside
// Stable without a fair action enabled, and no fair cycle through a state
// outside Stable. Under weak fairness a strongly connected component with
// an edge inside holds a fair cycle through all its states iff every
// class enabled in all its states is taken by an edge inside it (a walk
// over every inner edge is then fair; otherwise that class stays enabled
// and untaken on every cycle inside).
func (o *oracle) terminates(states []*oState, edges [][]oEdge, fair [][]string) bool {
	for i, s := range states {
		if len(fair[i]) == 0 && !o.stable(s) {
			return false
		}
	}
	for _, comp := range tarjan(len(states), edges) {
		in := map[int]bool{}
		for _, v := range comp {
			in[v] = true
		}
		taken, inner := map[string]bool{}, false
		for _, v := range comp {
			for _, e := range edges[v] {
				if in[e.to] {
					inner = true
					taken[e.class] = true
				}
			}
		}
		if !inner || !slices.ContainsFunc(comp, func(v int) bool { return !o.stable(states[v]) }) {
			continue
		}
		always := slices.Clone(fair[comp[0]])
		for _, v := range comp[1:] {
			always = slices.DeleteFunc(always, func(c string) bool { return !slices.Contains(fair[v], c) })
		}
		if !slices.ContainsFunc(always, func(c string) bool { return !taken[c] }) {
			return false
		}
	}
	return true
}

// tarjan lists the strongly connected components of the graph.
func tarjan(n int, edges [][]oEdge) [][]int {
	index, low := make([]int, n), make([]int, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	var comps [][]int
	next := 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, e := range edges[v] {
			switch {
			case index[e.to] < 0:
				visit(e.to)
				low[v] = min(low[v], low[e.to])
			case on[e.to]:
				low[v] = min(low[v], index[e.to])
			}
		}
		if low[v] == index[v] {
			var comp []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			comps = append(comps, comp)
		}
	}
	for v := range n {
		if index[v] < 0 {
			visit(v)
		}
	}
	return comps
}

// The kernel's timed counts, depth and verdicts (SingleLeader with the
// length of its shortest counterexample, Termination) are the oracle's,
// for Bully and the ring algorithm in small configurations of both timed
// modes: delays 1 and 2, timeouts too short and long enough, crashes,
// restarts, the unreliable and the eventual detector, with and without an
// initial leader.
func TestTimedCountsAgreeWithAnOracle(t *testing.T) {
	type cfg struct {
		algo              string
		n                 int
		timing            model.Timing
		d, t, t2          int // 0: the default
		crashes, restarts int
		initialLeader     bool
		unreliable        bool
		eventual          bool
		falseSuspicions   int
		maxQueue          int
		heartbeat         bool
		hbP, hbTO         int // 0: the default
	}
	cases := []cfg{
		{algo: "bully", n: 2, timing: model.Sync},
		{algo: "bully", n: 2, timing: model.Partial},
		{algo: "bully", n: 2, timing: model.Partial, crashes: 1, initialLeader: true},
		{algo: "bully", n: 2, timing: model.Partial, crashes: 1, restarts: 1, initialLeader: true, unreliable: true},
		{algo: "bully", n: 3, timing: model.Sync},
		{algo: "bully", n: 3, timing: model.Sync, t: 1},
		{algo: "bully", n: 3, timing: model.Sync, t: 2, t2: 1},
		{algo: "bully", n: 3, timing: model.Sync, d: 2},
		{algo: "bully", n: 3, timing: model.Sync, d: 2, t: 3, t2: 2},
		{algo: "bully", n: 3, timing: model.Sync, crashes: 2, initialLeader: true},
		{algo: "bully", n: 3, timing: model.Sync, crashes: 2, initialLeader: true, t: 2},
		{algo: "bully", n: 3, timing: model.Sync, crashes: 1, restarts: 1, initialLeader: true, t: 2, t2: 3},
		{algo: "bully", n: 3, timing: model.Sync, crashes: 2, initialLeader: true, maxQueue: 1},
		{algo: "bully", n: 3, timing: model.Partial, crashes: 1, initialLeader: true, t: 2},
		{algo: "bully", n: 3, timing: model.Partial, d: 2, crashes: 1, initialLeader: true},
		{algo: "bully", n: 2, timing: model.Partial, initialLeader: true, eventual: true},
		{algo: "bully", n: 2, timing: model.Partial, initialLeader: true, eventual: true, falseSuspicions: 3},
		{algo: "bully", n: 2, timing: model.Partial, crashes: 1, restarts: 1, initialLeader: true, eventual: true},
		{algo: "bully", n: 3, timing: model.Partial, crashes: 1, initialLeader: true, t: 2, eventual: true, maxQueue: 1},
		{algo: "ring", n: 2, timing: model.Partial, crashes: 1, initialLeader: true, eventual: true, falseSuspicions: 2},
		{algo: "bully", n: 4, timing: model.Sync, crashes: 3, initialLeader: true},
		{algo: "bully", n: 4, timing: model.Sync, crashes: 3, initialLeader: true, t: 2},
		{algo: "ring", n: 2, timing: model.Sync},
		{algo: "ring", n: 2, timing: model.Partial, d: 2, crashes: 1, restarts: 1},
		{algo: "ring", n: 2, timing: model.Sync, crashes: 1, initialLeader: true},
		{algo: "ring", n: 3, timing: model.Sync},
		{algo: "ring", n: 3, timing: model.Sync, d: 2},
		{algo: "ring", n: 3, timing: model.Sync, crashes: 1, maxQueue: 1},
		{algo: "ring", n: 3, timing: model.Partial, d: 2},
		{algo: "ring", n: 3, timing: model.Partial, maxQueue: 1},
		{algo: "bully", n: 2, timing: model.Sync, initialLeader: true, heartbeat: true, hbTO: 1},
		{algo: "bully", n: 2, timing: model.Sync, d: 2, initialLeader: true, heartbeat: true, hbTO: 2},
		{algo: "bully", n: 3, timing: model.Sync, crashes: 2, initialLeader: true, heartbeat: true},
		{algo: "bully", n: 3, timing: model.Sync, crashes: 2, initialLeader: true, heartbeat: true, hbP: 2},
		{algo: "bully", n: 2, timing: model.Partial, crashes: 1, initialLeader: true, heartbeat: true},
	}
	for _, c := range cases {
		mc := model.Config{N: c.n, Timing: c.timing, Delay: c.d, Timeout: c.t, TimeoutCoord: c.t2, MaxCrashes: c.crashes,
			MaxRestarts: c.restarts, InitialLeader: c.initialLeader, MaxQueue: c.maxQueue}
		if c.unreliable {
			mc.Detector = model.Unreliable
		}
		if c.eventual {
			mc.Detector, mc.FalseSuspicions = model.Eventual, c.falseSuspicions
		}
		if c.heartbeat {
			mc.Detector, mc.HeartbeatPeriod, mc.HeartbeatTimeout = model.Heartbeat, c.hbP, c.hbTO
		}
		name := c.algo + " " + strings.Join(modelArgs(mc), " ")
		t.Run(name, func(t *testing.T) {
			full := mc.WithDefaults()
			o := &oracle{bully: c.algo == "bully", n: c.n, maxCrashes: c.crashes, maxRestarts: c.restarts, maxQueue: full.MaxQueue,
				partial: c.timing == model.Partial, d: full.Delay, t: full.Timeout, t2: full.TimeoutCoord,
				initialLeader: c.initialLeader, unreliable: c.unreliable, eventual: c.eventual, budget: max(c.falseSuspicions, 1),
				heartbeat: c.heartbeat, hbP: full.HeartbeatPeriod, hbTO: full.HeartbeatTimeout}
			for p := range c.n {
				o.ids = append(o.ids, p+1)
			}
			want := o.search()
			rep, err := check.Run(check.Request{Spec: lookup(t, c.algo), Config: mc, Continue: true, Workers: 1, MaxStates: 2_000_000})
			require.NoError(t, err)
			require.True(t, rep.Stats.Complete)
			assert.Equal(t, want.states, rep.Stats.States, "states")
			assert.Equal(t, want.transitions, rep.Stats.Transitions, "transitions")
			assert.Equal(t, want.depth, rep.Stats.Depth, "depth")
			assert.Equal(t, want.discarded, rep.Stats.Discarded, "discarded")
			sl := verdict(t, rep, "SingleLeader")
			if want.singleLeaderAt < 0 {
				assert.Equal(t, check.Holds, sl.Status, "SingleLeader")
			} else if assert.Equal(t, check.Violated, sl.Status, "SingleLeader") {
				assert.Len(t, sl.Trace.Steps, want.singleLeaderAt+1, "the shortest SingleLeader counterexample")
			}
			term := verdict(t, rep, "Termination")
			assert.Equal(t, want.termination, term.Status == check.Holds, "Termination: %s %s", term.Status, term.Summary)
			t.Logf("%d states, %d transitions, depth %d, discarded %d, SingleLeader at %d, Termination %v",
				want.states, want.transitions, want.depth, want.discarded, want.singleLeaderAt, want.termination)
		})
	}
}

// modelArgs names a configuration for a subtest.
func modelArgs(c model.Config) []string {
	args := []string{"n=" + strconv.Itoa(c.N), c.Timing.String()}
	for _, f := range []struct {
		name string
		v    int
	}{{"D", c.Delay}, {"T", c.Timeout}, {"T2", c.TimeoutCoord}, {"crashes", c.MaxCrashes}, {"restarts", c.MaxRestarts}, {"K", c.MaxQueue}, {"FS", c.FalseSuspicions}, {"P", c.HeartbeatPeriod}, {"TO", c.HeartbeatTimeout}} {
		if f.v != 0 {
			args = append(args, f.name+"="+strconv.Itoa(f.v))
		}
	}
	if c.InitialLeader {
		args = append(args, "leader")
	}
	if c.Detector != model.Perfect {
		args = append(args, c.Detector.String())
	}
	return args
}

// Timed searches give the same counts, verdicts and counterexamples at
// any number of workers; a reduction asked for is off, and says why.
func TestTimedSearchSameAtAnyWorkerCount(t *testing.T) {
	for _, c := range []struct {
		algo string
		cfg  model.Config
	}{
		{"bully", model.Config{N: 4, MaxCrashes: 3, InitialLeader: true, Timing: model.Sync, Timeout: 2}},
		{"bully", model.Config{N: 3, MaxCrashes: 1, InitialLeader: true, Timing: model.Partial, Delay: 2}},
		{"ring", model.Config{N: 3, Timing: model.Partial, Delay: 2}},
		{"chang-roberts", model.Config{N: 3, MaxCrashes: 1, Timing: model.Sync, Delay: 2}},
		{"bully", model.Config{N: 4, MaxCrashes: 3, InitialLeader: true, Timing: model.Sync, Delay: 2}},
		{"ring", model.Config{N: 2, MaxCrashes: 1, MaxRestarts: 1, Timing: model.Partial, Delay: 2}},
	} {
		t.Run(c.algo+" "+strings.Join(modelArgs(c.cfg), " "), func(t *testing.T) {
			var first *check.Report
			for _, workers := range []int{1, 2, 4} {
				rep, err := check.Run(check.Request{Spec: lookup(t, c.algo), Config: c.cfg, Continue: true, Workers: workers, Reduce: true, MaxStates: 2_000_000})
				require.NoError(t, err)
				require.True(t, rep.Stats.Complete)
				assert.False(t, rep.Stats.Reduced, "no reduction in a timed mode")
				if first == nil {
					first = rep
					continue
				}
				assert.Equal(t, []int64{first.Stats.States, first.Stats.Transitions, int64(first.Stats.Depth), first.Stats.Discarded},
					[]int64{rep.Stats.States, rep.Stats.Transitions, int64(rep.Stats.Depth), rep.Stats.Discarded}, "%d workers", workers)
				for i, v := range rep.Verdicts {
					w := first.Verdicts[i]
					assert.Equal(t, w.Status, v.Status, "%s at %d workers", v.Name, workers)
					if w.Trace != nil && v.Trace != nil {
						assert.Equal(t, labels(w.Trace), labels(v.Trace), "%s's counterexample at %d workers", v.Name, workers)
					}
				}
			}
			if c.algo == "bully" {
				return // never reduced: not RingLocal
			}
			// A safety check of a ring algorithm would reduce, untimed.
			rep, err := check.Run(check.Request{Spec: lookup(t, c.algo), Config: c.cfg, Properties: []string{"SingleLeader"}, Continue: true, Reduce: true})
			require.NoError(t, err)
			assert.False(t, rep.Stats.Reduced)
			assert.Equal(t, first.Stats.States, rep.Stats.States)
			assert.Equal(t, "a timed mode: a tick ages every channel and counts every timer down at once, a step of every process, which the reduction's soundness argument (steps of one process each) does not cover", rep.ReductionOff)
		})
	}
}

// A timer at 0 whose timeout would overflow a channel stops the clock: the
// state is stuck, and the report marks it as the channel bound's effect.
func TestTimedClockStoppedByTheBound(t *testing.T) {
	rep, err := check.Run(check.Request{Spec: lookup(t, "bully"), Config: model.Config{N: 3, MaxCrashes: 2, InitialLeader: true, Timing: model.Sync, MaxQueue: 1},
		Properties: []string{"Termination"}, Continue: true})
	require.NoError(t, err)
	v := verdict(t, rep, "Termination")
	require.Equal(t, check.Violated, v.Status)
	assert.Equal(t, cex.Stuck, v.Kind)
	assert.True(t, v.Bounded, "a bound effect")
	last := v.File.Steps[len(v.File.Steps)-1].State
	zero := slices.ContainsFunc(last.Processes, func(p model.ProcessSnapshot) bool { return p.Timer != nil && p.Timer.String() == "0" })
	assert.True(t, zero, "a timer at 0 in %s", last)
}
