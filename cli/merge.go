package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/flagval"
	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/report"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/swarm"
	"github.com/mcheck/mcheck/trace"
)

const mergeUsage = "mcheck merge [--json] [--json-out FILE] [--full-states] FILE..."

const mergeHelp = `Merge the results of the members of a swarm: the same sampled check split
among K members with --shard I/K (--simulate or --bitstate), each of which
wrote its result with --json-out DIR/ (member-I-of-K.json) or --json.

Usage:
  ` + mergeUsage + `

Flags may come before or after the files ("--" ends them). Every member of
the swarm must be given once, all with the same check and settings, each
with the settings its index gives. Every counterexample is replayed through the model; for each
property the shortest one any member found is printed. The members' states
are counted together from their sketches.

  --json                one JSON object on stdout instead of the report
  --json-out FILE       also write that JSON object to FILE (not one of the
                        members' results)
  --full-states         print whole states in traces, not only what changed

Exit status: 1 a member found a violation (real: replayed here), 3 none did
(the members sample: nothing is proven), 0 every property is a Sometimes
that a member reached, 2 a member did not finish (interrupted), or bad input: a file that is not a
member's result, members of different swarms, a member given twice or
missing, a counterexample that does not replay.
`

// mergeMain is mcheck merge FILE...
func mergeMain(args []string, reg *specs.Registry, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcheck merge", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := flagval.Bool(fs, "json", false)
	jsonOut := flagval.String(fs, "json-out", "")
	full := flagval.Bool(fs, "full-states", false)
	files, err := parseMerge(fs, args, jsonOut)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, mergeHelp)
		return ExitHolds
	}
	if err != nil {
		return badInput(stderr, err)
	}
	var inputs []swarm.Input
	for _, path := range files {
		r, err := readMember(path)
		if err != nil {
			return badInput(stderr, fmt.Errorf("merge: %s: %w", path, err))
		}
		inputs = append(inputs, swarm.Input{Name: path, Result: r})
	}
	m, err := swarm.Merge(inputs, replayer(reg))
	if err != nil {
		return badInput(stderr, fmt.Errorf("merge: %w", err))
	}
	code := mergedExit(m)
	if *asJSON {
		if err := writeMergedJSON(stdout, m); err != nil {
			if !failed(stdout) {
				fmt.Fprintf(stderr, "mcheck: merge: writing JSON: %v\n", err)
			}
			return ExitIncomplete
		}
	} else {
		writeMerged(stdout, m, *full)
	}
	if *jsonOut != "" {
		if err := writeOutput(*jsonOut, func(w io.Writer) error { return writeMergedJSON(w, m) }); err != nil {
			fmt.Fprintf(stderr, "mcheck: merge: --json-out: %v (the report above stands; exit status %d)\n", err, code)
		}
	}
	return code
}

// parseMerge reads merge's flags and the members' files, and checks
// --json-out (jsonOut, once parsed) against them.
func parseMerge(fs *flag.FlagSet, args []string, jsonOut *string) ([]string, error) {
	// Flags may follow the files (merge DIR/*.json --json-out X), as
	// the flag package alone does not allow; "--" ends them.
	var files []string
	for rest := args; ; {
		if err := flagval.Parse(fs, rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, fmt.Errorf("merge: %w (usage: %s)", err, mergeUsage)
		}
		left := fs.Args()
		if n := len(rest) - len(left); n > 0 && rest[n-1] == "--" {
			files = append(files, left...)
			break
		}
		if len(left) == 0 {
			break
		}
		files, rest = append(files, left[0]), left[1:]
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("merge: give the members' result files (usage: %s)", mergeUsage)
	}
	if *jsonOut != "" {
		if err := checkOutputFile(*jsonOut); err != nil {
			return nil, fmt.Errorf("merge: --json-out: %w", err)
		}
		if in := sameFileAs(*jsonOut, files); in != "" {
			return nil, fmt.Errorf("merge: --json-out %s is the member's result %s, which the merge would overwrite: give another file", *jsonOut, in)
		}
	}
	return files, nil
}

// mergedExit is the exit status of a merged swarm, as of one check: 1 if
// a member found a violation, 2 if a member did not finish (as it exits
// itself), 3 if a property is left unknown (the members sample), 0 when
// every property was decided (each Sometimes reached).
func mergedExit(m *swarm.Merged) int {
	for _, v := range m.Violations {
		if v.Status == check.Violated {
			return ExitViolation
		}
	}
	switch {
	case len(m.Unfinished) > 0:
		return ExitIncomplete
	case len(m.Violations) < len(m.Settings.Properties):
		return ExitSampled
	}
	return ExitHolds
}

// sameFileAs is the first of files that is the regular file out, or "".
func sameFileAs(out string, files []string) string {
	o, err := os.Stat(out)
	if err != nil || !o.Mode().IsRegular() {
		return ""
	}
	for _, f := range files {
		if in, err := os.Stat(f); err == nil && os.SameFile(o, in) {
			return f
		}
	}
	return ""
}

// readMember reads a member's result from its JSON report.
func readMember(path string) (*swarm.Result, error) {
	fh, err := openInput(path)
	if err != nil {
		return nil, unwrapPath(err)
	}
	defer fh.Close()
	r, err := swarm.Decode(fh)
	if errors.Is(err, swarm.ErrNotMember) {
		err = fmt.Errorf("%w (a member writes its result with --shard I/K and --json-out DIR/ or --json)", err)
	}
	return r, err
}

// replayer replays a member's counterexample as mcheck replay does, with
// the summary the check would give it: what is shown comes from the model,
// not from the file.
func replayer(reg *specs.Registry) swarm.Replay {
	return func(f *trace.File) (*trace.File, error) {
		spec, err := reg.Lookup(f.Config.Algo)
		if err != nil {
			return nil, fmt.Errorf("%q is no algorithm of this mcheck (it has %s): merge with the mcheck program that registers it", f.Config.Algo, strings.Join(reg.Names(), ", "))
		}
		shown, err := trace.Replayed(f, reg)
		if err != nil {
			return nil, err
		}
		if shown.Summary, err = check.Summary(spec, shown); err != nil {
			return nil, err
		}
		return shown, nil
	}
}

// replayedBelow is the proof line's word on the violations the merged
// report shows below, when it shows some.
func replayedBelow(m *swarm.Merged) string {
	for _, v := range m.Violations {
		if v.Status == check.Violated {
			return " (a violation is real: replayed below)"
		}
	}
	return ""
}

// writeMerged renders a merged swarm: what it was, what each member
// covered, what they found together, and that it proves nothing else.
func writeMerged(w io.Writer, m *swarm.Merged, full bool) {
	s := m.Settings
	k := len(m.Members)
	fmt.Fprintf(w, "mcheck merge: %s of a %s swarm of %s\n\n", plural.Count(k, "member"), s.Strategy, s.Config.Describe())
	writeSwarmSettings(w, m)
	for i, r := range m.Members {
		fmt.Fprintf(w, "member %-5d %s\n", i, memberText(r))
	}
	if s.Strategy == swarm.Simulation {
		fmt.Fprintf(w, "total        %s, %s\n", report.Counted(m.Runs, "run"), report.Counted(m.Steps, "step"))
	} else {
		fmt.Fprintf(w, "total        %s\n", report.Counted(m.Steps, "transition"))
	}
	if u := m.Unfinished; len(u) > 0 {
		fmt.Fprintf(w, "incomplete   %s: %s\n", unfinishedText(m), m.Members[u[0]].Coverage.Stopped)
	}
	fmt.Fprintf(w, "states       about %s distinct together (the members' merged sketches, about 1.6%% off); %s for the member that saw the most, %s summed over the members, which counts a state once for each member that saw it\n\n",
		report.Commas(int64(m.Union+0.5)), report.Commas(m.MostStates), report.Commas(m.SumStates))

	writeMergedProperties(w, m, full)
}

// writeMergedProperties is what the members found together, property by
// property, with the shortest counterexample of each.
func writeMergedProperties(w io.Writer, m *swarm.Merged, full bool) {
	s := m.Settings
	fmt.Fprintln(w, "properties")
	width := 13
	for _, p := range s.Properties {
		width = max(width, len(p)+1)
	}
	found := map[string]swarm.Violation{}
	for _, v := range m.Violations {
		found[v.Property] = v
	}
	for _, p := range s.Properties {
		v, ok := found[p]
		if !ok {
			fmt.Fprintf(w, "  %-*s unknown  %s\n", width, p, notFound(m))
			continue
		}
		sh := v.Shortest
		by := fmt.Sprintf("member %d's", sh.Member)
		if sh.By != nil {
			by += fmt.Sprintf(", run %s (--run-seed %#x with that member's --scheduler %s)", report.Commas(sh.By.Index), sh.By.Seed, m.Members[sh.Member].Derived.Scheduler)
		}
		status := "VIOLATED"
		if v.Status != check.Violated {
			status = string(v.Status)
		}
		if sh.Caveat != "" {
			status += " (" + sh.Caveat + ")"
		}
		fmt.Fprintf(w, "  %-*s %s  %s  (found by %s; the shortest is %s)\n", width, p, status, sh.Trace.Summary, membersOf(v), by)
	}
	for _, v := range m.Violations {
		fmt.Fprintln(w)
		trace.WriteText(w, v.Shortest.Trace, full)
	}
}

// writeSwarmSettings is how the swarm searched, and what that proves.
func writeSwarmSettings(w io.Writer, m *swarm.Merged) {
	s := m.Settings
	switch s.Strategy {
	case swarm.Simulation:
		sched := "the schedulers in turn"
		if s.Scheduler != "" {
			sched = s.Scheduler + " scheduler"
		}
		budget := report.Counted(s.Runs, "run") + " each"
		if s.TimeLimit != "" {
			budget = "runs for " + s.TimeLimit + " each"
			if s.Runs > 0 {
				budget += fmt.Sprintf(" (at most %s)", report.Commas(s.Runs))
			}
		}
		fmt.Fprintf(w, "swarm        %s of at most %s, %s; each member's seed derived from seed %d\n", budget, plural.Count(s.Depth, "step"), sched, s.Seed)
		fmt.Fprintln(w, "proof        none: random runs are a sample, so a property without a violation is not shown to hold"+replayedBelow(m))
	case swarm.Bitstate:
		fmt.Fprintf(w, "swarm        bitstate searches with bit arrays of %s down to an eighth of it, each member's hash seed derived from seed %d\n", explore.FormatBytes(s.Bitstate), s.Seed)
		fmt.Fprintln(w, "proof        none: a bitstate search may take a new state for one seen and miss what lies beyond it, so a property without a violation is not shown to hold"+replayedBelow(m))
	}
}

// memberText is what one member was and covered.
func memberText(r *swarm.Result) string {
	c, d := r.Coverage, r.Derived
	var s string
	if r.Settings.Strategy == swarm.Simulation {
		s = fmt.Sprintf("seed %d, %s scheduler: %s, %s, %s distinct states (%s first seen in its last tenth of the time)",
			d.Seed, d.Scheduler, report.Counted(c.Runs, "run"), report.Counted(c.Steps, "step"), report.Commas(c.States), report.Commas(c.NewLate))
	} else {
		s = fmt.Sprintf("hash seed %#x, %s bit array (%.1f%% set): %s states, %s transitions, depth %d",
			d.Seed, explore.FormatBytes(c.BitstateBytes), 100*c.Fill, report.Commas(c.States), report.Commas(c.Steps), c.Depth)
		if c.ExpectedCoverage != nil {
			s += fmt.Sprintf(", expected coverage at least %.4f%%", 100**c.ExpectedCoverage)
		}
	}
	if !c.Complete && c.Stopped != "" {
		s += "; " + c.Stopped
	}
	var props []string
	for _, f := range r.Found {
		props = append(props, fmt.Sprintf("%s (%s, %s)", f.Trace.Property, f.Trace.Kind, plural.Count(len(f.Trace.Steps)-1, "step")))
	}
	if len(props) > 0 {
		s += "; found " + strings.Join(props, ", ")
	}
	return s
}

// notFound says why a property no member violated is unknown.
func notFound(m *swarm.Merged) string {
	unfinished := ""
	if len(m.Unfinished) > 0 {
		unfinished = ", " + unfinishedText(m)
	}
	if m.Settings.Strategy == swarm.Simulation {
		return fmt.Sprintf("no violation in %s of %s%s; a swarm samples runs, so this is not a proof", report.Counted(m.Runs, "random run"), plural.Count(len(m.Members), "member"), unfinished)
	}
	return fmt.Sprintf("no violation in %s%s, which may miss states; not a proof", plural.Count(len(m.Members), "bitstate search"), unfinished)
}

// unfinishedText says which members did not finish.
func unfinishedText(m *swarm.Merged) string {
	u := m.Unfinished
	if len(u) == len(m.Members) {
		if len(u) == 1 {
			return "the member did not finish"
		}
		return fmt.Sprintf("none of the %d members finished", len(u))
	}
	return fmt.Sprintf("%s of %d did not finish (%s)", plural.Count(len(u), "member"), len(m.Members), swarm.Ranges(u, 30))
}

// membersOf names the members that found a violation.
func membersOf(v swarm.Violation) string {
	var ids []string
	for _, f := range v.All {
		id := fmt.Sprint(f.Member)
		if len(ids) == 0 || ids[len(ids)-1] != id {
			ids = append(ids, id)
		}
	}
	if len(ids) == 1 {
		return "member " + ids[0]
	}
	return "members " + strings.Join(ids, ", ")
}

// The JSON of mcheck merge.
type jsonMerged struct {
	Members  int            `json:"members"`
	Settings swarm.Settings `json:"settings"`
	// Proof is always "sampled": the members sample, so nothing is proven.
	Proof string `json:"proof"`
	// Complete is false when a member did not finish (Unfinished names
	// them): the merge is incomplete.
	Complete   bool               `json:"complete"`
	Unfinished []int              `json:"unfinished_members,omitempty"`
	Runs       int64              `json:"runs,omitempty"`
	Steps      int64              `json:"steps"`
	States     jsonMergedStates   `json:"states"`
	Coverage   []jsonMemberCover  `json:"member_coverage"`
	Props      []jsonMergedResult `json:"properties"`
}

type jsonMergedStates struct {
	Estimate float64 `json:"union_estimate"`
	Most     int64   `json:"most_of_one_member"`
	Sum      int64   `json:"sum_over_members"`
}

type jsonMemberCover struct {
	Member  int           `json:"member"`
	File    string        `json:"file"`
	Derived swarm.Derived `json:"derived"`
	// Coverage, less its sketch (merged into states).
	Coverage swarm.Coverage `json:"coverage"`
}

type jsonMergedResult struct {
	Name    string `json:"name"`
	Status  string `json:"status"`
	Summary string `json:"summary"`
	// Proof and Caveat are as of a member's report (check.Verdict): the
	// shown counterexample's, as its member judged it.
	Proof   string        `json:"proof"`
	Caveat  string        `json:"caveat,omitempty"`
	FoundBy []jsonFinding `json:"found_by,omitempty"`
	Trace   *trace.File   `json:"trace,omitempty"`
	Member  *int          `json:"trace_member,omitempty"`
}

type jsonFinding struct {
	Member int        `json:"member"`
	Kind   cex.Kind   `json:"kind"`
	Steps  int        `json:"steps"`
	By     *swarm.Run `json:"found_by,omitempty"`
}

func writeMergedJSON(w io.Writer, m *swarm.Merged) error {
	out := jsonMerged{
		Members: len(m.Members), Settings: m.Settings, Proof: string(check.Sampled), Runs: m.Runs, Steps: m.Steps,
		Complete: len(m.Unfinished) == 0, Unfinished: m.Unfinished,
		States: jsonMergedStates{Estimate: m.Union, Most: m.MostStates, Sum: m.SumStates},
	}
	for i, r := range m.Members {
		c := r.Coverage
		c.Sketch = nil
		out.Coverage = append(out.Coverage, jsonMemberCover{Member: i, File: m.Names[i], Derived: r.Derived, Coverage: c})
	}
	found := map[string]swarm.Violation{}
	for _, v := range m.Violations {
		found[v.Property] = v
	}
	for _, p := range m.Settings.Properties {
		v, ok := found[p]
		if !ok {
			out.Props = append(out.Props, jsonMergedResult{Name: p, Status: string(check.Unknown), Summary: notFound(m), Proof: string(check.Sampled), Caveat: "sampled: " + notFound(m)})
			continue
		}
		r := jsonMergedResult{Name: p, Status: string(v.Status), Summary: v.Shortest.Trace.Summary, Proof: string(v.Shortest.Proof), Caveat: v.Shortest.Caveat, Trace: v.Shortest.Trace}
		member := v.Shortest.Member
		r.Member = &member
		for _, f := range v.All {
			r.FoundBy = append(r.FoundBy, jsonFinding{Member: f.Member, Kind: f.Trace.Kind, Steps: f.Steps(), By: f.By})
		}
		out.Props = append(out.Props, r)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
