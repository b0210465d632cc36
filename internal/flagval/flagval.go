// Package flagval parses a command line with the flag package and reports
// a bad flag as data (which flag, which value, what is wrong), never by
// reading the flag package's English; and it has the flag.Values of the
// plain kinds (whole numbers, durations, booleans, strings) whose errors
// say how to write the value.
package flagval

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/agnivade/levenshtein"
)

// Problem is what is wrong with a flag on the command line.
type Problem int

const (
	// BadValue: the flag's value was rejected (Err says why).
	BadValue Problem = iota
	// Unknown: no flag has the name.
	Unknown
	// NoValue: a flag that takes a value came last without one.
	NoValue
	// BadSyntax: an argument starts with a dash but names no flag ("---x", "-=1").
	BadSyntax
)

// Error is a command line's first bad flag.
type Error struct {
	Problem Problem
	// Flag is the flag's name without dashes; for BadSyntax, the argument.
	Flag string
	// Value is the value given (BadValue).
	Value string
	// Err is the value's own error (BadValue).
	Err error
	// Like is the defined flag nearest to an Unknown one's name (a typo
	// of it), or "".
	Like string
}

// Error is one line in the command line's words: "--n: "x" is not a
// number: ...". The argument given is quoted as %q does, so that a newline
// in it does not break the line.
func (e *Error) Error() string {
	switch e.Problem {
	case Unknown:
		if e.Like != "" {
			return fmt.Sprintf("unknown flag --%s: did you mean --%s?", e.Flag, e.Like)
		}
		return fmt.Sprintf("unknown flag --%s", e.Flag)
	case NoValue:
		return fmt.Sprintf("--%s needs a value", e.Flag)
	case BadSyntax:
		return fmt.Sprintf("%q is not a flag: write flags as --name or --name=value", e.Flag)
	}
	return fmt.Sprintf("--%s: %v", e.Flag, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Parse parses args with fs, as fs.Parse does, and returns flag.ErrHelp
// for -h and --help, or an *Error for the first bad flag.
func Parse(fs *flag.FlagSet, args []string) error {
	p := &parse{args: args}
	fs.VisitAll(func(f *flag.Flag) {
		if r, ok := f.Value.(*recorded); ok {
			r.parse = p
			return
		}
		f.Value = &recorded{Value: f.Value, name: f.Name, parse: p}
	})
	err := fs.Parse(args)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return err
	case p.bad != nil:
		return p.bad
	}
	// The flag package stopped at args[p.next] without setting a value:
	// the argument names no flag, or its flag wants a value that is not
	// there.
	if p.next >= len(args) {
		return err // not reached: a flag package that stops elsewhere
	}
	arg := args[p.next]
	name := strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "-")
	if name == "" || name[0] == '-' || name[0] == '=' {
		return &Error{Problem: BadSyntax, Flag: arg}
	}
	name, _, _ = strings.Cut(name, "=")
	if fs.Lookup(name) == nil {
		return &Error{Problem: Unknown, Flag: name, Like: nearest(fs, name)}
	}
	return &Error{Problem: NoValue, Flag: name}
}

// parse follows the flag package through args: each flag it reads sets
// its value once, so next is the argument it reads after the last value set.
type parse struct {
	args []string
	next int
	bad  *Error
}

// recorded is a flag's Value that tells parse when it is set.
type recorded struct {
	flag.Value
	name  string
	parse *parse
}

func (r *recorded) IsBoolFlag() bool {
	b, ok := r.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func (r *recorded) Set(s string) error {
	if err := r.Value.Set(s); err != nil {
		r.parse.bad = &Error{Problem: BadValue, Flag: r.name, Value: s, Err: err}
		return err
	}
	p := r.parse
	if p.next < len(p.args) {
		// --name=value and a boolean flag take one argument, --name value two.
		arg := p.args[p.next]
		p.next++
		if !strings.Contains(arg, "=") && !r.IsBoolFlag() {
			p.next++
		}
	}
	return nil
}

// nearest is the flag of fs whose name is fewest edits from name, at most
// two and fewer than name has letters (a typo, not another word), the
// first in fs's (sorted) order of those as near; "" if none is.
func nearest(fs *flag.FlagSet, name string) string {
	best, dist := "", min(3, len(name))
	fs.VisitAll(func(f *flag.Flag) {
		if d := levenshtein.ComputeDistance(name, f.Name); d < dist {
			best, dist = f.Name, d
		}
	})
	return best
}
