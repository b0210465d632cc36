package model

import (
	"fmt"
	"slices"
	"strings"
)

// Param is a named integer parameter of an algorithm (Parameterized): a
// heartbeat period, a lease, a retry bound. Its value is part of the
// configuration (Config.Params), so it is part of every trace and every
// report of the configuration, and it changes nothing but what the
// algorithm reads of it (Times.Param, Ctx.Param).
type Param struct {
	// Name is how a user names it: --param H=2, Config.Params["H"].
	Name string
	// Default is its value when not given; Min and Max bound the values
	// it may be given (Min <= Default <= Max).
	Default, Min, Max int
	// Doc says what it is, in a few words: "the heartbeat period, in
	// ticks".
	Doc string
	// Field, when set, is the Config field that holds the value instead
	// of Params: Bully's T and T2 are Config.Timeout and
	// Config.TimeoutCoord ("Timeout", "TimeoutCoord"), whose defaults
	// depend on the delay (Default 0: the field's default).
	Field string
}

// Parameterized algorithms declare parameters (Param). Without it an
// algorithm has none, and a configuration that gives one is refused.
type Parameterized interface{ Params() []Param }

// ParamsOf is the parameters alg declares, or nil.
func ParamsOf(alg any) []Param {
	if p, ok := alg.(Parameterized); ok {
		return p.Params()
	}
	return nil
}

// ParamsList says the parameters in one line, for errors and help:
// "H (1 to 20, default 2: the heartbeat period), L (1 to 40, default 5: the
// lease)".
func ParamsList(params []Param) string {
	if len(params) == 0 {
		return "it declares none"
	}
	words := make([]string, len(params))
	for i, p := range params {
		words[i] = fmt.Sprintf("%s (%d to %d, default %d", p.Name, p.Min, p.Max, p.Default)
		if p.Field != "" && p.Default == 0 {
			words[i] = fmt.Sprintf("%s (%d to %d", p.Name, p.Min, p.Max) // the Doc says the default
		}
		if p.Doc != "" {
			words[i] += ": " + p.Doc
		}
		words[i] += ")"
	}
	return strings.Join(words, ", ")
}

// checkParams checks the declarations themselves: names unique and
// non-empty, Min <= Default <= Max.
func checkParams(params []Param) error {
	for i, p := range params {
		switch {
		case p.Name == "" || strings.ContainsAny(p.Name, "=, \t"):
			return fmt.Errorf("Params: parameter %d is named %q: give each parameter a name without spaces, commas or '='", i, p.Name)
		case slices.ContainsFunc(params[:i], func(q Param) bool { return q.Name == p.Name }):
			return fmt.Errorf("Params: two parameters are named %s", p.Name)
		case p.Min > p.Max:
			return fmt.Errorf("Params: parameter %s has Min %d above Max %d", p.Name, p.Min, p.Max)
		case p.Field == "" && (p.Default < p.Min || p.Default > p.Max):
			return fmt.Errorf("Params: parameter %s has Default %d outside %d to %d", p.Name, p.Default, p.Min, p.Max)
		case p.Field != "" && p.Field != "Timeout" && p.Field != "TimeoutCoord":
			return fmt.Errorf("Params: parameter %s names Field %q: only Timeout and TimeoutCoord hold parameters", p.Name, p.Field)
		}
	}
	return nil
}

// ResolveParams reads c.Params against the parameters an algorithm
// declares: a parameter held by a Config field (Param.Field) moves there,
// the others stay in Params with the defaults of those not given filled
// in (nil when the algorithm declares none of its own). A name not
// declared, a value out of range, or a field parameter given twice with
// different values is an error naming the fields by name (as
// ValidateNamed), listing the declared parameters.
func ResolveParams(params []Param, c Config, name func(field string) string) (Config, error) {
	field := fieldNamer(name)
	if err := checkParams(params); err != nil {
		return c, err
	}
	bad := func(format string, args ...any) error {
		return &FieldError{Field: "Params", msg: fmt.Sprintf(format, args...)}
	}
	names := make([]string, 0, len(c.Params))
	for n := range c.Params {
		names = append(names, n)
	}
	slices.Sort(names) // the first mistake named is always the same one
	var own map[string]int
	for _, n := range names {
		v := c.Params[n]
		i := slices.IndexFunc(params, func(p Param) bool { return p.Name == n })
		if i < 0 {
			return c, bad("%s %s=%d: the algorithm has no parameter %s; %s", field("Params"), n, v, n, paramsWords(params))
		}
		p := params[i]
		if v < p.Min || v > p.Max {
			return c, bad("%s %s=%d is out of range: give %s from %d to %d; %s", field("Params"), n, v, n, p.Min, p.Max, paramsWords(params))
		}
		switch p.Field {
		case "Timeout":
			if c.Timeout != 0 && c.Timeout != v {
				return c, bad("%s %s=%d and %s %d set the same timeout: give only one of them", field("Params"), n, v, field("Timeout"), c.Timeout)
			}
			c.Timeout = v
		case "TimeoutCoord":
			if c.TimeoutCoord != 0 && c.TimeoutCoord != v {
				return c, bad("%s %s=%d and %s %d set the same timeout: give only one of them", field("Params"), n, v, field("TimeoutCoord"), c.TimeoutCoord)
			}
			c.TimeoutCoord = v
		default:
			if own == nil {
				own = map[string]int{}
			}
			own[n] = v
		}
	}
	for _, p := range params {
		if _, given := own[p.Name]; p.Field == "" && !given {
			if own == nil {
				own = map[string]int{}
			}
			own[p.Name] = p.Default
		}
	}
	c.Params = own
	return c, nil
}

func paramsWords(params []Param) string {
	if len(params) == 0 {
		return "the algorithm declares no parameters"
	}
	return "its parameters are " + ParamsList(params)
}

// Param is the value of the algorithm's parameter name: its Config.Params
// entry (defaults filled in by the kernel), or for Bully's T and T2 the
// timeouts. An undeclared name is the algorithm's error: it panics.
func (t Times) Param(name string) int {
	if v, ok := t.params[name]; ok {
		return v
	}
	panic(fmt.Sprintf("model: Times.Param(%q): the algorithm declares no parameter %s (model.Parameterized)", name, name))
}

// TimesOf is c's durations with the values of params, defaults filled in
// (as the kernel gives them to the timers' Duration); a parameter given
// wrongly is left out (ResolveParams says what is wrong).
func TimesOf(params []Param, c Config) Times {
	if r, err := ResolveParams(params, c, nil); err == nil {
		c = r
	}
	return c.timesOf(params)
}

// timesOf is c's durations with the values of params, for the timers'
// Duration and the handlers (c resolved by ResolveParams).
func (c Config) timesOf(params []Param) Times {
	t := c.Times()
	if len(params) == 0 {
		return t
	}
	t.params = make(map[string]int, len(params))
	for _, p := range params {
		switch p.Field {
		case "Timeout":
			t.params[p.Name] = t.Timeout
		case "TimeoutCoord":
			t.params[p.Name] = t.TimeoutCoord
		default:
			t.params[p.Name] = c.Params[p.Name]
		}
	}
	return t
}

// Param is the value of the algorithm's parameter name, for handlers (as
// Times.Param).
func (c *Ctx[M]) Param(name string) int { return c.env.param(name) }
