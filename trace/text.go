package trace

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/model"
)

// CycleWords say which steps a lasso's cycle repeats, first to last, and
// where the run goes after last, in the one numbering that the text, the
// charts and the explorer page use: the cycle's first step is the one after
// the state (File.CycleStart) that the last step returns to.
func CycleWords(first, last int) (repeat, back string) {
	repeat = fmt.Sprintf("steps %d-%d repeat forever", first, last)
	if first == last {
		repeat = fmt.Sprintf("step %d repeats forever", first)
	}
	return repeat, fmt.Sprintf("back to step %d", first)
}

// PremiseWords mark the step of a leads-to's counterexample where its
// premise holds, in the text, the charts and the explorer page alike.
const PremiseWords = "premise holds here; its goal never does from here on"

// TimedWords explain a timed run's notation (docs/semantics.md section 6), in
// the text, the charts' legends and the explorer page alike.
const TimedWords = "timed: a tick advances the clock; a message shows its age in ticks after @, marked (due) at the delay D: delivered before the next tick, or (late) at D before gst: it may wait any number of ticks; a timer shows its ticks left"

// TimeWords name the time after a step of a timed run, t ticks so far
// (File.Times), in the charts and the explorer page alike: "t=3".
func TimeWords(t int) string { return "t=" + strconv.Itoa(t) }

// WriteText renders f for people: the initial state in full, then each
// step's action and the fields it changed ("p3.elected: ⊥ → 9"), or with
// full the whole state after every step. A lasso's cycle is marked, and
// so is the step where a leads-to's premise holds.
func WriteText(w io.Writer, f *File, full bool) {
	fmt.Fprintf(w, "%s %s, %s:\n", Printable(f.Property), f.Kind.Text(), plural.Count(len(f.Steps)-1, "step"))
	if f.Config.Timing != "" {
		fmt.Fprintf(w, "      (%s)\n", TimedWords)
	}
	if c := f.SendCap(); c > 0 {
		fmt.Fprintf(w, "      (sends counted since the initial state, each count up to %d: %d means %d or more)\n", c, c, c)
	}
	// The cycle starts with the step after the state the last step returns
	// to: steps first..last repeat forever.
	first, last := -1, len(f.Steps)-1
	if f.CycleStart != nil {
		first = *f.CycleStart + 1
	}
	for i, s := range f.Steps {
		mark := ""
		switch {
		case first < 0:
		case i == first && i == last:
			mark = "   ◀ cycle: this step repeats forever"
		case i == first:
			repeat, _ := CycleWords(first, last)
			mark = "   ◀ cycle starts here (" + repeat + ")"
		case i == last:
			_, back := CycleWords(first, last)
			mark = "   ↩ " + back
		}
		if f.Premise != nil && *f.Premise == i {
			mark += "   ◀ " + PremiseWords
		}
		if race := RaceWords(f, i); race != "" {
			mark += "   ◀ " + race
		}
		fmt.Fprintf(w, "%4d  %s%s\n", i, Printable(s.Label()), mark)
		if i == 0 || full {
			fmt.Fprintf(w, "      %s\n", Printable(StateText(s.State, f.Config.Delay)))
			continue
		}
		changes := DiffMarked(f.Steps[i-1].State, s.State, f.Config.Delay)
		if len(changes) == 0 {
			fmt.Fprintln(w, "      (no change)")
		}
		for _, c := range changes {
			fmt.Fprintf(w, "      %s: %s → %s\n", Printable(c.Name), Printable(c.Old), Printable(c.New))
		}
	}
}

// Change is one field that a step changed.
type Change struct{ Name, Old, New string }

// Diff lists the fields that differ between two states (compared as data,
// rendered as text), in the order of the fields of b (then those only in
// a); a channel absent from a state is empty, []. In a timed mode a
// channel whose messages or ages changed is one change, its messages with
// their ages ("chan p3→p2: [OK(3)@0] → [OK(3)@1]").
func Diff(a, b model.Snapshot) []Change { return DiffMarked(a, b, 0) }

// DiffMarked is Diff with each timed message of age delay marked
// (MarkedContents): "chan p3→p2: [OK(3)@0] → [OK(3)@1(due)]".
func DiffMarked(a, b model.Snapshot, delay int) []Change {
	af, bf := a.Fields(), b.Fields()
	old := make(map[string]model.Value, len(af))
	for _, f := range af {
		old[f.Name] = f.Value
	}
	seen := make(map[string]bool, len(bf))
	empty := model.Seq()
	var out []Change
	// A timed channel's two fields, messages and ages, change as one.
	contents := func(s model.Snapshot) map[string]string {
		m := map[string]string{}
		for _, c := range s.Channels {
			if c.Ages != nil {
				text := MarkedContents(c, delay, s.GST)
				m[c.Field()], m[c.AgesField()] = text, text
			}
		}
		return m
	}
	ac, bc, done := contents(a), contents(b), map[string]bool{}
	change := func(name, o, n string) {
		_, aTimed := ac[name]
		_, bTimed := bc[name]
		if !aTimed && !bTimed {
			out = append(out, Change{name, o, n})
			return
		}
		ends := strings.TrimPrefix(strings.TrimPrefix(name, "chan "), "ages ")
		if name = "chan " + ends; done[name] {
			return
		}
		done[name] = true
		out = append(out, Change{name, cmp.Or(ac[name], empty.String()), cmp.Or(bc[name], empty.String())})
	}
	for _, f := range bf {
		seen[f.Name] = true
		o, ok := old[f.Name]
		if !ok {
			o = empty
		}
		if !o.Equal(f.Value) {
			change(f.Name, o.String(), f.Value.String())
		}
	}
	for _, f := range af {
		if !seen[f.Name] && !f.Value.Equal(empty) {
			change(f.Name, f.Value.String(), empty.String())
		}
	}
	return out
}

// Printable is s with every character that is not printable escaped as Go
// writes it in a string (\x1b, \n, \u202e), and bytes that are not UTF-8
// as \xff: text from an algorithm or a file never reaches a terminal, a
// chart or a log as a control sequence.
func Printable(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, notPrintable) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case notPrintable(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
		i += n
	}
	return b.String()
}

func notPrintable(r rune) bool { return !unicode.IsPrint(r) }
