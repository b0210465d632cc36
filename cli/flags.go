package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
)

// options are the parsed command line of a check.
type options struct {
	algo          string
	cfg           model.Config
	crashAny      bool
	initialLeader optBool
	check         string // --check as given; resolved against the algorithm's properties
	cont          bool
	json          bool
	maxStates     int64
	memory        int64
	generic       bool
	quiet         bool
	progress      bool
	fullStates    bool
	workers       int
	bitstate      int64
	por           bool
	exact         bool
	traceOut      string
	junit         string
	msc           string
	complexity    bool
	witness       string
	version       bool
	autoQueue     bool          // --max-queue auto
	timeLimit     time.Duration // --time-limit
}

// optBool is a bool flag that remembers whether it was given, for defaults
// that depend on the algorithm (--initial-leader).
type optBool struct{ set, value bool }

func (b *optBool) IsBoolFlag() bool { return true }
func (b *optBool) String() string {
	if b == nil || !b.set {
		return "algorithm's default"
	}
	return strconv.FormatBool(b.value)
}
func (b *optBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false")
	}
	b.set, b.value = true, v
	return nil
}

// idList is a comma list of positive IDs; for --ids, "perm" too (every
// arrangement of 1..N).
type idList struct {
	ids  *[]int
	perm *bool
}

func (l idList) String() string {
	if l.ids == nil || *l.ids == nil {
		return ""
	}
	return joinInts(*l.ids, ",")
}

func (l idList) Set(s string) error {
	if l.perm != nil && strings.TrimSpace(s) == "perm" {
		*l.perm, *l.ids = true, nil
		return nil
	}
	var ids []int
	for _, w := range strings.Split(s, ",") {
		w = strings.TrimSpace(w)
		v, err := strconv.Atoi(w)
		if err != nil {
			return fmt.Errorf("%q is not a number: give comma-separated positive integers like 3,9,4,8", w)
		}
		if v <= 0 {
			return fmt.Errorf("%d is not positive: IDs are positive integers like 3,9,4,8", v)
		}
		ids = append(ids, v)
	}
	*l.ids = ids
	return nil
}

func joinInts(xs []int, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, sep)
}

type detectorFlag struct{ d *model.Detector }

func (f detectorFlag) String() string {
	if f.d == nil {
		return "perfect"
	}
	return f.d.String()
}
func (f detectorFlag) Set(s string) error {
	d, err := model.ParseDetector(s)
	if err != nil {
		return errors.New("use perfect, incomplete or unreliable (docs/model.md explains them)")
	}
	*f.d = d
	return nil
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
		fmt.Fprintf(w, "  %s %-*s  %-17s  %s%s\n", mark, width, p.Name, p.Kind, p.Doc, groups)
	}
}

// selection resolves --check against the algorithm's properties.
func (o *options) selection(all []model.PropertyInfo) ([]string, error) {
	names, err := properties.Select(all, o.check)
	if err != nil {
		return nil, fmt.Errorf("--check: %w; --check list shows them", err)
	}
	return names, nil
}

// byteSize reads sizes like 8GiB, 512MiB, 2G, 1000000.
type byteSize struct{ n *int64 }

func (f byteSize) String() string { return "" }
func (f byteSize) Set(s string) error {
	units := []struct {
		suffix string
		mult   int64
	}{{"gib", 1 << 30}, {"gb", 1 << 30}, {"g", 1 << 30}, {"mib", 1 << 20}, {"mb", 1 << 20}, {"m", 1 << 20}, {"kib", 1 << 10}, {"kb", 1 << 10}, {"k", 1 << 10}, {"b", 1}}
	low, mult := strings.ToLower(strings.TrimSpace(s)), int64(1)
	for _, u := range units {
		if strings.HasSuffix(low, u.suffix) {
			low, mult = strings.TrimSpace(strings.TrimSuffix(low, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(low, 64)
	if err != nil || v <= 0 {
		return fmt.Errorf("%q is not a size: write it like 8GiB or 512MiB", s)
	}
	*f.n = int64(v * float64(mult))
	return nil
}

// usageText is shown by --help.
const usageText = `mcheck: an explicit-state model checker for leader-election algorithms.

Usage:
  mcheck --algo NAME [--n N] [fault model] [--check LIST] [output]

Algorithms: %s

Model (defined in docs/model.md of mcheck's repository):
  --n N                 processes, 2..%d (default 3, or the number of --ids)
  --ids 3,9,4,8         the processes' IDs in ring order (default 1..N);
                        --ids perm: every arrangement of 1..N, as separate
                        initial states of one search (N <= 8)
  --anonymous           allow duplicate IDs (--ids 1,1,1); an ID in --initiators
                        or --down names every process carrying it
  --crashes K           up to K crashes in a run (default 0)
  --crash-any           any process may crash at any step, one stays live (--crashes N-1)
  --restarts R          up to R restarts of crashed processes (default 0)
  --detector D          perfect, incomplete (the leader's crash may never be
                        noticed) or unreliable (default perfect)
  --initiators 3,9      only these IDs initiate/detect/suspect (default all)
  --down 4              these IDs are crashed from the start
  --initial-leader      start as if the largest ID had just been elected
                        (default on for bully, off for the ring algorithms;
                        --initial-leader=false turns it off)
  --max-queue K         at most K messages per channel (default 2N); steps
                        beyond it are discarded and counted; auto: check at
                        bound 1, 2, 3, ... until a bound does not finish
                        within --time-limit and --memory, and report the
                        verdicts of the largest bound that finished (or of a
                        violation, at the bound where it was found)

Checking:
  --check LIST          comma list of the algorithm's property names and
                        groups (safety, liveness), or all (default: every
                        property not marked optional); --check list lists
                        them (also shown by --algo NAME --help)
  --continue            do not stop at the first violation: finish the search,
                        report full counts and every violated property
  --max-states N        stop after N states (the search is then incomplete)
  --time-limit D        stop after D (e.g. 60s, 5m), incomplete; with
                        --max-queue auto, the time for all bounds together
  --memory SIZE         memory budget of the whole process, e.g. 8GiB (default
                        half of this machine's or container's memory, at most
                        3/4 of what is available): the search gives up the
                        liveness graph, then stops (incomplete) before its
                        peak resident memory would pass SIZE; parent links
                        and large BFS levels go to files in $TMPDIR
  --workers N           goroutines expanding states (default: one per CPU);
                        counts, verdicts and traces are the same for any N
  --bitstate SIZE       supertrace: a bit array of SIZE (e.g. 1GiB) instead of
                        the state table; far less memory, but states may be
                        missed, so nothing is said to hold (expected coverage
                        is reported); no liveness, and no partial-order
                        reduction (--por is ignored: its cycle proviso needs
                        the state table)
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
                        per type, lost; "unbounded" with a lasso) and play
                        the synchronous schedule (latency in rounds, messages
                        round by round); full search, no --por, no --bitstate
  --witness NAME        print (and draw with --msc) the run attaining a
                        measure: min, max, min:TYPE, max:TYPE, min:lost,
                        max:lost, sync, or none (default max)
  --exact               store whole states, not only their 64-bit fingerprints,
                        so that no fingerprint collision can hide a state
                        (the report gives the collision odds otherwise);
                        costs the states' bytes in memory
  --generic-hash        identify states with hashstructure/v2 (slow; for
                        cross-checking the fast encoding)

Output:
  --json                one JSON object on stdout instead of the report
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

When GITHUB_ACTIONS is set, each violated property is also printed as an
::error annotation.

Exit status: 0 every checked property holds on a complete search (with
--max-queue auto: on the largest bound that finished), 1 a property is
violated, 2 bad input or an incomplete search. Ctrl-C, SIGTERM and SIGHUP
stop the search with its partial report; a second signal exits at once.
`

func newFlagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("mcheck", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.StringVar(&o.algo, "algo", "", "")
	fs.IntVar(&o.cfg.N, "n", 0, "")
	fs.Var(idList{ids: &o.cfg.IDs, perm: &o.cfg.Perm}, "ids", "")
	fs.IntVar(&o.cfg.MaxCrashes, "crashes", 0, "")
	fs.BoolVar(&o.crashAny, "crash-any", false, "")
	fs.IntVar(&o.cfg.MaxRestarts, "restarts", 0, "")
	fs.Var(detectorFlag{&o.cfg.Detector}, "detector", "")
	fs.Var(idList{ids: &o.cfg.Initiators}, "initiators", "")
	fs.Var(idList{ids: &o.cfg.Down}, "down", "")
	fs.BoolVar(&o.cfg.Anonymous, "anonymous", false, "")
	fs.Var(&o.initialLeader, "initial-leader", "")
	fs.StringVar(&o.check, "check", "all", "")
	o.cfg.MaxQueue = -1
	fs.Var(queueBound{&o.cfg.MaxQueue, &o.autoQueue}, "max-queue", "")
	fs.DurationVar(&o.timeLimit, "time-limit", 0, "")
	fs.BoolVar(&o.cont, "continue", false, "")
	fs.BoolVar(&o.json, "json", false, "")
	fs.Int64Var(&o.maxStates, "max-states", 0, "")
	fs.Var(byteSize{&o.memory}, "memory", "")
	fs.BoolVar(&o.generic, "generic-hash", false, "")
	fs.BoolVar(&o.quiet, "quiet", false, "")
	fs.BoolVar(&o.progress, "progress", false, "")
	fs.BoolVar(&o.fullStates, "full-states", false, "")
	fs.IntVar(&o.workers, "workers", 0, "")
	fs.Var(byteSize{&o.bitstate}, "bitstate", "")
	fs.BoolVar(&o.por, "por", true, "")
	fs.BoolVar(&o.exact, "exact", false, "")
	fs.StringVar(&o.traceOut, "trace-out", "", "")
	fs.StringVar(&o.junit, "junit", "", "")
	fs.StringVar(&o.msc, "msc", "", "")
	fs.BoolVar(&o.complexity, "complexity", false, "")
	fs.StringVar(&o.witness, "witness", "", "")
	fs.BoolVar(&o.version, "version", false, "")
	return fs
}

// finish applies defaults and cross-flag rules after parsing.
func (o *options) finish(fs *flag.FlagSet, initialLeaderDefault bool) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if o.cfg.N == 0 && !given["n"] {
		o.cfg.N = 3
		if o.cfg.IDs != nil {
			o.cfg.N = len(o.cfg.IDs)
		}
	}
	if o.cfg.N < 2 || o.cfg.N > model.MaxN {
		return fmt.Errorf("--n %d is out of range: use 2 to %d processes", o.cfg.N, model.MaxN)
	}
	if o.crashAny {
		if given["crashes"] && o.cfg.MaxCrashes != o.cfg.N-1 {
			return fmt.Errorf("--crash-any means --crashes %d for --n %d: give only one of them", o.cfg.N-1, o.cfg.N)
		}
		o.cfg.MaxCrashes = o.cfg.N - 1
	}
	switch {
	case o.cfg.MaxQueue == 0:
		return errors.New("--max-queue 0 would allow no message at all: use 1 or more (default 2N)")
	case o.cfg.MaxQueue < 0 && given["max-queue"] && !o.autoQueue:
		return fmt.Errorf("--max-queue %d is negative: use 1 or more (default 2N)", o.cfg.MaxQueue)
	case o.cfg.MaxQueue < 0:
		o.cfg.MaxQueue = 0 // the model's default, 2N
	}
	if o.cfg.MaxCrashes < 0 {
		return fmt.Errorf("--crashes %d is negative: use 0 or more", o.cfg.MaxCrashes)
	}
	if o.cfg.MaxRestarts < 0 {
		return fmt.Errorf("--restarts %d is negative: use 0 or more", o.cfg.MaxRestarts)
	}
	if o.workers < 0 {
		return fmt.Errorf("--workers %d is negative: use 1 or more (0: one per CPU)", o.workers)
	}
	if o.maxStates < 0 {
		return fmt.Errorf("--max-states %d is negative: use a positive number, or 0 for no limit", o.maxStates)
	}
	if err := o.checkDeepen(); err != nil {
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
	o.cfg.InitialLeader = initialLeaderDefault
	if o.initialLeader.set {
		o.cfg.InitialLeader = o.initialLeader.value
	}
	err := o.cfg.WithDefaults().ValidateNamed(flagOf)
	if fe := (*model.FieldError)(nil); errors.As(err, &fe) && fe.Field == "MaxCrashes" {
		return fmt.Errorf("%w (--crash-any means --crashes %d; see docs/model.md)", err, o.cfg.N-1)
	}
	return err
}

// flagOf names a model.Config field by its flag, for Validate's messages.
func flagOf(field string) string {
	return map[string]string{
		"N": "--n", "IDs": "--ids", "MaxCrashes": "--crashes", "MaxRestarts": "--restarts",
		"Initiators": "--initiators", "Down": "--down", "MaxQueue": "--max-queue", "Detector": "--detector",
		"Anonymous": "--anonymous", "Perm": "--ids perm",
	}[field]
}
