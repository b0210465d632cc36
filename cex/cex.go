// Package cex names the kinds of run a check reports: counterexamples, the
// examples of Sometimes properties and the witness runs of measures. The
// explorer finds them, check reports them, trace files record them and the
// renderers describe them, all with this one type; a file spells a kind as
// its String.
package cex

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is the kind of a reported run. The zero Kind is none.
type Kind uint8

const (
	// Invariant: the last state breaks an invariant.
	Invariant Kind = iota + 1
	// Step: the last step breaks a step property.
	Step
	// Stuck: the last state is outside the goal and has no fair step; the
	// system stops there for good.
	Stuck
	// FairCycle: the steps from the cycle start on repeat forever, fairly,
	// without reaching the goal for good.
	FairCycle
	// Example is no counterexample: a run of a Sometimes property to a state
	// where its predicate holds.
	Example
	// Witness: a run of a measure (--complexity) that attains a count.
	Witness
	// Lasso: a measure's witness whose cycle makes the count unbounded.
	Lasso

	numKinds = iota + 1
)

// about is what each kind is called and how each rendering describes it.
var about = [numKinds]struct {
	name string // in files (trace, ITF, JSON reports)
	text string // the heading of a text trace
	// chart describes the kind in a chart's title: for a counterexample or
	// an example, after the property; for a witness, as the run's name.
	chart string
}{
	Invariant: {"invariant", "counterexample", "the last state breaks the invariant"},
	Step:      {"step", "counterexample (ends in the step that breaks it)", "the last step breaks the step property"},
	Stuck:     {"stuck", "counterexample (ends in a stuck state)", "ends in a stuck state"},
	FairCycle: {"fair-cycle", "counterexample (a lasso: a prefix, then a cycle repeated forever)", "a lasso (a prefix, then a cycle repeated forever)"},
	Example:   {"example", "example (a shortest run to a state where it holds; not a violation)", "an example (a shortest run to a state where it holds; not a violation)"},
	Witness:   {"witness", "witness run", "witness run"},
	Lasso:     {"unbounded-lasso", "witness (a lasso: a prefix, then a cycle that sends and can be repeated at will)", "witness: a lasso (a prefix, then a cycle that sends and can be repeated at will)"},
}

// Kinds are all the kinds, in the order of their values.
var Kinds = []Kind{Invariant, Step, Stuck, FairCycle, Example, Witness, Lasso}

// String is the kind's name in files: "invariant", "fair-cycle", ...; ""
// for no kind.
func (k Kind) String() string {
	if k >= numKinds {
		return "kind(" + strconv.Itoa(int(k)) + ")"
	}
	return about[k].name
}

// Text is the heading of a text trace of this kind ("counterexample (ends
// in a stuck state)").
func (k Kind) Text() string {
	if k >= numKinds {
		return k.String()
	}
	return about[k].text
}

// Chart describes the kind in a chart's title ("ends in a stuck state").
func (k Kind) Chart() string {
	if k >= numKinds {
		return k.String()
	}
	return about[k].chart
}

// Witnessing reports whether k is a measure's run, which claims nothing of
// a property.
func (k Kind) Witnessing() bool { return k == Witness || k == Lasso }

// Cyclic reports whether a run of kind k ends in a cycle (a lasso).
func (k Kind) Cyclic() bool { return k == FairCycle || k == Lasso }

// Parse is the kind named s (as String spells it).
func Parse(s string) (Kind, error) {
	for _, k := range Kinds {
		if about[k].name == s {
			return k, nil
		}
	}
	return 0, &UnknownError{Name: s}
}

// UnknownError is a name that is no kind.
type UnknownError struct{ Name string }

func (e *UnknownError) Error() string {
	q := make([]string, len(Kinds))
	for i, k := range Kinds {
		q[i] = strconv.Quote(k.String())
	}
	return fmt.Sprintf("kind %q is none of %s", e.Name, strings.Join(q, ", "))
}

// MarshalText spells k as String does (no kind as "").
func (k Kind) MarshalText() ([]byte, error) {
	if k >= numKinds {
		return nil, fmt.Errorf("no kind of run has the value %d", uint8(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText reads a kind as String spells it ("" as no kind).
func (k *Kind) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*k = 0
		return nil
	}
	got, err := Parse(string(b))
	if err != nil {
		return err
	}
	*k = got
	return nil
}
