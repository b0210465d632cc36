// Package msc draws a counterexample (a trace file) as a message-sequence
// chart: one lane per process, an arrow per message from the step that sent
// it to the step that delivered it, crashes and restarts as marks on the
// lanes, decisions (elected := 9) as notes, and a lasso's cycle bracketed.
// SVG draws the chart for people and READMEs; Mermaid writes a Mermaid
// sequenceDiagram, which GitHub renders in Markdown and job summaries.
//
// Messages are not named in a trace, so they are worked out from the
// snapshots: a message that appears at the tail of chan(p,q) at step i was
// sent at step i, a "deliver p→q M" step takes the head of chan(p,q), and a
// message that leaves a channel otherwise (the channels into a crashed
// process are emptied) is lost. What is still in a channel at the end is in
// flight.
package msc

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/trace"
)

// Fates of a message.
const (
	delivered = iota
	lost      // taken out of its channel by a crash of its receiver
	inFlight  // still in its channel at the end of the trace
)

// message is one message instance.
type message struct {
	from, to int // lanes
	text     string
	sent     int // the row (step) that sent it; 0 for one in a channel initially
	end      int // the row that delivered or lost it; the last row when in flight
	fate     int
}

// Kinds of mark on a lane.
const (
	markCrash = iota
	markRestart
	markStart   // initiate, detect, suspect
	markTimeout // the timeouts, early or not
	markOther   // an action mcheck does not know: drawn with its name
)

// mark is an action that happens at one process: everything but a delivery.
type mark struct {
	row, lane int
	kind      int
	text      string // "initiate", "timeout-ok", ...
}

// note is a decision: a change of a process's elected field.
type note struct {
	row, lane int
	text      string // "elected := 9"
}

// row is one step.
type row struct {
	step    int
	action  string
	changes []string // every changed field, for a tooltip
	deliver int      // the message this step delivers, or -1
}

// chart is a trace worked out into what a chart draws.
type chart struct {
	f        *trace.File
	lanes    []string // process names, in ring order
	rows     []row
	msgs     []message
	marks    []mark
	notes    []note
	alive    [][]bool // alive[row][lane]: after the step
	cycle    int      // the row a lasso's cycle starts at, or -1
	kinds    []string // message names ("ELECTION") in order of first appearance
	warnings []string // what could not be matched, for the chart's foot
}

// instance is a message in a channel while the trace is walked.
type instance struct {
	text string
	msg  int // index into chart.msgs
}

type chanKey struct{ from, to int }

// Undecided is how a trace shows "no leader" (elected = ⊥).
const Undecided = "⊥"

// analyze works a trace out into a chart.
func analyze(f *trace.File) (*chart, error) {
	if f == nil || len(f.Steps) == 0 {
		return nil, fmt.Errorf("msc: the trace has no steps")
	}
	c := &chart{f: f, cycle: -1}
	if f.CycleStart != nil {
		c.cycle = *f.CycleStart
	}
	lane := map[string]int{}
	for _, p := range f.Steps[0].State.Processes {
		lane[p.Name] = len(c.lanes)
		c.lanes = append(c.lanes, p.Name)
	}
	if len(c.lanes) == 0 {
		return nil, fmt.Errorf("msc: the trace has no processes")
	}
	laneOf := func(name string) (int, bool) {
		i, ok := lane[name]
		return i, ok
	}
	kindSeen := map[string]bool{}
	addMsg := func(m message) int {
		k := msgKind(m.text)
		if !kindSeen[k] {
			kindSeen[k] = true
			c.kinds = append(c.kinds, k)
		}
		c.msgs = append(c.msgs, m)
		return len(c.msgs) - 1
	}

	queues := map[chanKey][]instance{}
	channels := func(s model.Snapshot) (map[chanKey][]string, error) {
		out := map[chanKey][]string{}
		for _, ch := range s.Channels {
			a, ok1 := laneOf(ch.From)
			b, ok2 := laneOf(ch.To)
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("msc: channel %s→%s names an unknown process", ch.From, ch.To)
			}
			out[chanKey{a, b}] = ch.Messages
		}
		return out, nil
	}
	first, err := channels(f.Steps[0].State)
	if err != nil {
		return nil, err
	}
	for _, k := range sortedKeys(first) {
		for _, text := range first[k] {
			queues[k] = append(queues[k], instance{text, addMsg(message{from: k.from, to: k.to, text: text})})
		}
	}
	c.rows = append(c.rows, row{step: 0, action: f.Steps[0].Action, deliver: -1})
	c.alive = append(c.alive, aliveOf(f.Steps[0].State, len(c.lanes)))
	for i, p := range f.Steps[0].State.Processes {
		if v, ok := field(p, "elected"); ok && v != Undecided && p.Alive {
			c.notes = append(c.notes, note{row: 0, lane: i, text: "elected = " + v})
		}
	}

	for i := 1; i < len(f.Steps); i++ {
		prev, cur := f.Steps[i-1].State, f.Steps[i].State
		if len(cur.Processes) != len(c.lanes) {
			return nil, fmt.Errorf("msc: step %d has %d processes, step 0 has %d", i, len(cur.Processes), len(c.lanes))
		}
		r := row{step: i, action: f.Steps[i].Action, deliver: -1}
		for _, ch := range trace.Diff(prev, cur) {
			r.changes = append(r.changes, ch.Name+": "+ch.Old+" → "+ch.New)
		}
		verb, target, dk, isDeliver := parseAction(r.action, laneOf)

		now, err := channels(cur)
		if err != nil {
			return nil, err
		}
		keys := map[chanKey]bool{}
		for k := range queues {
			keys[k] = true
		}
		for k := range now {
			keys[k] = true
		}
		for _, k := range sortedKeys(keys) {
			old, next := queues[k], now[k]
			need := 0
			if isDeliver && k == dk && len(old) > 0 {
				need = 1
			}
			// The fewest messages taken from the head that leave the rest
			// of the old queue as the head of the new one.
			taken := len(old)
			for n := need; n <= len(old); n++ {
				if isPrefix(old[n:], next) {
					taken = n
					break
				}
			}
			for j, in := range old[:taken] {
				m := &c.msgs[in.msg]
				m.end = i
				if j == 0 && need == 1 {
					m.fate = delivered
					r.deliver = in.msg
				} else {
					m.fate = lost
				}
			}
			q := slices.Clone(old[taken:])
			for _, text := range next[len(q):] {
				q = append(q, instance{text, addMsg(message{from: k.from, to: k.to, text: text, sent: i})})
			}
			if len(q) == 0 {
				delete(queues, k)
			} else {
				queues[k] = q
			}
		}
		if isDeliver && r.deliver < 0 {
			c.warnings = append(c.warnings, fmt.Sprintf("step %d: no message to deliver in %s", i, r.action))
		}

		if !isDeliver && target >= 0 {
			c.marks = append(c.marks, mark{row: i, lane: target, kind: markKindOf(verb), text: verb})
		}
		for j, p := range cur.Processes {
			op := prev.Processes[j]
			if !p.Alive {
				continue // a crash resets the local state: the mark says it
			}
			was, _ := field(op, "elected")
			is, ok := field(p, "elected")
			if ok && (is != was || !op.Alive && is != Undecided) {
				c.notes = append(c.notes, note{row: i, lane: j, text: "elected := " + is})
			}
		}
		c.rows = append(c.rows, r)
		c.alive = append(c.alive, aliveOf(cur, len(c.lanes)))
	}
	last := len(c.rows) - 1
	for _, q := range queues {
		for _, in := range q {
			c.msgs[in.msg].end = last
			c.msgs[in.msg].fate = inFlight
		}
	}
	return c, nil
}

// parseAction reads "deliver p2→p3 ELECTION(9)" or "crash p4".
func parseAction(action string, laneOf func(string) (int, bool)) (verb string, target int, ch chanKey, isDeliver bool) {
	words := strings.Fields(action)
	target = -1
	if len(words) < 2 {
		return action, -1, ch, false
	}
	verb = words[0]
	if verb == "deliver" {
		from, to, ok := strings.Cut(words[1], "→")
		a, ok1 := laneOf(from)
		b, ok2 := laneOf(to)
		if ok && ok1 && ok2 {
			return verb, b, chanKey{a, b}, true
		}
		return verb, -1, ch, false
	}
	if l, ok := laneOf(words[1]); ok {
		target = l
	}
	return verb, target, ch, false
}

func markKindOf(verb string) int {
	switch {
	case verb == "crash":
		return markCrash
	case verb == "restart":
		return markRestart
	case verb == "initiate", verb == "detect", verb == "suspect":
		return markStart
	case strings.Contains(verb, "timeout"):
		return markTimeout
	}
	return markOther
}

// msgKind is the name of a message: "ELECTION" of "ELECTION(9)".
func msgKind(text string) string {
	if i := strings.IndexAny(text, "( "); i > 0 {
		return text[:i]
	}
	return text
}

func isPrefix(q []instance, texts []string) bool {
	if len(q) > len(texts) {
		return false
	}
	for i, in := range q {
		if in.text != texts[i] {
			return false
		}
	}
	return true
}

func field(p model.ProcessSnapshot, name string) (string, bool) {
	for _, f := range p.Fields {
		if f.Name == name {
			return f.Value, true
		}
	}
	return "", false
}

func aliveOf(s model.Snapshot, n int) []bool {
	a := make([]bool, n)
	for i, p := range s.Processes {
		if i < n {
			a[i] = p.Alive
		}
	}
	return a
}

func sortedKeys[V any](m map[chanKey]V) []chanKey {
	keys := make([]chanKey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b chanKey) int {
		if a.from != b.from {
			return a.from - b.from
		}
		return a.to - b.to
	})
	return keys
}
