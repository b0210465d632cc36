package model

// Algorithm is one leader-election algorithm as local state and handlers, in
// the style of etcd's raft: pure functions of the local state and a message,
// whose only effects are changes to *L and sends through the Ctx. The kernel
// owns everything else (channels, ring repair, crashes, restarts, detectors,
// the channel bound).
//
// L and M are values: the kernel copies them freely. A handler that changes a
// slice or map inside L must copy it first, never change it in place.
type Algorithm[L, M any] interface {
	// Init is the local state of a process that has not taken part in any
	// election (also after crash and restart).
	Init() L
	// Elected reads the elected leader's ID from a local state; 0 means ⊥.
	Elected(l *L) int
	// CanInitiate is the guard of initiate/detect, given suspects(p).
	CanInitiate(c *Ctx[M], l *L, suspects bool) bool
	// Initiate starts an election at c.Self().
	Initiate(c *Ctx[M], l *L)
	// Receive handles message m from position from.
	Receive(c *Ctx[M], l *L, from int, m M)
	// FormatMsg renders a message the way the course notes write it.
	FormatMsg(m M) string
}

// Optional interfaces an Algorithm may implement.
type (
	// Leaderer gives the local state "as if an election of leader had just
	// ended" (--initial-leader).
	Leaderer[L any] interface{ InitLeader(leader int) L }
	// LeaderSelfer gives each process its own local state "as if an
	// election of leader had just ended": that of the process with ID id,
	// so that the leader's may differ from the others' (it arms its
	// heartbeat, they their lease). With --initial-leader it is used
	// instead of Leaderer, which it does not need.
	LeaderSelfer[L any] interface{ InitLeaderAs(leader, id int) L }
	// Restarter runs a step when a crashed process restarts.
	Restarter[L, M any] interface{ OnRestart(c *Ctx[M], l *L) }
	// Timed algorithms have timeouts (Bully).
	Timed[L, M any] interface{ Timers() []Timer[L, M] }
	// InitiateNamer names the initiate action ("detect" for Bully).
	InitiateNamer interface{ InitiateName() string }
	// MsgDescriber gives a message as data: its type and arguments, e.g.
	// model.Msg("ELECTION", model.Int(9)). Without it, traces describe a
	// message by its Go type name and exported fields.
	MsgDescriber[M any] interface{ DescribeMsg(m M) Value }
	// LocalFormatter gives a local state as named, typed fields
	// (model.Bool, model.ID, model.Str, ...); c tells who the process is.
	// Without it, traces show a local struct's fields in declaration
	// order, each as its Go value (Elected as "elected").
	LocalFormatter[L, M any] interface {
		FormatLocal(c *Ctx[M], l *L) []Field
	}
	// RingLocal is implemented by algorithms whose handlers send only to
	// their live ring neighbours, Next(d) for d in Around(), and whose
	// timer guards never call GuardCtx.Pending. Knowing who can send to
	// whom is what lets partial-order reduction skip interleavings
	// (Reducer); while it reduces, the kernel checks the promise on every
	// step and panics when it is broken.
	RingLocal interface{ Around() []Dir }
	// MsgTyper names the types of messages (ELECTION, OK, ...), for the
	// measures of sends per type; MsgType indexes MsgTypes, which has at
	// most MaxMsgTypes names. Without it every message is of type "MSG".
	MsgTyper[M any] interface {
		MsgTypes() []string
		MsgType(m *M) int
	}
	// Codec encodes local states and messages canonically and compactly.
	// Without one the kernel numbers each distinct local state and message
	// (internCodec: by value, or by its hashstructure/v2 hash where it holds
	// slices, maps or floats), which is slower.
	Codec[L, M any] interface {
		AppendLocal(b []byte, l *L) []byte
		DecodeLocal(b []byte, l *L) (rest []byte, err error)
		AppendMsg(b []byte, m *M) []byte
		DecodeMsg(b []byte, m *M) (rest []byte, err error)
	}
)

// Timer is a timeout of an algorithm.
//
// In the asynchronous model (Config.Timing Async) the step Name is enabled
// when Armed and Justified hold and is weakly fair (Justified is the
// perfect detector's guard); the unreliable detector adds "early-"+Name,
// enabled whenever Armed holds and fair only when Justified holds too.
//
// In a timed model (Sync, Partial; docs/semantics.md section 6.4) each process has
// one timer, off or counting down ticks, which the kernel keeps: when a
// step of the process changes which of the algorithm's timers is Armed,
// the kernel sets the process's timer to that timer's Duration, or off
// when none is Armed any more; a step that leaves the same timer Armed
// leaves the countdown alone, unless its handler asks otherwise
// (Ctx.RestartTimer starts it again, Ctx.StopTimer stops it). The step
// Name is then enabled when the process is live, Armed holds and the
// countdown is at 0 (Justified is not used, and there are no early
// timeouts), and it is weakly fair. A timeout whose step leaves its own
// timer Armed starts it again (a periodic timer). A timer Armed in an
// initial local state (Init, InitLeader, InitLeaderAs) runs from the
// initial state, and from a restart. Two timers Armed at once in one
// process is the algorithm's error: a process has one timer.
//
// For Bully (Armed: status electing for timeout-ok with Duration T,
// waiting for timeout-coord with T2) this is the contract's rule: a step
// that sets status := electing or waiting changes which timer is armed
// (no step sets electing while electing, and a second OK while waiting
// sets nothing), and one that sets idle leaves none armed.
type Timer[L, M any] struct {
	Name      string
	Armed     func(l *L) bool
	Justified func(c *GuardCtx[M], l *L) bool
	Fire      func(c *Ctx[M], l *L)
	// Duration is the number of ticks the timer runs once armed, 1 or
	// more, from the configuration's durations (t.Timeout, or a fixed
	// number): needed in the timed modes, where a timer without one
	// cannot run.
	Duration func(t Times) int
}

// Dir is a direction around the ring.
type Dir uint8

const (
	CW  Dir = iota // p+1, p+2, ...
	CCW            // p-1, p-2, ...
)

// Back is the other direction.
func (d Dir) Back() Dir { return 1 - d }

func (d Dir) String() string {
	if d == CW {
		return "cw"
	}
	return "ccw"
}
