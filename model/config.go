package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxN is the largest number of processes: channel indices fit one byte and
// alive flags one word. Beyond it no state space here is explorable anyway.
const MaxN = 16

// Detector is the failure detector.
type Detector uint8

const (
	Perfect Detector = iota
	Unreliable
	// Incomplete may never report the leader's crash: the perfect
	// detector's steps, but an initiate/detect while elected names a
	// crashed process is not fair.
	Incomplete
	// Eventual is eventually accurate (partial timing only): the
	// unreliable detector's false suspicions while gst is false, the
	// perfect detector from gst on.
	Eventual
	// Heartbeat suspects a process not heard from for HeartbeatTimeout
	// ticks (timed modes only; docs/semantics.md section 6.5).
	Heartbeat
)

var detectorNames = [...]string{Perfect: "perfect", Unreliable: "unreliable", Incomplete: "incomplete", Eventual: "eventual", Heartbeat: "heartbeat"}

func (d Detector) String() string { return enumName(detectorNames[:], d, "Detector") }

// ParseDetector reads "perfect", "incomplete", "unreliable", "eventual" or "heartbeat".
func ParseDetector(s string) (Detector, error) {
	return parseEnum[Detector](detectorNames[:], s, "detector", "perfect, incomplete, unreliable, eventual or heartbeat")
}

// Timing is the model of time (docs/semantics.md section 6).
type Timing uint8

const (
	// Async has no clocks: sections 1-5.
	Async Timing = iota
	// Sync: every message is delivered 1 to Delay ticks after it was
	// sent, and timers count ticks.
	Sync
	// Partial is Sync after the global stabilisation time (the gst
	// step); before it messages may be late.
	Partial
)

var timingNames = [...]string{Async: "async", Sync: "sync", Partial: "partial"}

func (t Timing) String() string { return enumName(timingNames[:], t, "Timing") }

// ParseTiming reads "async", "sync" or "partial".
func ParseTiming(s string) (Timing, error) {
	return parseEnum[Timing](timingNames[:], s, "timing", "async, sync or partial")
}

// Channels is the channels' discipline (docs/semantics.md section 1,
// Channels).
type Channels uint8

const (
	// FIFO channels deliver their messages in the order sent.
	FIFO Channels = iota
	// Unordered channels are multisets: a delivery takes any message in
	// the channel, one step per distinct message (and age).
	Unordered
)

var channelsNames = [...]string{FIFO: "fifo", Unordered: "unordered"}

func (c Channels) String() string { return enumName(channelsNames[:], c, "Channels") }

// ParseChannels reads "fifo" or "unordered".
func ParseChannels(s string) (Channels, error) {
	return parseEnum[Channels](channelsNames[:], s, "channels", "fifo or unordered")
}

// enumName and parseEnum write and read the options' enumerations
// (Detector, Timing, Channels) by their names.
func enumName[T ~uint8](names []string, v T, typ string) string {
	if int(v) >= len(names) {
		return typ + "(" + strconv.Itoa(int(v)) + ")"
	}
	return names[v]
}

func parseEnum[T ~uint8](names []string, s, what, choices string) (T, error) {
	if i := slices.Index(names, s); i >= 0 {
		return T(i), nil
	}
	return 0, fmt.Errorf("unknown %s %q: use %s", what, s, choices)
}

// Timed reports whether the configuration has clocks (section 6).
func (c Config) Timed() bool { return c.Timing != Async }

// Times are the durations of a timed configuration, in ticks, as an
// algorithm's timers read them (Timer.Duration).
type Times struct {
	Delay        int // D: the worst one-way latency
	Timeout      int // T: Bully's wait for an OK
	TimeoutCoord int // T2 (T'): Bully's wait for a COORDINATOR after an OK
	// params are the algorithm's parameters by name (Param), read with
	// Param.
	params map[string]int
}

// givenTimeouts is c with Timeout and TimeoutCoord 0 where they are the
// defaults WithDefaults would give them.
func (c Config) givenTimeouts() Config {
	full := c.WithDefaults()
	if c.Timeout == 2*full.Delay+1 {
		c.Timeout = 0
	}
	if c.TimeoutCoord == 2*full.Timeout+2*full.Delay {
		c.TimeoutCoord = 0
	}
	return c
}

// Times are c's durations (defaults filled in).
func (c Config) Times() Times {
	c = c.WithDefaults()
	return Times{Delay: c.Delay, Timeout: c.Timeout, TimeoutCoord: c.TimeoutCoord}
}

// Config is the fault model and set-up of a check (docs/model.md). Each
// field has a row in internal/modelopt, which names it for the command
// line, the explorer's URL, mchecktest and trace files; its tests fail for
// a field without one.
type Config struct {
	N             int
	IDs           []int // ids[p]; nil means p+1
	MaxCrashes    int
	MaxRestarts   int
	Detector      Detector
	Initiators    []int // IDs allowed to initiate/detect/suspect; nil means all
	Down          []int // IDs crashed in the initial state
	InitialLeader bool
	MaxQueue      int // 0 means the default 2N
	// Anonymous allows duplicate IDs; an ID in Initiators or Down then
	// names every process that carries it.
	Anonymous bool
	// Perm explores every arrangement of the IDs 1..N on the ring, as
	// separate initial states of one search (IDs must be nil or 1..N).
	Perm bool
	// Timing is the model of time (docs/semantics.md section 6); Delay,
	// Timeout and TimeoutCoord are its D, T and T2 in ticks, given only
	// with Sync or Partial (0 means the default: D 1, T 2D+1, T2 2T+2D).
	// A kernel of an algorithm without timers keeps Timeout and
	// TimeoutCoord 0.
	Timing       Timing
	Delay        int
	Timeout      int
	TimeoutCoord int
	// Params are the values of the algorithm's own parameters by name
	// (model.Parameterized; docs/semantics.md section 6): a parameter not
	// named takes its default (the kernel fills it in). Bully's T and T2
	// are parameters too, held by Timeout and TimeoutCoord.
	Params map[string]int
	// Channels is FIFO (the default) or Unordered (multisets).
	Channels Channels
	// FalseSuspicions is, with Detector Eventual, the most false
	// suspicions before gst (docs/semantics.md section 6.5); 0 means the
	// default 1.
	FalseSuspicions int
	// HeartbeatPeriod and HeartbeatTimeout are, with Detector Heartbeat,
	// its P and TO in ticks (docs/semantics.md section 6.5); 0 means the
	// defaults P 1, TO P+D.
	HeartbeatPeriod  int
	HeartbeatTimeout int
}

// WithDefaults fills IDs and MaxQueue, in a timed mode Delay, Timeout
// and TimeoutCoord, and with the eventual detector FalseSuspicions.
func (c Config) WithDefaults() Config {
	if c.IDs == nil && c.N > 0 {
		c.IDs = make([]int, c.N)
		for p := range c.IDs {
			c.IDs[p] = p + 1
		}
	}
	if c.MaxQueue == 0 {
		c.MaxQueue = 2 * c.N
	}
	if c.Timed() {
		if c.Delay == 0 {
			c.Delay = 1
		}
		if c.Timeout == 0 {
			c.Timeout = 2*c.Delay + 1
		}
		if c.TimeoutCoord == 0 {
			c.TimeoutCoord = 2*c.Timeout + 2*c.Delay
		}
	}
	if c.Detector == Eventual && c.FalseSuspicions == 0 {
		c.FalseSuspicions = 1
	}
	if c.Detector == Heartbeat && c.Timed() {
		if c.HeartbeatPeriod == 0 {
			c.HeartbeatPeriod = 1
		}
		if c.HeartbeatTimeout == 0 {
			c.HeartbeatTimeout = c.HeartbeatPeriod + c.Delay // the least accurate one
		}
	}
	return c
}

// FieldError is a mistake in one field of a Config, said with the field's
// name as the caller named it (see ValidateNamed).
type FieldError struct {
	Field string // the Config field: "N", "IDs", "MaxCrashes", ...
	msg   string
}

func (e *FieldError) Error() string { return e.msg }

// Validate reports the first thing wrong with c, in words a user can act
// on, naming Config's own fields.
func (c Config) Validate() error { return c.ValidateNamed(nil) }

// ValidateNamed is Validate with the fields named by name: a command line
// names them by its flags, a test helper by its own fields. A nil name, or
// one that returns "", keeps the field's Go name ("N", "MaxCrashes", ...).
func (c Config) ValidateNamed(name func(field string) string) error {
	field := fieldNamer(name)
	bad := func(f, format string, args ...any) error {
		return &FieldError{Field: f, msg: fmt.Sprintf(format, args...)}
	}
	n, ids := field("N"), field("IDs")
	if c.N < 2 || c.N > MaxN {
		return bad("N", "%s %d is out of range: use 2 to %d processes", n, c.N, MaxN)
	}
	if len(c.IDs) != c.N {
		return bad("IDs", "%s has %d IDs but %s is %d: give exactly one ID per process", ids, len(c.IDs), n, c.N)
	}
	seen := map[int]bool{}
	for _, id := range c.IDs {
		if id <= 0 {
			return bad("IDs", "%s: ID %d is not positive: IDs are positive integers", ids, id)
		}
		if id > 1<<20 {
			return bad("IDs", "%s: ID %d is too large: use IDs up to %d", ids, id, 1<<20)
		}
		if seen[id] && !c.Anonymous {
			return bad("IDs", "%s: ID %d appears twice: IDs must be unique (or allow duplicates with %s)", ids, id, field("Anonymous"))
		}
		seen[id] = true
	}
	for _, list := range []struct {
		field string
		ids   []int
	}{{"Initiators", c.Initiators}, {"Down", c.Down}} {
		for _, id := range list.ids {
			if !seen[id] {
				return bad(list.field, "%s: %d is not the ID of a process (the IDs are %s)", field(list.field), id, IDList(c.IDs))
			}
		}
	}
	if int(c.Detector) >= len(detectorNames) {
		return bad("Detector", "%s %d is not a detector: use model.Perfect, model.Incomplete, model.Unreliable, model.Eventual or model.Heartbeat", field("Detector"), c.Detector)
	}
	if int(c.Channels) >= len(channelsNames) {
		return bad("Channels", "%s %d is not a channel discipline: use model.FIFO or model.Unordered", field("Channels"), c.Channels)
	}
	if int(c.Timing) >= len(timingNames) {
		return bad("Timing", "%s %d is not a timing: use model.Async, model.Sync or model.Partial", field("Timing"), c.Timing)
	}
	if c.Detector == Eventual && c.Timing != Partial {
		// Without a gst there is no time from which suspicions are exact.
		return bad("Detector", "%s %s needs %s partial: its suspicions are exact from gst on, and only partial timing has a gst (for false suspicions at any time use %s %s)",
			field("Detector"), Eventual, field("Timing"), field("Detector"), Unreliable)
	}
	if err := c.validateHeartbeat(field); err != nil {
		return err
	}
	switch fs := c.FalseSuspicions; {
	case fs != 0 && c.Detector != Eventual:
		return bad("FalseSuspicions", "%s counts the false suspicions of %s eventual: give it with that detector or leave it out", field("FalseSuspicions"), field("Detector"))
	case fs < 0:
		return bad("FalseSuspicions", "%s %d is negative: use 1 or more", field("FalseSuspicions"), fs)
	case fs > MaxFalseSuspicions:
		return bad("FalseSuspicions", "%s %d is too large: use at most %d", field("FalseSuspicions"), fs, MaxFalseSuspicions)
	}
	for _, v := range []struct {
		field, what string
		value       int
	}{{"Delay", "a delay", c.Delay}, {"Timeout", "a timeout", c.Timeout}, {"TimeoutCoord", "a timeout", c.TimeoutCoord}} {
		switch {
		case v.value != 0 && !c.Timed():
			return bad(v.field, "%s needs %s sync or partial: the asynchronous model (%s async, the default) has no clocks", field(v.field), field("Timing"), field("Timing"))
		case v.value < 0:
			return bad(v.field, "%s %d is negative: %s is 1 tick or more", field(v.field), v.value, v.what)
		case v.value > maxTicks:
			return bad(v.field, "%s %d is too large: use at most %d ticks", field(v.field), v.value, maxTicks)
		}
	}
	if c.Perm && c.Anonymous {
		return bad("Perm", "%s arranges the distinct IDs 1..N: not with %s", field("Perm"), field("Anonymous"))
	}
	if len(c.Down) >= c.N {
		return bad("Down", "%s names every process: at least one must start live", field("Down"))
	}
	for _, v := range []struct {
		field string
		value int
	}{{"MaxCrashes", c.MaxCrashes}, {"MaxRestarts", c.MaxRestarts}, {"MaxQueue", c.MaxQueue}} {
		if v.value < 0 {
			return bad(v.field, "%s %d is negative: use 0 or more", field(v.field), v.value)
		}
		if v.value > 255 {
			return bad(v.field, "%s %d is too large: use at most 255", field(v.field), v.value)
		}
	}
	// One process always stays live, and only a restart gives a crash back.
	if most := c.N - 1 + c.MaxRestarts; c.MaxCrashes > most {
		return bad("MaxCrashes", "%s %d can never happen with %s %d and %s %d: one process always stays live, so at most %d crashes (N-1, plus one per restart) can happen",
			field("MaxCrashes"), c.MaxCrashes, n, c.N, field("MaxRestarts"), c.MaxRestarts, most)
	}
	if c.Initiators != nil && c.MaxRestarts == 0 && !slices.ContainsFunc(c.Initiators, func(id int) bool { return !slices.Contains(c.Down, id) }) {
		return bad("Initiators", "%s: no initiator starts live (%s) and none can restart, so no election can ever start: name a process that is not down", field("Initiators"), field("Down"))
	}
	return nil
}

// validateHeartbeat checks the heartbeat detector's options.
func (c Config) validateHeartbeat(field func(string) string) error {
	bad := func(f, format string, args ...any) error {
		return &FieldError{Field: f, msg: fmt.Sprintf(format, args...)}
	}
	if c.Detector == Heartbeat && !c.Timed() {
		return bad("Detector", "%s %s needs %s sync or partial: it times out on ticks, and the asynchronous model has no clock", field("Detector"), Heartbeat, field("Timing"))
	}
	if c.Detector == Heartbeat && c.MaxRestarts > 0 {
		return bad("MaxRestarts", "%s %d: a restart is not modelled with %s %s: leave %s out or use another detector", field("MaxRestarts"), c.MaxRestarts, field("Detector"), Heartbeat, field("MaxRestarts"))
	}
	for _, v := range []struct {
		field string
		value int
	}{{"HeartbeatPeriod", c.HeartbeatPeriod}, {"HeartbeatTimeout", c.HeartbeatTimeout}} {
		switch {
		case v.value != 0 && c.Detector != Heartbeat:
			return bad(v.field, "%s sets the %s detector: give it with %s %s or leave it out", field(v.field), Heartbeat, field("Detector"), Heartbeat)
		case v.value < 0 || v.value > MaxHeartbeat:
			return bad(v.field, "%s %d is out of range: use 1 to %d ticks", field(v.field), v.value, MaxHeartbeat)
		}
	}
	// A silence is one byte of the state (docs/semantics.md section 6.5's C).
	if c.Detector == Heartbeat && max(c.HeartbeatPeriod, 1)+max(c.Delay, 1)-1 > MaxHeartbeat {
		return bad("Delay", "%s %d is too large for %s %s: the heartbeat period plus the delay must stay within %d ticks", field("Delay"), c.Delay, field("Detector"), Heartbeat, MaxHeartbeat+1)
	}
	return nil
}

// MaxHeartbeat is the largest HeartbeatPeriod and HeartbeatTimeout, and
// bounds the longest silence P+D-1, so that a silence fits a byte.
const MaxHeartbeat = 100

// maxTicks bounds Delay, Timeout and TimeoutCoord as given, so that the
// defaults computed from them stay small numbers; the state encoding's
// widths (checkWidths) bound what a kernel can hold.
const maxTicks = MaxTicks

// MaxFalseSuspicions is the largest FalseSuspicions: the count shares
// the gst byte of the state encoding.
const MaxFalseSuspicions = 127

// MaxTicks is the largest duration (Delay, Timeout, TimeoutCoord) a
// configuration may give.
const MaxTicks = 1 << 20

// fieldNamer names Config's fields by name, or by their Go names where
// name is nil or gives "".
func fieldNamer(name func(field string) string) func(string) string {
	return func(f string) string {
		if name != nil {
			if n := name(f); n != "" {
				return n
			}
		}
		return f
	}
}

// IDList writes IDs as the command line and reports give them: "3,9,4,8".
func IDList(ids []int) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.Itoa(id)
	}
	return strings.Join(parts, ",")
}

// PosAlias is the name of position p when another process has the same ID
// (--anonymous): ID@position, so that names stay distinct; "" when its ID
// is its own and ProcName(ID) names it.
func PosAlias(ids []int, p int) string {
	for q, id := range ids {
		if q != p && id == ids[p] {
			return ProcName(ids[p]) + "@" + strconv.Itoa(p)
		}
	}
	return ""
}

// PosName is how people call position p: PosAlias, or ProcName of its ID.
func PosName(ids []int, p int) string { return procLabel(ids[p], PosAlias(ids, p)) }
