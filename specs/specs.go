// Package specs is the registry of built-in algorithms by their command-line
// names. Each algorithm lives in a package of its own below this one.
package specs

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/bully"
	"github.com/mcheck/mcheck/specs/changroberts"
	"github.com/mcheck/mcheck/specs/hirschsinclair"
	"github.com/mcheck/mcheck/specs/lelann"
	"github.com/mcheck/mcheck/specs/ring"
)

// Spec is a registered algorithm.
type Spec struct {
	Name    string
	Summary string
	// InitialLeader is the default of --initial-leader.
	InitialLeader bool
	// Build composes the algorithm under cfg into a transition system.
	Build func(cfg model.Config, preds []model.Predicate, opts ...model.Option) (model.System, error)
}

// Builder adapts an Algorithm to Spec.Build.
func Builder[L, M any](alg model.Algorithm[L, M]) func(model.Config, []model.Predicate, ...model.Option) (model.System, error) {
	return func(cfg model.Config, preds []model.Predicate, opts ...model.Option) (model.System, error) {
		k, err := model.New(alg, cfg, preds, opts...)
		if err != nil {
			return nil, err
		}
		return k, nil
	}
}

// Registry maps names to specs. The zero value is empty; Builtin() has the
// five algorithms of the course notes.
type Registry struct{ specs map[string]Spec }

// Register adds specs under their names. A name that is empty or already
// registered (a built-in one included) is an error, so that an algorithm
// never silently replaces another; the specs before it are kept.
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

// Names lists the registered names in sorted order.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.specs))
	for n := range r.specs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Builtin returns a registry of the built-in algorithms.
func Builtin() *Registry {
	r := &Registry{}
	// The built-in names are distinct: Register cannot fail here.
	r.Register(Spec{Name: "ring", Summary: "ring algorithm with ELECTION/ELECTED, no pruning", Build: Builder[ring.Local, ring.Msg](ring.Algorithm{})})
	r.Register(Spec{Name: "chang-roberts", Summary: "Chang-Roberts: ring with participant marks", Build: Builder[changroberts.Local, changroberts.Msg](changroberts.Algorithm{})})
	r.Register(Spec{Name: "lelann", Summary: "LeLann: every process collects the IDs on the ring", Build: Builder[lelann.Local, lelann.Msg](lelann.Algorithm{})})
	r.Register(Spec{Name: "hirschberg-sinclair", Summary: "Hirschberg-Sinclair: bidirectional ring, doubling probes", Build: Builder[hirschsinclair.Local, hirschsinclair.Msg](hirschsinclair.Algorithm{})})
	r.Register(Spec{Name: "bully", Summary: "Bully (Garcia-Molina): direct messages, timeouts", InitialLeader: true, Build: Builder[bully.Local, bully.Msg](bully.Algorithm{})})
	return r
}
