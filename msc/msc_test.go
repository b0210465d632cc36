package msc_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/internal/chromium"
	"github.com/mcheck/mcheck/internal/golden" // also defines -update: go test ./msc -update
	"github.com/mcheck/mcheck/internal/needs"
	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/msc"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// fixtures are the traces the charts are tested on: the seed examples' trace
// files (kept by the cli golden test) and a 6-process LeLann lasso of 38 steps.
var fixtures = []struct{ name, path string }{
	{"circulating-election", "../testdata/golden/circulating-election.Termination-fair-cycle.trace.json"},
	{"circulating-election-stuck", "../testdata/golden/circulating-election.Termination-stuck.trace.json"},
	{"bully-restart", "../testdata/golden/bully-restart.SingleLeader-invariant.trace.json"},
	{"bully-unreliable-termination", "../testdata/golden/bully-unreliable-termination.Termination-fair-cycle.trace.json"},
	{"lelann6-crash", "../testdata/msc/lelann6-crash.Termination-fair-cycle.trace.json"},
	// Timed runs (docs/semantics.md section 6), written by mcheck --trace-out:
	// bully --n 4 --crash-any --timing sync --delay 1 --timeout 2 --check SingleLeader;
	// bully --n 3 --crashes 1 --restarts 1 --timing partial --timeout 3 --check Termination;
	// chang-roberts --n 4 --crashes 1 --timing partial --check Termination.
	{"bully-race", "../testdata/msc/bully-race.SingleLeader-invariant.trace.json"},
	{"bully-partial-restart", "../testdata/msc/bully-partial-restart.Termination-stuck.trace.json"},
	{"chang-roberts-partial", "../testdata/msc/chang-roberts-partial.Termination-fair-cycle.trace.json"},
}

// timeline is what a timed trace says of its time, worked out
// independently of the chart code: the steps that tick and the time after
// each, the gst steps, and the steps that set a process's timer to a
// countdown (a step other than a tick after which its timer runs and
// differs from before, or its own timeout re-armed it).
type timeline struct {
	ticks, gsts []int
	time        []int
	sets        int
}

func timelineOf(f *trace.File) timeline {
	tl := timeline{time: make([]int, len(f.Steps))}
	for i := 1; i < len(f.Steps); i++ {
		s := f.Steps[i].Step
		tl.time[i] = tl.time[i-1]
		switch s.Kind {
		case model.KindTick:
			tl.ticks = append(tl.ticks, i)
			tl.time[i]++
			continue
		case model.KindGST:
			tl.gsts = append(tl.gsts, i)
			continue
		}
		for j, p := range f.Steps[i].State.Processes {
			op := f.Steps[i-1].State.Processes[j]
			if p.Timer == nil || !p.Alive {
				continue
			}
			if _, running := p.Timer.Int(); running && (!op.Alive || !op.Timer.Equal(*p.Timer) || s.Kind == model.KindTimeout && s.Process == p.ID) {
				tl.sets++
			}
		}
	}
	return tl
}

func load(t *testing.T, path string) *trace.File {
	t.Helper()
	fh, err := os.Open(path)
	require.NoError(t, err)
	defer fh.Close()
	f, err := trace.Read(fh)
	require.NoError(t, err)
	// Charts are drawn from the run as the model renders it (the kernel's
	// data, such as each process's elected leader, is not in the file).
	shown, err := trace.Replayed(f, specs.Builtin())
	require.NoError(t, err)
	shown.Summary = f.Summary
	return shown
}

func render(t *testing.T, fn func(io.Writer, *trace.File) error, f *trace.File) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, fn(&b, f))
	return b.String()
}

// counts is what a trace says about its messages, worked out independently
// of the chart code: deliveries from the actions, in-flight messages from
// the last state, lost ones as messages that left a channel into a process
// that crashed at that step.
type counts struct{ delivered, lost, inFlight int }

func countMessages(f *trace.File) counts {
	var c counts
	for i, s := range f.Steps {
		if s.Step != nil && s.Step.Kind == model.KindDeliver {
			c.delivered++
		}
		if s.Step != nil && s.Step.Kind == model.KindCrash && i > 0 {
			for _, ch := range f.Steps[i-1].State.Channels {
				if ch.To == s.Step.Process {
					c.lost += len(ch.Messages)
				}
			}
		}
	}
	for _, ch := range f.Steps[len(f.Steps)-1].State.Channels {
		c.inFlight += len(ch.Messages)
	}
	return c
}

func TestFixturesAreGenuineCounterexamples(t *testing.T) {
	for _, fx := range fixtures {
		require.NoError(t, trace.Replay(load(t, fx.path), specs.Builtin()), fx.name)
	}
	f := load(t, fixtures[4].path)
	assert.Len(t, f.Steps[0].State.Processes, 6)
	assert.Len(t, f.Steps, 39, "the big fixture is a 6-process trace of 38 steps")
}

func TestGolden(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			f := load(t, fx.path)
			golden.Check(t, filepath.Join("..", "testdata", "msc", fx.name+".svg"), []byte(render(t, msc.SVG, f)))
			golden.Check(t, filepath.Join("..", "testdata", "msc", fx.name+".mmd"), []byte(render(t, msc.Mermaid, f)))
		})
	}
}

// The README shows docs/circulating-election.svg: it is the chart of the
// seed example as mcheck draws it now (-update redraws it; the PNG beside
// it is redrawn by TestSVGRendersInChromium with -update).
func TestREADMEChartIsCurrent(t *testing.T) {
	golden.Check(t, filepath.Join("..", "docs", "circulating-election.svg"), []byte(render(t, msc.SVG, load(t, fixtures[0].path))))
}

func TestDeterministic(t *testing.T) {
	f := load(t, fixtures[4].path)
	assert.Equal(t, render(t, msc.SVG, f), render(t, msc.SVG, f))
	assert.Equal(t, render(t, msc.Mermaid, f), render(t, msc.Mermaid, f))
}

// svgDoc decodes a whole SVG document with encoding/xml and collects what
// the tests look at.
type svgDoc struct {
	width, height int
	text          string         // all character data, in order
	classes       map[string]int // class="..." counts: <g> of messages and timers, <line> of ticks and gst
	labelsAfter   bool           // the labels group comes after the messages group
}

func decodeSVG(t *testing.T, doc string) svgDoc {
	t.Helper()
	d := svgDoc{classes: map[string]int{}}
	dec := xml.NewDecoder(strings.NewReader(doc))
	var text strings.Builder
	depth, seenMessages, root := 0, false, false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "the SVG must be well-formed XML")
		switch tk := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				require.False(t, root, "one root element")
				root = true
				require.Equal(t, "svg", tk.Name.Local)
				require.Equal(t, "http://www.w3.org/2000/svg", tk.Name.Space)
			}
			depth++
			for _, a := range tk.Attr {
				switch {
				case depth == 1 && a.Name.Local == "width":
					d.width, err = strconv.Atoi(a.Value)
					require.NoError(t, err)
				case depth == 1 && a.Name.Local == "height":
					d.height, err = strconv.Atoi(a.Value)
					require.NoError(t, err)
				case a.Name.Local == "class":
					d.classes[a.Value]++
				case tk.Name.Local == "g" && a.Name.Local == "id" && a.Value == "messages":
					seenMessages = true
				case tk.Name.Local == "g" && a.Name.Local == "id" && a.Value == "labels":
					d.labelsAfter = seenMessages
				}
			}
		case xml.EndElement:
			depth--
		case xml.CharData:
			text.Write(tk)
			text.WriteByte('\n')
		}
	}
	require.True(t, root)
	d.text = text.String()
	return d
}

func TestSVGIsWellFormedAndComplete(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			f := load(t, fx.path)
			d := decodeSVG(t, render(t, msc.SVG, f))
			assert.Positive(t, d.width)
			assert.Positive(t, d.height)
			want := countMessages(f)
			assert.Equal(t, want.delivered, d.classes["delivered"], "an arrow per delivered message")
			assert.Equal(t, want.lost, d.classes["lost"], "a lost arrow per message dropped by a crash")
			assert.Equal(t, want.inFlight, d.classes["in-flight"], "a dangling arrow per message in flight at the end")
			assert.True(t, d.labelsAfter, "labels are drawn over the arrows, on a background")
			// The title: the property and the summary.
			assert.Contains(t, d.text, f.Property+" violated")
			for _, w := range strings.Fields(f.Summary) {
				assert.Contains(t, d.text, w)
			}
			// Every step in the gutter, with its number.
			for i, s := range f.Steps {
				assert.Contains(t, d.text, "\n"+strconv.Itoa(i)+"\n"+s.Label()+"\n")
			}
			for _, p := range f.Steps[0].State.Processes {
				assert.Contains(t, d.text, "\n"+p.Name()+"\n")
			}
			// The cycle is numbered as the text report numbers it: its
			// first step is the one after the state it returns to.
			assert.Equal(t, f.CycleStart != nil, strings.Contains(d.text, "back to step"))
			if f.CycleStart != nil {
				first, last := *f.CycleStart+1, len(f.Steps)-1
				assert.Contains(t, d.text, fmt.Sprintf("steps %d-%d repeat forever\n↩ back to step %d", first, last, first))
				var text strings.Builder
				trace.WriteText(&text, f, false)
				assert.Contains(t, text.String(), fmt.Sprintf("(steps %d-%d repeat forever)", first, last))
				assert.Contains(t, text.String(), fmt.Sprintf("↩ back to step %d\n", first))
			}
			// A timed run's time axis: a rule per tick labelled with the
			// time after it, a rule per gst, a bar per timer set.
			tl := timelineOf(f)
			assert.Equal(t, len(tl.ticks), d.classes["tick"], "a rule per tick")
			assert.Equal(t, len(tl.gsts), d.classes["gst"], "a rule per gst")
			assert.Equal(t, tl.sets, d.classes["timer"], "a bar per timer set")
			for _, i := range tl.ticks {
				assert.Contains(t, d.text, fmt.Sprintf("\nt=%d\n", tl.time[i]))
			}
			assert.Equal(t, f.Config.Timing != "", strings.Contains(d.text, "\nt=0\n"), "a timed chart starts at t=0")
			if len(tl.ticks) > 0 {
				assert.Contains(t, d.text, "tick: the clock advances")
			}
		})
	}
}

// The race on the time axis: the SVG's rules, timers and tooltips.
func TestSVGTimeAxis(t *testing.T) {
	doc := render(t, msc.SVG, load(t, fixtures[5].path))
	d := decodeSVG(t, doc)
	for _, s := range []string{"\nt=1\n", "\nt=2\n", "\ntimer := 2\n", "\ntimeout-ok\n",
		"step 6: tick, t=2\np2.timer: 1 → 0\np3.timer: 1 → 0\nchan p3→p2: [OK(3)@0] → [OK(3)@1(due)]",
		"OK(3) p3→p2, sent at step 5 (t=1), in flight at the end, aged OK(3)@1(due)",
		"ELECTION(2) p2→p3, sent at step 2 (t=0), delivered at step 5 (t=1), aged ELECTION(2)@1(due)",
		"@age(due): D ticks old, delivered before the next tick",
		"p2's timer: 2 ticks from step 2 (t=0), its timeout taken at step 7 (t=2)",
		"timer running (timer := ticks it is set to)"} {
		assert.Contains(t, d.text, s)
	}
	assert.Contains(t, render(t, msc.SVG, load(t, fixtures[6].path)), `<title>step 12: gst, t=4&#xA;gst: false → true</title>`)
	untimed := decodeSVG(t, render(t, msc.SVG, load(t, fixtures[2].path)))
	assert.NotContains(t, untimed.text, "t=0")
	assert.NotContains(t, untimed.text, "timer")
	assert.Zero(t, untimed.classes["tick"]+untimed.classes["timer"])
}

func TestSVGMarksAndNotes(t *testing.T) {
	d := decodeSVG(t, render(t, msc.SVG, load(t, fixtures[2].path)))
	// bully-restart: crash p3, detect p2, timeout-ok p2, restart p3.
	for _, s := range []string{"crash", "detect", "timeout-ok", "restart", "elected = 3", "elected := ⊥", "elected := 2", "elected := 3"} {
		assert.Contains(t, d.text, "\n"+s+"\n")
	}
	d = decodeSVG(t, render(t, msc.SVG, load(t, fixtures[1].path)))
	assert.Contains(t, d.text, "lost: its receiver crashed")
}

var (
	participantRe = regexp.MustCompile(`^\s*participant (\S+)$`)
	deliverRe     = regexp.MustCompile(`^\s*(\w+)->>(\w+): (\d+): (.*)$`)
	lostRe        = regexp.MustCompile(`^\s*(\w+)--x(\w+): `)
	agedRe        = regexp.MustCompile(`^(.*)@(\d+)(?:\((?:due|late)\))?$`)
	everyLaneRe   = regexp.MustCompile(`^\s*Note over p\d+,p\d+: (\d+): (.*)$`)
)

func TestMermaidStructure(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			f := load(t, fx.path)
			out := render(t, msc.Mermaid, f)
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			require.Equal(t, "sequenceDiagram", lines[0])
			var participants []string
			arrows, lost, loops, ends := 0, 0, 0, 0
			everyLane := map[string]string{} // the notes over every lane, by step
			for _, ln := range lines[1:] {
				require.True(t, strings.HasPrefix(ln, "    "), "indented: %q", ln)
				if m := participantRe.FindStringSubmatch(ln); m != nil {
					participants = append(participants, m[1])
				}
				if m := deliverRe.FindStringSubmatch(ln); m != nil {
					arrows++
					// The arrow is the delivery of its step's action; in a
					// timed run it says the message's age, as the channel
					// had it before.
					step, _ := strconv.Atoi(m[3])
					require.Less(t, step, len(f.Steps))
					text := m[4]
					if f.Config.Timing != "" {
						a := agedRe.FindStringSubmatch(text)
						require.NotNil(t, a, ln)
						text = a[1]
						var ch model.ChannelSnapshot
						for _, c := range f.Steps[step-1].State.Channels {
							if c.FromName() == m[1] && c.ToName() == m[2] {
								ch = c
							}
						}
						require.NotEmpty(t, ch.Ages, ln)
						assert.Equal(t, strconv.Itoa(ch.Ages[0]), a[2], ln)
					}
					assert.Equal(t, "deliver "+m[1]+"→"+m[2]+" "+text, f.Steps[step].Label())
				}
				if m := everyLaneRe.FindStringSubmatch(ln); m != nil {
					everyLane[m[1]] = m[2]
				}
				if lostRe.MatchString(ln) {
					lost++
				}
				if strings.HasPrefix(strings.TrimSpace(ln), "loop ") {
					loops++
				}
				if strings.TrimSpace(ln) == "end" {
					ends++
				}
			}
			var names []string
			for _, p := range f.Steps[0].State.Processes {
				names = append(names, p.Name())
			}
			assert.Equal(t, names, participants, "a participant per process, in ring order")
			want := countMessages(f)
			assert.Equal(t, want.delivered, arrows, "an arrow per delivered message")
			assert.Equal(t, want.lost, lost)
			assert.Equal(t, loops, ends)
			// A timed run's ticks and gst are notes over every lane, with
			// the time after them.
			tl := timelineOf(f)
			for _, i := range slices.Concat(tl.ticks, tl.gsts) {
				assert.Equal(t, fmt.Sprintf("%s, t=%d", f.Steps[i].Label(), tl.time[i]), everyLane[strconv.Itoa(i)], "step %d", i)
			}
			if f.Config.Timing != "" {
				assert.Equal(t, "initial state, t=0", everyLane["0"])
			} else {
				assert.Equal(t, "initial state", everyLane["0"])
			}
			if f.CycleStart != nil {
				assert.Equal(t, 1, loops, "the lasso's cycle is a loop block")
				first := *f.CycleStart + 1
				assert.Contains(t, out, fmt.Sprintf("loop steps %d-%d repeat forever, then back to step %d\n", first, len(f.Steps)-1, first))
			} else {
				assert.Zero(t, loops)
			}
		})
	}
}

func TestMarkdown(t *testing.T) {
	f := load(t, fixtures[0].path)
	var b bytes.Buffer
	require.NoError(t, msc.Markdown(&b, f, 3))
	out := b.String()
	assert.True(t, strings.HasPrefix(out, "### Termination violated: a lasso"), out)
	assert.Contains(t, out, "\n```mermaid\nsequenceDiagram\n")
	assert.True(t, strings.HasSuffix(out, "\n```\n"))
	assert.Contains(t, out, "chang-roberts, N=4, ids 1,2,3,4, up to 1 crash, perfect detector, max-queue 8")
}

// odd is a trace whose texts need escaping everywhere: in XML, in Mermaid,
// in Markdown.
func odd() *trace.File {
	procs := func(alive bool, elected int) []model.ProcessSnapshot {
		v := model.None()
		if elected != 0 {
			v = model.Int(elected)
		}
		return []model.ProcessSnapshot{
			{ID: 1, Alive: true, Fields: []model.Field{{Name: "elected", Value: model.None()}}},
			{ID: 2, Alive: alive, Fields: []model.Field{{Name: "elected", Value: v}}, Elected: elected},
		}
	}
	msg := model.Msg("M").WithText(`M<1>&"x";#y`)
	return &trace.File{
		Format: trace.Format, Property: "SingleLeader", Kind: cex.Invariant,
		Summary: `a <b> & "c" ; #d | e`,
		Config:  trace.Config{Algo: "a<b", N: 2, IDs: []int{1, 2}, Detector: "perfect"},
		Steps: []trace.Step{
			{State: model.Snapshot{Processes: procs(true, 0)}},
			{Step: &model.StepInfo{Kind: model.KindInitiate, Action: "initiate", Process: 1}, State: model.Snapshot{Processes: procs(true, 0),
				Channels: []model.ChannelSnapshot{{From: 1, To: 2, Messages: []model.Value{msg}}}}, Sends: []model.Send{{From: 1, To: 2, Msg: msg}}},
			{Step: &model.StepInfo{Kind: model.KindDeliver, Action: "deliver", Process: 2, Peer: 1, Msg: &msg}, State: model.Snapshot{Processes: procs(true, 9)}, Sends: []model.Send{}},
		},
	}
}

func TestEscaping(t *testing.T) {
	f := odd()
	d := decodeSVG(t, render(t, msc.SVG, f))
	assert.Contains(t, d.text, `a <b> & "c" ; #d | e`, "the summary round-trips through XML")
	assert.Contains(t, d.text, `M<1>&"x";#y`)
	assert.Contains(t, d.text, "elected := 9")
	assert.Equal(t, 1, d.classes["delivered"])

	out := render(t, msc.Mermaid, f)
	assert.Contains(t, out, "p1->>p2: 2: M#lt;1#gt;&\"x\"#59;#35;y\n")
	bare := regexp.MustCompile(`#\w+;`).ReplaceAllString(out, "")
	assert.NotContains(t, bare, "<")
	assert.NotContains(t, bare, ";", "a bare ; ends a Mermaid statement")
	assert.NotContains(t, bare, "#")

	var b bytes.Buffer
	require.NoError(t, msc.Markdown(&b, f, 2))
	assert.Contains(t, b.String(), `a &lt;b&gt; & "c" ; #d \| e`)
}

func TestEmptyTrace(t *testing.T) {
	assert.Error(t, msc.SVG(io.Discard, &trace.File{}))
	assert.Error(t, msc.Mermaid(io.Discard, &trace.File{}))
}

// TestSVGRendersInChromium renders charts to PNG in headless Chromium and
// checks the picture: the size of the SVG, and more than a blank page.
// MSC_PNG_DIR=dir keeps the PNGs there to look at; -update redraws
// docs/circulating-election.png.
func TestSVGRendersInChromium(t *testing.T) {
	bin, why := chromium.Find()
	if bin == "" {
		needs.Missing(t, needs.Browser, why)
	}
	for _, fx := range []int{0, 4, 5} {
		name := fixtures[fx].name
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			svg := filepath.Join(dir, name+".svg")
			out := filepath.Join(dir, name+".png")
			doc := render(t, msc.SVG, load(t, fixtures[fx].path))
			require.NoError(t, os.WriteFile(svg, []byte(doc), 0o644))
			d := decodeSVG(t, doc)

			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
				"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--hide-scrollbars", "--force-device-scale-factor=1", "--user-data-dir="+t.TempDir(),
				"--screenshot="+out, fmt.Sprintf("--window-size=%d,%d", d.width, d.height), "file://"+svg)
			msg, err := cmd.CombinedOutput()
			require.NoError(t, err, "chromium: %s", msg)

			fh, err := os.Open(out)
			require.NoError(t, err, "chromium wrote no PNG: %s", msg)
			defer fh.Close()
			img, err := png.Decode(fh)
			require.NoError(t, err)
			assert.Equal(t, image.Rect(0, 0, d.width, d.height), img.Bounds(), "the PNG has the SVG's size")
			colours := map[[4]uint32]bool{}
			b := img.Bounds()
			for y := b.Min.Y; y < b.Max.Y && len(colours) <= 2; y += 3 {
				for x := b.Min.X; x < b.Max.X; x += 3 {
					r, g, bl, a := img.At(x, y).RGBA()
					colours[[4]uint32{r, g, bl, a}] = true
				}
			}
			assert.Greater(t, len(colours), 2, "the PNG is not blank")
			data, err := os.ReadFile(out)
			require.NoError(t, err)
			if keep := os.Getenv("MSC_PNG_DIR"); keep != "" {
				require.NoError(t, os.WriteFile(filepath.Join(keep, name+".png"), data, 0o644))
			}
			if *golden.Update && name == "circulating-election" {
				require.NoError(t, os.WriteFile(filepath.Join("..", "docs", name+".png"), data, 0o644))
			}
		})
	}
}

// TestRunTitle: a path that is no counterexample (mcheck explore) is titled
// as a run, with a lasso's cycle still named.
func TestRunTitle(t *testing.T) {
	f := load(t, fixtures[1].path)
	f.Property, f.Kind, f.Summary = "", 0, ""
	assert.Contains(t, render(t, msc.SVG, f), "<title>a run of 4 steps</title>")
	f = load(t, fixtures[0].path)
	f.Property, f.Summary = "", ""
	assert.Contains(t, render(t, msc.SVG, f), "<title>a run of 8 steps: a lasso (a prefix, then a cycle repeated forever)</title>")
}

// usurper calls its leader field Leader: each process, when it starts,
// makes itself leader and tells the next one, which ignores it.
type usurper struct{}

type usurperLocal struct {
	Started bool
	Leader  int
}

type usurperMsg struct{ ID int }

func (usurper) Init() usurperLocal            { return usurperLocal{} }
func (usurper) Elected(l *usurperLocal) int   { return l.Leader }
func (usurper) FormatMsg(m usurperMsg) string { return fmt.Sprintf("MINE(%d)", m.ID) }
func (usurper) CanInitiate(_ *model.Ctx[usurperMsg], l *usurperLocal, _ bool) bool {
	return !l.Started
}
func (usurper) Initiate(c *model.Ctx[usurperMsg], l *usurperLocal) {
	l.Started, l.Leader = true, c.ID()
	c.SendNext(model.CW, usurperMsg{c.ID()})
}
func (usurper) Receive(*model.Ctx[usurperMsg], *usurperLocal, int, usurperMsg) {}

// A chart's decisions are the algorithm's Elected, whatever its field is
// called: usurper's Leader field gets its notes.
func TestNotesFollowElectedNotAFieldName(t *testing.T) {
	rep, err := mchecktest.Run(usurper{}, mchecktest.Config{Name: "usurper", N: 2})
	require.NoError(t, err)
	v := mchecktest.Verdict(rep, "SingleLeader")
	require.Equal(t, check.Violated, v.Status)
	require.NotNil(t, v.File)
	d := decodeSVG(t, render(t, msc.SVG, v.File))
	assert.Contains(t, d.text, "\nelected := 1\n")
	assert.Contains(t, d.text, "\nelected := 2\n")
	assert.Contains(t, render(t, msc.Mermaid, v.File), "elected := 2")
}
