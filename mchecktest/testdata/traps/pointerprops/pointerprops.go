// Package pointerprops is a trap that compiles: model.CheckMethods must refuse it.
package pointerprops

import (
	"example.com/traps/ring"
	"github.com/mcheck/mcheck/model"
)

// Algorithm is the ring algorithm with Properties on the pointer receiver:
// Algorithm{} does not have it.
type Algorithm struct{ ring.Algorithm }

func (*Algorithm) Properties() []model.Property[ring.Local, ring.Msg] {
	return []model.Property[ring.Local, ring.Msg]{{
		Name: "NeverElected", Kind: model.Invariant,
		Holds: func(v *model.View[ring.Local, ring.Msg]) bool { return v.Elected(0) == 0 },
	}}
}
