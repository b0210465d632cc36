// Package msc draws a counterexample (a trace file) as a message-sequence
// chart: one lane per process, an arrow per message from the step that sent
// it to the step that delivered it, crashes and restarts as marks on the
// lanes, decisions (elected := 9) as notes, and a lasso's cycle bracketed.
// A timed run (docs/semantics.md section 6) has a time axis: each tick is a rule
// across the lanes labelled with the time after it (t=3), so an arrow spans
// the time slices of its delay; gst is a rule of its own; a timer that is
// set is a note (timer := 2), and it runs as a bar on its lane until its
// timeout fires or it is stopped.
// SVG draws the chart for people and READMEs; Mermaid writes a Mermaid
// sequenceDiagram, which GitHub renders in Markdown and job summaries.
//
// Message instances come from the steps' data (the kernel's, which
// trace.New records): a message that step i sends (trace.Step.Sends) joins
// the tail of its channel at row i, a delivery step from p to q takes the
// head of chan(p,q), and a crash of q loses the messages on their way to
// it. What is still in a channel at the end is in flight.
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
	// age is its age in ticks where it ends: when delivered or lost (in
	// the state before), or at the end; 0 in an untimed run.
	age int
	// mark is its age's mark there (trace.AgeMark): due, late, or none.
	mark string
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

// note is a decision (a change of the leader a process has elected, as
// the algorithm's Elected reads it) or, in a
// timed run, a timer set by a step (a timer note).
type note struct {
	row, lane int
	text      string // "elected := 9", "timer := 2"
	timer     bool
}

// timerSpan is a process's timer running: from the row that set it to the
// row that fired, stopped or set it anew (or the process crashed), or to
// the last row.
type timerSpan struct {
	lane, from, to int
	set            int // the ticks it was set to
	end            int // timerFired, ...
}

// How a timer's span ends.
const (
	timerFired   = iota // its timeout was taken
	timerStopped        // a step set it off
	timerReset          // a step set it anew
	timerCrashed        // its process crashed
	timerRunning        // still running after the last step
)

// row is one step.
type row struct {
	step    int
	action  string
	changes []string // every changed field, for a tooltip
	deliver int      // the message this step delivers, or -1
	premise bool     // a leads-to's premise holds after this step
	// In a timed run: the time after the step (the ticks so far), and
	// whether the step is a tick or gst.
	time      int
	tick, gst bool
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
	timed    bool              // the run has time (docs/semantics.md section 6)
	timers   []timerSpan
}

// instance is a message in a channel while the trace is walked.
type instance struct {
	msg int // index into chart.msgs
	age int // in the state of the row walked last
}

type chanKey struct{ from, to int }

// walker is a trace being worked out into a chart, step by step.
type walker struct {
	c        *chart
	lane     map[string]int // process name (distinct, unlike IDs with --anonymous) → lane
	queues   map[chanKey][]instance
	kindSeen map[string]bool
}

// analyze works a trace out into a chart. The messages come from the
// steps' data: what each step sends (trace.Step.Sends), which message a
// delivery takes (the head of its channel), and what a crash loses (the
// messages on their way to the crashed process); the snapshots give only
// the messages in the channels initially and their ages.
func analyze(f *trace.File) (*chart, error) {
	if f == nil || len(f.Steps) == 0 {
		return nil, fmt.Errorf("msc: the trace has no steps")
	}
	c := &chart{f: f, cycle: -1, kindOf: map[string]string{}}
	if f.CycleStart != nil {
		c.cycle = *f.CycleStart
	}
	w := &walker{c: c, lane: map[string]int{}, queues: map[chanKey][]instance{}, kindSeen: map[string]bool{}}
	for _, p := range f.Steps[0].State.Processes {
		w.lane[p.Name()] = len(c.lanes)
		c.lanes = append(c.lanes, p.Name())
	}
	if len(c.lanes) == 0 {
		return nil, fmt.Errorf("msc: the trace has no processes")
	}
	if err := w.initial(f.Steps[0].State); err != nil {
		return nil, err
	}
	premise := -1
	if f.Premise != nil {
		premise = *f.Premise
	}
	times := f.Times()
	c.rows = append(c.rows, row{step: 0, action: f.Steps[0].Label(), deliver: -1, premise: premise == 0})
	c.alive = append(c.alive, aliveOf(f.Steps[0].State, len(c.lanes)))
	for i, p := range f.Steps[0].State.Processes {
		if p.Elected != 0 && p.Alive {
			c.notes = append(c.notes, note{row: 0, lane: i, text: "elected = " + electedText(p.Elected)})
		}
	}
	for i := 1; i < len(f.Steps); i++ {
		r := row{step: i, action: f.Steps[i].Label(), deliver: -1, premise: premise == i, time: times[i]}
		if err := w.step(i, &r); err != nil {
			return nil, err
		}
		c.rows = append(c.rows, r)
		c.alive = append(c.alive, aliveOf(f.Steps[i].State, len(c.lanes)))
	}
	last := len(c.rows) - 1
	for _, q := range w.queues {
		for _, in := range q {
			m := &c.msgs[in.msg]
			m.end, m.fate, m.age = last, inFlight, in.age
			m.mark = trace.AgeMark(in.age, f.Config.Delay, f.Steps[last].State.GST)
		}
	}
	c.timed = f.Config.Timing != ""
	c.timersOf(f)
	return c, nil
}

func (w *walker) laneOf(name string) (int, bool) {
	i, ok := w.lane[name]
	return i, ok
}

// addMsg adds a message instance with its text and type.
func (w *walker) addMsg(m message, v model.Value) int {
	c := w.c
	m.text = v.String()
	k := v.Type()
	if k == "" {
		k = m.text
	}
	c.kindOf[m.text] = k
	if !w.kindSeen[k] {
		w.kindSeen[k] = true
		c.kinds = append(c.kinds, k)
	}
	c.msgs = append(c.msgs, m)
	return len(c.msgs) - 1
}

// channels are the non-empty channels of a state by their lanes.
func (w *walker) channels(s model.Snapshot) (map[chanKey]model.ChannelSnapshot, error) {
	out := map[chanKey]model.ChannelSnapshot{}
	for _, ch := range s.Channels {
		a, ok1 := w.laneOf(ch.FromName())
		b, ok2 := w.laneOf(ch.ToName())
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("msc: channel %s names an unknown process", ch.Ends())
		}
		out[chanKey{a, b}] = ch
	}
	return out, nil
}

// initial takes the messages in the channels of the initial state, sent
// at row 0.
func (w *walker) initial(s model.Snapshot) error {
	first, err := w.channels(s)
	if err != nil {
		return err
	}
	for _, k := range sortedKeys(first) {
		for _, v := range first[k].Messages {
			w.queues[k] = append(w.queues[k], instance{msg: w.addMsg(message{from: k.from, to: k.to}, v)})
		}
	}
	w.age(first)
	return nil
}

// step walks step i into row r: what it delivers, loses and sends, its
// mark and its decisions.
func (w *walker) step(i int, r *row) error {
	c, f := w.c, w.c.f
	prev, cur := f.Steps[i-1].State, f.Steps[i].State
	if len(cur.Processes) != len(c.lanes) {
		return fmt.Errorf("msc: step %d has %d processes, step 0 has %d", i, len(cur.Processes), len(c.lanes))
	}
	st := f.Steps[i].Step
	if f.Steps[i].Sends == nil {
		return fmt.Errorf("msc: step %d has no record of what it sends: draw the run as the model renders it (trace.New, or trace.Replayed for a file)", i)
	}
	r.tick, r.gst = st.Kind == model.KindTick, st.Kind == model.KindGST
	for _, ch := range trace.DiffMarked(prev, cur, f.Config.Delay) {
		r.changes = append(r.changes, ch.Name+": "+ch.Old+" → "+ch.New)
	}
	target, dk, isDeliver := placeStep(st, w.laneOf)
	now, err := w.channels(cur)
	if err != nil {
		return err
	}
	if isDeliver {
		w.deliver(dk, i, r)
	}
	if st.Kind == model.KindCrash && target >= 0 {
		w.loseTo(target, i)
	}
	if err := w.send(i, f.Steps[i].Sends); err != nil {
		return err
	}
	w.age(now)
	if !isDeliver && target >= 0 && !r.tick && !r.gst {
		c.marks = append(c.marks, mark{row: i, lane: target, kind: markKindOf(st.Kind), text: st.Action})
	}
	w.decisions(i, prev, cur)
	return nil
}

// deliver: step i (row r) takes the head of channel k.
func (w *walker) deliver(k chanKey, i int, r *row) {
	q := w.queues[k]
	if len(q) == 0 {
		w.c.warnings = append(w.c.warnings, fmt.Sprintf("step %d: no message to deliver in %s", i, r.action))
		return
	}
	w.end(q[0], i, delivered)
	r.deliver = q[0].msg
	w.queues[k] = q[1:]
}

// loseTo: a crash of the process of lane to, at step i, loses the
// messages on their way to it.
func (w *walker) loseTo(to, i int) {
	for k, q := range w.queues {
		if k.to == to {
			for _, in := range q {
				w.end(in, i, lost)
			}
			w.queues[k] = nil
		}
	}
}

// decisions notes, at step i, each live process whose elected leader the
// step changed (or that a restart brought back with one).
func (w *walker) decisions(i int, prev, cur model.Snapshot) {
	for j, p := range cur.Processes {
		op := prev.Processes[j]
		if !p.Alive {
			continue // a crash resets the local state: the mark says it
		}
		if p.Elected != op.Elected || !op.Alive && p.Elected != 0 {
			w.c.notes = append(w.c.notes, note{row: i, lane: j, text: "elected := " + electedText(p.Elected)})
		}
	}
}

// end ends a message at row i, delivered or lost, with its age then.
func (w *walker) end(in instance, i, fate int) {
	m := &w.c.msgs[in.msg]
	m.end, m.fate, m.age = i, fate, in.age
	m.mark = trace.AgeMark(in.age, w.c.f.Config.Delay, w.c.f.Steps[i-1].State.GST)
}

// send adds what step i sends to the channels, channel by channel in lane
// order and in the order sent within each; a message to a crashed
// process is lost as it is sent, and never drawn.
func (w *walker) send(i int, sends []model.Send) error {
	by := map[chanKey][]model.Value{}
	for _, s := range sends {
		if s.Lost {
			continue
		}
		a, ok1 := w.laneOf(s.FromName())
		b, ok2 := w.laneOf(s.ToName())
		if !ok1 || !ok2 {
			return fmt.Errorf("msc: step %d sends from %s to %s, an unknown process", i, s.FromName(), s.ToName())
		}
		by[chanKey{a, b}] = append(by[chanKey{a, b}], s.Msg)
	}
	for _, k := range sortedKeys(by) {
		for _, v := range by[k] {
			w.queues[k] = append(w.queues[k], instance{msg: w.addMsg(message{from: k.from, to: k.to, sent: i}, v)})
		}
	}
	return nil
}

// age records the ages of the messages in the channels of the row just
// walked (now), and forgets the empty channels.
func (w *walker) age(now map[chanKey]model.ChannelSnapshot) {
	for k, q := range w.queues {
		if len(q) == 0 {
			delete(w.queues, k)
			continue
		}
		ages := now[k].Ages
		for j := range q {
			if j < len(ages) {
				q[j].age = ages[j]
			}
		}
	}
}

// electedText is a process's elected leader (model.ProcessSnapshot's
// Elected, the algorithm's own reading, whatever its field is called) as
// a note says it: the ID, or ⊥.
func electedText(id int) string {
	if id == 0 {
		return model.None().String()
	}
	return model.Int(id).String()
}

// timersOf finds the timers' notes and spans: a step other than a tick
// that sets a process's timer (a restart's included) is a note, "timer :=
// 2", or "timer := off" where it stops one that its process's timeout did
// not fire; a timer running in the initial state is a note too.
func (c *chart) timersOf(f *trace.File) {
	open := make([]int, len(c.lanes)) // the span running on each lane, or -1
	for j := range open {
		open[j] = -1
	}
	closeSpan := func(j, row, how int) {
		if open[j] >= 0 {
			c.timers[open[j]].to, c.timers[open[j]].end = row, how
			open[j] = -1
		}
	}
	for i, s := range f.Steps {
		st := s.Step
		for j, p := range s.State.Processes {
			if p.Timer == nil || j >= len(c.lanes) {
				continue
			}
			now, running := p.Timer.Int()
			if i == 0 {
				if running {
					c.notes = append(c.notes, note{row: 0, lane: j, text: "timer = " + p.Timer.String(), timer: true})
					open[j] = len(c.timers)
					c.timers = append(c.timers, timerSpan{lane: j, from: 0, set: now})
				}
				continue
			}
			if st.Kind == model.KindTick || st.Kind == model.KindGST {
				continue // a tick counts every timer down; nobody sets one
			}
			op := f.Steps[i-1].State.Processes[j]
			if !p.Alive {
				if op.Alive {
					closeSpan(j, i, timerCrashed)
				}
				continue
			}
			fired := st.Kind == model.KindTimeout && st.ProcessName() == p.Name()
			if op.Timer != nil && op.Timer.Equal(*p.Timer) && !fired && op.Alive {
				continue // untouched (a timeout that set it anew to its value is not)
			}
			switch {
			case fired:
				closeSpan(j, i, timerFired)
			case running:
				closeSpan(j, i, timerReset)
			default:
				if open[j] >= 0 {
					closeSpan(j, i, timerStopped)
					c.notes = append(c.notes, note{row: i, lane: j, text: "timer := " + p.Timer.String(), timer: true})
				}
			}
			if running {
				c.notes = append(c.notes, note{row: i, lane: j, text: "timer := " + p.Timer.String(), timer: true})
				open[j] = len(c.timers)
				c.timers = append(c.timers, timerSpan{lane: j, from: i, set: now})
			}
		}
	}
	for j := range open {
		closeSpan(j, len(c.rows)-1, timerRunning)
	}
}

// endText is a message's text where it ends (delivered, lost, or in flight
// at the end), with its age there in a timed run and the age's mark:
// "OK(3)@1(due)".
func (c *chart) endText(m message) string {
	if !c.timed {
		return m.text
	}
	if m.mark != "" {
		return model.AgedText(m.text, m.age) + "(" + m.mark + ")"
	}
	return model.AgedText(m.text, m.age)
}

// timeText is a row's action with, in a timed run, the time after it:
// "tick, t=3".
func (c *chart) timeText(r row) string {
	if !c.timed {
		return r.action
	}
	return r.action + ", " + trace.TimeWords(r.time)
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
