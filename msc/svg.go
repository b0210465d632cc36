package msc

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/trace"
)

// Geometry, in pixels. Text is monospace, so its width can be known
// without measuring it: charW per character at fontSize.
const (
	margin     = 16.0
	fontSize   = 12.0
	charW      = 7.3 // DejaVu Sans Mono and its kin: 0.6 em
	titleSize  = 15.0
	titleCharW = 9.1
	lineH      = 18.0
	minRowH    = 36.0 // one step; more when the labels need room
	labelH     = 15.0
	labelPad   = 4.0
	headH      = 26.0
	flightDY   = 30.0 // below the last row: where in-flight messages dangle
	minLaneW   = 124.0
	maxLaneW   = 240.0
	lostDX     = 30.0 // a lost message's ✗ stops this far before its receiver's lane
	bracketGap = 14.0
)

var palette = []string{"#1565c0", "#2e7d32", "#6a1b9a", "#b35900", "#00796b", "#ad1457", "#4e342e", "#37474f"}

const (
	red     = "#c62828"
	green   = "#2e7d32"
	orange  = "#b35900"
	blue    = "#1565c0"
	grey    = "#616161"
	ink     = "#212121"
	slate   = "#546e7a" // a tick's rule
	teal    = "#00796b" // gst's rule
	amber   = "#ffb74d" // a running timer's bar
	fontFam = "DejaVu Sans Mono, Menlo, Consolas, Liberation Mono, monospace"
)

// layout is where everything of a chart goes.
type layout struct {
	c                         *chart
	rowH                      float64
	width, height             float64
	title                     []tline
	gutterNumW                float64
	lanesLeft, laneW          float64
	sidePad, lanesRight       float64 // room for labels left of the first lane and right of the last
	headTop, rowsTop          float64
	flightY, footTop          float64
	bracketX                  float64
	legend                    []legendItem
	msgLabels                 []placed
	noteLabels                []placed
	markLabels                []placed
	timerLabels               []placed // timer notes: "timer := 2"
	ruleLabels                []placed // a timed run's time axis: "t=3" on each tick's rule
	msgColor                  map[string]string
	arrowStart, arrowEnd      []point
	headsBottomTop, legendTop float64
}

// tline is a line of the title: the headline (bold), the summary, the
// configuration (grey).
type tline struct {
	text  string
	style int
}

const (
	styleHead = iota
	styleSummary
	styleConfig
)

// placed is a label where the placer put it: one or more texts, each in
// its colour.
type placed struct {
	b     box
	parts []part
}

type part struct{ text, color string }

type legendItem struct {
	glyph string // which sample to draw
	text  string
}

func textW(s string) float64 { return float64(utf8.RuneCountInString(s)) * charW }

func (l *layout) laneX(i int) float64 { return l.lanesLeft + l.sidePad + l.laneW*(float64(i)+0.5) }
func (l *layout) rowY(r int) float64  { return l.rowsTop + l.rowH*(float64(r)+0.5) }

// titleLines: the property and the kind of counterexample (or the figure
// and the kind of witness), and the summary.
func titleLines(f *trace.File) (head, summary string) {
	kind := f.Kind.Chart()
	if f.Kind.Witnessing() && f.Property != "" {
		return fmt.Sprintf("%s %s, %s", f.Property, kind, plural.Count(len(f.Steps)-1, "step")), f.Summary
	}
	if f.Property == "" {
		// A run that is no counterexample (mcheck explore).
		head = "a run of " + plural.Count(len(f.Steps)-1, "step")
		if kind != "" {
			head += ": " + kind
		}
		return head, f.Summary
	}
	what := "violated"
	if f.Kind == cex.Example {
		what = "is reachable"
	}
	return fmt.Sprintf("%s %s: %s, %s", f.Property, what, kind, plural.Count(len(f.Steps)-1, "step")), f.Summary
}

// wrap breaks s into lines of at most n characters, at spaces.
func wrap(s string, n int) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		switch {
		case cur == "":
			cur = w
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(w) <= n:
			cur += " " + w
		default:
			lines = append(lines, cur)
			cur = w
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// group is the label of messages that one process sends at one step in
// one direction: they start at one point. A broadcast of one message shares
// a label; otherwise each channel has its own ("ELECT(3) ELECT(2)" when
// two go down one channel, first to be delivered first).
type group struct {
	row, from, dir int
	texts          []string
	msgs           []int
}

func (l *layout) groups() []group {
	c := l.c
	var gs []group
	index := map[[3]int]int{}
	for i, m := range c.msgs {
		k := [3]int{m.sent, m.from, direction(m)}
		g, ok := index[k]
		if !ok {
			g = len(gs)
			index[k] = g
			gs = append(gs, group{row: m.sent, from: m.from, dir: k[2]})
		}
		gs[g].msgs = append(gs[g].msgs, i)
		if !contains(gs[g].texts, m.text) {
			gs[g].texts = append(gs[g].texts, m.text)
		}
	}
	var out []group
	for _, g := range gs {
		if len(g.texts) == 1 {
			out = append(out, g)
			continue
		}
		// Split by receiver, in the order of the first message to each.
		at := map[int]int{}
		for _, i := range g.msgs {
			m := c.msgs[i]
			j, ok := at[m.to]
			if !ok {
				j = len(out)
				at[m.to] = j
				out = append(out, group{row: g.row, from: g.from, dir: g.dir})
			}
			out[j].msgs = append(out[j].msgs, i)
			if !contains(out[j].texts, m.text) {
				out[j].texts = append(out[j].texts, m.text)
			}
		}
	}
	return out
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func direction(m message) int {
	if m.to < m.from {
		return -1
	}
	return 1
}

// Offsets of the layout, in pixels, beside the geometry above.
const (
	gutterNumGap  = 10.0  // between a step's number and its action
	gutterPad     = 18.0  // after the widest action, before the lanes
	laneLabelRoom = 40.0  // a lane is this much wider than its widest label
	sideLabelRoom = 12.0  // a label beside the first or last lane sticks out by this
	minWidth      = 520.0 // the narrowest chart, for the title
	bracketText   = 18.0  // from the cycle's bracket to its words
	titleGap      = 10.0  // below the title, above the lane heads
	headsGap      = 8.0   // below the lane heads, above the first row
	laneOvershoot = 8.0   // a lane starts this far above the first row
	laneTail      = 6.0   // and ends this far below the in-flight messages
	flightGap     = 14.0  // below the in-flight messages, above the lane heads at the foot
	legendGap     = 16.0  // below the lane heads at the foot, above the legend
	headBox       = 6.0   // half the side of an arrowhead's (or ✗'s) room
	tailBox       = 3.0   // half the side of an arrow's start's room
	markBox       = 7.0   // half the side of a mark's room
	noteDX        = 8.0   // a note or a message's label starts this far from its lane
	labelGap      = 3.0   // between a label and the row's line, below it
	labelRise     = 2.0   // between a label and the row's line, above it
	alongRoom     = 20.0  // an arrow this much longer than a label can carry it
	markWordDX    = 7.0   // a mark's word, above or below it, starts this far from its lane
	nextRowGap    = 4.0   // a label a row further down starts this far (and a label) below the row's line
)

// compute works out where everything goes: the sizes (gutter, lanes,
// width, title, rows), the obstacles that labels avoid, and the labels,
// placed in order of importance.
func (l *layout) compute() {
	gs := l.groups()
	l.sizeLanes(gs)
	l.sizeRows()
	p := l.obstacles()
	// Notes first: decisions matter most; then the message labels; the
	// marks' words last (the gutter says them too).
	l.placeNotes(p)
	l.placeMsgLabels(p, gs)
	l.placeMarkLabels(p)
}

// sizeLanes sizes the gutter (step numbers and actions) and the lanes,
// wide enough for the widest label, and the chart's width; it colours
// each message type.
func (l *layout) sizeLanes(gs []group) {
	c := l.c
	digits := len(strconv.Itoa(len(c.rows) - 1))
	l.gutterNumW = float64(digits) * charW
	actionW := 0.0
	for _, r := range c.rows {
		actionW = max(actionW, textW(r.gutter()))
	}
	gutterW := l.gutterNumW + gutterNumGap + actionW + gutterPad

	l.msgColor = map[string]string{}
	for i, k := range c.kinds {
		l.msgColor[k] = palette[i%len(palette)]
	}
	widest := 0.0
	for _, g := range gs {
		widest = max(widest, textW(strings.Join(g.texts, " ")))
	}
	for _, nt := range c.notes {
		widest = max(widest, textW(nt.text))
	}
	l.laneW = math.Round(min(maxLaneW, max(minLaneW, widest+2*labelPad+laneLabelRoom)))
	l.lanesLeft = margin + gutterW
	l.sidePad = math.Round(max(0, widest+2*labelPad+sideLabelRoom-l.laneW/2))
	l.lanesRight = l.lanesLeft + 2*l.sidePad + l.laneW*float64(len(c.lanes))
	l.bracketX = l.lanesRight + bracketGap
	right := l.lanesRight + margin
	if c.cycle >= 0 {
		repeat, back := c.cycleWords()
		right = l.bracketX + bracketText + max(textW(repeat), textW("↩ "+back)) + margin
	}
	l.width = math.Ceil(max(right, minWidth))
}

// sizeRows wraps the title to the width and places everything from top to
// bottom: the lane heads, the rows, the in-flight messages, the heads at
// the foot, the legend and the warnings.
func (l *layout) sizeRows() {
	c := l.c
	head, summary := titleLines(c.f)
	for _, t := range wrap(head, int((l.width-2*margin)/titleCharW)) {
		l.title = append(l.title, tline{t, styleHead})
	}
	for _, t := range wrap(summary, int((l.width-2*margin)/charW)) {
		l.title = append(l.title, tline{t, styleSummary})
	}
	for _, t := range wrap(c.f.Config.Describe(), int((l.width-2*margin)/charW)) {
		l.title = append(l.title, tline{t, styleConfig})
	}
	l.headTop = margin + lineH*float64(len(l.title)) + titleGap
	l.rowsTop = l.headTop + headH + headsGap
	last := len(c.rows) - 1
	l.flightY = l.rowY(last) + flightDY
	l.headsBottomTop = l.flightY + flightGap
	l.legendTop = l.headsBottomTop + headH + legendGap
	l.legend = l.legendItems()
	l.footTop = l.legendTop + l.legendHeight()
	l.height = math.Ceil(l.footTop + lineH*float64(len(c.warnings)) + margin)
}

// obstacles is a placer that knows what labels must not cover: the lanes,
// the arrows with their heads, the marks, and in a timed run the time
// axis (whose labels it places, at each rule's left end) and the timers'
// bars.
func (l *layout) obstacles() *placer {
	c := l.c
	l.arrowStart = make([]point, len(c.msgs))
	l.arrowEnd = make([]point, len(c.msgs))
	p := &placer{minX: l.lanesLeft + 2, maxX: l.lanesRight + 4}
	for i := range len(c.lanes) {
		x := l.laneX(i)
		p.addSegment(point{x, l.rowsTop - laneOvershoot}, point{x, l.flightY + laneTail}, costLane)
	}
	for i, m := range c.msgs {
		s, e := l.ends(m)
		l.arrowStart[i], l.arrowEnd[i] = s, e
		if m.from == m.to {
			p.addBox(loopBox(s, e), costArrow)
		} else {
			p.addSegment(s, e, costArrow)
		}
		// The arrowhead (or ✗) is drawn back from the end along the arrow.
		h := headCentre(s, e, m.from == m.to)
		p.addBox(box{h.x - headBox, h.y - headBox, h.x + headBox, h.y + headBox}, costHead)
		p.addBox(box{s.x - tailBox, s.y - tailBox, s.x + tailBox, s.y + tailBox}, costHead)
	}
	for _, mk := range c.marks {
		x, y := l.laneX(mk.lane), l.rowY(mk.row)
		p.addBox(box{x - markBox, y - markBox, x + markBox, y + markBox}, costMark)
	}
	// The time axis: a rule across the lanes at each tick and gst, its
	// label at its left end; a bar on a lane while its timer runs.
	for i, r := range c.rows {
		text, col := l.ruleText(i)
		if text == "" {
			continue
		}
		y := l.rowY(i)
		if r.tick || r.gst {
			p.addSegment(point{l.lanesLeft, y}, point{l.lanesRight, y}, costLane)
		}
		b := box{l.lanesLeft + 2, y - labelRise - labelH, l.lanesLeft + 2 + textW(text) + 2*labelPad, y - labelRise}
		p.addBox(b, costLabel)
		l.ruleLabels = append(l.ruleLabels, placed{b, []part{{text, col}}})
	}
	for _, t := range c.timers {
		p.addBox(l.timerBox(t), costArrow)
	}
	return p
}

// placeNotes places the decisions and the timers' notes: below the row
// beside the lane first, then above it, then a row further down, then
// centred under the lane.
func (l *layout) placeNotes(p *placer) {
	for _, nt := range l.c.notes {
		x, y := l.laneX(nt.lane), l.rowY(nt.row)
		w := textW(nt.text) + 2*labelPad
		b := p.place([]box{
			{x + noteDX, y + labelGap, x + noteDX + w, y + labelGap + labelH},
			{x - noteDX - w, y + labelGap, x - noteDX, y + labelGap + labelH},
			{x + noteDX, y - labelGap - labelH, x + noteDX + w, y - labelGap},
			{x - noteDX - w, y - labelGap - labelH, x - noteDX, y - labelGap},
			{x + noteDX, y + nextRowGap + labelH, x + noteDX + w, y + nextRowGap + 2*labelH},
			{x - noteDX - w, y + nextRowGap + labelH, x - noteDX, y + nextRowGap + 2*labelH},
			{x - w/2, y + labelGap, x + w/2, y + labelGap + labelH},
		})
		if nt.timer {
			l.timerLabels = append(l.timerLabels, placed{b, []part{{nt.text, orange}}})
			continue
		}
		l.noteLabels = append(l.noteLabels, placed{b, []part{{nt.text, ink}}})
	}
}

// placeMsgLabels places each group's label: beside its start first; then
// along the first arrow, above it and below it; then a row further up or
// down; then anywhere along.
func (l *layout) placeMsgLabels(p *placer, gs []group) {
	for _, g := range gs {
		text := strings.Join(g.texts, " ")
		x, y := l.laneX(g.from), l.rowY(g.row)
		w := textW(text) + 2*labelPad
		d := float64(g.dir)
		toward := func(off float64) (float64, float64) {
			if d > 0 {
				return x + off, x + off + w
			}
			return x - off - w, x - off
		}
		away := func(off float64) (float64, float64) {
			if d > 0 {
				return x - off - w, x - off
			}
			return x + off, x + off + w
		}
		t0, t1 := toward(noteDX)
		a0, a1 := away(noteDX)
		f0, f1 := toward(noteDX + l.laneW/3)
		cands := []box{{t0, y - labelRise - labelH, t1, y - labelRise}, {a0, y - labelRise - labelH, a1, y - labelRise}, {a0, y + labelGap, a1, y + labelGap + labelH}}
		first := g.msgs[0]
		s, e := l.arrowStart[first], l.arrowEnd[first]
		along := math.Abs(e.x-s.x) > w+alongRoom
		if along {
			for _, t := range []float64{0.3, 0.5, 0.7} {
				cands = append(cands, alongArrow(s, e, t, w, true), alongArrow(s, e, t, w, false))
			}
		}
		cands = append(cands, []box{
			{t0, y - labelGap - 2*labelH, t1, y - labelGap - labelH},
			{a0, y - labelGap - 2*labelH, a1, y - labelGap - labelH},
			{f0, y - labelRise - labelH, f1, y - labelRise},
			{a0, y + nextRowGap + labelH, a1, y + nextRowGap + 2*labelH},
		}...)
		if along {
			for _, t := range []float64{0.15, 0.4, 0.6, 0.85} {
				cands = append(cands, alongArrow(s, e, t, w, true), alongArrow(s, e, t, w, false))
			}
		}
		b := p.place(cands)
		var parts []part
		for _, t := range g.texts {
			parts = append(parts, part{t, l.msgColor[l.c.kindOf[t]]})
		}
		l.msgLabels = append(l.msgLabels, placed{b, parts})
	}
}

// placeMarkLabels places the word beside a mark only where it is free:
// the mark, the legend and the gutter say it too.
func (l *layout) placeMarkLabels(p *placer) {
	for _, mk := range l.c.marks {
		x, y := l.laneX(mk.lane), l.rowY(mk.row)
		w := textW(mk.text) + 2*labelPad
		b, ok := p.placeBelow([]box{
			{x + noteDX, y - labelH/2, x + noteDX + w, y + labelH/2},
			{x - noteDX - w, y - labelH/2, x - noteDX, y + labelH/2},
			{x + markWordDX, y + labelGap, x + markWordDX + w, y + labelGap + labelH},
			{x - markWordDX - w, y + labelGap, x - markWordDX, y + labelGap + labelH},
			{x + markWordDX, y - labelGap - labelH, x + markWordDX + w, y - labelGap},
			{x - markWordDX - w, y - labelGap - labelH, x - markWordDX, y - labelGap},
		}, costArrow)
		if ok {
			l.markLabels = append(l.markLabels, placed{b, []part{{mk.text, markColor(mk.kind)}}})
		}
	}
}

// loopBox is the room a message to oneself takes: its arrow is a loop to
// the right of the lane.
func loopBox(s, e point) box { return box{s.x, s.y, s.x + 32, max(e.y, s.y+8)} }

// alongArrow is a box of width w centred on the point t of the way from s
// to e, just above (or below) the line.
func alongArrow(s, e point, t, w float64, above bool) box {
	cx := s.x + t*(e.x-s.x)
	x0, x1 := cx-w/2, cx+w/2
	lineY := func(x float64) float64 { return s.y + (x-s.x)*(e.y-s.y)/(e.x-s.x) }
	y0, y1 := lineY(x0), lineY(x1)
	if above {
		bottom := min(y0, y1) - 3
		return box{x0, bottom - labelH, x1, bottom}
	}
	top := max(y0, y1) + 3
	return box{x0, top, x1, top + labelH}
}

// headCentre is the middle of an arrowhead ending at e.
func headCentre(s, e point, loop bool) point {
	if loop {
		return point{e.x + 4, e.y - 2}
	}
	dx, dy := e.x-s.x, e.y-s.y
	n := math.Hypot(dx, dy)
	if n == 0 {
		return e
	}
	return point{e.x - 5*dx/n, e.y - 5*dy/n}
}

// crossings counts the labels that arrows pass under, and the pairs of
// labels that overlap.
func (l *layout) crossings() int {
	labels := l.labels()
	n := 0
	for i, p := range labels {
		for j, m := range l.c.msgs {
			s, e := l.arrowStart[j], l.arrowEnd[j]
			if m.from == m.to && p.b.overlaps(loopBox(s, e)) || m.from != m.to && segmentHitsBox(s, e, p.b) {
				n++
			}
		}
		for _, q := range labels[i+1:] {
			if p.b.overlaps(q.b) {
				n++
			}
		}
	}
	return n
}

func (l *layout) labels() []placed {
	return slices.Concat(l.msgLabels, l.noteLabels, l.markLabels, l.timerLabels, l.ruleLabels)
}

// ruleText is the label of row i's place on the time axis, and its colour:
// the time after a tick ("t=3"), gst, and the start (t=0); "" elsewhere
// and in an untimed run.
func (l *layout) ruleText(i int) (string, string) {
	r := l.c.rows[i]
	switch {
	case !l.c.timed:
		return "", ""
	case r.gst:
		return r.action, teal
	case r.tick || i == 0:
		return trace.TimeWords(r.time), slate
	}
	return "", ""
}

// timerBox is where a running timer's bar goes: on its lane, from the row
// that set it to the row it ended at (past the last row while it runs).
func (l *layout) timerBox(t timerSpan) box {
	x, y1 := l.laneX(t.lane), l.rowY(t.to)
	if t.end == timerRunning {
		y1 = l.flightY
	}
	return box{x - 3, l.rowY(t.from), x + 3, y1}
}

// ends are where a message's arrow starts and stops.
func (l *layout) ends(m message) (s, e point) {
	s = point{l.laneX(m.from), l.rowY(m.sent)}
	d := float64(direction(m))
	switch m.fate {
	case delivered:
		e = point{l.laneX(m.to), l.rowY(m.end)}
	case lost:
		e = point{l.laneX(m.to) - d*lostDX, l.rowY(m.end)}
	default:
		e = point{l.laneX(m.to) - d*10, l.flightY}
	}
	if m.from == m.to {
		e.x = s.x
		if m.fate != delivered {
			e.x = s.x + lostDX
		}
	}
	return s, e
}

func markColor(kind int) string {
	switch kind {
	case markCrash:
		return red
	case markRestart:
		return green
	case markStart:
		return blue
	case markTimeout:
		return orange
	}
	return grey
}

func (l *layout) legendItems() []legendItem {
	c := l.c
	var items []legendItem
	has := func(pred func(message) bool) bool {
		for _, m := range c.msgs {
			if pred(m) {
				return true
			}
		}
		return false
	}
	if has(func(m message) bool { return m.fate == delivered }) {
		items = append(items, legendItem{"deliver", "message: sent → delivered"})
	}
	if has(func(m message) bool { return m.fate == lost }) {
		items = append(items, legendItem{"lost", "lost: its receiver crashed"})
	}
	if has(func(m message) bool { return m.fate == inFlight }) {
		items = append(items, legendItem{"flight", "in flight at the end"})
	}
	kinds := map[int]bool{}
	for _, mk := range c.marks {
		kinds[mk.kind] = true
	}
	if kinds[markCrash] {
		items = append(items, legendItem{"crash", "crash (lane dashed while down)"})
	}
	if kinds[markRestart] {
		items = append(items, legendItem{"restart", "restart"})
	}
	if kinds[markStart] {
		items = append(items, legendItem{"start", "initiate / detect / suspect"})
	}
	if kinds[markTimeout] {
		items = append(items, legendItem{"timeout", "timeout"})
	}
	decisions, timers := false, false
	for _, nt := range c.notes {
		decisions = decisions || !nt.timer
		timers = timers || nt.timer
	}
	if decisions {
		items = append(items, legendItem{"note", "decision"})
	}
	ticks, gst := false, false
	for _, r := range c.rows {
		ticks, gst = ticks || r.tick, gst || r.gst
	}
	if ticks {
		items = append(items, legendItem{"tick", "tick: the clock advances (t = ticks so far)"})
	}
	if gst {
		items = append(items, legendItem{"gst", "gst: the global stabilisation time"})
	}
	if timers || len(c.timers) > 0 {
		items = append(items, legendItem{"timer", "timer running (timer := ticks it is set to)"})
	}
	if has(func(m message) bool { return m.mark == trace.MarkDue }) {
		items = append(items, legendItem{"age", "@age(due): D ticks old, delivered before the next tick"})
	}
	if has(func(m message) bool { return m.mark == trace.MarkLate }) {
		items = append(items, legendItem{"age", "@age(late): D ticks old or more before gst, it may wait"})
	}
	return items
}

const legendGlyphW = 34.0

// legendRows lays the legend out in rows that fit the width.
func (l *layout) legendRows() [][]legendItem {
	var rows [][]legendItem
	x := margin
	for _, it := range l.legend {
		w := legendGlyphW + textW(it.text) + 22
		if len(rows) == 0 || x+w > l.width-margin {
			rows = append(rows, nil)
			x = margin
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], it)
		x += w
	}
	return rows
}

func (l *layout) legendHeight() float64 { return lineH * float64(len(l.legendRows())) }

// SVG draws the trace as a message-sequence chart in SVG.
func SVG(w io.Writer, f *trace.File) error {
	c, err := analyze(f)
	if err != nil {
		return err
	}
	l := pickLayout(c)
	bw := bufio.NewWriter(w)
	s := &svgWriter{w: bw}
	l.draw(s)
	if s.err != nil {
		return s.err
	}
	return bw.Flush()
}

// pickLayout lays the chart out. Rows further apart give the labels more
// room: it takes the first row height at which no arrow passes under a
// label, or else the one with the fewest.
func pickLayout(c *chart) *layout {
	var l *layout
	for _, h := range []float64{minRowH, minRowH + 6, minRowH + 12, minRowH + 20} {
		try := &layout{c: c, rowH: h}
		try.compute()
		if l == nil || try.crossings() < l.crossings() {
			l = try
		}
		if l.crossings() == 0 {
			break
		}
	}
	return l
}

type svgWriter struct {
	w   *bufio.Writer
	err error
}

func (s *svgWriter) printf(format string, args ...any) {
	if s.err == nil {
		_, s.err = fmt.Fprintf(s.w, format, args...)
	}
}

// esc escapes text for XML content and attribute values: a line break
// stays one (a tooltip's lines), another control character shows as its
// escape (trace.Printable).
func esc(t string) string {
	lines := strings.Split(t, "\n")
	for i, l := range lines {
		lines[i] = trace.Printable(l)
	}
	var sb strings.Builder
	xml.EscapeText(&sb, []byte(strings.Join(lines, "\n")))
	return sb.String()
}

// num prints a coordinate: integers as such, others with one decimal.
func num(v float64) string {
	v = math.Round(v*10) / 10
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func (l *layout) draw(s *svgWriter) {
	c := l.c
	W, H := l.width, l.height
	s.printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="%s" font-size="%s">`+"\n",
		num(W), num(H), num(W), num(H), fontFam, num(fontSize))
	head, _ := titleLines(c.f)
	s.printf("<title>%s</title>\n", esc(head))
	l.defs(s)
	s.printf(`<rect width="100%%" height="100%%" fill="#ffffff"/>` + "\n")

	// Title.
	for i, t := range l.title {
		y := margin + lineH*float64(i) + 12
		switch t.style {
		case styleHead:
			s.printf(`<text x="%s" y="%s" font-size="%s" font-weight="bold" fill="%s">%s</text>`+"\n", num(margin), num(y+2), num(titleSize), ink, esc(t.text))
		case styleSummary:
			s.printf(`<text x="%s" y="%s" fill="%s">%s</text>`+"\n", num(margin), num(y), ink, esc(t.text))
		default:
			s.printf(`<text x="%s" y="%s" fill="%s">%s</text>`+"\n", num(margin), num(y), grey, esc(t.text))
		}
	}

	// Row bands, the cycle tinted, with each step's changes as a tooltip.
	left, right := margin, l.lanesRight
	s.printf(`<g id="rows">` + "\n")
	for i, r := range c.rows {
		top := l.rowsTop + l.rowH*float64(i)
		fill := ""
		switch {
		case c.cycle >= 0 && i > c.cycle:
			fill = "#fff3e0"
			if i%2 == 1 {
				fill = "#ffe8cc"
			}
		case i%2 == 1:
			fill = "#f5f5f5"
		}
		tip := fmt.Sprintf("step %d: %s", r.step, c.timeText(r))
		if r.premise {
			tip += " (" + trace.PremiseWords + ")"
		}
		if len(r.changes) > 0 {
			tip += "\n" + strings.Join(r.changes, "\n")
		}
		s.printf(`<g><title>%s</title>`, esc(tip))
		if fill != "" {
			s.printf(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`, num(left-6), num(top), num(right-left+6), num(l.rowH), fill)
		} else {
			s.printf(`<rect x="%s" y="%s" width="%s" height="%s" fill="#ffffff" fill-opacity="0"/>`, num(left-6), num(top), num(right-left+6), num(l.rowH))
		}
		y := top + l.rowH/2
		switch {
		case r.tick:
			s.printf(`<line class="tick" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5"/>`, num(l.lanesLeft), num(y), num(right), num(y), slate)
		case r.gst:
			s.printf(`<line class="gst" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2" stroke-dasharray="8 4"/>`, num(l.lanesLeft), num(y), num(right), num(y), teal)
		default:
			s.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e0e0e0" stroke-width="1"/>`, num(l.lanesLeft), num(y), num(right), num(y))
		}
		s.printf(`<text x="%s" y="%s" text-anchor="end" fill="%s">%d</text>`, num(margin+l.gutterNumW), num(y+4), grey, r.step)
		s.printf(`<text x="%s" y="%s" fill="%s">%s</text></g>`+"\n", num(margin+l.gutterNumW+10), num(y+4), ink, esc(r.gutter()))
	}
	s.printf("</g>\n")

	l.drawLanes(s)
	l.drawTimers(s)
	l.drawArrows(s)
	l.drawMarks(s)
	l.drawLabels(s)
	if c.cycle >= 0 {
		l.drawBracket(s)
	}
	l.drawLegend(s)
	for i, w := range c.warnings {
		s.printf(`<text x="%s" y="%s" fill="%s">warning: %s</text>`+"\n", num(margin), num(l.footTop+lineH*float64(i)+12), red, esc(w))
	}
	s.printf("</svg>\n")
}

func (l *layout) defs(s *svgWriter) {
	s.printf("<defs>\n")
	for i, k := range l.c.kinds {
		col := l.msgColor[k]
		s.printf(`<marker id="ah%d" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>`+"\n", i, col)
		s.printf(`<marker id="oh%d" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0 L10,5 L0,10" fill="none" stroke="%s" stroke-width="1.5"/></marker>`+"\n", i, col)
	}
	s.printf(`<marker id="ahLegend" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>`+"\n", ink)
	s.printf(`<marker id="ohLegend" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0 L10,5 L0,10" fill="none" stroke="%s" stroke-width="1.5"/></marker>`+"\n", ink)
	s.printf("</defs>\n")
}

func (l *layout) kindIndex(text string) int {
	k := l.c.kindOf[text]
	for i, x := range l.c.kinds {
		if x == k {
			return i
		}
	}
	return 0
}

func (l *layout) drawLanes(s *svgWriter) {
	c := l.c
	last := len(c.rows) - 1
	s.printf(`<g id="lanes">` + "\n")
	for i, name := range c.lanes {
		x := l.laneX(i)
		// Runs of rows with the same liveness: solid while up, dashed while down.
		type run struct {
			y0, y1 float64
			up     bool
		}
		var runs []run
		add := func(y0, y1 float64, up bool) {
			if n := len(runs); n > 0 && runs[n-1].up == up {
				runs[n-1].y1 = y1
				return
			}
			runs = append(runs, run{y0, y1, up})
		}
		add(l.headTop+headH, l.rowY(0), c.alive[0][i])
		for r := 0; r < last; r++ {
			add(l.rowY(r), l.rowY(r+1), c.alive[r][i])
		}
		add(l.rowY(last), l.headsBottomTop, c.alive[last][i])
		for _, r := range runs {
			if r.up {
				s.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"/>`+"\n", num(x), num(r.y0), num(x), num(r.y1), "#9e9e9e")
			} else {
				s.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2" stroke-dasharray="4 5"/>`+"\n", num(x), num(r.y0), num(x), num(r.y1), "#bdbdbd")
			}
		}
		for _, top := range []float64{l.headTop, l.headsBottomTop} {
			w := max(textW(name)+20, 48)
			s.printf(`<rect x="%s" y="%s" width="%s" height="%s" rx="4" fill="#eceff1" stroke="#607d8b"/>`, num(x-w/2), num(top), num(w), num(headH))
			s.printf(`<text x="%s" y="%s" text-anchor="middle" font-weight="bold" fill="%s">%s</text>`+"\n", num(x), num(top+17), ink, esc(name))
		}
	}
	s.printf("</g>\n")
}

func (l *layout) drawArrows(s *svgWriter) {
	s.printf(`<g id="messages" fill="none" stroke-width="1.5">` + "\n")
	for i, m := range l.c.msgs {
		st, e := l.arrowStart[i], l.arrowEnd[i]
		k := l.kindIndex(m.text)
		col := l.msgColor[l.c.kindOf[m.text]]
		fate := [...]string{"delivered", "lost", "in flight"}[m.fate]
		tip := fmt.Sprintf("%s %s→%s, sent at %s", m.text, l.c.lanes[m.from], l.c.lanes[m.to], l.step(m.sent))
		switch m.fate {
		case delivered:
			tip += ", delivered at " + l.step(m.end)
		case lost:
			tip += ", lost at " + l.step(m.end)
		default:
			tip += ", in flight at the end"
		}
		if l.c.timed {
			tip += ", aged " + l.c.endText(m)
		}
		dash, head := "", fmt.Sprintf(` marker-end="url(#ah%d)"`, k)
		switch m.fate {
		case lost:
			dash, head = ` stroke-dasharray="6 3"`, ""
		case inFlight:
			dash, head = ` stroke-dasharray="6 3"`, fmt.Sprintf(` marker-end="url(#oh%d)"`, k)
		}
		s.printf(`<g class="%s"><title>%s</title>`, strings.ReplaceAll(fate, " ", "-"), esc(tip))
		if m.from == m.to {
			s.printf(`<path d="M%s,%s C%s,%s %s,%s %s,%s" stroke="%s"%s%s/>`,
				num(st.x), num(st.y), num(st.x+40), num(st.y), num(e.x+40), num(e.y), num(e.x), num(e.y), col, dash, head)
		} else {
			s.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"%s%s/>`, num(st.x), num(st.y), num(e.x), num(e.y), col, dash, head)
		}
		s.printf(`<circle cx="%s" cy="%s" r="2.5" fill="%s"/>`, num(st.x), num(st.y), col)
		if m.fate == lost {
			cross(s, e, 4, red)
		}
		s.printf("</g>\n")
	}
	s.printf("</g>\n")
}

// step names row r for a tooltip, with its time in a timed run: "step 5
// (t=1)".
func (l *layout) step(r int) string {
	if !l.c.timed {
		return "step " + strconv.Itoa(r)
	}
	return fmt.Sprintf("step %d (%s)", r, trace.TimeWords(l.c.rows[r].time))
}

// drawTimers draws each running timer as a bar on its lane, with what set
// and ended it as a tooltip.
func (l *layout) drawTimers(s *svgWriter) {
	if len(l.c.timers) == 0 {
		return
	}
	s.printf(`<g id="timers">` + "\n")
	for _, t := range l.c.timers {
		tip := fmt.Sprintf("%s's timer: %d ticks from %s", l.c.lanes[t.lane], t.set, l.step(t.from))
		switch t.end {
		case timerFired:
			tip += ", its timeout taken at " + l.step(t.to)
		case timerStopped:
			tip += ", set off at " + l.step(t.to)
		case timerReset:
			tip += ", set anew at " + l.step(t.to)
		case timerCrashed:
			tip += ", gone with the crash at " + l.step(t.to)
		default:
			tip += ", running at the end"
		}
		b := l.timerBox(t)
		s.printf(`<g class="timer"><title>%s</title><rect x="%s" y="%s" width="%s" height="%s" rx="2" fill="%s" stroke="%s" stroke-width="1"/></g>`+"\n",
			esc(tip), num(b.x0), num(b.y0), num(b.x1-b.x0), num(b.y1-b.y0), amber, orange)
	}
	s.printf("</g>\n")
}

func cross(s *svgWriter, p point, r float64, col string) {
	s.printf(`<path d="M%s,%s L%s,%s M%s,%s L%s,%s" stroke="%s" stroke-width="2.5" fill="none"/>`,
		num(p.x-r), num(p.y-r), num(p.x+r), num(p.y+r), num(p.x-r), num(p.y+r), num(p.x+r), num(p.y-r), col)
}

func (l *layout) drawMarks(s *svgWriter) {
	s.printf(`<g id="marks">` + "\n")
	for _, mk := range l.c.marks {
		p := point{l.laneX(mk.lane), l.rowY(mk.row)}
		glyph(s, mk.kind, p)
	}
	s.printf("</g>\n")
}

// glyph draws the mark of an action at p.
func glyph(s *svgWriter, kind int, p point) {
	switch kind {
	case markCrash:
		s.printf(`<rect x="%s" y="%s" width="14" height="14" fill="#ffffff"/>`, num(p.x-7), num(p.y-7))
		cross(s, p, 6, red)
	case markRestart:
		s.printf(`<circle cx="%s" cy="%s" r="6" fill="#ffffff" stroke="%s" stroke-width="2.5"/>`, num(p.x), num(p.y), green)
	case markStart:
		s.printf(`<path d="M%s,%s L%s,%s L%s,%s L%s,%s z" fill="%s"/>`, num(p.x), num(p.y-6), num(p.x+6), num(p.y), num(p.x), num(p.y+6), num(p.x-6), num(p.y), blue)
	case markTimeout:
		s.printf(`<circle cx="%s" cy="%s" r="6" fill="#ffffff" stroke="%s" stroke-width="2"/><path d="M%s,%s L%s,%s L%s,%s" stroke="%s" stroke-width="1.5" fill="none"/>`,
			num(p.x), num(p.y), orange, num(p.x), num(p.y-4), num(p.x), num(p.y), num(p.x+3), num(p.y), orange)
	default:
		s.printf(`<rect x="%s" y="%s" width="10" height="10" fill="%s"/>`, num(p.x-5), num(p.y-5), grey)
	}
	s.printf("\n")
}

func (l *layout) drawLabels(s *svgWriter) {
	s.printf(`<g id="labels">` + "\n")
	for _, p := range l.msgLabels {
		label(s, p, "#ffffff", "none")
	}
	for _, p := range l.markLabels {
		label(s, p, "#ffffff", "none")
	}
	for _, p := range l.noteLabels {
		label(s, p, "#fff9c4", "#c0a000")
	}
	for _, p := range l.timerLabels {
		label(s, p, "#ffffff", orange)
	}
	for _, p := range l.ruleLabels {
		label(s, p, "#ffffff", "none")
	}
	s.printf("</g>\n")
}

func label(s *svgWriter, p placed, fill, stroke string) {
	b := p.b
	s.printf(`<rect x="%s" y="%s" width="%s" height="%s" rx="3" fill="%s" fill-opacity="0.92" stroke="%s"/>`,
		num(b.x0), num(b.y0), num(b.x1-b.x0), num(b.y1-b.y0), fill, stroke)
	if len(p.parts) == 1 {
		s.printf(`<text x="%s" y="%s" fill="%s">%s</text>`+"\n", num(b.x0+labelPad), num(b.y0+11.5), p.parts[0].color, esc(p.parts[0].text))
		return
	}
	s.printf(`<text x="%s" y="%s">`, num(b.x0+labelPad), num(b.y0+11.5))
	for i, pt := range p.parts {
		sep := " "
		if i == len(p.parts)-1 {
			sep = ""
		}
		s.printf(`<tspan fill="%s">%s</tspan>`, pt.color, esc(pt.text+sep))
	}
	s.printf("</text>\n")
}

// drawBracket brackets the rows of the cycle's steps, the first to the
// last, with an arrowhead back at the first: after the last step the run
// goes on with the first again (trace.CycleWords, as the text says it).
func (l *layout) drawBracket(s *svgWriter) {
	c := l.c
	last := len(c.rows) - 1
	reach := l.rowH * 0.35 // a one-step cycle still gets a bracket
	y0, y1 := l.rowY(c.cycle+1)-reach, l.rowY(last)+reach
	x := l.bracketX
	s.printf(`<g id="cycle" fill="none" stroke="%s" stroke-width="2">`, orange)
	s.printf(`<path d="M%s,%s H%s V%s H%s"/>`, num(x-8), num(y1), num(x), num(y0), num(x-8))
	s.printf(`<path d="M%s,%s L%s,%s L%s,%s" />`, num(x-4), num(y0+8), num(x), num(y0), num(x+4), num(y0+8))
	mid := (y0 + y1) / 2
	repeat, back := c.cycleWords()
	s.printf(`<text x="%s" y="%s" fill="%s" stroke="none" font-weight="bold">%s</text>`, num(x+8), num(mid-4), orange, esc(repeat))
	s.printf(`<text x="%s" y="%s" fill="%s" stroke="none">↩ %s</text>`, num(x+8), num(mid+12), orange, esc(back))
	s.printf("</g>\n")
}

// cycleWords are the words of a lasso's cycle, numbered as the text report
// numbers it.
func (c *chart) cycleWords() (repeat, back string) {
	return trace.CycleWords(c.cycle+1, len(c.rows)-1)
}

func (l *layout) drawLegend(s *svgWriter) {
	s.printf(`<g id="legend">` + "\n")
	for r, items := range l.legendRows() {
		y := l.legendTop + lineH*float64(r) + 6
		x := margin
		for _, it := range items {
			gx := x + legendGlyphW/2
			switch it.glyph {
			case "deliver":
				s.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5" marker-end="url(#ahLegend)"/>`, num(x), num(y), num(x+legendGlyphW-4), num(y), ink)
			case "lost":
				s.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5" stroke-dasharray="6 3"/>`, num(x), num(y), num(x+legendGlyphW-8), num(y), ink)
				cross(s, point{x + legendGlyphW - 8, y}, 4, red)
			case "flight":
				s.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5" stroke-dasharray="6 3" marker-end="url(#ohLegend)"/>`, num(x), num(y), num(x+legendGlyphW-4), num(y), ink)
			case "crash":
				glyph(s, markCrash, point{gx, y})
			case "restart":
				glyph(s, markRestart, point{gx, y})
			case "start":
				glyph(s, markStart, point{gx, y})
			case "timeout":
				glyph(s, markTimeout, point{gx, y})
			case "note":
				s.printf(`<rect x="%s" y="%s" width="%s" height="12" rx="3" fill="#fff9c4" stroke="#c0a000"/>`, num(x+4), num(y-6), num(legendGlyphW-8))
			case "tick":
				s.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5"/>`, num(x), num(y), num(x+legendGlyphW-4), num(y), slate)
			case "gst":
				s.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2" stroke-dasharray="8 4"/>`, num(x), num(y), num(x+legendGlyphW-4), num(y), teal)
			case "timer":
				s.printf(`<rect x="%s" y="%s" width="6" height="14" rx="2" fill="%s" stroke="%s" stroke-width="1"/>`, num(gx-3), num(y-7), amber, orange)
			case "age":
				s.printf(`<text x="%s" y="%s" fill="%s" text-anchor="middle">@D</text>`, num(gx), num(y+4), slate)
			}
			s.printf(`<text x="%s" y="%s" fill="%s">%s</text>`+"\n", num(x+legendGlyphW+4), num(y+4), ink, esc(it.text))
			x += legendGlyphW + textW(it.text) + 22
		}
	}
	s.printf("</g>\n")
}
