package explore

import (
	"bytes"
	"math"
	"math/rand/v2"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/ts"
)

// plan is what a runner checks and how it chooses.
type plan struct {
	inv, step, goal uint64
	// reach are predicates to find a state of (examples): a run notes the
	// first state of each and goes on; with reachEnds (shortening) the
	// first ends it, as a violation would.
	reach     uint64
	reachEnds bool
	quiet     uint64 // goals that also need no fair step enabled
	// leads are the leads-to (judged with the goals: stuck states with
	// stuck, cycles with cycles); leadMask the predicates they read.
	leads    []LeadsTo
	leadMask uint64
	// cycles: look for fair cycles (there is a goal); stuck: stuck states
	// outside a goal are violations.
	cycles, stuck bool
	depth         int
	sched         Scheduler
	// stopQuiet ends a run at the first state without a fair step after
	// its first step (the explorer's button), instead of making the end
	// one choice among the unfair steps (Walk).
	stopQuiet bool
	measure   bool
	// clocked: tick is the fairness class of the system's ticks
	// (ts.Clocked), which the measures count as time.
	clocked bool
	tick    int32
	kind    func(ts.Action) int
	kinds   int
}

// runFault is a violation a run found at its last position.
type runFault struct {
	kind       cex.Kind
	pred       int
	bounded    bool
	cycleStart int // FairCycle: the position the last state returns to
}

// runner takes runs, one at a time, with its own expander and memory.
// Position i of a run is the state after i steps.
type runner struct {
	p    *plan
	exp  ts.Expander
	lazy ts.LazyExpander
	b    ts.Batch
	init ts.Batch // the initial states, expanded once
	pcg  rand.PCG
	rng  *rand.Rand
	rate float64 // the run's fault rate (Faults)
	// initIdx is the initial state the run started in.
	initIdx int

	// The run, per position: the state (enc[off[i]:off[i+1]]), its
	// fingerprint, the step into it and its fairness class, the
	// predicates that hold in it (the invariants' from the step, the
	// goals' once expanded), whether the bound discarded a fair step of
	// it, and the fair classes enabled in it (en[enOff[i]:enOff[i+1]],
	// once expanded).
	enc   []byte
	off   []int
	fp    []uint64
	act   []ts.Action
	cls   []int32
	props []uint64
	cut   []bool
	en    []int32
	enOff []int
	seen  posIndex // first position of each fingerprint
	// script is followed before any choice (replays, and a walk's path):
	// the next step is script[next] while there is one. With skip, a
	// scripted step that is not enabled is left out (shortening: a step
	// dropped may take later ones with it); without, it ends the run.
	script []ts.Action
	next   int
	skip   bool
	// abort, when set, is polled now and then: true ends the run at once.
	abort func() bool

	// What the run did, for the statistics.
	sent      ts.Sends // sends so far
	ticks     int64    // ticks so far (plan.clocked)
	msgs      msgSamples
	discarded int64
	taken     []int64 // per kind
	enabled   uint64  // kinds enabled, as bits
	bad       []runFault
	hits      []runFault // the reach predicates met, first time each (kind cex.Example)
	hitMask   uint64
	// Per leads-to: the first position from which on its To has not held,
	// where its From holds (-1: none), and the last position where To held.
	armedAt, lastTo []int
	// Scratch of the cycle judgment, per fairness class.
	stamp          uint32
	tookAt, seenAt []uint32
	count          []int32
}

func newRunner(sys ts.System, p *plan) *runner {
	r := &runner{p: p, exp: sys.NewExpander()}
	r.rng = rand.New(&r.pcg)
	if l, ok := r.exp.(ts.LazyExpander); ok {
		r.lazy = l
		r.b.Lazy = true
	}
	r.b.NoStateProps, r.b.StatePropsOnly = p.goal|p.leadMask == 0, p.goal|p.leadMask
	r.armedAt, r.lastTo = make([]int, len(p.leads)), make([]int, len(p.leads))
	r.b.NoSuccProps, r.b.SuccPropsOnly = p.inv|p.reach == 0, p.inv|p.reach
	r.init.NoSuccProps, r.init.SuccPropsOnly = p.inv|p.reach == 0, p.inv|p.reach
	r.exp.Initial(&r.init)
	r.taken = make([]int64, max(p.kinds, 1))
	return r
}

// seed starts the random choices of a run.
func (r *runner) seed(s uint64) {
	r.pcg.Seed(s, splitmix(s^0x5851f42d4c957f2d))
	if r.p.sched == Faults {
		// Log-uniform between 2^-10 and 2^-1.
		r.rate = math.Exp2(-1 - 9*r.rng.Float64())
	}
}

// reset empties the run.
func (r *runner) reset() {
	r.enc, r.off, r.fp, r.act, r.cls, r.props, r.cut = r.enc[:0], r.off[:0], r.fp[:0], r.act[:0], r.cls[:0], r.props[:0], r.cut[:0]
	r.en, r.enOff = r.en[:0], append(r.enOff[:0], 0)
	r.off = append(r.off, 0)
	r.seen.reset()
	r.next = 0
	r.sent, r.ticks, r.msgs, r.discarded, r.enabled, r.bad = ts.Sends{}, 0, msgSamples{}, 0, 0, r.bad[:0]
	r.hits, r.hitMask = r.hits[:0], 0
	for k := range r.armedAt {
		r.armedAt[k], r.lastTo[k] = -1, -1
	}
	clear(r.taken)
}

func (r *runner) len() int           { return len(r.fp) }
func (r *runner) state(i int) []byte { return r.enc[r.off[i]:r.off[i+1]] }
func (r *runner) steps() int         { return r.len() - 1 }
func (r *runner) kindOf(a ts.Action) int {
	if r.p.kind == nil {
		return 0
	}
	return r.p.kind(a)
}

// push appends a position.
func (r *runner) push(state []byte, fp uint64, a ts.Action, fair int32, props uint64) {
	r.enc = append(r.enc, state...)
	r.off = append(r.off, len(r.enc))
	r.fp, r.act, r.cls = append(r.fp, fp), append(r.act, a), append(r.cls, fair)
	r.props, r.cut = append(r.props, props), append(r.cut, false)
}

// start begins a run in initial state j (-1: one chosen at random); it
// returns false when the state violates an invariant (r.bad says which).
func (r *runner) start(j int) bool {
	r.reset()
	if j < 0 {
		j = 0
		if n := len(r.init.Succs); n > 1 {
			j = r.rng.IntN(n)
		}
	}
	r.initIdx = j
	y := &r.init.Succs[j]
	r.push(r.init.State(j), y.FP, y.Action, ts.NoFairness, y.Props)
	r.seen.put(y.FP, 0)
	return r.checkState(y.Props)
}

// checkState records the invariants the last position violates, and the
// reach predicates it meets for the first time.
func (r *runner) checkState(props uint64) bool {
	bad := r.p.inv &^ props
	for p := 0; bad != 0; p, bad = p+1, bad>>1 {
		if bad&1 != 0 {
			r.bad = append(r.bad, runFault{kind: cex.Invariant, pred: p})
		}
	}
	hit := r.p.reach & props &^ r.hitMask
	r.hitMask |= hit
	for p := 0; hit != 0; p, hit = p+1, hit>>1 {
		if hit&1 == 0 {
			continue
		}
		if r.p.reachEnds {
			r.bad = append(r.bad, runFault{kind: cex.Example, pred: p})
		} else {
			r.hits = append(r.hits, runFault{kind: cex.Example, pred: p})
		}
	}
	return len(r.bad) == 0
}

// abortEvery is how many steps pass between polls of runner.abort.
const abortEvery = 1024

// run goes on from the last position until the run ends; ok is false when
// it was aborted, or a script named a step that is not enabled.
func (r *runner) run() (end RunEnd, ok bool) {
	if len(r.bad) > 0 {
		return EndViolation, true
	}
	p, b := r.p, &r.b
	for {
		i := r.len() - 1
		if r.abort != nil && i%abortEvery == abortEvery-1 && r.abort() {
			return 0, false
		}
		r.exp.Expand(r.state(i), b)
		r.cut[i] = b.DiscardedFair > 0
		r.discarded += int64(b.Discarded)
		anyFair := false
		for k := range b.Succs {
			y := &b.Succs[k]
			if y.Fair != ts.NoFairness {
				anyFair = true
				if p.cycles {
					r.en = append(r.en, y.Fair)
				}
			}
			r.enabled |= 1 << r.kindOf(y.Action)
		}
		good := b.Props & p.goal
		if anyFair {
			good &^= p.quiet
		}
		r.props[i] |= good
		r.enOff = append(r.enOff, len(r.en))
		for k, lt := range p.leads {
			switch {
			case b.Props&(1<<lt.To) != 0:
				r.armedAt[k], r.lastTo[k] = -1, i
			case r.armedAt[k] < 0 && b.Props&(1<<lt.From) != 0:
				r.armedAt[k] = i
			}
		}
		if !anyFair {
			if bad := p.goal &^ good; (bad != 0 || r.anyArmed()) && p.stuck {
				for q := 0; bad != 0; q, bad = q+1, bad>>1 {
					if bad&1 != 0 {
						r.bad = append(r.bad, runFault{kind: cex.Stuck, pred: q, bounded: b.DiscardedFair > 0})
					}
				}
				for k, lt := range p.leads {
					if r.armedAt[k] >= 0 {
						r.bad = append(r.bad, runFault{kind: cex.Stuck, pred: lt.To, bounded: b.DiscardedFair > 0})
					}
				}
				return EndViolation, true
			}
			end := EndQuiescent
			if b.Discarded > 0 {
				end = EndStuck
			} else if p.measure {
				r.msgs.add(&r.sent, r.ticks)
			}
			// A quiescent state ends a complete run (sampled above), but
			// the faults left (crashes, restarts, spurious steps) may still
			// lead on: the run goes on with one until none is left.
			switch {
			case r.next < len(r.script):
			case len(b.Succs) == 0:
				return end, true
			case p.stopQuiet && i > len(r.script):
				return end, true
			}
		}
		if i >= p.depth {
			return EndDepth, true
		}
		k := r.choose(b, anyFair, i)
		if k < 0 {
			return 0, false
		}
		if end, done := r.take(b, k); done {
			return end, true
		}
	}
}

// choose picks the step to take from state i, whose expansion b holds:
// the script's, or the scheduler's.
func (r *runner) choose(b *ts.Batch, anyFair bool, i int) int {
	for r.next < len(r.script) {
		a := r.script[r.next]
		r.next++
		for k := range b.Succs {
			if b.Succs[k].Action == a {
				return k
			}
		}
		if !r.skip {
			return -1
		}
	}
	if r.script != nil && r.skip {
		return -1 // a replay ends with its script
	}
	n := len(b.Succs)
	if r.p.sched != Faults || !anyFair {
		return r.rng.IntN(n)
	}
	unfair := 0
	for k := range b.Succs {
		if b.Succs[k].Fair == ts.NoFairness {
			unfair++
		}
	}
	want := unfair > 0 && r.rng.Float64() < r.rate
	if want {
		return nth(b, r.rng.IntN(unfair), true)
	}
	return nth(b, r.rng.IntN(n-unfair), false)
}

// nth is the index of the n-th step of b that is unfair (or fair).
func nth(b *ts.Batch, n int, unfair bool) int {
	for k := range b.Succs {
		if (b.Succs[k].Fair == ts.NoFairness) == unfair {
			if n == 0 {
				return k
			}
			n--
		}
	}
	panic("mcheck: internal error: no such step")
}

// take takes step k of the last position's expansion b and checks it;
// done says the run ended there.
func (r *runner) take(b *ts.Batch, k int) (RunEnd, bool) {
	p := r.p
	y := &b.Succs[k]
	if r.lazy != nil {
		r.lazy.Materialize(b, k)
	}
	r.push(b.State(k), y.FP, y.Action, y.Fair, y.Props&p.inv)
	j := r.len() - 1
	r.taken[r.kindOf(y.Action)]++
	if p.measure {
		r.sent.Add(y.Sent)
		if p.clocked && y.Fair == p.tick {
			r.ticks++
		}
	}
	bad := p.step &^ y.Props
	for q := 0; bad != 0; q, bad = q+1, bad>>1 {
		if bad&1 != 0 {
			r.bad = append(r.bad, runFault{kind: cex.Step, pred: q})
		}
	}
	if !r.checkState(y.Props) {
		return EndViolation, true
	}
	if !p.cycles {
		return 0, false
	}
	c, seen := r.seen.get(y.FP)
	if !seen {
		r.seen.put(y.FP, j)
		return 0, false
	}
	if !bytes.Equal(r.state(c), r.state(j)) {
		return 0, false // a fingerprint collision: another state
	}
	fair, bad2, bounded := r.judge(c, j)
	if !fair {
		return 0, false
	}
	for q := 0; bad2 != 0; q, bad2 = q+1, bad2>>1 {
		if bad2&1 != 0 {
			r.bad = append(r.bad, runFault{kind: cex.FairCycle, pred: q, bounded: bounded, cycleStart: c})
		}
	}
	// A leads-to's run goes round the cycle for good after its premise,
	// its To holding nowhere on the cycle nor after the premise.
	for k, lt := range p.leads {
		if r.armedAt[k] >= 0 && r.lastTo[k] < c {
			r.bad = append(r.bad, runFault{kind: cex.FairCycle, pred: lt.To, bounded: bounded, cycleStart: c})
		}
	}
	switch {
	case len(r.bad) > 0:
		return EndViolation, true
	case r.next < len(r.script) || r.skip:
		return 0, false // a replay goes on to its own cycle
	}
	return EndCycle, true
}

// anyArmed reports whether the run is past some leads-to's premise with
// its To not held since.
func (r *runner) anyArmed() bool {
	for _, a := range r.armedAt {
		if a >= 0 {
			return true
		}
	}
	return false
}

// judge judges the cycle from position c to position j (the same state)
// as the exhaustive check judges one (docs/semantics.md section 2.3): it is fair
// when every fair class enabled in all of its states is taken by one of its
// steps; bad are the goals some state of it is outside, bounded whether
// the bound discarded a fair step of one of its states.
func (r *runner) judge(c, j int) (fair bool, bad uint64, bounded bool) {
	if r.stamp++; r.stamp == 0 {
		clear(r.tookAt)
		clear(r.seenAt)
		r.stamp = 1
	}
	for s := c + 1; s <= j; s++ {
		if cl := r.cls[s]; cl >= 0 {
			r.fit(cl)
			r.tookAt[cl] = r.stamp
		}
	}
	for s := c; s < j; s++ {
		bad |= r.p.goal &^ r.props[s]
		bounded = bounded || r.cut[s]
		for _, cl := range r.en[r.enOff[s]:r.enOff[s+1]] {
			r.fit(cl)
			if r.seenAt[cl] != r.stamp {
				r.seenAt[cl], r.count[cl] = r.stamp, 0
			}
			// count is how many states from c on enable the class, while
			// every one does (a second step of the class in the same state
			// finds it a state ahead).
			if r.count[cl] == int32(s-c) {
				r.count[cl] = int32(s - c + 1)
			}
		}
	}
	// A class enabled in every state of the cycle is enabled in the first.
	for _, cl := range r.en[r.enOff[c]:r.enOff[c+1]] {
		if int(r.count[cl]) == j-c && r.tookAt[cl] != r.stamp {
			return false, bad, bounded
		}
	}
	return true, bad, bounded
}

// fit makes room for class cl in the judgment's scratch.
func (r *runner) fit(cl int32) {
	for int(cl) >= len(r.tookAt) {
		r.tookAt, r.seenAt, r.count = append(r.tookAt, 0), append(r.seenAt, 0), append(r.count, 0)
	}
}

// posIndex maps the fingerprints of a run's states to their first
// positions: open addressing, emptied between runs by a generation stamp.
type posIndex struct {
	keys []uint64
	vals []int32
	gens []uint32
	gen  uint32
	n    int
	mask uint64
}

func (x *posIndex) reset() {
	x.n = 0
	if x.gen++; x.gen == 0 {
		clear(x.gens)
		x.gen = 1
	}
	if x.keys == nil {
		x.alloc(1 << 10)
	}
}

func (x *posIndex) alloc(size int) {
	x.keys, x.vals, x.gens = make([]uint64, size), make([]int32, size), make([]uint32, size)
	x.mask = uint64(size - 1)
	if x.gen == 0 {
		x.gen = 1
	}
}

func (x *posIndex) get(fp uint64) (int, bool) {
	for i := fp & x.mask; ; i = (i + 1) & x.mask {
		if x.gens[i] != x.gen {
			return 0, false
		}
		if x.keys[i] == fp {
			return int(x.vals[i]), true
		}
	}
}

// put adds fp at position pos; fp must not be there.
func (x *posIndex) put(fp uint64, pos int) {
	if 2*(x.n+1) > len(x.keys) {
		keys, vals, gens, gen := x.keys, x.vals, x.gens, x.gen
		x.alloc(2 * len(keys))
		x.n = 0
		for i := range keys {
			if gens[i] == gen {
				x.put(keys[i], int(vals[i]))
			}
		}
	}
	i := fp & x.mask
	for x.gens[i] == x.gen {
		i = (i + 1) & x.mask
	}
	x.keys[i], x.vals[i], x.gens[i] = fp, int32(pos), x.gen
	x.n++
}
