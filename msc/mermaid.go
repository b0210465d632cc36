package msc

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/mcheck/mcheck/trace"
)

// Mermaid writes the trace as a Mermaid sequenceDiagram (the diagram text,
// without a Markdown fence). Mermaid draws every message at one moment, so
// a message is an arrow at the step that delivers it ("6: ELECTION(4)"); a
// lost message is a dotted arrow ending in a cross at the step that lost
// it; actions at one process and decisions are notes; a lasso's cycle is a
// loop block; what is in flight at the end is a note after the last step.
// In a timed run a tick or gst is a note over every lane with the time
// after it ("4: tick, t=1"), a message says its age where it ends
// ("5: OK(3)@1"), and a step that sets a timer says so ("timer := 2").
func Mermaid(w io.Writer, f *trace.File) error {
	c, err := analyze(f)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p("sequenceDiagram\n")
	for _, name := range c.lanes {
		p("    participant %s\n", name)
	}
	byRow := func(rowOf func(int) int, n int) map[int][]int {
		m := map[int][]int{}
		for i := range n {
			m[rowOf(i)] = append(m[rowOf(i)], i)
		}
		return m
	}
	marks := byRow(func(i int) int { return c.marks[i].row }, len(c.marks))
	notes := byRow(func(i int) int { return c.notes[i].row }, len(c.notes))
	lostAt := map[int][]int{}
	for i, m := range c.msgs {
		if m.fate == lost {
			lostAt[m.end] = append(lostAt[m.end], i)
		}
	}
	last := len(c.rows) - 1
	indent := "    "
	for r, row := range c.rows {
		if c.cycle >= 0 && r == c.cycle+1 {
			repeat, back := trace.CycleWords(c.cycle+1, last)
			p("    loop %s\n", mermaidText(repeat+", then "+back))
			indent = "        "
		}
		everyLane := func(text string) {
			p("%sNote over %s,%s: %s\n", indent, c.lanes[0], c.lanes[len(c.lanes)-1], mermaidText(text))
		}
		if r == 0 {
			everyLane("0: " + c.timeText(row))
		}
		if row.tick || row.gst {
			everyLane(fmt.Sprintf("%d: %s", r, c.timeText(row)))
		}
		if row.deliver >= 0 {
			m := c.msgs[row.deliver]
			p("%s%s->>%s: %s\n", indent, c.lanes[m.from], c.lanes[m.to], mermaidText(fmt.Sprintf("%d: %s", r, c.endText(m))))
		}
		said := map[int]bool{} // notes said with a mark
		for _, i := range marks[r] {
			mk := c.marks[i]
			text := fmt.Sprintf("%d: %s", r, mk.text)
			for _, j := range notes[r] {
				if c.notes[j].lane == mk.lane {
					text += ", " + c.notes[j].text
					said[j] = true
				}
			}
			p("%sNote over %s: %s\n", indent, c.lanes[mk.lane], mermaidText(text))
		}
		for _, i := range lostAt[r] {
			m := c.msgs[i]
			p("%s%s--x%s: %s\n", indent, c.lanes[m.from], c.lanes[m.to], mermaidText(fmt.Sprintf("%d: %s lost (sent at step %d)", r, c.endText(m), m.sent)))
		}
		for _, i := range notes[r] {
			if said[i] {
				continue
			}
			nt := c.notes[i]
			p("%sNote right of %s: %s\n", indent, c.lanes[nt.lane], mermaidText(nt.text))
		}
		if row.deliver < 0 && len(marks[r]) == 0 && len(lostAt[r]) == 0 && r > 0 && !row.tick && !row.gst {
			// An action mcheck could not place: say it over every lane.
			everyLane(fmt.Sprintf("%d: %s", r, row.action))
		}
		if row.premise {
			everyLane(fmt.Sprintf("%d: %s", r, trace.PremiseWords))
		}
	}
	if c.cycle >= 0 {
		p("    end\n")
	}
	for _, m := range c.msgs {
		if m.fate != inFlight {
			continue
		}
		a, b := c.lanes[m.from], c.lanes[m.to]
		over := a
		if a != b {
			over = a + "," + b
		}
		p("    Note over %s: %s\n", over, mermaidText(fmt.Sprintf("in flight %s→%s: %s", a, b, c.endText(m))))
	}
	return bw.Flush()
}

// mermaidText makes s safe as the text of a Mermaid message or note: the
// characters Mermaid gives a meaning there become entity codes, line
// breaks spaces, and other control characters their escapes.
func mermaidText(s string) string {
	var sb strings.Builder
	for _, r := range trace.Printable(strings.NewReplacer("\n", " ", "\r", " ", "\t", " ").Replace(s)) {
		switch r {
		case '#':
			sb.WriteString("#35;")
		case ';':
			sb.WriteString("#59;")
		case '<':
			sb.WriteString("#lt;")
		case '>':
			sb.WriteString("#gt;")
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// Markdown writes a section for the trace: a heading of the given level
// (1 to 6) with the property, the summary, the configuration, and the
// Mermaid chart in a fenced block, as GitHub renders it.
func Markdown(w io.Writer, f *trace.File, level int) error {
	level = min(max(level, 1), 6)
	head, summary := titleLines(f)
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s %s\n\n", strings.Repeat("#", level), markdownText(head))
	if summary != "" {
		fmt.Fprintf(&sb, "%s\n\n", markdownText(summary))
	}
	fmt.Fprintf(&sb, "%s\n\n```mermaid\n", markdownText(f.Config.Describe()))
	if err := Mermaid(&sb, f); err != nil {
		return err
	}
	sb.WriteString("```\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

// markdownText escapes the characters Markdown would read as markup, and
// control characters (trace.Printable).
func markdownText(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", ">", "&gt;", "|", `\|`, "[", `\[`, "]", `\]`, "\n", " ")
	return r.Replace(trace.Printable(strings.ReplaceAll(s, "\n", " ")))
}
