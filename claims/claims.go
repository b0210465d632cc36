// Package claims holds the course notes' quantitative claims (message and
// time complexity of the election algorithms) beside the configurations of
// the model that state them, measures those configurations with
// --complexity's machinery, and renders the table of docs/complexity.md.
package claims

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// Row is one scenario of the notes, for any N.
type Row struct {
	Name   string
	Algo   string
	Config func(n int) model.Config
	// Formula is the notes' claim, as they write it; Messages and Latency
	// evaluate it for N (nil: the notes give no exact figure).
	Formula  string
	Messages func(n int) string
	Latency  func(n int) string
}

func itoa(n int) string { return strconv.Itoa(n) }

func decreasing(n int) []int {
	ids := make([]int, n)
	for p := range ids {
		ids[p] = n - p
	}
	return ids
}

// HSBound is the notes' bound on Hirschberg-Sinclair's messages,
// 8N(log N + 2) + 5N (log to base 2).
func HSBound(n int) int {
	return int(math.Floor(8*float64(n)*(math.Log2(float64(n))+2) + 5*float64(n)))
}

// Rows are the scenarios of the table in docs/complexity.md.
func Rows() []Row {
	return []Row{
		{Name: "chang-roberts, one initiator: the leader", Algo: "chang-roberts",
			Config:   func(n int) model.Config { return model.Config{N: n, Initiators: []int{n}} },
			Formula:  "2N messages, 2N latencies",
			Messages: func(n int) string { return itoa(2 * n) }, Latency: func(n int) string { return itoa(2 * n) }},
		{Name: "chang-roberts, one initiator: the leader's successor", Algo: "chang-roberts",
			Config:   func(n int) model.Config { return model.Config{N: n, Initiators: []int{1}} },
			Formula:  "3N-1 messages, 3N-1 latencies",
			Messages: func(n int) string { return itoa(3*n - 1) }, Latency: func(n int) string { return itoa(3*n - 1) }},
		{Name: "chang-roberts, all initiate, IDs decreasing", Algo: "chang-roberts",
			Config:   func(n int) model.Config { return model.Config{N: n, IDs: decreasing(n)} },
			Formula:  "N(N+1)/2 + N messages",
			Messages: func(n int) string { return itoa(n*(n+1)/2 + n) }},
		{Name: "chang-roberts, all initiate, every arrangement (--ids perm)", Algo: "chang-roberts",
			Config:   func(n int) model.Config { return model.Config{N: n, Perm: true} },
			Formula:  "N(N+1)/2 + N messages in the worst arrangement",
			Messages: func(n int) string { return itoa(n*(n+1)/2 + n) }},
		{Name: "ring (no pruning), all initiate", Algo: "ring",
			Config:  func(n int) model.Config { return model.Config{N: n} },
			Formula: "O(N²) messages"},
		{Name: "lelann, all initiate", Algo: "lelann",
			Config:   func(n int) model.Config { return model.Config{N: n} },
			Formula:  "N² messages (each of N processes causes N)",
			Messages: func(n int) string { return itoa(n * n) }},
		// The notes' bound is for the worst arrangement of IDs on the ring;
		// IDs 1..N is not it (N=4: at most 32 messages, against 36).
		{Name: "hirschberg-sinclair, all initiate, every arrangement (--ids perm)", Algo: "hirschberg-sinclair",
			Config:   func(n int) model.Config { return model.Config{N: n, Perm: true} },
			Formula:  "< 8N(log N + 2) + 5N messages in the worst arrangement",
			Messages: func(n int) string { return "≤ " + itoa(HSBound(n)) }},
		{Name: "bully, coordinator down, lowest detects", Algo: "bully",
			Config: func(n int) model.Config {
				return model.Config{N: n, Down: []int{n}, Initiators: []int{1}, InitialLeader: true}
			},
			Formula:  "N(N-1)/2 ELECTION messages, 4 latencies",
			Messages: func(n int) string { return itoa(n*(n-1)/2) + " ELECTION" }, Latency: func(int) string { return "4" }},
		{Name: "bully, coordinator down, second highest detects", Algo: "bully",
			Config: func(n int) model.Config {
				return model.Config{N: n, Down: []int{n}, Initiators: []int{n - 1}, InitialLeader: true}
			},
			Formula:  "N-2 COORDINATOR messages, 1 latency",
			Messages: func(n int) string { return itoa(n-2) + " COORDINATOR" }, Latency: func(int) string { return "1" }},
	}
}

// MaxStates caps a measured search: beyond it the table has no row.
const MaxStates = 2_000_000

// Measure runs the row's configuration for N with --complexity (no
// property checked: only the measures).
func Measure(r Row, n int) (*check.Report, error) {
	sp, err := specs.Builtin().Lookup(r.Algo)
	if err != nil {
		return nil, err
	}
	rep, err := check.Run(check.Request{Spec: sp, Config: r.Config(n), Complexity: true, Workers: 1, MaxStates: MaxStates})
	if err != nil {
		return nil, fmt.Errorf("%s N=%d: %w", r.Name, n, err)
	}
	return rep, nil
}

// Table writes the table of docs/complexity.md: per row and N, the notes' figure beside
// the measured min, max and synchronous run. A configuration that takes
// longer than limit is left out of the table, with its row's larger N, and
// listed below it.
func Table(w io.Writer, ns []int, limit time.Duration) error {
	fmt.Fprintln(w, "| scenario | N | notes | min | max | sync messages | sync latency | states | time |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	var over []string
	for _, r := range Rows() {
		for _, n := range ns {
			start := time.Now()
			rep, err := Measure(r, n)
			if err != nil {
				return err
			}
			took := time.Since(start)
			if !rep.Stats.Complete {
				over = append(over, fmt.Sprintf("%s, N=%d: more than %d states", r.Name, n, MaxStates))
				break
			}
			if took > limit {
				over = append(over, fmt.Sprintf("%s, N=%d: %d states, %.1f s", r.Name, n, rep.Stats.States, took.Seconds()))
				break
			}
			fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %s | %d | %.2f s |\n", r.Name, n, notes(r, n),
				figure(rep, "min"), figure(rep, "max"), syncMessages(rep), syncLatency(rep), rep.Stats.States, took.Seconds())
		}
	}
	if len(over) > 0 {
		fmt.Fprintf(w, "\nOver %s, left out with their larger N: %s.\n", limit, strings.Join(over, "; "))
	}
	return nil
}

func notes(r Row, n int) string {
	var parts []string
	if r.Messages != nil {
		parts = append(parts, r.Messages(n))
	}
	if r.Latency != nil {
		parts = append(parts, r.Latency(n)+" lat.")
	}
	if len(parts) == 0 {
		return r.Formula
	}
	return strings.Join(parts, ", ")
}

// figure renders the min or max of the total and of each type.
func figure(rep *check.Report, which string) string {
	m := rep.Complexity.Measures
	if m == nil {
		return "not measured: " + rep.Complexity.Skipped
	}
	if !m.CompleteRuns {
		return "no complete runs"
	}
	names, figs := m.Figures()
	var parts []string
	for i, f := range figs {
		v := itoa(f.Min)
		if which == "max" {
			v = itoa(f.Max)
			if f.Unbounded {
				v = "unbounded"
			}
		}
		if i == 0 {
			parts = append(parts, "**"+v+"**")
			continue
		}
		if v != "0" && !(names[i] == "lost" && v == "0") {
			parts = append(parts, names[i]+" "+v)
		}
	}
	return parts[0] + " (" + strings.Join(parts[1:], ", ") + ")"
}

func syncMessages(rep *check.Report) string {
	s := &rep.Complexity.Sync
	var parts []string
	for i, t := range rep.Complexity.Types {
		if n := s.Sent.ByType[i]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", t, n))
		}
	}
	if s.Sent.Lost > 0 {
		parts = append(parts, fmt.Sprintf("lost %d", s.Sent.Lost))
	}
	return fmt.Sprintf("**%d** (%s)", s.Sent.Total(), strings.Join(parts, ", "))
}

func syncLatency(rep *check.Report) string {
	s := &rep.Complexity.Sync
	switch {
	case s.Unbounded:
		return "unbounded"
	case s.Overflow:
		return "over the bound"
	}
	return itoa(s.Latency)
}
