package explore

import (
	"context"
	"fmt"
	"slices"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/ts"
)

// A random run that violates a property is mostly steps that have nothing
// to do with it. Before it is reported it is shortened by delta debugging
// (Zeller's ddmin, complements only): drop a chunk of steps, replay what
// is left from the same initial state (a step is its action: "deliver
// p2→p3" takes whatever message heads that channel then), and keep the
// shorter run when it still violates the same property in the same way;
// chunks halve until no single step can go. A replay that violates earlier
// is cut there. A lasso stays a lasso: its replay must close a fair cycle
// through a state outside the goal, judged as the run judged its own. It
// is deterministic, so the counterexample depends on the run alone.

// maxShortenSteps bounds the steps that shortening one violation replays
// in all; past it the run is reported as short as it got.
const maxShortenSteps = 4_000_000

type shortener struct {
	sys ts.System
	p   plan // the simulation's, for the depth and kinds
	ctx context.Context
}

func newShortener(sys ts.System, p plan, ctx context.Context) *shortener {
	return &shortener{sys: sys, p: p, ctx: ctx}
}

// violation shortens f, replays it into a trace and says how it was found.
func (sh *shortener) violation(f *foundRun) (*Violation, FoundBy, error) {
	by := FoundBy{Run: f.run, RunSeed: f.seed, RawSteps: len(f.acts) - 1}
	r := sh.runnerFor(f.runFault)
	script := f.acts[1:]
	if _, _, ok := sh.test(r, f, script); !ok {
		return nil, by, fmt.Errorf("internal error: run %d does not violate predicate %d again when replayed", f.run, f.pred)
	}
	script, by.Replays = sh.shorten(r, f, script)
	got, _, ok := sh.test(r, f, script)
	if !ok {
		return nil, by, fmt.Errorf("internal error: the shortened run %d does not violate predicate %d", f.run, f.pred)
	}
	script = slices.Clone(r.act[1:])
	cs := -1
	if f.kind == cex.FairCycle {
		cs = got.cycleStart
	}
	tr, err := traceOf(sh.sys, f.init, script, cs)
	if err != nil {
		return nil, by, err
	}
	if lt, ok := leadsToOf(sh.p.leads, f.pred); ok && (f.kind == cex.Stuck || f.kind == cex.FairCycle) {
		if err := lt.mark(&tr); err != nil {
			return nil, by, err
		}
	}
	return &Violation{Kind: f.kind, Predicate: f.pred, Bounded: got.bounded, Trace: tr}, by, nil
}

// runnerFor is a runner that checks only what f violates.
func (sh *shortener) runnerFor(f runFault) *runner {
	p := plan{depth: sh.p.depth, kinds: 1}
	bit := uint64(1) << f.pred
	if lt, ok := leadsToOf(sh.p.leads, f.pred); ok && (f.kind == cex.Stuck || f.kind == cex.FairCycle) {
		p.leads, p.leadMask = []LeadsTo{lt}, 1<<lt.From|1<<lt.To
		p.stuck, p.cycles = f.kind == cex.Stuck, f.kind == cex.FairCycle
		r := newRunner(sh.sys, &p)
		r.skip = true
		return r
	}
	switch f.kind {
	case cex.Invariant:
		p.inv = bit
	case cex.Step:
		p.step = bit
	case cex.Stuck:
		p.goal, p.stuck = bit, true
	case cex.FairCycle:
		p.goal, p.cycles = bit, true
	case cex.Example:
		p.reach, p.reachEnds = bit, true
	}
	p.quiet = sh.p.quiet & p.goal
	r := newRunner(sh.sys, &p)
	r.skip = true
	return r
}

// test replays script from f's initial state, leaving out the steps that
// are not enabled: ok when it violates what f does, got being that
// violation and used the steps it took to (r.act[1:]).
func (sh *shortener) test(r *runner, f *foundRun, script []ts.Action) (got runFault, used int, ok bool) {
	r.script, r.p.depth = script, len(script)
	end, done := EndViolation, true
	if r.start(f.init) {
		end, done = r.run()
	}
	if !done || end != EndViolation {
		return got, r.steps(), false
	}
	for _, b := range r.bad {
		if b.kind == f.kind && b.pred == f.pred {
			return b, r.steps(), true
		}
	}
	return got, r.steps(), false
}

// shorten is ddmin over the steps of script; it returns the shortest run
// found and how many replays it took.
func (sh *shortener) shorten(r *runner, f *foundRun, script []ts.Action) ([]ts.Action, int) {
	replays, replayed := 0, 0
	var cand []ts.Action
	for n := 2; len(script) >= 2; {
		chunk := (len(script) + n - 1) / n
		reduced := false
		for lo := 0; lo < len(script); {
			if replayed > maxShortenSteps || sh.ctx.Err() != nil {
				return script, replays
			}
			hi := min(lo+chunk, len(script))
			cand = append(append(cand[:0], script[:lo]...), script[hi:]...)
			_, used, ok := sh.test(r, f, cand)
			replays++
			replayed += used
			if ok {
				script = slices.Clone(r.act[1:])
				reduced = true
				continue // the next chunk is now at lo
			}
			lo = hi
		}
		switch {
		case reduced:
			n = max(n-1, 2)
		case chunk == 1:
			return script, replays
		default:
			n = min(2*n, len(script))
		}
	}
	return script, replays
}

// traceOf replays script from initial state init through the transition
// function into a trace, every predicate of every state evaluated.
func traceOf(sys ts.System, init int, script []ts.Action, cycleStart int) (Trace, error) {
	exp := sys.NewExpander()
	var b ts.Batch
	exp.Initial(&b)
	if init >= len(b.Succs) {
		return Trace{}, fmt.Errorf("internal error: no initial state %d among %d", init, len(b.Succs))
	}
	steps := []Step{{Action: b.Succs[init].Action, State: slices.Clone(b.State(init)), Props: b.Succs[init].Props}}
	for _, a := range script {
		prev := steps[len(steps)-1].State
		exp.Expand(prev, &b)
		j := slices.IndexFunc(b.Succs, func(x ts.Succ) bool { return x.Action == a })
		if j < 0 {
			return Trace{}, fmt.Errorf("internal error: replay: action %#x not enabled", uint32(a))
		}
		steps = append(steps, Step{
			Action: a, Label: exp.Label(prev, a),
			State: slices.Clone(b.State(j)), Props: b.Succs[j].Props, Sent: b.Succs[j].Sent,
		})
	}
	t := Trace{Steps: steps, CycleStart: -1}
	t.CycleStart = cycleStart
	return t, nil
}
