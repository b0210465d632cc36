package model

import (
	"fmt"
	"strconv"
	"strings"
)

// Snapshot is a state as people (and trace files) see it: every process with
// its local fields, the non-empty channels with their messages in order, and
// the fault counters. In a timed mode (docs/semantics.md section 6.2) processes
// have their timers and messages their ages, and with partial timing the
// state has gst.
type Snapshot struct {
	Processes []ProcessSnapshot `json:"processes"`
	Channels  []ChannelSnapshot `json:"channels"`
	Crashes   int               `json:"crashes"`
	Restarts  int               `json:"restarts"`
	// GST is whether the global stabilisation time has come, with
	// partial timing; nil otherwise.
	GST *bool `json:"gst,omitempty"`
	// FalseSuspicions is the eventual detector's false suspicions used
	// before gst (0 from gst on); nil with another detector.
	FalseSuspicions *int `json:"false_suspicions,omitempty"`
	// Sent is what was sent since the initial state, when a property of
	// the check reads it (model.Property.CountSends); nil otherwise.
	Sent *SendsSnapshot `json:"sent,omitempty"`
}

// SendsSnapshot counts the messages sent since the initial state: in
// total, per message type and lost (docs/semantics.md section 5). Each count
// stops at Cap, so a count of Cap means Cap or more.
type SendsSnapshot struct {
	Total  int         `json:"total"`
	ByType []TypeCount `json:"by_type"`
	Lost   int         `json:"lost"`
	Cap    int         `json:"cap"`
	// Only: the check counted only the message types of ByType
	// (Property.CountTypes), and not the lost; Total is theirs.
	Only bool `json:"only,omitempty"`
}

// TypeCount is the count of one message type.
type TypeCount struct {
	Type  string `json:"type"`
	Count int    `json:"count"`
}

// Fields are the counts as named values: "sent", "sent ELECTION", ...,
// "lost".
func (s *SendsSnapshot) Fields() []Field {
	fs := []Field{{"sent", Int(s.Total)}}
	for _, t := range s.ByType {
		fs = append(fs, Field{"sent " + t.Type, Int(t.Count)})
	}
	return append(fs, Field{"lost", Int(s.Lost)})
}

// String renders the counts: "sent=5 (ELECTION=3 ELECTED=2) lost=0".
func (s *SendsSnapshot) String() string {
	parts := make([]string, len(s.ByType))
	for i, t := range s.ByType {
		parts[i] = t.Type + "=" + strconv.Itoa(t.Count)
	}
	return fmt.Sprintf("sent=%d (%s) lost=%d", s.Total, strings.Join(parts, " "), s.Lost)
}

// ProcessSnapshot is one process, known by its ID (people call it "p9").
type ProcessSnapshot struct {
	ID int `json:"id"`
	// Alias names the process when its ID is not its own (--anonymous).
	Alias  string  `json:"alias,omitempty"`
	Alive  bool    `json:"alive"`
	Fields []Field `json:"fields"`
	// Timer is the process's timer in a timed mode: its countdown in ticks
	// (an Int) or "off" (a Str); nil in the asynchronous model.
	Timer *Value `json:"timer,omitempty"`
	// Silence is, with the heartbeat detector, a live process's silences
	// towards the others in position order (docs/semantics.md section
	// 6.5); nil otherwise.
	Silence *Value `json:"silence,omitempty"`
	// Elected is the ID of the leader the process has elected, as the
	// algorithm's Elected reads it from the local state (0: ⊥), whatever
	// the field is called. It is the kernel's, not the file's (the fields
	// show it there): a snapshot read from a trace file has it once the
	// file is replayed (trace.Replayed).
	Elected int `json:"-"`
}

// Name is how people call the process: "p9".
func (p ProcessSnapshot) Name() string { return procLabel(p.ID, p.Alias) }

// Field looks up a local field by name.
func (p ProcessSnapshot) Field(name string) (Value, bool) {
	for _, f := range p.Fields {
		if f.Name == name {
			return f.Value, true
		}
	}
	return Value{}, false
}

// ChannelSnapshot is a non-empty FIFO channel between the processes with
// IDs From and To, its messages (Msg values) head first.
type ChannelSnapshot struct {
	From int `json:"from"`
	To   int `json:"to"`
	// FromAlias and ToAlias name the ends when their IDs are shared
	// (--anonymous).
	FromAlias string  `json:"from_alias,omitempty"`
	ToAlias   string  `json:"to_alias,omitempty"`
	Messages  []Value `json:"messages"`
	// Ages are the messages' ages in ticks (since they were sent), in a
	// timed mode; nil in the asynchronous model.
	Ages []int `json:"ages,omitempty"`
}

// Field is one named value ("elected" = 9).
type Field struct {
	Name  string `json:"name"`
	Value Value  `json:"value"`
}

// Fields flattens a snapshot into named values for diffs and JSON:
// "p3.alive", "p3.elected", "chan p3→p4", "crashes", "restarts"; in a
// timed mode also "p3.timer", "ages p3→p4" (the channel's ages, head
// first) and, with partial timing, "gst"; with sends counted, their
// counts (SendsSnapshot.Fields). Empty channels are left out; a diff
// treats a missing channel as [].
func (s Snapshot) Fields() []Field {
	var fs []Field
	for _, p := range s.Processes {
		fs = append(fs, Field{p.Name() + ".alive", Bool(p.Alive)})
		for _, f := range p.Fields {
			fs = append(fs, Field{p.Name() + "." + f.Name, f.Value})
		}
		if p.Timer != nil {
			fs = append(fs, Field{p.Name() + ".timer", *p.Timer})
		}
		if p.Silence != nil {
			fs = append(fs, Field{p.Name() + ".silence", *p.Silence})
		}
	}
	for _, c := range s.Channels {
		fs = append(fs, Field{c.Field(), Seq(c.Messages...)})
		if c.Ages != nil {
			ages := make([]Value, len(c.Ages))
			for i, a := range c.Ages {
				ages[i] = Int(a)
			}
			fs = append(fs, Field{c.AgesField(), Seq(ages...)})
		}
	}
	fs = append(fs, Field{"crashes", Int(s.Crashes)}, Field{"restarts", Int(s.Restarts)})
	if s.GST != nil {
		fs = append(fs, Field{"gst", Bool(*s.GST)})
	}
	if s.FalseSuspicions != nil {
		fs = append(fs, Field{"false-suspicions", Int(*s.FalseSuspicions)})
	}
	if s.Sent != nil {
		fs = append(fs, s.Sent.Fields()...)
	}
	return fs
}

// Field is the channel's field name: "chan p1→p2".
func (c ChannelSnapshot) Field() string { return "chan " + c.Ends() }

// AgesField is the field name of its ages: "ages p1→p2".
func (c ChannelSnapshot) AgesField() string { return "ages " + c.Ends() }

// Contents renders the messages head first, each with its age in ticks
// after "@" in a timed mode: "[OK(4)@1 ELECTION(2)@0]".
func (c ChannelSnapshot) Contents() string {
	if c.Ages == nil {
		return Seq(c.Messages...).String()
	}
	parts := make([]string, len(c.Messages))
	for i, m := range c.Messages {
		parts[i] = m.String()
		if i < len(c.Ages) {
			parts[i] = AgedText(parts[i], c.Ages[i])
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// AgedText is a message's text (Value.String) with its age in ticks after
// "@", as a timed channel shows it: "OK(4)@1".
func AgedText(msg string, age int) string { return msg + "@" + strconv.Itoa(age) }

// Ends names the channel's ends: "p1→p2".
func (c ChannelSnapshot) Ends() string { return c.FromName() + "→" + c.ToName() }

// FromName and ToName name the sender and the receiver.
func (c ChannelSnapshot) FromName() string { return procLabel(c.From, c.FromAlias) }
func (c ChannelSnapshot) ToName() string   { return procLabel(c.To, c.ToAlias) }

// String renders a snapshot on one line:
// "p1{elected=3} p2✝ | p1→p2 [ELECTED(3)] | crashes=1 restarts=0"; timed:
// "p1{elected=3 timer=off} p2{elected=⊥ timer=2} | p1→p2 [ELECTED(3)@1] | gst=true";
// with sends counted, "... | sent=5 (ELECTION=3 ELECTED=2) lost=0" at the end.
func (s Snapshot) String() string {
	var sb strings.Builder
	for i, p := range s.Processes {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(p.Name())
		if !p.Alive {
			sb.WriteString("✝")
			continue
		}
		sb.WriteByte('{')
		for j, f := range p.Fields {
			if j > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(f.Name + "=" + f.Value.String())
		}
		if p.Timer != nil {
			if len(p.Fields) > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString("timer=" + p.Timer.String())
		}
		if p.Silence != nil {
			if len(p.Fields) > 0 || p.Timer != nil {
				sb.WriteByte(' ')
			}
			sb.WriteString("silence=" + p.Silence.String())
		}
		sb.WriteByte('}')
	}
	for _, c := range s.Channels {
		sb.WriteString(" | " + c.Ends() + " " + c.Contents())
	}
	sep := " | "
	if s.Crashes > 0 || s.Restarts > 0 {
		fmt.Fprintf(&sb, " | crashes=%d restarts=%d", s.Crashes, s.Restarts)
		sep = " "
	}
	if s.GST != nil {
		fmt.Fprintf(&sb, "%sgst=%t", sep, *s.GST)
	}
	if s.FalseSuspicions != nil {
		fmt.Fprintf(&sb, " false-suspicions=%d", *s.FalseSuspicions)
	}
	if s.Sent != nil {
		sb.WriteString(" | " + s.Sent.String())
	}
	return sb.String()
}
