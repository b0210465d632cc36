package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mcheck/mcheck/internal/modelopt"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
)

// options are the parsed command line of a check.
type options struct {
	algo string
	// model is the model's flags as given; cfg is their configuration,
	// resolved by finish.
	model      modelopt.Given
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
}

func joinInts(xs []int, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, sep)
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

// usageText is shown by --help, with the algorithms' names and the
// model's options (modelUsage) filled in.
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

// writeUsage writes --help's text.
func writeUsage(w io.Writer, algos []string) {
	fmt.Fprintf(w, usageText, strings.Join(algos, ", "), modelopt.Usage())
}

func newFlagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("mcheck", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.StringVar(&o.algo, "algo", "", "")
	o.model.Bind(fs)
	fs.StringVar(&o.check, "check", "all", "")
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
	cfg, err := o.model.Resolve(func(field string) bool {
		o, _ := modelopt.Lookup(field)
		return given[o.Flag]
	}, modelopt.FlagName, initialLeaderDefault)
	o.cfg = cfg
	return err
}
