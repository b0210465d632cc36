package model

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// PropertyKind says how a property's predicate is checked.
type PropertyKind uint8

const (
	// Invariant: Holds is true in every reachable state.
	Invariant PropertyKind = iota
	// StepProperty: Step is true of every step (state, action, next state).
	StepProperty
	// EventuallyAlways is <>[]Holds under weak fairness
	// (docs/semantics.md sections 2.3 and 2.4): no reachable state outside
	// Holds is stuck (no fair step enabled), and no weakly fair cycle
	// passes a state outside Holds.
	EventuallyAlways
	// Sometimes is reachability: some reachable state satisfies Holds.
	// The report gives a shortest run to one (an example, not a
	// violation), or says that none is reachable after a complete search.
	Sometimes
	// LeadsTo is From ~> Holds under the weak fairness of
	// EventuallyAlways: from every reachable state where From holds,
	// every fair run reaches a state where Holds holds. A violation is a
	// state where From holds, then a fair run on which Holds never does:
	// a stuck state or a fair cycle, reached through states outside Holds.
	LeadsTo
	// Premise is the From of a LeadsTo as a predicate of its own, which
	// Predicates adds for the kernel to evaluate; it is no property to
	// declare.
	Premise
)

var propertyKindNames = [...]string{"invariant", "step", "eventually-always", "sometimes", "leads-to", "premise"}

func (k PropertyKind) String() string {
	if int(k) < len(propertyKindNames) {
		return propertyKindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Property is a named claim about every run of an algorithm, read from a
// typed view of the whole global state. The kernel evaluates the selected
// properties on every generated state (or step); the explorer sees only
// their truth values.
type Property[L, M any] struct {
	Name string
	Kind PropertyKind
	// Doc says in one line what the property claims, for --check list.
	Doc string
	// Holds is the predicate of an Invariant, of an EventuallyAlways, of
	// a Sometimes (the state to reach), and the Q of a LeadsTo.
	Holds func(v *View[L, M]) bool
	// Goal, optional, names the predicate of an EventuallyAlways
	// (the standard liveness property's is "Stable"), for views that show it state by state,
	// and the Holds of a LeadsTo.
	Goal string
	// From is the P of a LeadsTo (P ~> Holds): the states from which
	// every fair run must reach Holds. FromName, optional, names it
	// ("LeaderCrashed").
	From     func(v *View[L, M]) bool
	FromName string
	// Quiet, for an EventuallyAlways, adds to Holds that no fair step is
	// enabled in the state: what the transition system knows and the
	// view does not show (the standard Quiescent).
	Quiet bool
	// Step is the predicate of a StepProperty: a is the action that leads
	// from before to after.
	Step func(before *View[L, M], a Action, after *View[L, M]) bool
	// When, optional, is the antecedent of a StepProperty: whether a step
	// is one the property speaks of ("a step that sends an ELECTION").
	// When no step of a finished search is one, the report says that the
	// property holds vacuously. Without When every step is one.
	When func(before *View[L, M], a Action, after *View[L, M]) bool
	// Explain, optional, says in one line what goes wrong in a
	// counterexample; a generic sentence is used without it.
	Explain func(f *Failure[L, M]) string
	// Groups are words that select the property along with others on
	// the command line ("safety").
	Groups []string
	// Optional properties are checked only when asked for by name or
	// group; the others are checked by default ("all") and every report
	// lists them.
	Optional bool
	// ElectedOnly promises that the predicate reads only who is alive,
	// the IDs and the elected values: what partial-order reduction keeps
	// visible. Without the promise the reduction is switched off.
	ElectedOnly bool
	// CountSends, when positive, says that the predicate reads the sends
	// counted since the initial state (View.Sent, SentOf, Lost), and how
	// far it needs them counted: each count is exact up to CountSends and
	// stays at CountSends from there on (so "at most B messages" needs
	// B+1). The counts are then part of the state, up to the largest
	// CountSends of the properties checked: states that differ only in
	// what was sent become distinct, and there are more of them. At most
	// 65535.
	CountSends int
	// CountTypes, with CountSends, names the message types (of the
	// algorithm's MsgTypes) whose sends the predicate reads (SentOf):
	// only those are counted then, so that other messages (heartbeats)
	// do not make states distinct. Empty: every type, and the lost. A
	// check counts what its properties count together.
	CountTypes []string
	// premise is, in a list from Predicates, the index of a LeadsTo's
	// From; ofLeadsTo marks a Premise that Predicates made.
	premise   int
	ofLeadsTo bool
}

// PropertyInfo is a property without its predicates: what lists and
// reports need.
type PropertyInfo struct {
	Name        string
	Kind        PropertyKind
	Doc         string
	Groups      []string
	Optional    bool
	ElectedOnly bool
	CountSends  int
	CountTypes  []string
	Goal        string
	FromName    string
	Quiet       bool
	// Premise is, for a LeadsTo in a system, the index of the predicate
	// that is its From (see Predicates); 0 otherwise (a premise always
	// comes after the properties).
	Premise int
}

// Info describes p.
func (p Property[L, M]) Info() PropertyInfo {
	return PropertyInfo{Name: p.Name, Kind: p.Kind, Doc: p.Doc, Groups: p.Groups, Optional: p.Optional, ElectedOnly: p.ElectedOnly, CountSends: p.CountSends, CountTypes: p.CountTypes, Goal: p.Goal,
		FromName: p.FromName, Quiet: p.Quiet, Premise: p.premise}
}

// Predicates is what a system evaluates for props: predicate i is
// props[i], and after them come the From of each LeadsTo, in order, as
// predicates of kind Premise (each LeadsTo's Info().Premise is its index).
func Predicates[L, M any](props []Property[L, M]) []Property[L, M] {
	out := slices.Clone(props)
	for i := range props {
		if p := &props[i]; p.Kind == LeadsTo && p.From != nil {
			out[i].premise = len(out)
			out = append(out, Property[L, M]{
				Name: p.Name + ":premise", Kind: Premise, Doc: "the premise (From) of " + p.Name,
				Holds: p.From, ElectedOnly: p.ElectedOnly, CountSends: p.CountSends, CountTypes: p.CountTypes, Optional: true, ofLeadsTo: true,
			})
		}
	}
	return out
}

// AnyProperty is a Property of any local state and message type (for
// configurations that are not generic, like mchecktest.Config).
type AnyProperty interface{ Info() PropertyInfo }

// Propertied is implemented by algorithms that declare properties of their
// own, next to their handlers.
type Propertied[L, M any] interface {
	Properties() []Property[L, M]
}

func (p *Property[L, M]) validate() error {
	switch {
	case p.Name == "":
		return fmt.Errorf("a property has no name")
	case p.Kind == StepProperty && p.Step == nil:
		return fmt.Errorf("step property %s has no Step predicate", p.Name)
	case p.Kind != StepProperty && p.Holds == nil:
		return fmt.Errorf("%s %s has no Holds predicate", p.Kind, p.Name)
	case p.Kind == LeadsTo && p.From == nil:
		return fmt.Errorf("leads-to %s has no From predicate (the P of P ~> Holds)", p.Name)
	case p.Kind == Premise && !p.ofLeadsTo:
		return fmt.Errorf("property %s: kind premise is mcheck's own; declare a LeadsTo with a From predicate", p.Name)
	case p.Quiet && p.Kind != EventuallyAlways:
		return fmt.Errorf("property %s: Quiet goes with an eventually-always property, not a %s", p.Name, p.Kind)
	case p.CountSends < 0:
		return fmt.Errorf("property %s: CountSends %d is negative: 0 reads no sends, B+1 counts them far enough for a bound of B", p.Name, p.CountSends)
	case p.CountSends > maxSendCap:
		return fmt.Errorf("property %s: CountSends %d does not fit the state encoding: count up to %d at most", p.Name, p.CountSends, maxSendCap)
	case len(p.CountTypes) > 0 && p.CountSends == 0:
		return fmt.Errorf("property %s: CountTypes names the message types to count, but CountSends is 0: set CountSends to how far they are counted", p.Name)
	case p.CountSends > 0 && p.ElectedOnly:
		return fmt.Errorf("property %s: ElectedOnly promises that it reads only liveness, IDs and elected values, and CountSends that it reads the sends: drop ElectedOnly", p.Name)
	case p.Kind > Premise:
		return fmt.Errorf("property %s: unknown kind %d", p.Name, p.Kind)
	}
	return nil
}

// Failure is what a property's Explain sees of a counterexample (or of
// the example of a Sometimes).
type Failure[L, M any] struct {
	// Steps is the number of steps from the initial state to State (for
	// a lasso, to the state where the cycle starts).
	Steps int
	// State is the state that violates an invariant, the state after the
	// offending step, the stuck state, the first state of the cycle, or
	// the state a Sometimes example reaches.
	State *View[L, M]
	// Before, Action and Label are the offending step of a step property.
	Before *View[L, M]
	Action Action
	Label  string
	// Stuck: State has no fair step enabled (EventuallyAlways, LeadsTo).
	Stuck bool
	// Cycle describes a fair cycle (EventuallyAlways, LeadsTo); nil otherwise.
	Cycle *Cycle
	// PremiseStep is, for a LeadsTo, the step after which From held (0:
	// the initial state), and Premise that state; nil otherwise.
	PremiseStep int
	Premise     *View[L, M]
}

// Cycle is what the report knows about a fair cycle of a lasso.
type Cycle struct {
	Steps int
	// Orphan is a message of a crashed process delivered in the cycle
	// ("ELECTION(9)") and OrphanID that process's ID; "" if none.
	Orphan   string
	OrphanID int
	// Unreliable is a step of the unreliable detector in the cycle (a false
	// suspicion or an early timeout, "suspect p3"); "" if none.
	Unreliable string
}

// Evidence is a counterexample with states as encodings, for systems that
// explain their properties (PropertySystem).
type Evidence struct {
	Steps  int
	State  []byte
	Before []byte // with a step: the state before Action
	Action Action
	Stuck  bool
	Cycle  *Cycle
	// Premise, for a LeadsTo, is the state where From held, after
	// PremiseStep steps.
	Premise     []byte
	PremiseStep int
}

// PropertySystem is implemented by systems whose predicates are properties
// (the kernel): predicate i is property i.
type PropertySystem interface {
	Properties() []PropertyInfo
	// Explain renders the counterexample of property i in one line.
	Explain(i int, ev Evidence) string
}

// View is what a property sees of a global state: every process's liveness,
// ID and local state, every channel's messages, and the fault counters. It
// is valid only during the predicate call; do not modify what it returns.
type View[L, M any] struct {
	k *Kernel[L, M]
	w *world[L, M]
}

// N is the number of processes, live or not.
func (v *View[L, M]) N() int { return v.k.n }

// ID is the ID of position p.
func (v *View[L, M]) ID(p int) int { return v.lay().ids[p] }

// lay is the arrangement of IDs of the state (several with Config.Perm).
func (v *View[L, M]) lay() *layout { return &v.k.layouts[v.w.lay] }

// Alive reports whether position p is live.
func (v *View[L, M]) Alive(p int) bool { return v.w.alive&(1<<p) != 0 }

// Local is the local state of position p (crashed processes hold Init()).
func (v *View[L, M]) Local(p int) *L { return &v.w.local[p] }

// Elected is the elected value of position p (0 means ⊥).
func (v *View[L, M]) Elected(p int) int { return v.k.alg.Elected(&v.w.local[p]) }

// Leader reports leader(p): p is live and has elected itself.
func (v *View[L, M]) Leader(p int) bool { return v.Alive(p) && v.Elected(p) == v.ID(p) }

// PosOf is the position of the process with ID id, or -1.
func (v *View[L, M]) PosOf(id int) int { return v.lay().posOf(id) }

// AliveID reports whether a process with ID id is live (with duplicate IDs,
// --anonymous, some process that carries it).
func (v *View[L, M]) AliveID(id int) bool { return v.lay().aliveID(v.w.alive, id) }

// Chan is chan(from, to), head first. The slice is valid during the
// property's call; do not change it.
func (v *View[L, M]) Chan(from, to int) []M { return v.k.chanMsgs(v.w, from*v.k.n+to) }

// Crashes and Restarts count the faults so far.
func (v *View[L, M]) Crashes() int  { return v.w.crashes }
func (v *View[L, M]) Restarts() int { return v.w.restarts }

// Sent is the number of messages sent since the initial state (docs/semantics.md
// section 5: appended or lost), SentOf those of one message type (a name
// of the algorithm's MsgTypes, "MSG" without them), Lost those lost (sent
// to a crashed process, or emptied out of its channels by its crash). Each
// stops at the kernel's cap, the largest Property.CountSends of the
// properties checked: a property that reads them declares CountSends.
func (v *View[L, M]) Sent() int {
	c := v.k.counting()
	if v.k.shape.only != 0 {
		panic(&UncountedError{What: "every send (View.Sent)", Counted: v.k.countedTypes()})
	}
	return v.w.sent.total(len(v.k.types), c)
}

func (v *View[L, M]) SentOf(msgType string) int {
	v.k.counting()
	t := slices.Index(v.k.types, msgType)
	if t < 0 {
		panic(&UnknownMsgTypeError{Type: msgType, Types: v.k.types})
	}
	if o := v.k.shape.only; o != 0 && o&(1<<t) == 0 {
		panic(&UncountedError{What: "the sends of " + msgType, Counted: v.k.countedTypes()})
	}
	return v.w.sent.count(t)
}

// UnknownMsgTypeError is a property that reads the sends of a message type
// (View.SentOf) that the algorithm does not name; raised as a panic from
// inside the search, which check.Run returns as an error.
type UnknownMsgTypeError struct {
	Type  string
	Types []string // the algorithm's (Kernel.MsgTypes)
}

func (e *UnknownMsgTypeError) Error() string {
	return fmt.Sprintf("a property reads the sends of message type %q, but the algorithm's types are %s: name one of them in SentOf", e.Type, strings.Join(e.Types, ", "))
}

// UncountedError is a property that reads sends that the check does not
// count, because its properties count some message types only
// (Property.CountTypes); raised as a panic, as UnknownMsgTypeError.
type UncountedError struct {
	What    string   // "the sends of HEARTBEAT", "the lost sends"
	Counted []string // the types counted
}

func (e *UncountedError) Error() string {
	return fmt.Sprintf("a property reads %s, but the properties checked count the sends of %s only (CountTypes): add what it reads to its CountTypes, or leave CountTypes empty to count every type",
		e.What, strings.Join(e.Counted, ", "))
}

func (v *View[L, M]) Lost() int {
	v.k.counting()
	if v.k.shape.only != 0 {
		panic(&UncountedError{What: "the lost sends (View.Lost)", Counted: v.k.countedTypes()})
	}
	return v.w.sent.count(lostSlot)
}

// counting is the kernel's cap of the sends counted; a kernel that does
// not count them has nothing to give a property that reads them.
func (k *Kernel[L, M]) counting() int {
	if k.shape.sendCap == 0 {
		panic(ErrSendsNotCounted)
	}
	return k.shape.sendCap
}

// ErrSendsNotCounted is raised (as a panic from inside the search, which
// check.Run returns as an error) when a property reads the sends of a
// state that does not count them.
var ErrSendsNotCounted = errors.New("a property reads the sends (View.Sent, SentOf or Lost) but no property checked declares CountSends, so the states do not count them: set CountSends on the property that reads them")

// Name is how reports call position p ("p9").
func (v *View[L, M]) Name(p int) string { return v.lay().name(p) }

// FormatMsg renders m as the algorithm does.
func (v *View[L, M]) FormatMsg(m M) string { return v.k.alg.FormatMsg(m) }
