package flagval

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// The plain kinds of flag, defined on a flag.FlagSet as its IntVar and
// the like do, with errors that say how to write the value. Each knows its
// flag's name, for the example in its error.

// IntVar defines a whole-number flag.
func IntVar(fs *flag.FlagSet, p *int, name string, value int) {
	*p = value
	fs.Var(&intValue[int]{p: p, name: name, bits: strconv.IntSize}, name, "")
}

// IntVarIn is IntVar for a flag whose values lie in [lo, hi]: a number
// too large (or small) to read at all is said to be out of that range.
// Values inside int's range are the caller's to check, with its own words.
func IntVarIn(fs *flag.FlagSet, p *int, name string, value, lo, hi int) {
	*p = value
	fs.Var(&intValue[int]{p: p, name: name, bits: strconv.IntSize, lo: int64(lo), hi: int64(hi), ranged: true}, name, "")
}

// Int64VarIn is IntVarIn for a 64-bit flag.
func Int64VarIn(fs *flag.FlagSet, p *int64, name string, value, lo, hi int64) {
	*p = value
	fs.Var(&intValue[int64]{p: p, name: name, bits: 64, lo: lo, hi: hi, ranged: true}, name, "")
}

// Int64Var defines a 64-bit whole-number flag.
func Int64Var(fs *flag.FlagSet, p *int64, name string, value int64) {
	*p = value
	fs.Var(&intValue[int64]{p: p, name: name, bits: 64}, name, "")
}

// DurationVar defines a duration flag: a number and a unit, like 90s.
func DurationVar(fs *flag.FlagSet, p *time.Duration, name string, value time.Duration) {
	*p = value
	fs.Var(&durationValue{p: p, name: name}, name, "")
}

// BoolVar defines a boolean flag: --name for true, --name=false.
func BoolVar(fs *flag.FlagSet, p *bool, name string, value bool) {
	*p = value
	fs.Var(&boolValue{p: p, name: name}, name, "")
}

// StringVar defines a string flag (any value is one).
func StringVar(fs *flag.FlagSet, p *string, name string, value string) {
	*p = value
	fs.Var((*stringValue)(p), name, "")
}

// String defines a string flag and returns where its value is.
func String(fs *flag.FlagSet, name string, value string) *string {
	p := new(string)
	StringVar(fs, p, name, value)
	return p
}

// Bool defines a boolean flag and returns where its value is.
func Bool(fs *flag.FlagSet, name string, value bool) *bool {
	p := new(bool)
	BoolVar(fs, p, name, value)
	return p
}

type intValue[T int | int64] struct {
	p    *T
	name string
	bits int
	// lo and hi, when ranged, are the flag's own range, which an
	// unreadable number is said to be out of.
	lo, hi int64
	ranged bool
}

func (v *intValue[T]) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.FormatInt(int64(*v.p), 10)
}

func (v *intValue[T]) Set(s string) error {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 0, v.bits)
	switch {
	case errors.Is(err, strconv.ErrRange) && v.ranged:
		return fmt.Errorf("%q is out of range: give a whole number from %d to %d", s, v.lo, v.hi)
	case errors.Is(err, strconv.ErrRange):
		return fmt.Errorf("%q is out of range: give a whole number from %d to %d", s, int64(math.MinInt64>>(64-v.bits)), int64(math.MaxInt64>>(64-v.bits)))
	case err != nil:
		return fmt.Errorf("%q is not a number: give a whole number, like --%s 3", s, v.name)
	}
	*v.p = T(n)
	return nil
}

type durationValue struct {
	p    *time.Duration
	name string
}

func (v *durationValue) String() string {
	if v.p == nil {
		return "0s"
	}
	return v.p.String()
}

func (v *durationValue) Set(s string) error {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err == nil {
		*v.p = d
		return nil
	}
	if _, numErr := strconv.ParseFloat(strings.TrimSpace(s), 64); numErr == nil {
		// The mistake to name: a duration needs its unit.
		return fmt.Errorf("%q has no unit: a duration is a number and a unit, like --%s %ss (or m, h)", s, v.name, strings.TrimSpace(s))
	}
	return fmt.Errorf("%q is not a duration: write a number and a unit, like --%s 90s, 5m or 1h30m", s, v.name)
}

type boolValue struct {
	p    *bool
	name string
}

func (v *boolValue) IsBoolFlag() bool { return true }

func (v *boolValue) String() string { return strconv.FormatBool(v.p != nil && *v.p) }

func (v *boolValue) Set(s string) error {
	b, err := ParseBool(s)
	if err != nil {
		return fmt.Errorf("%w: write --%s for true, or --%s=false", err, v.name, v.name)
	}
	*v.p = b
	return nil
}

// ParseBool reads a boolean flag's value, as the flag package does
// (true, false, 1, 0, t, f, in any case).
func ParseBool(s string) (bool, error) {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, fmt.Errorf("%q is not true or false", s)
	}
	return b, nil
}

type stringValue string

func (v *stringValue) String() string {
	if v == nil {
		return ""
	}
	return string(*v)
}

func (v *stringValue) Set(s string) error { *v = stringValue(s); return nil }
