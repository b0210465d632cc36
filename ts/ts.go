// Package ts is the transition-system interface the explorer searches:
// states as bytes, steps as actions with fairness classes and predicate bits.
//
// States travel as bytes (a canonical encoding, or a handle into a pool of
// values); the explorer never looks inside them, and an Action means only
// what the System that produced it says.
package ts

import "github.com/zeebo/xxh3"

// Action identifies one step of a state (who did what). Its meaning belongs to
// the System that produced it; the explorer stores and compares it only.
type Action uint32

// NoFairness marks a step that belongs to no weak-fairness class.
const NoFairness int32 = -1

// Succ is one enabled step out of an expanded state.
type Succ struct {
	Action Action
	Fair   int32  // weak-fairness class the step satisfies, or NoFairness
	FP     uint64 // 64-bit fingerprint of the successor
	Props  uint64 // bit i set: predicate i holds in the successor
	Sent   Sends  // the messages the step sent and lost
	off    uint32 // encoding of the successor in Batch.buf
	end    uint32
	// Acyclic says that no cycle of the state graph goes through the
	// step: nothing leads from the successor back to the expanded state
	// (the kernel's crashes and restarts, which count up). A searcher
	// that keeps the graph only to find cycles may leave it out.
	Acyclic bool
}

// MaxMsgTypes is the most message types a system may name (Messenger).
const MaxMsgTypes = 7

// Sends counts the messages one step sends, per message type (the
// system's MsgTypes), and those it loses (for the kernel: sent to a crashed
// receiver, or emptied out of a channel by a crash). It is a property of
// the step, not of the state.
type Sends struct {
	ByType [MaxMsgTypes]uint16
	Lost   uint16
}

// Total is the number of messages sent.
func (s *Sends) Total() int {
	t := 0
	for _, n := range s.ByType {
		t += int(n)
	}
	return t
}

// Add adds what another step sent.
func (s *Sends) Add(o Sends) {
	for i := range s.ByType {
		s.ByType[i] += o.ByType[i]
	}
	s.Lost += o.Lost
}

// MaxPredicates is how many predicates a system may have: a state's and
// a step's truth values are the bits of one uint64 (Succ.Props).
const MaxPredicates = 64

// Messenger is implemented by systems whose steps count their sends: it
// names the message types that index Sends.ByType.
type Messenger interface{ MsgTypes() []string }

// StepChecker is implemented by systems that can check their own steps
// from a state (the kernel's: determinism of the handlers, and the
// promises its reduction rests on); a nil error is a state whose steps
// keep them.
type StepChecker interface{ CheckSteps(state []byte) error }

// Clocked is implemented by systems that may have discrete time: when ok,
// every step of weak-fairness class tick, and no other, lets one unit of
// time pass, so a searcher can count time by a step's class.
type Clocked interface{ TickClass() (tick int32, ok bool) }

// Batch receives the successors of one state. It is reused from state to
// state so that expansion does not allocate.
//
// It holds two things with two lifetimes: Settings, what the searcher asks
// of every expansion, set once before the first and kept by Reset; and the
// results of one expansion (every other field), which Reset empties.
type Batch struct {
	Settings
	Succs     []Succ
	Discarded int // successors dropped by the channel bound
	// DiscardedFair counts those of them whose step is weakly fair: without
	// the bound that fair action would be enabled here.
	DiscardedFair int
	Props         uint64 // predicates that hold in the expanded state itself
	// After Reducer.ExpandReduced: Group[i] is the group (process) of
	// successor i, and Stubborn lists stubborn sets as sets of groups (bit
	// g for group g), fewest steps first; none when no reduction applies.
	Group    []uint8
	Stubborn []uint64
	buf      []byte
}

// Settings is what a searcher asks of an expander, for every state it
// expands into a Batch: it lives as long as the Batch (Reset keeps it),
// and the searcher sets it before the first expansion.
type Settings struct {
	// Lazy asks a LazyExpander to commit successors without encodings
	// (CommitLazy).
	Lazy bool
	// NoStateProps says the searcher needs no predicates of the expanded
	// state: an expander may leave Props 0.
	NoStateProps bool
	// StatePropsOnly, when not 0, says the searcher needs only these
	// predicates of the expanded state: an expander may leave the others'
	// bits of Props 0.
	StatePropsOnly uint64
	// NoSuccProps and SuccPropsOnly say the same of the successors' state
	// predicates (Commit, and Fill after a lazy expansion); the bits of
	// the step predicates are always there.
	NoSuccProps   bool
	SuccPropsOnly uint64
}

// Reset empties the batch's results, keeping its memory and its Settings.
func (b *Batch) Reset() {
	b.Succs = b.Succs[:0]
	b.buf = b.buf[:0]
	b.Discarded, b.DiscardedFair = 0, 0
	b.Group, b.Stubborn = b.Group[:0], b.Stubborn[:0]
	b.Props = 0
}

// Add appends a successor: the step's action and fairness class (or
// NoFairness), the predicates that hold in it, and its canonical encoding
// (copied). The fingerprint is the hash of the whole encoding.
func (b *Batch) Add(a Action, fair int32, props uint64, state []byte) {
	buf := append(b.buf, state...)
	b.Commit(buf, a, fair, xxh3.Hash(buf[len(b.buf):]), props, Sends{})
}

// Tail returns the batch's encoding buffer, so that an expander can append
// a successor's encoding to it in place (no copy) and hand the result to
// Commit.
func (b *Batch) Tail() []byte { return b.buf }

// AnyFair reports whether some successor's step is weakly fair: without
// one, the expanded state is stuck under weak fairness.
func (b *Batch) AnyFair() bool {
	for i := range b.Succs {
		if b.Succs[i].Fair != NoFairness {
			return true
		}
	}
	return false
}

// Quiescent reports whether the expanded state ends a complete run: no
// fair step is enabled and the channel bound discarded no step, fair or not
// (a state the bound stopped is not a natural end).
func (b *Batch) Quiescent() bool { return b.Discarded == 0 && !b.AnyFair() }

// Commit records as a successor the bytes buf holds past Tail(): buf must be
// Tail() with the successor's encoding appended. fp is its fingerprint, a
// 64-bit hash that is a function of the encoding (an expander may compute
// it from the parts a step changed; see LazyExpander).
func (b *Batch) Commit(buf []byte, a Action, fair int32, fp, props uint64, sent Sends) {
	off := len(b.buf)
	b.buf = buf
	b.Succs = append(b.Succs, Succ{
		Action: a, Fair: fair, FP: fp, Props: props, Sent: sent,
		off: uint32(off), end: uint32(len(b.buf)),
	})
}

// CommitLazy records a successor without its encoding (LazyExpander):
// State(i) is empty and Props holds the step predicates' bits only, until
// Fill gives it both.
func (b *Batch) CommitLazy(a Action, fair int32, fp, props uint64, sent Sends) {
	b.Succs = append(b.Succs, Succ{Action: a, Fair: fair, FP: fp, Props: props, Sent: sent})
}

// Fill gives successor i, committed lazily, its encoding (the bytes buf
// holds past Tail()) and the bits of the state predicates that hold in it.
func (b *Batch) Fill(i int, buf []byte, props uint64) {
	s := &b.Succs[i]
	s.off, s.end = uint32(len(b.buf)), uint32(len(buf))
	s.Props |= props
	b.buf = buf
}

// State returns the encoding of successor i; valid until the next Reset.
func (b *Batch) State(i int) []byte {
	s := &b.Succs[i]
	return b.buf[s.off:s.end]
}

// Expander generates successors. It holds scratch memory, so each goroutine
// uses its own (System.NewExpander).
type Expander interface {
	// Initial fills out with the initial state(s); Fair is NoFairness.
	Initial(out *Batch)
	// Expand fills out with every enabled step of state, in a fixed order.
	Expand(state []byte, out *Batch)
	// Label is the readable name of action taken in state
	// ("deliver p2→p3 ELECTION(9)").
	Label(state []byte, a Action) string
}

// LazyExpander is implemented by expanders that can leave the encodings of
// successors out. Most successors of a large search are states seen before,
// and a searcher needs only their fingerprints to know it: it sets
// Batch.Lazy, expands (Expand or ExpandReduced), looks the fingerprints up,
// and asks for the encoding (and the state predicates) of the new ones
// only. The fingerprints are those a full expansion gives.
type LazyExpander interface {
	Expander
	// Materialize fills in successor i of the last lazy expansion (Fill).
	Materialize(out *Batch, i int)
}

// Reducer is implemented by expanders that support partial-order reduction
// for invariant checking. ExpandReduced fills out as Expand does, plus
// out.Group and out.Stubborn: candidate reduced sets of steps. Each set
// satisfies the stubborn-set conditions for reachability (Valmari): every
// step in it commutes with every sequence of steps outside it, a disabled
// step in it can only be enabled by steps in it, and it contains a "key"
// step that no step outside can disable and that changes no process's
// elected value or liveness. So every state that violates an invariant
// stays reachable when the searcher follows only the steps of one of the
// sets, provided it also expands in full some state of every cycle (the
// explorer picks a set none of whose steps leads back to its own BFS level
// or above, and expands in full when there is none).
type Reducer interface {
	ExpandReduced(state []byte, out *Batch)
	// Reduces reports whether ExpandReduced can ever offer a stubborn set
	// for this system; if not, a searcher need not ask.
	Reduces() bool
}

// SharedMemory is implemented by systems whose expanders share tables that
// grow as the search meets new values (a kernel's numbering of the local
// states it has met): SharedBytes is about what they hold now. A search
// counts it as its own memory, against its budget.
type SharedMemory interface {
	SharedBytes() int64
}

// System is a finite transition system with named state predicates.
type System interface {
	NewExpander() Expander
	// Predicates names the bits of Succ.Props, in order.
	Predicates() []string
	// FairClass names a weak-fairness class.
	FairClass(c int32) string
}
