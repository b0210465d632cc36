// Package msc draws a counterexample (a trace file) as a message-sequence
// chart: one lane per process, an arrow per message from the step that sent
// it to the step that delivered it, crashes and restarts as marks on the
// lanes, decisions (elected := 9) as notes, and a lasso's cycle bracketed.
// SVG draws the chart for people and READMEs; Mermaid writes a Mermaid
// sequenceDiagram, which GitHub renders in Markdown and job summaries.
//
// Message instances are not numbered in a trace, so they are worked out
// from the snapshots (as data): a message that appears at the tail of
// chan(p,q) at step i was sent at step i, a delivery step from p to q takes
// the head of chan(p,q), and a message that leaves a channel otherwise (the
// channels into a crashed process are emptied) is lost. What is still in a
// channel at the end is in flight.
package msc

import (
	"fmt"
	"slices"

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
	from, to int    // lanes
	text     string // the message rendered
	sent     int    // the row (step) that sent it; 0 for one in a channel initially
	end      int    // the row that delivered or lost it; the last row when in flight
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
	premise bool     // a leads-to's premise holds after this step
}

// premiseMark follows the action of the step where a leads-to's premise
// holds, in the charts' gutter.
const premiseMark = "  ◀ premise"

// gutter is the row's text in the chart's gutter: its action, marked where
// a leads-to's premise holds.
func (r row) gutter() string {
	if r.premise {
		return r.action + premiseMark
	}
	return r.action
}

// chart is a trace worked out into what a chart draws.
type chart struct {
	f        *trace.File
	lanes    []string // process names, in ring order
	rows     []row
	msgs     []message
	marks    []mark
	notes    []note
	alive    [][]bool          // alive[row][lane]: after the step
	cycle    int               // the row a lasso's cycle starts at, or -1
	kinds    []string          // message types ("ELECTION") in order of first appearance
	kindOf   map[string]string // a message's text → its type
	warnings []string          // what could not be matched, for the chart's foot
}

// instance is a message in a channel while the trace is walked.
type instance struct {
	val model.Value
	msg int // index into chart.msgs
}

type chanKey struct{ from, to int }

// analyze works a trace out into a chart.
func analyze(f *trace.File) (*chart, error) {
	if f == nil || len(f.Steps) == 0 {
		return nil, fmt.Errorf("msc: the trace has no steps")
	}
	c := &chart{f: f, cycle: -1, kindOf: map[string]string{}}
	if f.CycleStart != nil {
		c.cycle = *f.CycleStart
	}
	lane := map[string]int{} // process name (distinct, unlike IDs with --anonymous) → lane
	for _, p := range f.Steps[0].State.Processes {
		lane[p.Name()] = len(c.lanes)
		c.lanes = append(c.lanes, p.Name())
	}
	if len(c.lanes) == 0 {
		return nil, fmt.Errorf("msc: the trace has no processes")
	}
	laneOf := func(name string) (int, bool) {
		i, ok := lane[name]
		return i, ok
	}
	kindSeen := map[string]bool{}
	addMsg := func(m message, v model.Value) int {
		m.text = v.String()
		k := v.Type()
		if k == "" {
			k = m.text
		}
		c.kindOf[m.text] = k
		if !kindSeen[k] {
			kindSeen[k] = true
			c.kinds = append(c.kinds, k)
		}
		c.msgs = append(c.msgs, m)
		return len(c.msgs) - 1
	}

	queues := map[chanKey][]instance{}
	channels := func(s model.Snapshot) (map[chanKey][]model.Value, error) {
		out := map[chanKey][]model.Value{}
		for _, ch := range s.Channels {
			a, ok1 := laneOf(ch.FromName())
			b, ok2 := laneOf(ch.ToName())
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("msc: channel %s names an unknown process", ch.Ends())
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
		for _, v := range first[k] {
			queues[k] = append(queues[k], instance{v, addMsg(message{from: k.from, to: k.to}, v)})
		}
	}
	premise := -1
	if f.Premise != nil {
		premise = *f.Premise
	}
	c.rows = append(c.rows, row{step: 0, action: f.Steps[0].Label(), deliver: -1, premise: premise == 0})
	c.alive = append(c.alive, aliveOf(f.Steps[0].State, len(c.lanes)))
	for i, p := range f.Steps[0].State.Processes {
		if v, ok := p.Field("elected"); ok && !v.IsNone() && p.Alive {
			c.notes = append(c.notes, note{row: 0, lane: i, text: "elected = " + v.String()})
		}
	}

	for i := 1; i < len(f.Steps); i++ {
		prev, cur := f.Steps[i-1].State, f.Steps[i].State
		if len(cur.Processes) != len(c.lanes) {
			return nil, fmt.Errorf("msc: step %d has %d processes, step 0 has %d", i, len(cur.Processes), len(c.lanes))
		}
		r := row{step: i, action: f.Steps[i].Label(), deliver: -1, premise: premise == i}
		for _, ch := range trace.Diff(prev, cur) {
			r.changes = append(r.changes, ch.Name+": "+ch.Old+" → "+ch.New)
		}
		target, dk, isDeliver := placeStep(f.Steps[i].Step, laneOf)

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
			for _, v := range next[len(q):] {
				q = append(q, instance{v, addMsg(message{from: k.from, to: k.to, sent: i}, v)})
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

		if st := f.Steps[i].Step; !isDeliver && target >= 0 {
			c.marks = append(c.marks, mark{row: i, lane: target, kind: markKindOf(st.Kind), text: st.Action})
		}
		for j, p := range cur.Processes {
			op := prev.Processes[j]
			if !p.Alive {
				continue // a crash resets the local state: the mark says it
			}
			was, _ := op.Field("elected")
			is, ok := p.Field("elected")
			if ok && (!is.Equal(was) || !op.Alive && !is.IsNone()) {
				c.notes = append(c.notes, note{row: i, lane: j, text: "elected := " + is.String()})
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

// placeStep finds the lane of the process that takes a step and, for a
// delivery, the channel it takes from.
func placeStep(s *model.StepInfo, laneOf func(string) (int, bool)) (target int, ch chanKey, isDeliver bool) {
	b, ok := laneOf(s.ProcessName())
	if !ok {
		return -1, ch, false
	}
	if s.Kind == model.KindDeliver {
		a, ok := laneOf(s.PeerName())
		if !ok {
			return -1, ch, false
		}
		return b, chanKey{a, b}, true
	}
	return b, ch, false
}

func markKindOf(k model.Kind) int {
	switch k {
	case model.KindCrash:
		return markCrash
	case model.KindRestart:
		return markRestart
	case model.KindInitiate, model.KindSuspect:
		return markStart
	case model.KindTimeout, model.KindEarlyTimeout:
		return markTimeout
	}
	return markOther
}

func isPrefix(q []instance, vals []model.Value) bool {
	if len(q) > len(vals) {
		return false
	}
	for i, in := range q {
		if !in.val.Equal(vals[i]) {
			return false
		}
	}
	return true
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
