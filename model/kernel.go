package model

import (
	"fmt"
	"sync/atomic"

	"github.com/mcheck/mcheck/ts"
)

// Kernel composes N processes of one algorithm into the global transition
// system of semantics.md section 1. It is immutable after New (but for what
// Triggered observes) and safe to share; each goroutine expands states
// through its own Expander.
type Kernel[L, M any] struct {
	alg      Algorithm[L, M]
	cfg      Config
	n        int
	layouts  []layout // arrangements of IDs; the first names fairness classes
	shape    shape    // the optional fields of its states (state.go)
	fair     fairness // the weak-fairness classes (fairness.go)
	keys     keys     // of the fingerprint's places (fingerprint.go)
	timers   []Timer[L, M]
	codec    Codec[L, M]
	props    []Property[L, M]
	stepMask uint64 // bits of the step properties
	initName string
	restart  Restarter[L, M]
	leader   Leaderer[L]
	format   LocalFormatter[L, M]
	generic  bool
	around   []Dir // RingLocal's directions, or nil
	typer    MsgTyper[M]
	types    []string
	// triggered has bit i set once a step was one step property i
	// speaks of (Property.When): an observation of the search that
	// reaches no state, trace or count, so set from any worker.
	triggered atomic.Uint64
}

// Option changes how a Kernel is built.
type Option func(*options)

type options struct{ generic bool }

// WithGenericHashing makes the kernel ignore the algorithm's Codec and
// identify local states and messages with hashstructure/v2, as it does for
// algorithms without a Codec. Tests use it to show both paths agree.
func WithGenericHashing() Option { return func(o *options) { o.generic = true } }

// New builds the global system of alg under cfg, evaluating props on every
// generated state (or step): predicate i of the system is props[i].
func New[L, M any](alg Algorithm[L, M], cfg Config, props []Property[L, M], opts ...Option) (*Kernel[L, M], error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(props) > 64 {
		return nil, fmt.Errorf("at most 64 properties in one check, got %d", len(props))
	}
	k := &Kernel[L, M]{alg: alg, cfg: cfg, n: cfg.N, props: props, initName: "initiate", keys: newKeys(cfg.N)}
	for i := range props {
		if err := props[i].validate(); err != nil {
			return nil, err
		}
		if props[i].Kind == StepProperty {
			k.stepMask |= 1 << i
		}
	}
	var err error
	if k.layouts, err = layouts(&cfg); err != nil {
		return nil, err
	}
	if t, ok := alg.(Timed[L, M]); ok {
		k.timers = t.Timers()
	}
	if err := checkWidths(&cfg, len(k.timers)); err != nil {
		return nil, err
	}
	k.shape = shape{layouts: len(k.layouts)}
	if nm, ok := alg.(InitiateNamer); ok {
		k.initName = nm.InitiateName()
	}
	if rl, ok := alg.(RingLocal); ok {
		k.around = rl.Around()
		if len(k.around) == 0 {
			return nil, fmt.Errorf("RingLocal: Around() names no direction")
		}
	}
	k.types = []string{"MSG"}
	if t, ok := alg.(MsgTyper[M]); ok {
		k.typer, k.types = t, t.MsgTypes()
		if len(k.types) == 0 || len(k.types) > MaxMsgTypes {
			return nil, fmt.Errorf("MsgTyper: %d message types: name 1 to %d", len(k.types), MaxMsgTypes)
		}
	}
	k.fair = k.newFairness()
	k.restart, _ = alg.(Restarter[L, M])
	k.leader, _ = alg.(Leaderer[L])
	k.format, _ = alg.(LocalFormatter[L, M])
	if cfg.InitialLeader && k.leader == nil {
		return nil, fmt.Errorf("--initial-leader: this algorithm defines no initial-leader state")
	}
	if c, ok := alg.(Codec[L, M]); ok && !o.generic {
		k.codec = c
	} else {
		ic, err := newInternCodec[L, M]()
		if err != nil {
			return nil, err
		}
		k.codec, k.generic = ic, true
	}
	return k, nil
}

// Triggered has bit i set when some step taken so far was one that step
// property i speaks of (Property.When); see Vacuity.
func (k *Kernel[L, M]) Triggered() uint64 { return k.triggered.Load() }

// MsgTypes implements Messenger.
func (k *Kernel[L, M]) MsgTypes() []string { return k.types }

// msgType indexes MsgTypes.
func (k *Kernel[L, M]) msgType(m *M) int {
	if k.typer == nil {
		return 0
	}
	return k.typer.MsgType(m)
}

// Config is the configuration with defaults filled in.
func (k *Kernel[L, M]) Config() Config { return k.cfg }

// Generic reports whether states are identified through hashstructure/v2.
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

// NewExpander implements ts.System; the expander is also an Expander
// (ExpanderOf).
func (k *Kernel[L, M]) NewExpander() ts.Expander { return k.newExpander() }

func (k *Kernel[L, M]) newExpander() *expander[L, M] {
	e := &expander[L, M]{k: k}
	e.cur.init(k.n)
	e.nxt.init(k.n)
	e.h.init(k.n)
	e.chanStamp = make([]uint32, k.n*k.n)
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
