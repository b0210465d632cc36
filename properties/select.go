package properties

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcheck/mcheck/model"
)

// Select resolves a comma list of property names and group words
// (case-insensitive; "-" and "_" are ignored) against the properties an
// algorithm has, and returns the selected names in the order of all. "all"
// selects every property that is not optional; a group word every property
// of that group; "" is "all".
func Select(all []model.PropertyInfo, list string) ([]string, error) {
	on := make([]bool, len(all))
	if strings.TrimSpace(list) == "" {
		list = "all"
	}
	for _, w := range strings.Split(list, ",") {
		key := normalize(w)
		found := false
		for i, p := range all {
			if key == "all" && !p.Optional || normalize(p.Name) == key || slices.ContainsFunc(p.Groups, func(g string) bool { return normalize(g) == key }) {
				on[i], found = true, true
			}
		}
		if !found && key != "all" {
			return nil, fmt.Errorf("unknown property %q: use a comma list of %s", strings.TrimSpace(w), strings.Join(Words(all), ", "))
		}
	}
	var names []string
	for i, p := range all {
		if on[i] {
			names = append(names, p.Name)
		}
	}
	return names, nil
}

// Words lists what Select accepts: every property name, every group, "all".
func Words(all []model.PropertyInfo) []string {
	var words, groups []string
	for _, p := range all {
		words = append(words, p.Name)
		for _, g := range p.Groups {
			if !slices.Contains(groups, g) {
				groups = append(groups, g)
			}
		}
	}
	return append(append(words, groups...), "all")
}

func normalize(s string) string {
	return strings.ToLower(strings.NewReplacer("-", "", "_", "", " ", "").Replace(s))
}

// Check returns the properties of all named in names, in that order; it
// fails on an unknown or repeated name.
func Check[L, M any](all []model.Property[L, M], names []string) ([]model.Property[L, M], error) {
	var out []model.Property[L, M]
	for _, n := range names {
		i := slices.IndexFunc(all, func(p model.Property[L, M]) bool { return p.Name == n })
		if i < 0 {
			return nil, fmt.Errorf("no property %q", n)
		}
		if slices.ContainsFunc(out, func(p model.Property[L, M]) bool { return p.Name == n }) {
			return nil, fmt.Errorf("property %q selected twice", n)
		}
		out = append(out, all[i])
	}
	return out, nil
}

// Duplicate returns a name that two of the properties share, or "".
func Duplicate(all []model.PropertyInfo) string {
	for i, p := range all {
		for _, q := range all[:i] {
			if normalize(p.Name) == normalize(q.Name) {
				return p.Name
			}
		}
	}
	return ""
}
