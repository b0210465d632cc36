package modelopt

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcheck/mcheck/internal/flagval"
	"github.com/mcheck/mcheck/model"
)

// The flag.Value types of the model's flags.

// OptBool is a bool flag that remembers whether it was given, for defaults
// that depend on the algorithm (--initial-leader).
type OptBool struct{ Given, Value bool }

// IsBoolFlag lets the flag be given without a value.
func (b *OptBool) IsBoolFlag() bool { return true }

func (b *OptBool) String() string {
	if b == nil || !b.Given {
		return "algorithm's default"
	}
	return strconv.FormatBool(b.Value)
}

func (b *OptBool) Set(s string) error {
	v, err := flagval.ParseBool(s)
	if err != nil {
		return fmt.Errorf("%w: give the flag alone for true, or =false", err)
	}
	b.Given, b.Value = true, v
	return nil
}

// idList is a comma list of positive IDs; for --ids, "perm" too (every
// arrangement of 1..N).
type idList struct {
	ids  *[]int
	perm *bool
}

func (l idList) String() string {
	if l.ids == nil || *l.ids == nil {
		return ""
	}
	return model.IDList(*l.ids)
}

func (l idList) Set(s string) error {
	if l.perm != nil && strings.TrimSpace(s) == "perm" {
		*l.perm, *l.ids = true, nil
		return nil
	}
	var ids []int
	for _, w := range strings.Split(s, ",") {
		w = strings.TrimSpace(w)
		v, err := strconv.Atoi(w)
		if err != nil {
			return fmt.Errorf("%q is not a number: give comma-separated positive integers like 3,9,4,8", w)
		}
		if v <= 0 {
			return fmt.Errorf("%d is not positive: IDs are positive integers like 3,9,4,8", v)
		}
		ids = append(ids, v)
	}
	*l.ids = ids
	if l.perm != nil {
		*l.perm = false // the last --ids counts
	}
	return nil
}

// enumFlag reads one of an enumeration's names (--detector, --timing)
// with parse; use says which, where a name is unknown.
type enumFlag[T fmt.Stringer] struct {
	v     *T
	parse func(string) (T, error)
	use   string
}

func (f enumFlag[T]) String() string {
	if f.v == nil {
		var zero T
		return zero.String()
	}
	return (*f.v).String()
}

func (f enumFlag[T]) Set(s string) error {
	v, err := f.parse(s)
	if err != nil {
		return fmt.Errorf("%q is unknown: %s (docs/model.md explains them)", s, f.use)
	}
	*f.v = v
	return nil
}

// orAuto reads a number or auto, where auto asks the command line to
// search for the value: --max-queue auto deepens the channel bound,
// --timeout auto looks for the smallest T that holds.
type orAuto struct {
	k    *int
	auto *bool
	// unset is k's value when no number is given (auto included), shown
	// as dflt; use says what to give instead of something else.
	unset     int
	dflt, use string
	// most is the largest number the flag takes, said of a number too
	// large to read.
	most int
}

func (f orAuto) String() string {
	if f.auto != nil && *f.auto {
		return "auto"
	}
	if f.k == nil || *f.k == f.unset {
		return f.dflt
	}
	return strconv.Itoa(*f.k)
}

func (f orAuto) Set(s string) error {
	s = strings.TrimSpace(s)
	if s == "auto" {
		*f.auto, *f.k = true, f.unset
		return nil
	}
	v, err := strconv.Atoi(s)
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("%q is out of range: give a whole number from 1 to %d, or auto", s, f.most)
	}
	if err != nil {
		return fmt.Errorf("%q is not a number: %s", s, f.use)
	}
	*f.auto, *f.k = false, v
	return nil
}

// paramFlag reads --param NAME=V, repeatable, or several as NAME=V,NAME=V;
// V may be auto for one NAME (Given.AutoParam). Which names the algorithm
// has is checked once it is known (Given.ResolveParams).
type paramFlag struct{ g *Given }

func (f paramFlag) String() string {
	if f.g == nil {
		return ""
	}
	return ParamsArg(f.g.Config.Params)
}

func (f paramFlag) Set(s string) error {
	for _, w := range strings.Split(s, ",") {
		name, v, ok := strings.Cut(strings.TrimSpace(w), "=")
		name, v = strings.TrimSpace(name), strings.TrimSpace(v)
		if !ok || name == "" {
			return fmt.Errorf("%q is not NAME=V: give a parameter's name and value, like L=5 (or L=auto)", w)
		}
		if v == "auto" {
			if f.g.AutoParam != "" && f.g.AutoParam != name {
				return fmt.Errorf("%s=auto and %s=auto: one parameter is searched at a time, give the other a value", f.g.AutoParam, name)
			}
			f.g.AutoParam = name
			delete(f.g.Config.Params, name)
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("%s=%s: %q is not a whole number: give one, like %s=5, or %s=auto", name, v, v, name, name)
		}
		if f.g.Config.Params == nil {
			f.g.Config.Params = map[string]int{}
		}
		f.g.Config.Params[name] = n
		if f.g.AutoParam == name {
			f.g.AutoParam = "" // the last one given counts
		}
	}
	return nil
}
