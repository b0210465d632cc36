package model

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"

	"github.com/mcheck/mcheck/ts"
)

// A model checker needs handlers that are functions of their inputs: the
// same step from the same state must give the same successor, or the
// search and the replay of its counterexample see different systems. The
// usual ways a handler fails that are the algorithm's, not mcheck's: it
// changes a slice or map of the old state in place (the kernel copies a
// Local by value, which shares a slice's array and a map), it keeps state
// in package-level variables, or it lets map iteration order decide what
// it does. CheckSteps finds them by running steps again.

// NondeterminismError says which step of the algorithm is not a function
// of its inputs, and how it showed.
type NondeterminismError struct {
	// Step is the step's label ("deliver p1→p2 ELECTION(1)").
	Step string
	// Changed: the step changed the state it started from (the other
	// case: running it again gave another successor, or Enabled differs).
	Changed bool
	// Field is the field that differs ("p2.known"), Before and After its
	// two values, as text; Field is "" when the states differ only in how
	// they are encoded.
	Field, Before, After string
	// Enabled: the step was enabled in one expansion of the state and not
	// in the other (a guard that is not a function of its inputs).
	Enabled bool
}

func (e *NondeterminismError) Error() string {
	what := ""
	switch {
	case e.Enabled:
		what = fmt.Sprintf("step %q is enabled in one expansion of a state and not in another", e.Step)
	case e.Changed:
		what = fmt.Sprintf("step %q changed the state it started from", e.Step)
	default:
		what = fmt.Sprintf("step %q, taken twice from the same state, gave two different successors", e.Step)
	}
	switch {
	case e.Field != "" && e.Changed:
		what += fmt.Sprintf(" (%s was %s and is %s after the step)", e.Field, e.Before, e.After)
	case e.Field != "":
		what += fmt.Sprintf(" (%s is %s once and %s the other time)", e.Field, e.Before, e.After)
	}
	return "the algorithm is not a function of its inputs: " + what +
		"; the usual causes: a handler that changes a slice or map of the old local state in place (copy it before changing it: the kernel copies a Local by value, and the copy shares the slice's array or the map), " +
		"package-level variables, or a loop over a map deciding what to send"
}

// CheckSteps expands state as a search does, then takes each of its steps
// again, alone, from a fresh decoding of state, twice: a step that changes
// the state it started from, or gives a successor other than the search's
// or than the time before, is a NondeterminismError. It also expands state
// a second time and compares the steps enabled.
func (k *Kernel[L, M]) CheckSteps(state []byte) error {
	_, err := k.checkSteps(k.probeExpander(), k.probeExpander(), state, nil)
	return err
}

// CheckDeterminism runs CheckSteps on the first limit states of a
// breadth-first search from the initial states (a cheap look before the
// search, where most handlers show a fault within a few hundred states).
func (k *Kernel[L, M]) CheckDeterminism(limit int) error {
	e1, e2 := k.probeExpander(), k.probeExpander()
	var b Batch
	e1.Initial(&b)
	seen := map[string]bool{}
	var queue [][]byte
	push := func(b *Batch) {
		for j := range b.Succs {
			if s := b.State(j); !seen[string(s)] && len(seen) < limit {
				seen[string(s)] = true
				queue = append(queue, slices.Clone(s))
			}
		}
	}
	push(&b)
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if _, err := k.checkSteps(e1, e2, s, &b); err != nil {
			return err
		}
		push(&b)
	}
	return nil
}

// checkSteps is CheckSteps with its expanders; b (or a batch of its own
// when nil) is left with the first expansion of state.
func (k *Kernel[L, M]) checkSteps(e1, e2 *expander[L, M], state []byte, b *Batch) (*Batch, error) {
	if b == nil {
		b = &Batch{}
	}
	e1.Expand(state, b)
	var again Batch
	e2.Expand(state, &again)
	label := func(a Action) string { return e2.Label(state, ts.Action(a)) }
	// The same steps enabled both times, in the same order.
	for j := range max(len(b.Succs), len(again.Succs)) {
		switch {
		case j >= len(b.Succs):
			return b, &NondeterminismError{Step: label(Action(again.Succs[j].Action)), Enabled: true}
		case j >= len(again.Succs) || b.Succs[j].Action != again.Succs[j].Action:
			return b, &NondeterminismError{Step: label(Action(b.Succs[j].Action)), Enabled: true}
		}
	}
	// Each step alone, from a fresh decoding: first whether it changes
	// the state it starts from (then later steps of an expansion start
	// elsewhere), then whether it gives the search's successor, twice.
	alone := func(a Action) (succ, from []byte) {
		e2.load(state)
		e2.sync()
		e2.apply(a)
		// cur's local states numbered again from their values: a handler
		// that wrote into one (a map it shares with its copy) changed
		// the value and not the number.
		for p := range e2.cur.local {
			e2.settle(&e2.cur, p)
		}
		return e2.encode(nil, &e2.nxt), e2.encode(nil, &e2.cur)
	}
	for j := range b.Succs {
		a := Action(b.Succs[j].Action)
		if _, from := alone(a); !bytes.Equal(from, state) {
			return b, k.differ(&NondeterminismError{Step: label(a), Changed: true}, state, from)
		}
	}
	for j := range b.Succs {
		a := Action(b.Succs[j].Action)
		first, _ := alone(a)
		if !bytes.Equal(first, b.State(j)) {
			return b, k.differ(&NondeterminismError{Step: label(a)}, b.State(j), first)
		}
		if second, _ := alone(a); !bytes.Equal(second, first) {
			return b, k.differ(&NondeterminismError{Step: label(a)}, first, second)
		}
	}
	return b, nil
}

// differ names the first field in which states x and y differ: a field
// of a process's Local as Go names it ("p2.Seen"), else a field of the
// states' snapshots (a channel, a counter).
func (k *Kernel[L, M]) differ(err *NondeterminismError, x, y []byte) error {
	ex, ey := k.probeExpander(), k.probeExpander()
	wx, wy := ex.load(x), ey.load(y)
	names := ex.Snapshot(x).Processes
	for p := range wx.local {
		lx, ly := reflect.ValueOf(wx.local[p]), reflect.ValueOf(wy.local[p])
		if reflect.DeepEqual(lx.Interface(), ly.Interface()) {
			continue
		}
		err.Field, err.Before, err.After = names[p].Name()+".state", fmt.Sprintf("%+v", lx), fmt.Sprintf("%+v", ly)
		if lx.Kind() == reflect.Struct {
			for i := range lx.NumField() {
				if fx, fy := lx.Field(i), ly.Field(i); lx.Type().Field(i).IsExported() && !reflect.DeepEqual(fx.Interface(), fy.Interface()) {
					err.Field, err.Before, err.After = names[p].Name()+"."+lx.Type().Field(i).Name, fmt.Sprintf("%v", fx), fmt.Sprintf("%v", fy)
					break
				}
			}
		}
		return err
	}
	fx, fy := ex.Snapshot(x).Fields(), ey.Snapshot(y).Fields()
	find := func(fs []Field, name string) Value {
		for _, f := range fs {
			if f.Name == name {
				return f.Value
			}
		}
		return Seq() // a missing channel is empty
	}
	for _, fs := range [][]Field{fx, fy} {
		for _, f := range fs {
			if vx, vy := find(fx, f.Name), find(fy, f.Name); !vx.Equal(vy) {
				err.Field, err.Before, err.After = f.Name, vx.String(), vy.String()
				return err
			}
		}
	}
	return err
}

// probeExpander is an expander that runs every handler (no step memo), so
// that running a step again runs its handler again.
func (k *Kernel[L, M]) probeExpander() *expander[L, M] {
	e := k.newExpander()
	e.noMemo = true
	return e
}
