package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/flagval"
	"github.com/mcheck/mcheck/internal/modelopt"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
	"github.com/mcheck/mcheck/specs"
)

// options are the parsed command line of a check.
type options struct {
	algo string
	// model is the model's flags as given; cfg is their configuration,
	// resolved by finish.
	model      modelopt.Given
	autoParam  model.Param // the parameter of --param NAME=auto
	cfg        model.Config
	check      string // --check as given; resolved against the algorithm's properties
	cont       bool
	json       bool
	maxStates  int64
	memory     int64
	generic    bool
	quiet      bool
	progress   bool
	fullStates bool
	workers    int
	bitstate   int64
	por        bool
	exact      bool
	traceOut   string
	junit      string
	msc        string
	complexity bool
	witness    string
	version    bool
	timeLimit  time.Duration // --time-limit
	sim        simFlags      // --simulate and its flags
	swarm      swarmFlags    // --shard, --json-out
}

// propertyList renders the properties of an algorithm for --check list.
func propertyList(w io.Writer, algo string, all []model.PropertyInfo) {
	fmt.Fprintf(w, "Properties of %s (--check NAME,...; all checks those marked *):\n", algo)
	width := 0
	for _, p := range all {
		width = max(width, len(p.Name))
	}
	for _, p := range all {
		mark := "*"
		if p.Optional {
			mark = " "
		}
		groups := ""
		if len(p.Groups) > 0 {
			groups = " [" + strings.Join(p.Groups, ",") + "]"
		}
		// Counting makes the states more: say which properties do it.
		sends := ""
		switch {
		case p.CountSends > 0 && len(p.CountTypes) > 0:
			sends = fmt.Sprintf(" (counts the sends of %s, up to %d)", strings.Join(p.CountTypes, ", "), p.CountSends)
		case p.CountSends > 0:
			sends = fmt.Sprintf(" (counts the sends, up to %d)", p.CountSends)
		}
		fmt.Fprintf(w, "  %s %-*s  %-17s  %s%s%s\n", mark, width, p.Name, p.Kind, p.Doc, groups, sends)
	}
}

// selection resolves --check against the algorithm's properties.
func (o *options) selection(all []model.PropertyInfo) ([]string, error) {
	if strings.TrimSpace(o.check) == "" {
		return nil, errors.New(`--check "" names no property: give names or groups, or all (the default); --check list shows them`)
	}
	names, err := properties.Select(all, o.check)
	if err != nil {
		return nil, fmt.Errorf("--check: %w; --check list shows them", err)
	}
	return names, nil
}

// byteSize reads sizes like 8GiB, 512MiB, 1.5G: a finite number and a
// unit, at least minSize; finish bounds them by the machine's memory.
type byteSize struct{ n *int64 }

// minSize is the smallest size a size flag takes: anything smaller is a
// unit forgotten or mistaken, not a budget or a bit array.
const minSize = 1 << 10

// maxSize is beyond any machine's memory, and leaves int64 room to spare.
const maxSize = 1 << 60

func (f byteSize) String() string { return "" }
func (f byteSize) Set(s string) error {
	units := []struct {
		suffix string
		mult   int64
	}{{"tib", 1 << 40}, {"tb", 1 << 40}, {"t", 1 << 40}, {"gib", 1 << 30}, {"gb", 1 << 30}, {"g", 1 << 30}, {"mib", 1 << 20}, {"mb", 1 << 20}, {"m", 1 << 20}, {"kib", 1 << 10}, {"kb", 1 << 10}, {"k", 1 << 10}, {"b", 1}}
	low, mult := strings.ToLower(strings.TrimSpace(s)), int64(0)
	for _, u := range units {
		if strings.HasSuffix(low, u.suffix) {
			low, mult = strings.TrimSpace(strings.TrimSuffix(low, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(low, 64)
	switch {
	case err != nil && mult == 0:
		return fmt.Errorf("%q is not a size: write it like 8GiB or 512MiB", s)
	case err != nil, math.IsNaN(v), math.IsInf(v, 0), v <= 0:
		return fmt.Errorf("%q is not a size: write a positive number and a unit, like 8GiB or 512MiB", s)
	case mult == 0:
		return fmt.Errorf("%q has no unit: write it like 8GiB or 512MiB (B, KiB, MiB, GiB or TiB)", s)
	case v*float64(mult) < minSize:
		return fmt.Errorf("%q is less than 1 KiB: write it like 8GiB or 512MiB", s)
	case v*float64(mult) > maxSize:
		return fmt.Errorf("%q is more memory than any machine has: write it like 8GiB or 512MiB", s)
	}
	*f.n = int64(v * float64(mult))
	return nil
}

// maxWorkers bounds --workers: each worker keeps scratch memory of its own
// (two expansions), and more goroutines than cores add only that. A
// machine with more CPUs may have one per CPU.
func maxWorkers() int { return max(256, runtime.NumCPU()) }

// checkSizes bounds --workers, --memory and --bitstate by the machine:
// machine is its memory in bytes (0: unknown), budget the memory budget
// (0: the default).
func (o *options) checkSizes(machine, budget int64) error {
	if o.workers > maxWorkers() {
		return fmt.Errorf("--workers %d is more than %d: more workers than CPUs only add memory (this machine has %d CPUs; 0: one per CPU)", o.workers, maxWorkers(), runtime.NumCPU())
	}
	if machine > 0 {
		for _, sz := range []struct {
			flag string
			n    int64
		}{{"--memory", o.memory}, {"--bitstate", o.bitstate}} {
			if sz.n > machine {
				return fmt.Errorf("%s %s is more than the %s of memory of this machine (or its container): give at most that", sz.flag, explore.FormatBytes(sz.n), explore.FormatBytes(machine))
			}
		}
	}
	if o.bitstate > 0 && budget > 0 && o.bitstate >= budget {
		return fmt.Errorf("--bitstate %s does not fit in the memory budget of %s: give a smaller bit array, or a larger --memory", explore.FormatBytes(o.bitstate), explore.FormatBytes(budget))
	}
	return nil
}

// usageText is shown by --help, with the algorithms' names and the
// model's options (modelopt.Usage) filled in.
const usageText = `mcheck: an explicit-state model checker for leader-election algorithms.

Usage:
  mcheck --algo NAME [--n N] [fault model] [--check LIST] [output]

Algorithms: %s

Model (defined in docs/model.md of mcheck's repository):
%s
Checking:
  --check LIST          comma list of the algorithm's property names and
                        groups (safety, liveness), or all (default: every
                        property not marked optional); --check list lists
                        them (also shown by --algo NAME --help)
  --continue            do not stop at the first violation: finish the search,
                        report full counts and every violated property
  --max-states N        stop after N states (the search is then incomplete)
  --time-limit D        stop after D (e.g. 60s, 5m), incomplete; with
                        --max-queue auto or --timeout auto, the time for all
                        searches together
  --memory SIZE         memory budget of the whole process, e.g. 8GiB (default
                        half of this machine's or container's memory, at most
                        3/4 of what is available): the search gives up the
                        liveness graph, then stops (incomplete) before its
                        peak resident memory would pass SIZE; parent links
                        and large BFS levels go to files in $TMPDIR. A SIZE
                        is a number and a unit (KiB, MiB, GiB, TiB), from
                        1KiB to the machine's (or container's) memory
  --workers N           goroutines expanding states (default: one per CPU;
                        at most 256, or one per CPU if more); counts,
                        verdicts and traces are the same for any N
  --bitstate SIZE       supertrace: a bit array of SIZE (e.g. 1GiB, less than
                        the memory budget) instead of the state table; far
                        less memory, but states may be missed, so nothing is
                        said to hold (expected coverage is reported); no
                        liveness, and no partial-order reduction (--por is
                        ignored: its cycle proviso needs the state table)
  --por=false           no partial-order reduction: count the full state space.
                        By default a check of invariants over the elected
                        values (--check safety) follows only a stubborn set
                        of the steps of each state, for algorithms that
                        declare their ring neighbours (ring, chang-roberts,
                        lelann, hirschberg-sinclair), once no crash or
                        restart can happen any more; verdicts are the same,
                        counts smaller (the report says when a property
                        turns it off)
  --complexity          measure messages over all complete runs (min, max,
                        per type, lost; "unbounded" with a lasso), in a timed
                        mode also their time in ticks, and play the
                        synchronous schedule (latency in rounds, messages
                        round by round); full search, no --por, no --bitstate.
                        With --simulate: min/mean/max of the sends (and
                        ticks) of the complete runs the runs passed, as
                        samples, not bounds
  --witness NAME        print (and draw with --msc) the run attaining a
                        measure: min, max, min:TYPE, max:TYPE, min:lost,
                        max:lost, in a timed mode min:time and max:time,
                        sync, or none (default max)
  --exact               store whole states, not only their 64-bit fingerprints,
                        so that no fingerprint collision can hide a state
                        (the report gives the collision odds otherwise);
                        costs the states' bytes in memory
  --generic-hash        ignore the algorithm's Codec: number states by value
                        (slower; for cross-checking the Codec)

Simulation (random runs, for models too large to search; finds bugs,
proves nothing):
  --simulate            take random runs from the initial state instead of
                        searching: every invariant and step property is
                        checked on every state and step, Termination on the
                        states where a run stops and on the fair cycles a
                        run closes; a violation is shortened and replayed.
                        --time-limit D is its budget, not an interruption:
                        runs are taken for D (those under way finish).
                        Without --runs or --time-limit: 10,000 runs
  --runs N              take N runs (with --time-limit: at most N)
  --depth N             the most steps of one run (default 1000); a run ends
                        sooner at a violation, at a fair cycle that keeps
                        Termination, or where no step is enabled: in a
                        quiescent state (no fair step enabled) with faults
                        left (crashes, restarts, spurious steps) it takes
                        one and goes on, so a run that ends with no step
                        enabled has used every fault it could, while one
                        that ends at a violation or a cycle may have faults
                        left
  --seed S              the seed of all runs (default 0; 42 or 0x2a): run i
                        has a seed of its own, derived from S and i, and the
                        same seed gives the same report at any --workers
  --run-seed R          replay one run alone: R is the run seed the report
                        prints beside a counterexample (same model flags,
                        --depth and --scheduler)
  --scheduler NAME      faults (default): each run draws a fault rate
                        between 1/1024 and 1/2 and takes a crash, restart or
                        spurious step with that chance where fair steps are
                        enabled too, so that faults come early in some runs
                        and late in others, not when the number of enabled
                        faults says; uniform: every enabled step equally
                        likely, as TLC's -simulate and P's random scheduler

Swarm (one sampled check split among members, on a cluster or with xargs;
finds bugs, proves nothing; deploy/ has a Kubernetes Job and a Slurm script):
  --shard I/K           be member I of K (from 0) of a swarm of --simulate or
                        --bitstate checks, with settings derived from I: a
                        simulation's seed (from --seed) and scheduler (in
                        turn, unless --scheduler fixes it); a bitstate
                        search's hash seed (from --seed) and bit array
                        (SIZE, SIZE/2, SIZE/4, SIZE/8 in turn). /K reads I
                        from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job)
                        or SLURM_ARRAY_TASK_ID (a Slurm array, counted from
                        SLURM_ARRAY_TASK_MIN). Write each member's result
                        with --json-out DIR/, then: mcheck merge DIR/*.json

Output:
  --json                one JSON object on stdout instead of the report
  --json-out PATH       also write that JSON object to PATH (the report stays
                        on stdout); a directory takes a --shard member's
                        result as member-I-of-K.json
  --full-states         print whole states in traces, not only what changed
  --trace-out PATH      write the counterexample as a trace file (mcheck-trace/2),
                        or for PATH ending in .itf.json in the Informal Trace
                        Format of Apalache and Quint; a directory (existing, or
                        ending in /) keeps one file per counterexample
  --junit FILE.xml      write the verdicts as JUnit XML, one test case per
                        property (a violation fails it, with its trace)
  --msc FILE.svg|.md    draw the counterexample (the first, if several) as a
                        message-sequence chart: SVG, or Markdown with a Mermaid
                        sequenceDiagram; when GITHUB_STEP_SUMMARY is set, the
                        verdicts and every chart are appended to that file
  --quiet               no progress on stderr
  --progress            progress on stderr even when it is not a terminal (then
                        a plain line every 5 s)
  --version             print the version of mcheck and exit

Output paths are checked before the search: an unwritable one is an error.

Replay a trace file, mcheck's or ITF (exit 0: a genuine counterexample,
1: not one, 2: malformed):
  mcheck replay [--full-states] [--quiet] [--msc FILE.svg|FILE.md] FILE

Merge the results of a swarm's members: each counterexample replayed, the
shortest of each property, every member's coverage (exit 1: a violation,
3: none found, which proves nothing, 2: bad input or a member missing):
  mcheck merge [--json] [--json-out FILE] [--full-states] FILE...

When GITHUB_ACTIONS is set, each violated property is also printed as an
::error annotation.

Exit status: 0 every checked property holds on a complete search (with
--max-queue auto: on the largest bound that finished; with --timeout auto:
the smallest T and T2 were found), 1 a property is violated (with --timeout
auto: at every T that fits the state encoding), 2 bad input or an
incomplete search (or timeout search), 3 a sampled search
(--simulate, --bitstate) spent its budget without finding a violation,
which proves nothing. Ctrl-C, SIGTERM and SIGHUP
stop the search with its partial report; a second signal exits at once.
`

// writeUsage writes --help's text.
func writeUsage(w io.Writer, algos []string) {
	fmt.Fprintf(w, usageText, strings.Join(algos, ", "), modelopt.Usage())
}

func newFlagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("mcheck", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	flagval.StringVar(fs, &o.algo, "algo", "")
	o.model.Bind(fs)
	flagval.StringVar(fs, &o.check, "check", "all")
	flagval.DurationVar(fs, &o.timeLimit, "time-limit", 0)
	flagval.BoolVar(fs, &o.cont, "continue", false)
	flagval.BoolVar(fs, &o.json, "json", false)
	flagval.Int64VarIn(fs, &o.maxStates, "max-states", 0, 0, math.MaxInt64)
	fs.Var(byteSize{&o.memory}, "memory", "")
	flagval.BoolVar(fs, &o.generic, "generic-hash", false)
	flagval.BoolVar(fs, &o.quiet, "quiet", false)
	flagval.BoolVar(fs, &o.progress, "progress", false)
	flagval.BoolVar(fs, &o.fullStates, "full-states", false)
	flagval.IntVarIn(fs, &o.workers, "workers", 0, 0, maxWorkers())
	fs.Var(byteSize{&o.bitstate}, "bitstate", "")
	flagval.BoolVar(fs, &o.por, "por", true)
	flagval.BoolVar(fs, &o.exact, "exact", false)
	flagval.StringVar(fs, &o.traceOut, "trace-out", "")
	flagval.StringVar(fs, &o.junit, "junit", "")
	flagval.StringVar(fs, &o.msc, "msc", "")
	flagval.BoolVar(fs, &o.complexity, "complexity", false)
	flagval.StringVar(fs, &o.witness, "witness", "")
	flagval.BoolVar(fs, &o.version, "version", false)
	flagval.BoolVar(fs, &o.sim.on, "simulate", false)
	fs.Var(&o.sim.seed, "seed", "")
	fs.Var(&o.sim.runSeed, "run-seed", "")
	flagval.Int64VarIn(fs, &o.sim.runs, "runs", 0, 0, math.MaxInt64)
	flagval.IntVarIn(fs, &o.sim.depth, "depth", check.DefaultDepth, 1, math.MaxInt32)
	flagval.StringVar(fs, &o.sim.scheduler, "scheduler", explore.DefaultScheduler.String())
	o.swarm.bind(fs)
	return fs
}

// finish applies defaults and cross-flag rules after parsing, for spec:
// every flag is checked here, before the search.
func (o *options) finish(fs *flag.FlagSet, spec specs.Spec) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if err := o.checkLimits(given); err != nil {
		return err
	}
	if err := o.checkDeepen(); err != nil {
		return err
	}
	if err := o.checkSimulate(given); err != nil {
		return err
	}
	if err := o.checkShard(given, os.Getenv); err != nil {
		return err
	}
	if o.exact && o.bitstate > 0 {
		return errors.New("--exact stores whole states and --bitstate none: give only one of them")
	}
	if err := checkMSCPath(o.msc); err != nil {
		return err
	}
	if err := o.checkComplexity(given); err != nil {
		return err
	}
	if err := o.resolveModel(given, spec); err != nil {
		return err
	}
	return o.checkWitness(spec)
}

// checkLimits checks the channel bound, the workers, the memory and the
// state limit.
func (o *options) checkLimits(given map[string]bool) error {
	q := &o.model.Config.MaxQueue
	switch {
	case *q == 0:
		return errors.New("--max-queue 0 would allow no message at all: use 1 or more (default 2N)")
	case *q < 0 && given["max-queue"] && !o.model.AutoQueue:
		return fmt.Errorf("--max-queue %d is negative: use 1 or more (default 2N)", *q)
	}
	if *q < 0 {
		*q = 0 // the model's default, 2N
	}
	if o.workers < 0 {
		return fmt.Errorf("--workers %d is negative: use 1 or more (0: one per CPU)", o.workers)
	}
	budget := o.memory
	if budget == 0 && o.bitstate > 0 {
		budget = defaultMemoryBudget()
	}
	if err := o.checkSizes(machineMemory(), budget); err != nil {
		return err
	}
	if o.maxStates < 0 {
		return fmt.Errorf("--max-states %d is negative: use a positive number, or 0 for no limit", o.maxStates)
	}
	return nil
}

// resolveModel makes the model's configuration (o.cfg) of the model flags
// given and the algorithm's parameters, and checks its timers.
func (o *options) resolveModel(given map[string]bool, spec specs.Spec) error {
	if err := o.model.ResolveParams(spec.Params(), modelopt.FlagName); err != nil {
		return err
	}
	if a := o.model.AutoParam; a != "" {
		if err := o.checkAutoParam(); err != nil {
			return err
		}
		params := spec.Params()
		o.autoParam = params[slices.IndexFunc(params, func(p model.Param) bool { return p.Name == a })]
	}
	cfg, err := o.model.Resolve(func(field string) bool {
		o, _ := modelopt.Lookup(field)
		return given[o.Flag]
	}, modelopt.FlagName, spec.InitialLeader)
	o.cfg = cfg
	// The algorithm's timers first: a timeout for an algorithm without
	// them is the mistake to name, whatever the timing.
	timers := cfg
	if o.model.AutoTimeout {
		timers.Timeout = 1 // any T: auto needs timers to set
	}
	if err := spec.ValidateTimers(timers, modelopt.FlagName); err != nil {
		return err
	}
	return err
}

// checkWitness checks --witness against the runs a check of spec can
// measure (check.WitnessNamesOf).
func (o *options) checkWitness(spec specs.Spec) error {
	if o.witness == "" || o.witness == "none" {
		return nil
	}
	names, err := check.WitnessNamesOf(spec, o.cfg)
	if err != nil {
		return nil // the check says what is wrong with the configuration
	}
	if !slices.Contains(names, o.witness) {
		return fmt.Errorf("--witness: no witness %q among the measures of %s: use one of %s, or none", o.witness, spec.Name, strings.Join(names, ", "))
	}
	return nil
}
