package model

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/mcheck/mcheck/internal/apart"
	"github.com/mcheck/mcheck/ts"
)

// Kernel composes N processes of one algorithm into the global transition
// system of docs/semantics.md section 1. It is immutable after New (but for what
// Triggered observes) and safe to share; each goroutine expands states
// through its own Expander.
type Kernel[L, M any] struct {
	alg     Algorithm[L, M]
	cfg     Config
	n       int
	layouts []layout // arrangements of IDs; the first names fairness classes
	shape   shape    // the optional fields of its states (state.go)
	fair    fairness // the weak-fairness classes (fairness.go)
	keys    keys     // of the fingerprint's places (fingerprint.go)
	timers  []Timer[L, M]
	times   Times // the durations and parameters (Times.Param)
	// In a timed shape: timerStart[t] is the timer byte that arms timer t
	// (1 + its duration), and maxTimer the longest duration.
	timerStart []uint8
	maxTimer   int
	codec      Codec[L, M]
	localTab   localTable[L, M] // the local states, numbered (localtable.go)
	initLid    uint32           // the number of Init()
	localRefs  bool             // L holds slices or maps: local states are written by value (state.go)
	msgRefs    bool             // M holds slices or maps
	props      []Property[L, M]
	stepMask   uint64 // bits of the step properties
	initName   string
	restart    Restarter[L, M]
	leader     func(leader, id int) L // the initial-leader state of ID id, or nil
	format     LocalFormatter[L, M]
	generic    bool
	around     []Dir // RingLocal's directions, or nil
	typer      MsgTyper[M]
	types      []string
	// triggered has bit i set once a step was one step property i
	// speaks of (Property.When): an observation of the search that
	// reaches no state, trace or count, so set from any worker.
	triggered atomic.Uint64

	// eventual: the eventual detector; a suspect step is enabled while the
	// gst byte is even (gst false) and below suspectBelow (budget left).
	eventual     bool
	suspectBelow uint8
	hb           heartbeat // the heartbeat detector (heartbeat.go)
}

// Option changes how a Kernel is built.
type Option func(*options)

type options struct {
	generic bool
	sendCap int
	// countAll: WithSendCounts, every type; countTypes: WithSendCountsOf's.
	countAll   bool
	countTypes []string
}

// ErrNoInitialLeader is Config.InitialLeader for an algorithm that defines
// no initial-leader state; a front end says it in its own words.
var ErrNoInitialLeader = errors.New("Config.InitialLeader: this algorithm defines no initial-leader state (model.Leaderer, model.LeaderSelfer)")

// WithGenericHashing makes the kernel ignore the algorithm's Codec and
// number local states and messages by value (internCodec), as it does for
// algorithms without a Codec. Tests use it to show both paths agree.
func WithGenericHashing() Option { return func(o *options) { o.generic = true } }

// WithSendCounts makes the kernel count the sends in its states up to
// limit (or its properties' largest Property.CountSends, if larger) even
// when no property reads them: the states of a trace found by a check
// whose properties counted are replayed with it (see SendCap).
func WithSendCounts(limit int) Option {
	return func(o *options) { o.sendCap, o.countAll = max(o.sendCap, limit), true }
}

// WithSendCountsOf is WithSendCounts for the sends of the message types
// named alone (model.SendsSnapshot.Only): those of a trace found by a check
// whose properties counted some types only (Property.CountTypes). No
// types is WithSendCounts.
func WithSendCountsOf(limit int, types ...string) Option {
	if len(types) == 0 {
		return WithSendCounts(limit)
	}
	return func(o *options) {
		o.sendCap = max(o.sendCap, limit)
		o.countTypes = append(o.countTypes, types...)
	}
}

// New builds the global system of alg under cfg, evaluating props on every
// generated state (or step): predicate i of the system is props[i].
func New[L, M any](alg Algorithm[L, M], cfg Config, props []Property[L, M], opts ...Option) (*Kernel[L, M], error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	params := ParamsOf(alg)
	cfg, timers, err := resolveConfig(alg, cfg, params)
	if err != nil {
		return nil, err
	}
	if len(props) > ts.MaxPredicates {
		return nil, fmt.Errorf("at most %d properties in one check, got %d", ts.MaxPredicates, len(props))
	}
	k := &Kernel[L, M]{alg: alg, cfg: cfg, n: cfg.N, props: props, initName: "initiate", keys: newKeys(cfg.N), timers: timers}
	k.times = cfg.timesOf(params)
	// The steps run in this order: each one's errors come before the next's.
	sendCap, err := k.readProps(o.sendCap)
	if err != nil {
		return nil, err
	}
	if err := k.buildShape(sendCap); err != nil {
		return nil, err
	}
	if err := k.readAlgorithm(o); err != nil {
		return nil, err
	}
	k.fair = k.newFairness()
	if err := k.readInitial(); err != nil {
		return nil, err
	}
	if err := k.buildCodec(o.generic); err != nil {
		return nil, err
	}
	return k, nil
}

// resolveConfig resolves cfg's parameters, validates it and its timeouts
// against alg's timers, and fills in the defaults; it returns alg's timers.
func resolveConfig[L, M any](alg Algorithm[L, M], cfg Config, params []Param) (Config, []Timer[L, M], error) {
	cfg, err := ResolveParams(params, cfg, nil)
	if err != nil {
		return Config{}, nil, err
	}
	if err := cfg.WithDefaults().Validate(); err != nil {
		return Config{}, nil, err
	}
	var timers []Timer[L, M]
	if t, ok := alg.(Timed[L, M]); ok {
		timers = t.Timers()
	}
	// A timeout given to an algorithm without timers is a mistake, the
	// default one is not (section 6's "--timeout ... for an algorithm
	// without timers, in every mode" read as given; such a kernel then has
	// no T and T2, and its traces and headings none). The front ends ask
	// ValidateTimers before the defaults; here a configuration may come
	// with them filled in (WithDefaults), so a timeout equal to its default
	// counts as not given.
	if err := validateTimers(cfg.givenTimeouts(), timers, params, nil); err != nil {
		return Config{}, nil, err
	}
	cfg = cfg.WithDefaults()
	if len(timers) == 0 {
		cfg.Timeout, cfg.TimeoutCoord = 0, 0 // no timer to set
	}
	return cfg, timers, nil
}

// readProps validates k's properties and sets the step properties' mask;
// it returns how far the states count the sends (at least sendCap).
func (k *Kernel[L, M]) readProps(sendCap int) (int, error) {
	for i := range k.props {
		if err := k.props[i].validate(); err != nil {
			return 0, err
		}
		if k.props[i].Kind == StepProperty {
			k.stepMask |= 1 << i
		}
		sendCap = max(sendCap, k.props[i].CountSends)
	}
	if sendCap < 0 {
		return 0, fmt.Errorf("WithSendCounts(%d): count sends up to 1 or more", sendCap)
	}
	return sendCap, nil
}

// buildShape sets the layouts, the shape of the states, the detectors and
// the timers' starts, and checks that they fit the state encoding.
func (k *Kernel[L, M]) buildShape(sendCap int) error {
	cfg := &k.cfg
	var err error
	if k.layouts, err = layouts(cfg); err != nil {
		return err
	}
	k.shape = shape{layouts: len(k.layouts), timed: cfg.Timed(), timers: cfg.Timed() && len(k.timers) > 0, partial: cfg.Timing == Partial, sendCap: sendCap,
		unordered: cfg.Channels == Unordered}
	if cfg.Detector == Eventual {
		k.eventual = true
		k.shape.suspicions = cfg.FalseSuspicions
		k.suspectBelow = uint8(cfg.FalseSuspicions * suspicionUnit) // gst false and budget left
	}
	if k.hb = newHeartbeat(cfg); k.hb.on {
		k.shape.heartbeat = true
	}
	if k.shape.timed {
		for _, t := range k.timers {
			d := t.Duration(k.times)
			k.maxTimer = max(k.maxTimer, d)
			k.timerStart = append(k.timerStart, uint8(min(d, maxCountdown)+1))
		}
	}
	return checkWidths(cfg, len(k.timers), k.maxTimer, sendCap)
}

// readAlgorithm takes what the algorithm's optional interfaces say of its
// actions and messages: the initiate name, the directions, the message
// types, and which of them the states count.
func (k *Kernel[L, M]) readAlgorithm(o options) error {
	if nm, ok := k.alg.(InitiateNamer); ok {
		k.initName = nm.InitiateName()
	}
	if rl, ok := k.alg.(RingLocal); ok {
		k.around = rl.Around()
		if len(k.around) == 0 {
			return fmt.Errorf("RingLocal: Around() names no direction")
		}
	}
	k.types = []string{"MSG"}
	if t, ok := k.alg.(MsgTyper[M]); ok {
		k.typer, k.types = t, t.MsgTypes()
		if len(k.types) == 0 || len(k.types) > MaxMsgTypes {
			return fmt.Errorf("MsgTyper: %d message types: name 1 to %d", len(k.types), MaxMsgTypes)
		}
	}
	if k.shape.sendCap > 0 {
		k.shape.types = len(k.types)
		var err error
		if k.shape.only, err = k.countedSlots(k.props, o); err != nil {
			return err
		}
	}
	return nil
}

// readInitial takes the restart, the initial-leader states and the local
// formatter from the algorithm, and checks the initial states it asks for.
func (k *Kernel[L, M]) readInitial() error {
	k.restart, _ = k.alg.(Restarter[L, M])
	if ls, ok := k.alg.(LeaderSelfer[L]); ok {
		k.leader = ls.InitLeaderAs
	} else if l, ok := k.alg.(Leaderer[L]); ok {
		k.leader = func(leader, _ int) L { return l.InitLeader(leader) }
	}
	k.format, _ = k.alg.(LocalFormatter[L, M])
	if k.cfg.InitialLeader && k.leader == nil {
		return ErrNoInitialLeader
	}
	return k.checkInitialTimers()
}

// buildCodec sets the codec (the algorithm's, unless generic or it has
// none) and numbers the initial local state with it.
func (k *Kernel[L, M]) buildCodec(generic bool) error {
	if c, ok := k.alg.(Codec[L, M]); ok && !generic {
		k.codec = c
	} else {
		ic, err := newInternCodec[L, M]()
		if err != nil {
			return err
		}
		k.codec, k.generic = ic, true
	}
	k.localTab = newLocalTable(k.codec)
	k.localRefs = hasRefs(reflect.TypeFor[L]())
	k.msgRefs = hasRefs(reflect.TypeFor[M]())
	init := k.alg.Init()
	var err error
	if k.initLid, err = k.localTab.number(k.codec.AppendLocal(nil, &init)); err != nil {
		return fmt.Errorf("the Codec does not decode the initial local state it encoded: %w", err)
	}
	return nil
}

// Triggered has bit i set when some step taken so far was one that step
// property i speaks of (Property.When); see Vacuity.
func (k *Kernel[L, M]) Triggered() uint64 { return k.triggered.Load() }

// MsgTypes implements Messenger.
func (k *Kernel[L, M]) MsgTypes() []string { return k.types }

// msgType indexes MsgTypes. An index out of MsgTypes is the algorithm's
// error: it would count a type that no measure or state names.
func (k *Kernel[L, M]) msgType(m *M) int {
	if k.typer == nil {
		return 0
	}
	t := k.typer.MsgType(m)
	if t < 0 || t >= len(k.types) {
		panic(fmt.Sprintf("mcheck: the algorithm's MsgType gives %d for %s, but MsgTypes names %d types: return an index of MsgTypes", t, k.alg.FormatMsg(*m), len(k.types)))
	}
	return t
}

// Config is the configuration with defaults filled in.
func (k *Kernel[L, M]) Config() Config { return k.cfg }

// SendCap is how far the kernel's states count the sends since the
// initial state (View.Sent): the largest Property.CountSends of its
// properties, or WithSendCounts'; 0 when its states do not count them.
func (k *Kernel[L, M]) SendCap() int { return k.shape.sendCap }

// countSent adds n sends (or losses) in slot to w's counts, when the
// kernel counts them.
func (k *Kernel[L, M]) countSent(w *world[L, M], slot, n int) {
	if c := k.shape.sendCap; c > 0 && (k.shape.only == 0 || k.shape.only&(1<<slot) != 0) {
		w.sent.add(slot, n, c)
	}
}

// countedSlots is shape.only: a bit per message type counted when every
// property that counts the sends names its types (Property.CountTypes),
// and no option asks for them all; 0 (every type and the lost) otherwise.
func (k *Kernel[L, M]) countedSlots(props []Property[L, M], o options) (uint16, error) {
	var only uint16
	add := func(what string, types []string) error {
		for _, name := range types {
			t := slices.Index(k.types, name)
			if t < 0 {
				return fmt.Errorf("%s counts the sends of message type %q, but the algorithm's types are %s: name one of them", what, name, strings.Join(k.types, ", "))
			}
			only |= 1 << t
		}
		return nil
	}
	all := o.countAll
	for i := range props {
		if props[i].CountSends == 0 {
			continue
		}
		all = all || len(props[i].CountTypes) == 0
		if err := add("property "+props[i].Name, props[i].CountTypes); err != nil {
			return 0, err
		}
	}
	if err := add("WithSendCountsOf", o.countTypes); err != nil {
		return 0, err
	}
	if all || only == 0 {
		return 0, nil
	}
	return only, nil
}

// countedTypes are the message types whose sends the states count.
func (k *Kernel[L, M]) countedTypes() []string {
	var names []string
	for t, name := range k.types {
		if k.shape.only == 0 || k.shape.only&(1<<t) != 0 {
			names = append(names, name)
		}
	}
	return names
}

// Generic reports whether states are identified without a Codec (internCodec).
func (k *Kernel[L, M]) Generic() bool { return k.generic }

// Predicates implements System.
func (k *Kernel[L, M]) Predicates() []string {
	names := make([]string, len(k.props))
	for i, p := range k.props {
		names[i] = p.Name
	}
	return names
}

// Properties implements PropertySystem.
func (k *Kernel[L, M]) Properties() []PropertyInfo {
	infos := make([]PropertyInfo, len(k.props))
	for i, p := range k.props {
		infos[i] = p.Info()
	}
	return infos
}

// name is how people call position p in the first arrangement (the only
// one without Config.Perm).
func (k *Kernel[L, M]) name(p int) string { return k.layouts[0].name(p) }

// Arrangements is the number of arrangements of IDs, hence of initial
// states (N! with Config.Perm, else 1).
func (k *Kernel[L, M]) Arrangements() int { return len(k.layouts) }

// SharedBytes implements ts.SharedMemory: about what the kernel's
// numbering of local states and, without a Codec, its tables of values
// hold now.
func (k *Kernel[L, M]) SharedBytes() int64 {
	b := k.localTab.sharedBytes()
	if c, ok := k.codec.(*internCodec[L, M]); ok {
		b += c.sharedBytes()
	}
	return b
}

// NewExpander implements ts.System; the expander is also an Expander
// (ExpanderOf).
func (k *Kernel[L, M]) NewExpander() ts.Expander { return k.newExpander() }

func (k *Kernel[L, M]) newExpander() *expander[L, M] {
	e := &expander[L, M]{k: k, localShort: newMemo()}
	k.initWorld(&e.cur)
	k.initWorld(&e.nxt)
	e.h.init(k.n)
	e.chanStamp = apart.Make[uint32](k.n * k.n)
	e.dirty = apart.Make[int](k.n * k.n)[:0]
	e.scratch = apart.Make[byte](apart.Span)[:0]
	// The memo's key holds what Ctx shows of the world, not the silences
	// that Ctx.Suspects reads with the heartbeat detector.
	if !k.localRefs && !k.msgRefs && !k.shape.heartbeat {
		e.stepMemo = make([]stepEffect, 1<<stepMemoBits)
	}
	e.stepProc = -1
	e.ctx.env = e
	e.guard.env = e
	e.view.k, e.before.k, e.after.k = k, k, k
	e.before.w, e.after.w = &e.cur, &e.nxt
	return e
}

// Action kinds. The order of Kind values is also the order of their labels
// in reports; the enumeration order of steps is fixed in Expand.
type Kind uint8

const (
	KindDeliver Kind = iota
	KindInitiate
	KindTimeout
	KindSuspect
	KindEarlyTimeout
	KindCrash
	KindRestart
	// Section 6: a tick of time, and the global stabilisation time.
	KindTick
	KindGST
	// The heartbeat detector's heartbeat q→p (P is q, the sender; Q is p).
	KindHeartbeat
)

// An action packs its kind, two positions and a timer index into a byte
// each: positions fit (a compile-time check), and checkWidths keeps the
// timers within maxActionField+1.
const (
	actionFieldBits = 8
	maxActionField  = 1<<actionFieldBits - 1
)

const _ uint = maxActionField + 1 - MaxN

func mkAction(kind Kind, p, q, t int) Action {
	return Action(uint32(kind)<<(3*actionFieldBits) | uint32(p)<<(2*actionFieldBits) | uint32(q)<<actionFieldBits | uint32(t))
}

// Kind, P, Q and Timer unpack an action of the kernel: deliver(P→Q); the
// other kinds act at P; Timer indexes the algorithm's timers.
func (a Action) Kind() Kind { return Kind(a >> (3 * actionFieldBits)) }
func (a Action) P() int     { return int(a>>(2*actionFieldBits)) & maxActionField }
func (a Action) Q() int     { return int(a>>actionFieldBits) & maxActionField }
func (a Action) Timer() int { return int(a) & maxActionField }

// validateTimers checks the options of time against an algorithm's timers
// (c as given, before the defaults): Timeout and TimeoutCoord need timers
// to set, and a timed mode needs every timer to have a Duration of 1 tick
// or more. Fields are named as ValidateNamed names them.
func validateTimers[L, M any](c Config, timers []Timer[L, M], params []Param, name func(string) string) error {
	field := fieldNamer(name)
	c, err := ResolveParams(params, c, name)
	if err != nil {
		return err
	}
	bad := func(f, format string, args ...any) error {
		return &FieldError{Field: f, msg: fmt.Sprintf(format, args...)}
	}
	if len(timers) == 0 {
		for _, f := range []struct {
			field string
			value int
		}{{"Timeout", c.Timeout}, {"TimeoutCoord", c.TimeoutCoord}} {
			if f.value != 0 {
				return bad(f.field, "%s: this algorithm has no timers, so there is no timeout to set: leave %s out", field(f.field), field(f.field))
			}
		}
	}
	if !c.Timed() || c.WithDefaults().Validate() != nil {
		return nil // no durations to check (Validate says what else is wrong)
	}
	times := c.timesOf(params)
	for _, t := range timers {
		if t.Duration == nil {
			return bad("Timing", "%s %s: the algorithm's timer %s has no Duration, so it cannot count ticks: give its model.Timer a Duration, such as func(t model.Times) int { return t.Timeout }",
				field("Timing"), c.Timing, t.Name)
		}
		if d := t.Duration(times); d < 1 {
			return bad("Timing", "%s %s: the algorithm's timer %s would run %d ticks (Duration with delay %d, timeout %d, timeout-coord %d): a timer runs 1 tick or more",
				field("Timing"), c.Timing, t.Name, d, times.Delay, times.Timeout, times.TimeoutCoord)
		}
	}
	return nil
}

// ValidateTimers checks c's options of time against alg's timers, naming
// the fields by name (as Config.ValidateNamed): a front end calls it for
// its users' words, New calls it with Go's.
func ValidateTimers[L, M any](alg Algorithm[L, M], c Config, name func(string) string) error {
	if t, ok := alg.(Timed[L, M]); ok {
		return validateTimers(c, t.Timers(), ParamsOf(alg), name)
	}
	return validateTimers[L, M](c, nil, ParamsOf(alg), name)
}

// armedTimer is the index of the timer armed in l, or -1 when none is; two
// armed at once (in a timed kernel, where a process has one timer) is the
// algorithm's error, raised as a *TimerConflictError.
func (k *Kernel[L, M]) armedTimer(l *L, p int) int {
	armed := -1
	for t := range k.timers {
		if !k.timers[t].Armed(l) {
			continue
		}
		if armed >= 0 {
			panic(&TimerConflictError{Process: k.name(p), Timers: [2]string{k.timers[armed].Name, k.timers[t].Name}, Local: fmt.Sprintf("%+v", *l)})
		}
		armed = t
	}
	return armed
}

// checkInitialTimers refuses, in a timed kernel, initial local states that
// arm two timers at once (a process has one timer); a timer armed in one
// runs from the initial state (section 6.4).
func (k *Kernel[L, M]) checkInitialTimers() error {
	if !k.shape.timed {
		return nil
	}
	check := func(what string, l L) error {
		armed := ""
		for _, t := range k.timers {
			if !t.Armed(&l) {
				continue
			}
			if armed != "" {
				return fmt.Errorf("the algorithm's %s arms two timers at once (%s and %s), but a process has one timer: arm at most one", what, armed, t.Name)
			}
			armed = t.Name
		}
		return nil
	}
	if err := check("initial local state (Init)", k.alg.Init()); err != nil {
		return err
	}
	if k.cfg.InitialLeader {
		for i := range k.layouts {
			maxID := slices.Max(k.layouts[i].ids)
			for _, id := range k.layouts[i].ids {
				if err := check(fmt.Sprintf("initial-leader state of ID %d (leader %d)", id, maxID), k.leader(maxID, id)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// TimerConflictError is an algorithm that armed two timers of one process
// at once in a timed mode, where a process has one timer (docs/semantics.md
// section 6.4). The kernel raises it as a panic from the step; check.Run
// returns it as an error.
type TimerConflictError struct {
	Process string    // "p3"
	Timers  [2]string // the two timers armed
	Local   string    // the process's local state, as Go prints it
}

func (e *TimerConflictError) Error() string {
	return fmt.Sprintf("the algorithm arms two timers of %s at once (%s and %s, in local state %s): in a timed mode a process has one timer, so disarm one before arming the other",
		e.Process, e.Timers[0], e.Timers[1], e.Local)
}

// Kinds lists the kinds of step this configuration can take, in the order
// of Kind: deliver and initiate always; timeouts with timers (their early
// form with the unreliable detector in the asynchronous mode, which has
// no clock); suspect with the unreliable and the eventual detector; crash and restart when
// they are allowed; tick in a timed mode and gst in the partial one.
func (k *Kernel[L, M]) Kinds() []Kind {
	c := &k.cfg
	has := [...]bool{
		KindDeliver:      true,
		KindInitiate:     true,
		KindTimeout:      len(k.timers) > 0,
		KindSuspect:      c.Detector == Unreliable || c.Detector == Eventual,
		KindEarlyTimeout: len(k.timers) > 0 && c.Detector == Unreliable && !c.Timed(),
		KindCrash:        c.MaxCrashes > 0,
		KindRestart:      c.MaxRestarts > 0,
		KindTick:         c.Timed(),
		KindGST:          c.Timing == Partial,
		KindHeartbeat:    k.hb.on,
	}
	var out []Kind
	for kind, ok := range has {
		if ok {
			out = append(out, Kind(kind))
		}
	}
	return out
}
