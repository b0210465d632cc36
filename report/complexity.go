package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/trace"
)

// Complexity renders the measures, the synchronous schedule round by
// round with a running tally, and the witness run named by witness.
func Complexity(w io.Writer, r *Result, witness string, full bool) error {
	c := r.Complexity
	fmt.Fprintln(w)
	fmt.Fprintln(w, "complexity   messages over all complete runs (initial state to a quiescent state)")
	writeMeasures(w, c)
	if r.Bounded() {
		fmt.Fprintf(w, "  note: the channel bound discarded steps: these are the measures of the model bounded at %s per channel\n", plural.Count(r.Config.MaxQueue, "message"))
	}
	if c.HasSync {
		writeSyncRounds(w, r)
	}
	if witness == "" {
		return nil
	}
	return writeWitness(w, r, witness, full)
}

// writeMeasures is the minimum and maximum of each figure.
func writeMeasures(w io.Writer, c *check.Complexity) {
	m := c.Measures
	switch {
	case m == nil:
		fmt.Fprintf(w, "  not measured: %s\n", c.Skipped)
	case !m.CompleteRuns:
		fmt.Fprintln(w, "  no complete runs: no quiescent state is reachable")
	default:
		fmt.Fprintf(w, "  computed in %.2f s over the search's state graph\n", m.Elapsed.Seconds())
		names, figs := m.Figures()
		for i, f := range figs {
			name := names[i]
			if name == "total" {
				name = "messages"
			}
			fmt.Fprintf(w, "  %-13s min %d  max %s\n", name, f.Min, maxText(f))
		}
		if f := m.Time; f != nil {
			fmt.Fprintf(w, "  %-13s min %d  max %s\n", "time (ticks)", f.Min, maxText(f))
		}
	}
}

// writeSyncRounds is the synchronous schedule round by round, with a
// running tally of the messages.
func writeSyncRounds(w io.Writer, r *Result) {
	c := r.Complexity
	s := &c.Sync
	arr := ""
	if r.Arrangements > 1 {
		arr = " (the worst arrangement: IDs " + joinInts(s.Arrangement, ",") + ")"
	}
	fmt.Fprintf(w, "  synchronous  latency %s, %s%s\n", latencyText(s), sendsText(s.Sent, typesOf(r.Report)), arr)
	if r.Config.Timed() {
		fmt.Fprintln(w, "    played on the asynchronous model of this configuration: D, T and T2 play no part in it")
	}
	if s.Overflow {
		fmt.Fprintf(w, "    stopped at the channel bound in round %d, before %s (more than %s in a channel): the latency and the messages are those of the steps before it\n",
			s.Rounds-1, c.SyncBlocked, r.set("MaxQueue", plural.Count(r.Config.MaxQueue, "message")))
	}
	tally := 0
	for round := 0; round < s.Rounds; round++ {
		var sent model.Sends
		steps := 0
		for _, st := range s.Steps {
			if st.Round == round {
				sent.Add(st.Sent)
				steps++
			}
		}
		tally += sent.Total()
		fmt.Fprintf(w, "    round %-3d %2d %-5s  %s  running total %d\n", round, steps, plural.Noun(steps, "step"), sendsText(sent, typesOf(r.Report)), tally)
	}
}

// writeWitness is the witness run of a measure, as a trace.
func writeWitness(w io.Writer, r *Result, witness string, full bool) error {
	f, err := r.WitnessFile(witness)
	if err != nil {
		return err
	}
	fmt.Fprintln(w)
	if r.Arrangements > 1 {
		var ids []int
		for _, p := range f.Steps[0].State.Processes {
			ids = append(ids, p.ID)
		}
		fmt.Fprintf(w, "arrangement  IDs %s (by ring position)\n", joinInts(ids, ","))
	}
	trace.WriteText(w, f, full)
	if f.Summary != "" {
		fmt.Fprintf(w, "      (%s)\n", f.Summary)
	}
	return nil
}

func maxText(f *explore.Figure) string {
	if f.Unbounded {
		return "unbounded"
	}
	return strconv.Itoa(f.Max)
}

// latencyText: the latency is the number of the last round with a step,
// and the rounds listed below start at round 0 (the initiations), so the
// count says that it counts the rounds after round 0.
func latencyText(s *model.SyncRun) string {
	rounds := plural.Count(s.Latency, "round") + " after round 0"
	switch {
	case s.Unbounded:
		return "unbounded (the schedule returns to an earlier state)"
	case s.Overflow:
		return rounds + " before the channel bound stopped the schedule"
	}
	return rounds
}

func typesOf(r *check.Report) []string { return r.Complexity.Types }

// sendsText: "20 messages (ELECTION 15, ELECTED 5), 0 lost".
func sendsText(s model.Sends, types []string) string {
	var parts []string
	for i, n := range s.ByType {
		if n > 0 {
			name := "type " + strconv.Itoa(i)
			if i < len(types) {
				name = types[i]
			}
			parts = append(parts, fmt.Sprintf("%s %d", name, n))
		}
	}
	out := plural.Count(s.Total(), "message")
	if len(parts) > 0 {
		out += " (" + strings.Join(parts, ", ") + ")"
	}
	return fmt.Sprintf("%s, %d lost", out, s.Lost)
}

// jsonMeasures are the keys the JSON report adds for the measures (check.Request.Complexity) and the permutations of the IDs (model.Config.Perm).
type jsonMeasures struct {
	Complexity   *jsonComplexity `json:"complexity,omitempty"`
	Arrangements int             `json:"arrangements"`
}

func measuresJSON(r *Result) jsonMeasures {
	m := jsonMeasures{Arrangements: r.Arrangements}
	if r.Complexity != nil {
		m.Complexity = complexityJSON(r)
	}
	return m
}

// jsonComplexity is "complexity" in the JSON report.
type jsonComplexity struct {
	Messages     *jsonRange           `json:"messages,omitempty"`
	ByType       map[string]jsonRange `json:"by_type,omitempty"`
	Lost         *jsonRange           `json:"lost,omitempty"`
	Time         *jsonRange           `json:"time,omitempty"` // ticks, in a timed mode
	CompleteRuns bool                 `json:"complete_runs"`
	Skipped      string               `json:"not_measured,omitempty"`
	Seconds      float64              `json:"seconds"`
	Bounded      bool                 `json:"bounded"`
	Sync         *jsonSync            `json:"sync,omitempty"`
}

// jsonRange: max is a number or "unbounded".
type jsonRange struct {
	Min int `json:"min"`
	Max any `json:"max"`
}

type jsonSync struct {
	Latency  any            `json:"latency"` // rounds, or "unbounded"
	Messages int            `json:"messages"`
	ByType   map[string]int `json:"by_type"`
	Lost     int            `json:"lost"`
	Overflow bool           `json:"stopped_at_bound,omitempty"`
	// With stopped_at_bound: the round the schedule stopped in, and the
	// step the bound refused.
	StoppedIn     *int   `json:"stopped_in_round,omitempty"`
	StoppedBefore string `json:"stopped_before,omitempty"`
	IDs           []int  `json:"arrangement"`
	Rounds        int    `json:"rounds"`
	PerRound      []int  `json:"messages_per_round"`
}

func complexityJSON(r *Result) *jsonComplexity {
	c := r.Complexity
	out := &jsonComplexity{Skipped: c.Skipped, Bounded: r.Bounded()}
	rng := func(f *explore.Figure) jsonRange {
		j := jsonRange{Min: f.Min, Max: f.Max}
		if f.Unbounded {
			j.Max = "unbounded"
		}
		return j
	}
	if m := c.Measures; m != nil && m.CompleteRuns {
		out.CompleteRuns, out.Seconds = true, m.Elapsed.Seconds()
		tot, lost := rng(&m.Total), rng(&m.Lost)
		out.Messages, out.Lost = &tot, &lost
		out.ByType = map[string]jsonRange{}
		for i := range m.ByType {
			out.ByType[m.Types[i]] = rng(&m.ByType[i])
		}
		if m.Time != nil {
			t := rng(m.Time)
			out.Time = &t
		}
	}
	if c.HasSync {
		s := &c.Sync
		js := &jsonSync{Latency: s.Latency, Messages: s.Sent.Total(), Lost: int(s.Sent.Lost), Overflow: s.Overflow, Rounds: s.Rounds, ByType: map[string]int{}, IDs: s.Arrangement}
		if s.Unbounded {
			js.Latency = "unbounded"
		}
		if s.Overflow {
			round := s.Rounds - 1
			js.StoppedIn, js.StoppedBefore = &round, c.SyncBlocked
		}
		for i, t := range typesOf(r.Report) {
			js.ByType[t] = int(s.Sent.ByType[i])
		}
		js.PerRound = make([]int, s.Rounds)
		for _, st := range s.Steps {
			js.PerRound[st.Round] += st.Sent.Total()
		}
		out.Sync = js
	}
	return out
}

func joinInts(xs []int, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, sep)
}
