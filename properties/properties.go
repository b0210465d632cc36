// Package properties defines the correctness properties of leader election
// (semantics.md section 2) as predicates over model.Procs.
package properties

import (
	"fmt"
	"strings"

	"github.com/mcheck/mcheck/model"
)

// Property names, as the command line and reports spell them.
const (
	SingleLeader = "SingleLeader"
	Agreement    = "Agreement"
	Stable       = "Stable"
	Termination  = "Termination"
)

// Predicate indices in Predicates().
const (
	IdxSingleLeader = iota
	IdxAgreement
	IdxStable
)

// Predicates returns the state predicates every kernel evaluates, in the
// order of the Idx constants.
func Predicates() []model.Predicate {
	return []model.Predicate{
		{Name: SingleLeader, Holds: singleLeader},
		{Name: Agreement, Holds: agreement},
		{Name: Stable, Holds: stable},
	}
}

// leader(p) ≡ alive[p] ∧ elected[p] = ids[p]; at most one.
func singleLeader(v *model.Procs) bool {
	leaders := 0
	for p := 0; p < v.N; p++ {
		if v.IsAlive(p) && v.Elected[p] == v.ID[p] {
			leaders++
		}
	}
	return leaders <= 1
}

// Live processes whose elected values are set and name live processes agree.
func agreement(v *model.Procs) bool {
	seen := 0
	for p := 0; p < v.N; p++ {
		e := v.Elected[p]
		if !v.IsAlive(p) || e == 0 || !v.AliveID(e) {
			continue
		}
		if seen != 0 && e != seen {
			return false
		}
		seen = e
	}
	return true
}

// Every live process has elected the largest live ID.
func stable(v *model.Procs) bool {
	maxLive := 0
	for p := 0; p < v.N; p++ {
		if v.IsAlive(p) {
			maxLive = max(maxLive, v.ID[p])
		}
	}
	for p := 0; p < v.N; p++ {
		if v.IsAlive(p) && v.Elected[p] != maxLive {
			return false
		}
	}
	return true
}

// Selection is which properties a check covers.
type Selection struct {
	SingleLeader, Agreement, Termination bool
}

// All selects every property.
var All = Selection{true, true, true}

// Names lists the selected properties in report order.
func (s Selection) Names() []string {
	var out []string
	for _, x := range []struct {
		on   bool
		name string
	}{{s.SingleLeader, SingleLeader}, {s.Agreement, Agreement}, {s.Termination, Termination}} {
		if x.on {
			out = append(out, x.name)
		}
	}
	return out
}

// ParseSelection reads --check: a comma list of property names
// (case-insensitive), "safety" for SingleLeader and Agreement, or "all".
func ParseSelection(list string) (Selection, error) {
	var s Selection
	for _, w := range strings.Split(list, ",") {
		switch strings.ToLower(strings.TrimSpace(w)) {
		case "all":
			s = All
		case "safety":
			s.SingleLeader, s.Agreement = true, true
		case "singleleader", "single-leader":
			s.SingleLeader = true
		case "agreement":
			s.Agreement = true
		case "termination", "liveness":
			s.Termination = true
		default:
			return s, fmt.Errorf("--check: unknown property %q: use a comma list of SingleLeader, Agreement, Termination, or safety, all", w)
		}
	}
	return s, nil
}
