package model

import (
	"fmt"
	"strconv"
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

// ProcessSnapshot is one process: named by its ID ("p9").
type ProcessSnapshot struct {
	Name   string  `json:"name"`
	ID     int     `json:"id"`
	Alive  bool    `json:"alive"`
	Fields []Field `json:"fields"`
}

// ChannelSnapshot is a non-empty FIFO channel, head first.
type ChannelSnapshot struct {
	From     string   `json:"from"`
	To       string   `json:"to"`
	Messages []string `json:"messages"`
}

// Field is one named value ("elected" = "9").
type Field struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Fields flattens a snapshot into named values for diffs and JSON:
// "p3.alive", "p3.elected", "chan p3→p4", "crashes", "restarts". Empty
// channels are left out; a diff treats a missing channel as [].
func (s Snapshot) Fields() []Field {
	var fs []Field
	for _, p := range s.Processes {
		fs = append(fs, Field{p.Name + ".alive", strconv.FormatBool(p.Alive)})
		for _, f := range p.Fields {
			fs = append(fs, Field{p.Name + "." + f.Name, f.Value})
		}
	}
	for _, c := range s.Channels {
		fs = append(fs, Field{ChannelField(c.From, c.To), "[" + strings.Join(c.Messages, " ") + "]"})
	}
	return append(fs, Field{"crashes", strconv.Itoa(s.Crashes)}, Field{"restarts", strconv.Itoa(s.Restarts)})
}

// ChannelField is the field name of chan(from, to).
func ChannelField(from, to string) string { return "chan " + from + "→" + to }

// String renders a snapshot on one line:
// "p1{elected=3} p2✝ | p1→p2 [ELECTED(3)] | crashes=1 restarts=0".
func (s Snapshot) String() string {
	var sb strings.Builder
	for i, p := range s.Processes {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(p.Name)
		if !p.Alive {
			sb.WriteString("✝")
			continue
		}
		sb.WriteByte('{')
		for j, f := range p.Fields {
			if j > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(f.Name + "=" + f.Value)
		}
		sb.WriteByte('}')
	}
	for _, c := range s.Channels {
		sb.WriteString(" | " + c.From + "→" + c.To + " [" + strings.Join(c.Messages, " ") + "]")
	}
	if s.Crashes > 0 || s.Restarts > 0 {
		fmt.Fprintf(&sb, " | crashes=%d restarts=%d", s.Crashes, s.Restarts)
	}
	return sb.String()
}
