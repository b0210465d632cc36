package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/trace"
)

// counterexampleFiles are the counterexamples of r: its own, and with
// --timeout auto those of the largest values that fail (one file a
// name, the T's first, so that --trace-out DIR/ keeps each).
func counterexampleFiles(r *check.Report) []*trace.File {
	files := r.Files()
	if p := r.ParamSearch; p != nil && p.Failure != nil && p.Failure != r {
		files = append(files, p.Failure.Files()...)
	}
	t := r.Timeouts
	if t == nil {
		return files
	}
	seen := map[string]bool{}
	for _, f := range files {
		seen[traceName(f)] = true
	}
	for _, rep := range []*check.Report{t.Failure, t.CoordFailure} {
		if rep == nil {
			continue
		}
		for _, f := range rep.Files() {
			if !seen[traceName(f)] {
				seen[traceName(f)] = true
				files = append(files, f)
			}
		}
	}
	return files
}

// timerWords puts a timer too long for the state encoding
// (model.TimerWidthError, which knows only the ticks) in the words of the
// flags: the one given, or those that set the default that is too long,
// and the values that fit. Other errors are returned as they are.
func (o *options) timerWords(err error) error {
	var wide *model.TimerWidthError
	given := o.cfg // as the flags gave it (0: the default)
	if !errors.As(err, &wide) || !given.Timed() {
		return err
	}
	timeoutFlag := "--timeout"
	if o.model.AutoTimeout {
		given.Timeout, timeoutFlag = 1, "--timeout auto (from T 1)" // where the search starts, and fails
	}
	most := wide.Max
	for _, f := range []struct {
		flag  string
		value int
	}{{"--timeout-coord", given.TimeoutCoord}, {"--timeout", given.Timeout}} {
		if f.value > most {
			return fmt.Errorf("%s %d is too long for the state encoding: a timer runs at most %d ticks; give %s %d or less", f.flag, f.value, most, f.flag, most)
		}
	}
	full := given.WithDefaults()
	var long longTimer
	switch wide.Ticks {
	case full.TimeoutCoord:
		long = longTimer{"T2", "--timeout-coord", "2T+2D", func(c model.Config) int { return c.TimeoutCoord }}
	case full.Timeout:
		long = longTimer{"T", "--timeout", "2D+1", func(c model.Config) int { return c.Timeout }}
	default: // a timer of the algorithm's own making, from D, T and T2
		return fmt.Errorf("a timer of %d ticks, from delay %d, timeout %d and timeout-coord %d, does not fit the state encoding: a timer runs at most %d ticks; give a smaller --delay, --timeout or --timeout-coord",
			wide.Ticks, full.Delay, full.Timeout, full.TimeoutCoord, most)
	}
	return long.tooLong(given, timeoutFlag, most)
}

// longTimer is a default timer of Bully's that is too long: its name,
// the flag that sets it, the formula of its default and its value.
type longTimer struct {
	name, flag, formula string
	of                  func(model.Config) int
}

// tooLong blames the flags the default was computed from (given: as the
// flags gave them), and says the largest value of each that fits.
func (long longTimer) tooLong(given model.Config, timeoutFlag string, most int) error {
	full := given.WithDefaults()
	fits := func(c model.Config) bool {
		c = c.WithDefaults()
		return long.of(c) <= most && (given.Timeout != 0 || c.Timeout <= most)
	}
	var blame, fixes []string
	for _, f := range []struct {
		flag  string
		value int
		set   func(*model.Config, int)
	}{
		{timeoutFlag, given.Timeout, func(c *model.Config, v int) { c.Timeout = v }},
		{"--delay", given.Delay, func(c *model.Config, v int) { c.Delay = v }},
	} {
		if f.value == 0 || (long.name == "T" && f.flag != "--delay") {
			continue
		}
		blame = append(blame, fmt.Sprintf("%s %d", f.flag, f.value))
		if f.flag != "--timeout" && f.flag != "--delay" {
			blame[len(blame)-1] = f.flag // auto: no value to lower
			continue
		}
		for v := min(f.value, most); v >= 1; v-- {
			c := given
			c.IDs, c.N = nil, 0
			if f.set(&c, v); fits(c) {
				fixes = append(fixes, fmt.Sprintf("%s %d or less", f.flag, v))
				break
			}
		}
	}
	if long.name == "T2" && given.Timeout == 0 && full.Timeout > most {
		fixes = append(fixes, fmt.Sprintf("--timeout and --timeout-coord of %d or less", most))
	} else {
		fixes = append(fixes, fmt.Sprintf("%s %d or less", long.flag, most))
	}
	from := "the default delay"
	if len(blame) > 0 {
		from = strings.Join(blame, " and ")
	}
	return fmt.Errorf("with %s, %s defaults to %s = %d ticks, too long for the state encoding (a timer runs at most %d ticks): give %s",
		from, long.name, long.formula, long.of(full), most, strings.Join(fixes, ", or "))
}
