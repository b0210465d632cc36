package cli

import (
	"errors"
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

// The flags of --simulate: random runs instead of a search.
type simFlags struct {
	on        bool
	seed      seedValue // --seed
	runSeed   seedValue // --run-seed
	runs      int64
	depth     int
	scheduler string
}

// seedValue is a 64-bit seed: decimal, or hexadecimal with 0x.
type seedValue struct {
	n   uint64
	set bool
}

func (s *seedValue) String() string { return "" }
func (s *seedValue) Set(v string) error {
	n, err := strconv.ParseUint(strings.TrimSpace(v), 0, 64)
	if err != nil {
		return fmt.Errorf("%q is not a seed: give a whole number from 0 to 2^64-1, like 42 or 0x2a", v)
	}
	s.n, s.set = n, true
	return nil
}

// checkSimulate applies the rules of --simulate and its flags.
func (o *options) checkSimulate(given map[string]bool) error {
	s := &o.sim
	if !s.on {
		for _, f := range []string{"seed", "run-seed", "runs", "depth", "scheduler"} {
			if f == "seed" && given["shard"] && o.bitstate > 0 {
				continue // the base of the members' hash seeds
			}
			if given[f] {
				return fmt.Errorf("--%s is a flag of --simulate: add --simulate, or drop it", f)
			}
		}
		return nil
	}
	switch {
	case o.bitstate > 0:
		return errors.New("--simulate takes random runs and keeps no state table: drop --bitstate")
	case o.model.AutoQueue:
		return errors.New("--simulate with --max-queue auto: random runs prove no bound, give --max-queue K")
	case o.model.AutoTimeout:
		return errors.New("--simulate with --timeout auto: random runs prove no T holds, give --timeout T")
	case o.exact:
		return errors.New("--exact applies to a search's state table, which --simulate does not keep: drop --exact")
	case given["max-states"]:
		return errors.New("--max-states bounds a search: --simulate is bounded by --runs and --time-limit")
	case given["witness"]:
		return errors.New("--witness names a run of the exhaustive measures: --simulate samples them, drop --witness")
	case given["runs"] && s.runs <= 0:
		return fmt.Errorf("--runs %d would take no run: give 1 or more (default: until --time-limit, else %d)", s.runs, check.DefaultRuns)
	case s.depth <= 0:
		return fmt.Errorf("--depth %d would take no step: give 1 or more (default %d)", s.depth, check.DefaultDepth)
	case !knownScheduler(s.scheduler):
		return fmt.Errorf("--scheduler: no scheduler %q: use %s", s.scheduler, strings.Join(explore.SchedulerNames(), " or "))
	case s.runSeed.set && s.seed.set:
		return errors.New("--run-seed replays one run, --seed is the seed of all: give only one of them")
	case s.runSeed.set && given["runs"] && s.runs != 1:
		return errors.New("--run-seed replays one run: drop --runs")
	}
	return nil
}

// strategy is the search the flags ask for.
func (o *options) strategy() check.Strategy {
	if sim := o.simulation(); sim != nil {
		return sim
	}
	if o.bitstate > 0 {
		return check.Bitstate{Bytes: o.bitstate}
	}
	return check.BreadthFirst{}
}

// simulation is the check.Simulate of the flags (nil without --simulate).
func (o *options) simulation() *check.Simulate {
	s := &o.sim
	if !s.on {
		return nil
	}
	sched, _ := explore.ParseScheduler(s.scheduler)
	c := &check.Simulate{Seed: s.seed.n, Runs: s.runs, TimeLimit: o.timeLimit, Depth: s.depth, Scheduler: sched}
	if c.Runs == 0 && c.TimeLimit == 0 {
		c.Runs = check.DefaultRuns
	}
	if s.runSeed.set {
		c.Seed, c.One, c.Runs = s.runSeed.n, true, 1
	}
	return c
}

// writeSimulation renders what a simulation did, in place of a search's
// counts: how many runs, how they ended, what they covered, and that it
// proves nothing.
func writeSimulation(w io.Writer, r *check.Report) {
	st, sim := r.Stats, r.Simulation
	seed := fmt.Sprintf("seed %d", sim.Seed)
	if sim.One {
		seed = fmt.Sprintf("run seed %#x", sim.Seed)
	}
	fmt.Fprintf(w, "search       simulation: %s random %s of at most %s, %s scheduler, %s\n", commas(sim.Runs), plural.Noun(sim.Runs, "run"), plural.Count(sim.Depth, "step"), sim.Scheduler, seed)
	if !st.Complete {
		fmt.Fprintf(w, "stopped      %s\n", strings.TrimPrefix(st.Stopped, "stopped "))
	}
	proof := "proof        none: random runs are a sample, so a property without a violation is not shown to hold"
	if r.Violated() {
		proof += " (a violation is real: replayed below)"
	}
	fmt.Fprintln(w, proof)
	fmt.Fprintf(w, "states       %s distinct seen, %s of them first seen in the last tenth of the time\n", commas(st.States), commas(sim.NewLate))
	fmt.Fprintf(w, "steps        %s; a run took %d to %d, %.1f on average\n", commas(st.Transitions), sim.MinLength, sim.MaxLength, sim.MeanLength)
	fmt.Fprintf(w, "runs ended   %s\n", endsText(sim, r.Config.MaxQueue))
	fmt.Fprintf(w, "actions      %s\n", actionsText(sim, r.Kinds))
	if st.Discarded > 0 {
		fmt.Fprintf(w, "discarded    %s over --max-queue %d in the states the runs expanded\n", counted(st.Discarded, "successor"), r.Config.MaxQueue)
	} else {
		fmt.Fprintf(w, "discarded    0 (no channel of the states the runs expanded needed more than %s)\n", plural.Count(r.Config.MaxQueue, "message"))
	}
	if m := sim.Messages; m != nil {
		fmt.Fprintf(w, "messages     sampled over %s complete runs (samples, not bounds): %s\n", commas(m.Samples), sampledText(m))
	}
	for _, f := range r.Found {
		by := "run " + commas(f.Run)
		if sim.One {
			by = "the run"
		}
		fmt.Fprintf(w, "found        %s (%s) by %s in %s, shortened to %d in %s %s; --run-seed %#x replays that run alone\n",
			f.Property, f.Kind, by, plural.Count(f.RawSteps, "step"), f.Steps, commas(int64(f.Replays)), plural.Noun(f.Replays, "replay"), f.RunSeed)
	}
	fmt.Fprintf(w, "time         %.2f s, %s steps/s, %s of bookkeeping\n\n", st.Elapsed.Seconds(), commas(rate(st.Transitions, st.Elapsed)), explore.FormatBytes(st.MemBytes))
}

// endsText says how many runs ended each way, the count first: "depth 0"
// would read as a depth, and "stuck" means a violation elsewhere in the
// report, not a run the channel bound stopped.
func endsText(sim *explore.SimStats, maxQueue int) string {
	var ends []string
	for _, e := range explore.RunEnds() {
		var how string
		switch e {
		case explore.EndDepth:
			how = fmt.Sprintf("at the step limit (--depth %d)", sim.Depth)
		case explore.EndQuiescent:
			how = "quiescent"
		case explore.EndStuck:
			how = fmt.Sprintf("blocked by the channel bound (--max-queue %d)", maxQueue)
		case explore.EndCycle:
			how = "on a fair cycle inside the goal"
		case explore.EndViolation:
			how = "at a violation"
		default:
			how = e.String()
		}
		ends = append(ends, commas(sim.Ends[e])+" "+how)
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
			taken = append(taken, fmt.Sprintf("%s %s", name, commas(n)))
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

// jsonSimulation is a simulation in --json output: enough of it that the
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

// jsonFound is the run that found a counterexample: --run-seed RunSeed
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

func simulationJSON(r *check.Report) *jsonSimulation {
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

func knownScheduler(name string) bool {
	_, ok := explore.ParseScheduler(name)
	return ok
}
