package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/model"
)

// writeSimulation renders what a simulation did, in place of a search's
// counts: how many runs, how they ended, what they covered, and that it
// proves nothing.
func writeSimulation(w io.Writer, r *Result) {
	st, sim := r.Stats, r.Simulation
	seed := fmt.Sprintf("seed %d", sim.Seed)
	if sim.One {
		seed = fmt.Sprintf("run seed %#x", sim.Seed)
	}
	fmt.Fprintf(w, "search       simulation: %s random %s of at most %s, %s scheduler, %s\n", Commas(sim.Runs), plural.Noun(sim.Runs, "run"), plural.Count(sim.Depth, "step"), sim.Scheduler, seed)
	if !st.Complete {
		fmt.Fprintf(w, "stopped      %s\n", strings.TrimPrefix(st.Stopped, "stopped "))
	}
	proof := "proof        none: random runs are a sample, so a property without a violation is not shown to hold"
	if r.Violated() {
		proof += " (a violation is real: replayed below)"
	}
	fmt.Fprintln(w, proof)
	fmt.Fprintf(w, "states       %s distinct seen, %s of them first seen in the last tenth of the time\n", Commas(st.States), Commas(sim.NewLate))
	fmt.Fprintf(w, "steps        %s; a run took %d to %d, %.1f on average\n", Commas(st.Transitions), sim.MinLength, sim.MaxLength, sim.MeanLength)
	fmt.Fprintf(w, "runs ended   %s\n", endsText(r, sim))
	fmt.Fprintf(w, "actions      %s\n", actionsText(sim, r.Kinds))
	if st.Discarded > 0 {
		fmt.Fprintf(w, "discarded    %s over %s in the states the runs expanded\n", Counted(st.Discarded, "successor"), r.set("MaxQueue", strconv.Itoa(r.Config.MaxQueue)))
	} else {
		fmt.Fprintf(w, "discarded    0 (no channel of the states the runs expanded needed more than %s)\n", plural.Count(r.Config.MaxQueue, "message"))
	}
	if m := sim.Messages; m != nil {
		fmt.Fprintf(w, "messages     sampled over %s complete runs (samples, not bounds): %s\n", Commas(m.Samples), sampledText(m))
	}
	for _, f := range r.Found {
		by := "run " + Commas(f.Run)
		if sim.One {
			by = "the run"
		}
		fmt.Fprintf(w, "found        %s (%s) by %s in %s, shortened to %d in %s %s; %s replays that run alone\n",
			f.Property, f.Kind, by, plural.Count(f.RawSteps, "step"), f.Steps, Commas(int64(f.Replays)), plural.Noun(f.Replays, "replay"), r.set("RunSeed", fmt.Sprintf("%#x", f.RunSeed)))
	}
	fmt.Fprintf(w, "time         %.2f s, %s steps/s, %s of bookkeeping\n\n", st.Elapsed.Seconds(), Commas(PerSecond(st.Transitions, st.Elapsed)), explore.FormatBytes(st.MemBytes))
}

// endsText says how many runs ended each way, the count first: "depth 0"
// would read as a depth, and "stuck" means a violation elsewhere in the
// report, not a run the channel bound stopped.
func endsText(r *Result, sim *explore.SimStats) string {
	var ends []string
	for _, e := range explore.RunEnds() {
		var how string
		switch e {
		case explore.EndDepth:
			how = "at the step limit (" + r.set("Depth", strconv.Itoa(sim.Depth)) + ")"
		case explore.EndQuiescent:
			how = "quiescent"
		case explore.EndStuck:
			how = "blocked by the channel bound (" + r.set("MaxQueue", strconv.Itoa(r.Config.MaxQueue)) + ")"
		case explore.EndCycle:
			how = "on a fair cycle inside the goal"
		case explore.EndViolation:
			how = "at a violation"
		default:
			how = e.String()
		}
		ends = append(ends, Commas(sim.Ends[e])+" "+how)
	}
	return strings.Join(ends, ", ")
}

// actionsText lists every kind of step with how often the runs took it,
// and names those never taken; of those never enabled, only the kinds the
// configuration can take (possible; all when nil).
func actionsText(sim *explore.SimStats, possible []model.Kind) string {
	names := check.KindNames()
	var taken, never, off []string
	for k, n := range sim.Taken {
		name := names[k]
		switch {
		case n > 0:
			taken = append(taken, fmt.Sprintf("%s %s", name, Commas(n)))
		case sim.Enabled[k]:
			never = append(never, name)
		case possible != nil && !slices.Contains(possible, model.Kind(k)):
			// This configuration has no such step (a tick without time).
		default:
			off = append(off, name)
		}
	}
	s := strings.Join(taken, ", ")
	if len(never) > 0 {
		s += "; never taken though enabled: " + strings.Join(never, ", ")
	}
	if len(off) > 0 {
		s += "; never enabled: " + strings.Join(off, ", ")
	}
	return s
}

// sampledText renders sampled message figures: min/mean/max each.
func sampledText(m *explore.SampledMessages) string {
	one := func(name string, s explore.Sample) string {
		return fmt.Sprintf("%s %d/%.1f/%d", name, s.Min, s.Mean(m.Samples), s.Max)
	}
	parts := []string{one("total", m.Total)}
	for i, t := range m.Types {
		parts = append(parts, one(t, m.ByType[i]))
	}
	parts = append(parts, one("lost", m.Lost))
	if m.Time != nil {
		parts = append(parts, one("ticks", *m.Time))
	}
	return "min/mean/max " + strings.Join(parts, ", ")
}

// jsonSimulation is a simulation in the JSON report: enough of it that the
// results of several (seeds, shards) can be put together: the seed and
// settings, what each covered, and the runs that found counterexamples.
type jsonSimulation struct {
	Seed      uint64 `json:"seed"`
	RunSeed   bool   `json:"seed_is_run_seed,omitempty"`
	Scheduler string `json:"scheduler"`
	Depth     int    `json:"max_depth"`
	Runs      int64  `json:"runs"`
	Steps     int64  `json:"steps"`
	// Distinct states seen: a count, which the states of another
	// simulation may overlap, and a HyperLogLog sketch of them (4 KiB, in
	// base64) that merges with another's into the count of both
	// (explore.Sketch).
	DistinctStates int64            `json:"distinct_states"`
	Sketch         []byte           `json:"distinct_states_sketch"`
	NewLate        int64            `json:"new_states_last_tenth"`
	Length         jsonLength       `json:"run_length"`
	Ends           map[string]int64 `json:"ends"`
	Actions        []jsonAction     `json:"actions"`
	Messages       *jsonSampled     `json:"messages_sampled,omitempty"`
	Found          []jsonFound      `json:"found,omitempty"`
}

type jsonLength struct {
	Min  int     `json:"min"`
	Mean float64 `json:"mean"`
	Max  int     `json:"max"`
}

type jsonAction struct {
	Kind    string `json:"kind"`
	Taken   int64  `json:"taken"`
	Enabled bool   `json:"enabled"`
}

type jsonSampled struct {
	Samples int64                 `json:"samples"`
	Figures map[string]jsonSample `json:"figures"`
}

type jsonSample struct {
	Min  int64   `json:"min"`
	Mean float64 `json:"mean"`
	Max  int64   `json:"max"`
}

// jsonFound is the run that found a counterexample: the run seed RunSeed
// replays it, and its shortening gives the trace under properties.
type jsonFound struct {
	Property string   `json:"property"`
	Kind     cex.Kind `json:"kind"`
	Run      int64    `json:"run"`
	RunSeed  uint64   `json:"run_seed"`
	RawSteps int      `json:"run_steps"`
	Steps    int      `json:"steps"`
	Replays  int      `json:"shortening_replays"`
}

func simulationJSON(r *Result) *jsonSimulation {
	sim := r.Simulation
	if sim == nil {
		return nil
	}
	j := &jsonSimulation{
		Seed: sim.Seed, RunSeed: sim.One, Scheduler: sim.Scheduler.String(), Depth: sim.Depth, Runs: sim.Runs,
		Steps: r.Stats.Transitions, DistinctStates: r.Stats.States, Sketch: sim.Seen, NewLate: sim.NewLate,
		Length: jsonLength{sim.MinLength, sim.MeanLength, sim.MaxLength}, Ends: map[string]int64{},
	}
	for _, e := range explore.RunEnds() {
		j.Ends[e.String()] = sim.Ends[e]
	}
	names := check.KindNames()
	for k, n := range sim.Taken {
		j.Actions = append(j.Actions, jsonAction{Kind: names[k], Taken: n, Enabled: sim.Enabled[k]})
	}
	if m := sim.Messages; m != nil {
		one := func(s explore.Sample) jsonSample { return jsonSample{s.Min, s.Mean(m.Samples), s.Max} }
		j.Messages = &jsonSampled{Samples: m.Samples, Figures: map[string]jsonSample{"total": one(m.Total), "lost": one(m.Lost)}}
		for i, t := range m.Types {
			j.Messages.Figures[t] = one(m.ByType[i])
		}
		if m.Time != nil {
			j.Messages.Figures["ticks"] = one(*m.Time)
		}
	}
	for _, f := range r.Found {
		j.Found = append(j.Found, jsonFound{f.Property, f.Kind, f.Run, f.RunSeed, f.RawSteps, f.Steps, f.Replays})
	}
	return j
}
