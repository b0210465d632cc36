package model

import (
	"fmt"
	"strings"
)

// Snapshot is a state as people (and trace files) see it: every process with
// its local fields, the non-empty channels with their messages in order, and
// the fault counters.
type Snapshot struct {
	Processes []ProcessSnapshot `json:"processes"`
	Channels  []ChannelSnapshot `json:"channels"`
	Crashes   int               `json:"crashes"`
	Restarts  int               `json:"restarts"`
}

// ProcessSnapshot is one process, known by its ID (people call it "p9").
type ProcessSnapshot struct {
	ID     int     `json:"id"`
	Alive  bool    `json:"alive"`
	Fields []Field `json:"fields"`
}

// Name is how people call the process: "p9".
func (p ProcessSnapshot) Name() string { return ProcName(p.ID) }

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
	From     int     `json:"from"`
	To       int     `json:"to"`
	Messages []Value `json:"messages"`
}

// Field is one named value ("elected" = 9).
type Field struct {
	Name  string `json:"name"`
	Value Value  `json:"value"`
}

// Fields flattens a snapshot into named values for diffs and JSON:
// "p3.alive", "p3.elected", "chan p3→p4", "crashes", "restarts". Empty
// channels are left out; a diff treats a missing channel as [].
func (s Snapshot) Fields() []Field {
	var fs []Field
	for _, p := range s.Processes {
		fs = append(fs, Field{p.Name() + ".alive", Bool(p.Alive)})
		for _, f := range p.Fields {
			fs = append(fs, Field{p.Name() + "." + f.Name, f.Value})
		}
	}
	for _, c := range s.Channels {
		fs = append(fs, Field{ChannelField(c.From, c.To), Seq(c.Messages...)})
	}
	return append(fs, Field{"crashes", Int(s.Crashes)}, Field{"restarts", Int(s.Restarts)})
}

// ChannelField is the field name of chan(from, to), given their IDs.
func ChannelField(from, to int) string { return "chan " + ProcName(from) + "→" + ProcName(to) }

// String renders a snapshot on one line:
// "p1{elected=3} p2✝ | p1→p2 [ELECTED(3)] | crashes=1 restarts=0".
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
		sb.WriteByte('}')
	}
	for _, c := range s.Channels {
		sb.WriteString(" | " + ProcName(c.From) + "→" + ProcName(c.To) + " " + Seq(c.Messages...).String())
	}
	if s.Crashes > 0 || s.Restarts > 0 {
		fmt.Fprintf(&sb, " | crashes=%d restarts=%d", s.Crashes, s.Restarts)
	}
	return sb.String()
}
