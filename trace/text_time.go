package trace

import (
	"strings"

	"github.com/mcheck/mcheck/model"
)

// The marks of a timed message's age (docs/semantics.md section 6): a
// message of age D (--delay) is due where the bound holds (sync, or partial
// after gst): the next tick waits for its delivery. With partial before gst
// the bound does not hold: a message of age D (ages stop at D) is late, D
// ticks old or more, and may wait any number of ticks.
const (
	MarkDue  = "due"
	MarkLate = "late"
)

// AgeMark is the mark of a message of age age in a state whose gst is gst
// (nil when the timing is sync) at delay delay: MarkDue, MarkLate or "".
func AgeMark(age, delay int, gst *bool) string {
	switch {
	case delay <= 0 || age < delay:
		return ""
	case gst != nil && !*gst:
		return MarkLate
	default:
		return MarkDue
	}
}

// MarkedAge is a timed message's text with its age and mark, as the text,
// the charts and the explorer page show it: "OK(3)@1", "OK(3)@1(due)",
// "OK(3)@1(late)".
func MarkedAge(msg string, age, delay int, gst *bool) string {
	s := model.AgedText(msg, age)
	if m := AgeMark(age, delay, gst); m != "" {
		s += "(" + m + ")"
	}
	return s
}

// MarkedContents is a channel's messages, head first, as Contents renders
// them, each age-D message marked (MarkedAge) at delay delay in a state
// whose gst is gst.
func MarkedContents(c model.ChannelSnapshot, delay int, gst *bool) string {
	if c.Ages == nil {
		return c.Contents()
	}
	parts := make([]string, len(c.Messages))
	for i, m := range c.Messages {
		parts[i] = m.String()
		if i < len(c.Ages) {
			parts[i] = MarkedAge(parts[i], c.Ages[i], delay, gst)
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// RaceWords say, for step i of f, a timeout taken while a message to the
// same process is due at the head of its channel, which of the two went
// first: the timeout at 0 and the due message are taken in the same
// instant, in either order (docs/time.md), and a race like Bully's reads
// from the trace alone. Empty for every other step.
func RaceWords(f *File, i int) string {
	if i <= 0 || i >= len(f.Steps) || f.Config.Timing == "" {
		return ""
	}
	st := f.Steps[i].Step
	if st == nil || st.Kind != model.KindTimeout {
		return ""
	}
	prev := f.Steps[i-1].State
	var due []string
	for _, c := range prev.Channels {
		if c.ToName() != st.ProcessName() || len(c.Messages) == 0 || len(c.Ages) == 0 {
			continue
		}
		if AgeMark(c.Ages[0], f.Config.Delay, prev.GST) == MarkDue {
			due = append(due, c.Messages[0].String()+" from "+c.FromName())
		}
	}
	if len(due) == 0 {
		return ""
	}
	return "race: " + st.ProcessName() + " times out before " + strings.Join(due, " and ") + ", due now, arrives (a timer at 0 and a due message go in either order)"
}

// StateText is the state in full, as Snapshot.String renders it, with its
// timed messages marked (MarkedContents) at delay delay.
func StateText(s model.Snapshot, delay int) string {
	text := s.String()
	for _, c := range s.Channels {
		if marked := MarkedContents(c, delay, s.GST); marked != c.Contents() {
			text = strings.Replace(text, " | "+c.Ends()+" "+c.Contents(), " | "+c.Ends()+" "+marked, 1)
		}
	}
	return text
}
