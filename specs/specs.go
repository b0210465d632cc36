// Package specs is the registry of built-in algorithms by their command-line
// names. Each algorithm lives in a package of its own below this one.
package specs

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
	"github.com/mcheck/mcheck/specs/bully"
	"github.com/mcheck/mcheck/specs/changroberts"
	"github.com/mcheck/mcheck/specs/hirschsinclair"
	"github.com/mcheck/mcheck/specs/lelann"
	"github.com/mcheck/mcheck/specs/ring"
	"github.com/mcheck/mcheck/specs/ringtimeout"
)

// Spec is a registered algorithm.
type Spec struct {
	Name    string
	Summary string
	// InitialLeader is the default of --initial-leader.
	InitialLeader bool
	// Build composes the algorithm into transition systems (Builder).
	Build Factory
}

// Factory builds the transition systems of one algorithm and knows which
// properties they can check.
type Factory interface {
	// Properties lists every property of the algorithm: the standard ones,
	// its own, and any added for this spec, in that order.
	Properties() []model.PropertyInfo
	// System composes the algorithm under cfg, evaluating the named
	// properties (predicate i is check[i]; after them, the premises of
	// its leads-to properties, model.Predicates).
	System(cfg model.Config, check []string, opts ...model.Option) (model.System, error)
}

// Builder adapts an Algorithm to a Factory. Its properties are the standard
// ones (properties.Standard), those the algorithm declares
// (model.Propertied), and extra. An optional method that mcheck would never
// call (model.CheckMethods) makes Register and System fail.
func Builder[L, M any](alg model.Algorithm[L, M], extra ...model.Property[L, M]) Factory {
	all := properties.Standard[L, M]()
	if own, ok := alg.(model.Propertied[L, M]); ok {
		all = append(all, own.Properties()...)
	}
	return &builder[L, M]{alg: alg, all: append(all, extra...), methods: model.CheckMethods(alg)}
}

type builder[L, M any] struct {
	alg     model.Algorithm[L, M]
	all     []model.Property[L, M]
	methods error // model.CheckMethods
}

// Methods is model.CheckMethods of the algorithm (for Register).
func (b *builder[L, M]) Methods() error { return b.methods }

func (b *builder[L, M]) Properties() []model.PropertyInfo {
	infos := make([]model.PropertyInfo, len(b.all))
	for i, p := range b.all {
		infos[i] = p.Info()
	}
	return infos
}

func (b *builder[L, M]) System(cfg model.Config, check []string, opts ...model.Option) (model.System, error) {
	if b.methods != nil {
		return nil, b.methods
	}
	if d := properties.Duplicate(b.Properties()); d != "" {
		return nil, fmt.Errorf("two properties are named %s", d)
	}
	props, err := properties.Check(b.all, check)
	if err != nil {
		return nil, err
	}
	k, err := model.New(b.alg, cfg, model.Predicates(props), opts...)
	if err != nil {
		return nil, err
	}
	return k, nil
}

// ValidateTimers checks cfg's options of time against the algorithm's
// timers (model.ValidateTimers), naming the fields by name, so that a
// front end says what is wrong in its own words before it builds the
// system. A Factory of its own is checked when it builds the system.
func (s Spec) ValidateTimers(cfg model.Config, name func(field string) string) error {
	if b, ok := s.Build.(interface {
		validateTimers(model.Config, func(string) string) error
	}); ok {
		return b.validateTimers(cfg, name)
	}
	return nil
}

func (b *builder[L, M]) validateTimers(cfg model.Config, name func(string) string) error {
	return model.ValidateTimers(b.alg, cfg, name)
}

// Params are the parameters the algorithm declares (model.Parameterized),
// or nil (also for a Factory of its own).
func (s Spec) Params() []model.Param {
	if b, ok := s.Build.(interface{ params() []model.Param }); ok {
		return b.params()
	}
	return nil
}

func (b *builder[L, M]) params() []model.Param { return model.ParamsOf(b.alg) }

// Registry maps names to specs. The zero value is empty; Builtin() has the
// five algorithms of the course notes.
type Registry struct{ specs map[string]Spec }

// Register adds specs under their names. A name that is empty or already
// registered (a built-in one included) is an error, so that an algorithm
// never silently replaces another, and so is an optional method that
// mcheck would never call (model.CheckMethods); the specs before it are
// kept.
func (r *Registry) Register(specs ...Spec) error {
	for _, s := range specs {
		switch _, taken := r.specs[s.Name]; {
		case s.Name == "":
			return fmt.Errorf("register: a spec needs a Name")
		case s.Build == nil:
			return fmt.Errorf("register %q: the spec has no Build (use specs.Builder(yourAlgorithm))", s.Name)
		case taken:
			return fmt.Errorf("register %q: the name is taken (%s); give your algorithm another name", s.Name, strings.Join(r.Names(), ", "))
		}
		if m, ok := s.Build.(interface{ Methods() error }); ok && m.Methods() != nil {
			return fmt.Errorf("register %q: %w", s.Name, m.Methods())
		}
		if r.specs == nil {
			r.specs = map[string]Spec{}
		}
		r.specs[s.Name] = s
	}
	return nil
}

// Lookup finds a spec by name.
func (r *Registry) Lookup(name string) (Spec, error) {
	if s, ok := r.specs[name]; ok {
		return s, nil
	}
	return Spec{}, fmt.Errorf("unknown algorithm %q: use one of %s", name, strings.Join(r.Names(), ", "))
}

// Properties lists every property of the algorithm registered as name
// (what trace.Replay needs of a registry).
func (r *Registry) Properties(name string) ([]model.PropertyInfo, error) {
	s, err := r.Lookup(name)
	if err != nil {
		return nil, err
	}
	return s.Build.Properties(), nil
}

// System composes the algorithm registered as name under cfg, evaluating
// the properties named in check (Factory.System).
func (r *Registry) System(name string, cfg model.Config, check []string, opts ...model.Option) (model.System, error) {
	s, err := r.Lookup(name)
	if err != nil {
		return nil, err
	}
	return s.Build.System(cfg, check, opts...)
}

// Names lists the registered names in sorted order.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.specs))
	for n := range r.specs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// The compiler checks that every built-in algorithm keeps its fast path (a
// lost Codec method would silently fall back to hashing) and its own
// properties (a mistyped Properties method would silently drop them).
var (
	_ model.Codec[ring.Local, ring.Msg]                          = ring.Algorithm{}
	_ model.Codec[changroberts.Local, changroberts.Msg]          = changroberts.Algorithm{}
	_ model.Codec[lelann.Local, lelann.Msg]                      = lelann.Algorithm{}
	_ model.Codec[hirschsinclair.Local, hirschsinclair.Msg]      = hirschsinclair.Algorithm{}
	_ model.Codec[bully.Local, bully.Msg]                        = bully.Algorithm{}
	_ model.Codec[ringtimeout.Local, ringtimeout.Msg]            = ringtimeout.Algorithm{}
	_ model.Propertied[ring.Local, ring.Msg]                     = ring.Algorithm{}
	_ model.Propertied[changroberts.Local, changroberts.Msg]     = changroberts.Algorithm{}
	_ model.Propertied[lelann.Local, lelann.Msg]                 = lelann.Algorithm{}
	_ model.Propertied[hirschsinclair.Local, hirschsinclair.Msg] = hirschsinclair.Algorithm{}
	_ model.Propertied[bully.Local, bully.Msg]                   = bully.Algorithm{}
)

// Builtin returns a registry of the built-in algorithms.
func Builtin() *Registry {
	r := &Registry{}
	// The built-in names are distinct: Register cannot fail here.
	r.Register(Spec{Name: "ring", Summary: "ring algorithm with ELECTION/ELECTED, no pruning", Build: Builder[ring.Local, ring.Msg](ring.Algorithm{})})
	r.Register(Spec{Name: "chang-roberts", Summary: "Chang-Roberts: ring with participant marks", Build: Builder[changroberts.Local, changroberts.Msg](changroberts.Algorithm{})})
	r.Register(Spec{Name: "lelann", Summary: "LeLann: every process collects the IDs on the ring", Build: Builder[lelann.Local, lelann.Msg](lelann.Algorithm{})})
	r.Register(Spec{Name: "hirschberg-sinclair", Summary: "Hirschberg-Sinclair: bidirectional ring, doubling probes", Build: Builder[hirschsinclair.Local, hirschsinclair.Msg](hirschsinclair.Algorithm{})})
	r.Register(Spec{Name: "ring-timeout", Summary: "ring algorithm whose predecessor suspects a silent successor by a timeout", Build: Builder[ringtimeout.Local, ringtimeout.Msg](ringtimeout.Algorithm{})})
	r.Register(Spec{Name: "bully", Summary: "Bully (Garcia-Molina): direct messages, timeouts", InitialLeader: true, Build: Builder[bully.Local, bully.Msg](bully.Algorithm{})})
	return r
}
