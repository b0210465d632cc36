// Package model implements the message-passing kernel of
// docs/semantics.md section 1, which turns one algorithm's local handlers
// into a transition system (package ts) for the explorer, and describes
// that system's states and steps as data.
//
// An algorithm is a type with the six methods of Algorithm, and any of the
// optional interfaces beside it (Leaderer, Restarter, Timed, InitiateNamer,
// MsgDescriber, LocalFormatter, RingLocal, MsgTyper, Codec, Propertied),
// which the kernel finds by type assertion. Let the compiler check both:
//
//	var (
//		_ model.Algorithm[Local, Msg] = Algorithm{}
//		_ model.Timed[Local, Msg]     = Algorithm{}
//	)
//
// An optional method that is misspelled, has another signature or sits on
// the pointer receiver of an algorithm given as a value would never be
// called; CheckMethods finds it, and registration (specs.Builder,
// mchecktest) refuses it.
package model

import (
	"fmt"

	"github.com/mcheck/mcheck/ts"
)

// Action is a step of the kernel: ts.Action with the kernel's packing of
// kind, processes and timer (Kind, P, Q, Timer).
type Action ts.Action

// The generic transition-system names, kept here so that algorithms and
// tools written against model need not import ts as well.
type (
	Succ      = ts.Succ
	Batch     = ts.Batch
	Sends     = ts.Sends
	Messenger = ts.Messenger
	Reducer   = ts.Reducer
	System    = ts.System
)

// NoFairness marks a step that belongs to no weak-fairness class.
const NoFairness = ts.NoFairness

// MaxMsgTypes is the most message types a system may name (MsgTyper).
const MaxMsgTypes = ts.MaxMsgTypes

// Expander is what the kernel's systems expand with: a ts.Expander that
// also shows its states and steps as data. It holds scratch memory, so each
// goroutine uses its own (ExpanderOf).
type Expander interface {
	ts.Expander
	// Step is action a taken in state as data; Label renders it.
	Step(state []byte, a ts.Action) StepInfo
	// Snapshot shows a state as processes, channels and counters.
	Snapshot(state []byte) Snapshot
	// Describe is Snapshot(state).String(); Fields is Snapshot(state).Fields().
	Describe(state []byte) string
	Fields(state []byte) []Field
}

// What a kernel's system can do beyond ts.System, by name, so that a
// caller holding a ts.System asks for a capability rather than a method
// set: every *Kernel has them all, a hand-written ts.System may have none.
// ts.StepChecker (CheckSteps), ts.Messenger and ts.Clocked, which the
// engine asks for, are in ts.
type (
	// Configured is a system that says the configuration it was built
	// from (with its defaults filled in).
	Configured interface{ Config() Config }
	// DeterminismChecker looks for nondeterministic handlers in the first
	// states of a search (Kernel.CheckDeterminism).
	DeterminismChecker interface{ CheckDeterminism(limit int) error }
	// Synchronizer is a system with a synchronous schedule of its steps
	// (Kernel.Synchronous), for the measures of the synchronous model.
	Synchronizer interface{ Synchronous() SyncRun }
	// StepChecker is ts.StepChecker (Kernel.CheckSteps).
	StepChecker = ts.StepChecker
	// Kinded names the kinds of step a system can take (Kernel.Kinds).
	Kinded interface{ Kinds() []Kind }
	// Arranged says how many arrangements of IDs, hence initial states,
	// a system has (Kernel.Arrangements).
	Arranged interface{ Arrangements() int }
	// SendCounter says how far its states count the sends
	// (Kernel.SendCap; 0: they do not).
	SendCounter interface{ SendCap() int }
	// Triggerer says which step properties some step taken so far spoke
	// of (Kernel.Triggered), for their vacuity.
	Triggerer interface{ Triggered() uint64 }
)

// The kernel has every capability.
var (
	_ Configured         = (*Kernel[int, int])(nil)
	_ DeterminismChecker = (*Kernel[int, int])(nil)
	_ Synchronizer       = (*Kernel[int, int])(nil)
	_ ts.StepChecker     = (*Kernel[int, int])(nil)
	_ ts.Messenger       = (*Kernel[int, int])(nil)
	_ ts.Clocked         = (*Kernel[int, int])(nil)
	_ Kinded             = (*Kernel[int, int])(nil)
	_ Arranged           = (*Kernel[int, int])(nil)
	_ SendCounter        = (*Kernel[int, int])(nil)
	_ Triggerer          = (*Kernel[int, int])(nil)
)

// Sender is implemented by expanders that say what a step sends (the
// kernel's do): the messages action a sends from state, in the order its
// handler sends them, as data.
type Sender interface {
	Sends(state []byte, a ts.Action) []Send
}

// ExpanderOf returns a new expander of sys that describes its states. A
// ts.System returns only a ts.Expander (Go has no covariant results), so
// tools that show states and steps ask through here.
func ExpanderOf(sys ts.System) (Expander, error) {
	x := sys.NewExpander()
	e, ok := x.(Expander)
	if !ok {
		return nil, fmt.Errorf("expander %T does not describe its states and steps", x)
	}
	return e, nil
}

// Viewer is implemented by expanders of leader-election systems: it
// summarises a state as Procs.
type Viewer interface {
	View(state []byte) Procs
}
