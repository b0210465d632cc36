// Package cli is the mcheck command line. It is a package of its own so that
// a course or a student can build a mcheck with their own algorithms
// registered: a main of a few lines that calls Main.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/flagval"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/report"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// Exit statuses.
const (
	ExitHolds      = 0 // every checked property holds on a complete search
	ExitViolation  = 1 // a property is violated
	ExitIncomplete = 2 // bad input, or the search did not finish
	ExitSampled    = 3 // a sampled search (check.Sampled) found no violation: nothing is proven
)

// Main runs mcheck with args (without the program name) against the
// algorithms of reg, and returns the exit status. A report that could not
// be written to stdout (a full disk, a closed pipe) is no report: exit
// status 2, and stderr says why. It changes no setting of the process, so
// that two can run at once (tests); a program passes its Hooks to MainWith.
func Main(args []string, reg *specs.Registry, stdout, stderr io.Writer) int {
	return MainWith(args, reg, stdout, stderr, Hooks{})
}

// Hooks are what a program (cmd/mcheck) does to its process for a check:
// the process's settings are the program's, never the library's.
type Hooks struct {
	// Budget, when set, is called with the memory budget (--memory) before
	// the search starts: the program tells the Go runtime.
	Budget func(bytes int64)
}

// MainWith is Main with the program's hooks.
func MainWith(args []string, reg *specs.Registry, stdout, stderr io.Writer, hooks Hooks) int {
	out := &checkedWriter{w: stdout}
	code := mainTo(args, reg, out, stderr, hooks)
	if out.err != nil {
		fmt.Fprintf(stderr, "mcheck: writing to standard output: %s (the output is incomplete; exit status %d)\n", oneLine(unwrapPath(out.err).Error()), ExitIncomplete)
		return ExitIncomplete
	}
	return code
}

// checkedWriter keeps the first error of its writes, a short write
// included, and writes nothing after it.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.err = err
	return n, err
}

// failed says whether w is stdout and a write to it failed.
func failed(w io.Writer) bool {
	c, ok := w.(*checkedWriter)
	return ok && c.err != nil
}

func mainTo(args []string, reg *specs.Registry, stdout, stderr io.Writer, hooks Hooks) int {
	if len(args) > 0 {
		if sub := subcommand(args[0]); sub != nil {
			return sub(args[1:], reg, stdout, stderr)
		}
	}
	r, code, ok := parseRun(args, reg, stdout, stderr)
	if !ok {
		return code
	}
	// The budget is for the whole process: the search stops before its own
	// data would leave the runtime too little (explore's budget), and the
	// program tells the runtime's collector to keep the heap within it.
	if hooks.Budget != nil {
		hooks.Budget(r.o.memory)
	}
	ctx, release := stopOnSignal(stderr)
	defer release()
	req := r.request(ctx)
	rep, err := runCheck(req, &r.o)
	if r.progressDone != nil {
		r.progressDone()
	}
	if err != nil {
		return badInput(stderr, flagWords(r.o.timerWords(err)))
	}
	res := reportOf(rep)
	code, ok = r.writeReport(res, req)
	if !ok {
		return code
	}
	return r.writeFiles(res, code)
}

// subcommand is the main function of mcheck's subcommand name, or nil.
func subcommand(name string) func([]string, *specs.Registry, io.Writer, io.Writer) int {
	switch name {
	case "replay":
		return replayMain
	case "explore":
		return exploreMain
	case "merge":
		return mergeMain
	}
	return nil
}

// run is one check from the command line: its options, algorithm and
// properties, and where its outputs go.
type run struct {
	o              options
	spec           specs.Spec
	checks         []string
	stdout, stderr io.Writer
	progressDone   func() // the progress line's end, when it has one
}

// parseRun reads and validates the command line of a check. When it has
// nothing to check (help, version, a property list, bad input) it has
// answered already, and ok is false with the exit status in code.
func parseRun(args []string, reg *specs.Registry, stdout, stderr io.Writer) (r *run, code int, ok bool) {
	r = &run{stdout: stdout, stderr: stderr}
	o := &r.o
	fs := newFlagSet(o)
	if err := flagval.Parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeHelp(stdout, reg, o.algo)
			return nil, ExitHolds, false
		}
		return nil, badInput(stderr, fmt.Errorf("%w (see mcheck --help)", err)), false
	}
	if o.version {
		fmt.Fprintln(stdout, version(debug.ReadBuildInfo()))
		return nil, ExitHolds, false
	}
	spec, err := r.lookup(fs, reg)
	if err != nil {
		return nil, badInput(stderr, err), false
	}
	r.spec = spec
	if o.check == "list" {
		propertyList(stdout, spec.Name, spec.Build.Properties())
		return nil, ExitHolds, false
	}
	if r.checks, err = o.selection(spec.Build.Properties()); err == nil {
		if err = o.finish(fs, spec); err == nil {
			err = checkOutputs(o)
		}
	}
	if err != nil {
		return nil, badInput(stderr, err), false
	}
	if o.memory == 0 {
		o.memory = defaultMemoryBudget()
	}
	return r, 0, true
}

// writeHelp is mcheck --help: the usage, the explorer's, and the
// properties of the algorithm given, if any.
func writeHelp(stdout io.Writer, reg *specs.Registry, algo string) {
	writeUsage(stdout, reg.Names())
	fmt.Fprint(stdout, exploreHelp)
	if spec, err := reg.Lookup(algo); err == nil {
		fmt.Fprintln(stdout)
		propertyList(stdout, spec.Name, spec.Build.Properties())
	}
}

// lookup is the algorithm the command line names.
func (r *run) lookup(fs *flag.FlagSet, reg *specs.Registry) (specs.Spec, error) {
	switch {
	case fs.NArg() > 0:
		return specs.Spec{}, fmt.Errorf("unexpected argument %q: every option is a flag, like --algo bully (see mcheck --help)", fs.Arg(0))
	case r.o.algo == "":
		return specs.Spec{}, fmt.Errorf("no algorithm: give --algo, one of %s", strings.Join(reg.Names(), ", "))
	}
	spec, err := reg.Lookup(r.o.algo)
	if err != nil {
		return specs.Spec{}, fmt.Errorf("--algo: %w", err)
	}
	return spec, nil
}

// request is the check the command line asks for, with its progress line.
func (r *run) request(ctx context.Context) check.Request {
	o := &r.o
	req := check.Request{
		Spec: r.spec, Config: o.cfg, Properties: r.checks, Continue: o.cont,
		MaxStates: o.maxStates, MemoryBudget: o.memory, Generic: o.generic, Context: ctx, Workers: o.workers, Strategy: o.strategy(),
		Reduce: o.por, Complexity: o.complexity, Exact: o.exact, Name: flagOf,
	}
	o.applyShard(&req)
	if o.progress || (!o.quiet && isTerminal(r.stderr)) {
		prog := newProgress(r.stderr, o.maxStates, o.memory)
		req.Progress = prog.update
		req.Sweeping = func(c model.Config) { prog.startSearch(o.searchName(c)) }
		r.progressDone = prog.done
	}
	return req
}

// writeReport writes the report to stdout, as text or JSON; ok is false
// when that failed, with the exit status in code; otherwise code is the
// verdict's.
func (r *run) writeReport(res *report.Result, req check.Request) (code int, ok bool) {
	o, stdout, stderr, rep := &r.o, r.stdout, r.stderr, res.Report
	member := o.memberResult(rep, req)
	if o.json {
		if err := report.JSON(stdout, res, member); err != nil {
			if !failed(stdout) { // else Main says it
				fmt.Fprintf(stderr, "mcheck: writing JSON: %v\n", err)
			}
			return ExitIncomplete, false
		}
	} else {
		report.Text(stdout, res, o.fullStates)
		if rep.Complexity != nil {
			if err := report.Complexity(stdout, res, witnessOf(o.witness, rep), o.fullStates); err != nil {
				return badInput(stderr, fmt.Errorf("--witness: %w", err)), false
			}
		}
		o.writeMemberLine(stdout)
	}
	// The verdict decides the exit status; an output that could not be
	// written after all is said once and does not hide it.
	code = exitStatus(rep)
	if o.swarm.jsonOut != "" {
		if err := o.swarm.writeJSONOut(res, member); err != nil {
			fmt.Fprintf(stderr, "mcheck: --json-out: %v (the report above stands; exit status %d)\n", err, code)
		}
	}
	return code, true
}

// writeFiles writes the files the command line asks for (traces, charts,
// JUnit) and the CI annotations; a file that cannot be written is said on
// stderr and leaves the exit status code, except a bad --msc witness.
func (r *run) writeFiles(res *report.Result, code int) int {
	o, stderr, rep := &r.o, r.stderr, res.Report
	stands := func(flag string, err error) {
		fmt.Fprintf(stderr, "mcheck: %s%v (the report above stands; exit status %d)\n", flag, err, code)
	}
	var stale staleTraces
	if o.traceOut != "" {
		var err error
		if stale, err = writeTraceFiles(o.traceOut, r.traceFiles(rep), rep, stderr); err != nil {
			stands("--trace-out: ", err)
		}
	}
	if rep.Complexity != nil && o.msc != "" {
		if err := writeWitnessChart(o.msc, witnessOf(o.witness, rep), rep, stderr); err != nil {
			return badInput(stderr, fmt.Errorf("--msc: %w", err))
		}
		o.msc = ""
	}
	if err := writeCharts(o.msc, res, stale, stderr); err != nil {
		stands("", err)
	}
	if o.junit != "" {
		if err := writeJUnitFile(o.junit, res); err != nil {
			stands("--junit: ", err)
		}
	}
	if why := rep.Stats.SpillFailed; why != "" {
		fmt.Fprintf(stderr, "mcheck: the search's temporary files (TMPDIR) failed, so it went on in memory within the budget: %s\n", oneLine(why))
	}
	if os.Getenv("GITHUB_ACTIONS") != "" {
		report.Annotations(stderr, res)
	}
	return code
}

// traceFiles are the trace files of a report: its counterexamples, and
// with --complexity the measure's witness run (checked by --witness before).
func (r *run) traceFiles(rep *check.Report) []*trace.File {
	files := counterexampleFiles(rep)
	if rep.Complexity != nil {
		if name := witnessOf(r.o.witness, rep); name != "" {
			if f, err := rep.WitnessFile(name); err == nil {
				files = append(files, f)
			}
		}
	}
	return files
}

// exitStatus is the verdict of a check as an exit status.
func exitStatus(rep *check.Report) int {
	if p := rep.ParamSearch; p != nil {
		switch {
		case p.Found:
			return ExitHolds
		case p.AllFail || p.Longest > 0:
			return ExitViolation
		}
		return ExitIncomplete
	}
	if t := rep.Timeouts; t != nil {
		// The answer is the sweep's, whatever the last search's verdicts.
		switch {
		case t.Found():
			return ExitHolds
		case t.NoneHolds():
			return ExitViolation
		}
		return ExitIncomplete
	}
	switch {
	case rep.Failed():
		return ExitViolation
	case !rep.Stats.Complete && rep.Stats.Stop != explore.StopExamples, rep.Complexity != nil && rep.Complexity.Measures == nil:
		// A search that stopped once every example was found decided
		// every property it checks.
		return ExitIncomplete
	}
	for _, v := range rep.Verdicts {
		if v.Status == check.Unknown {
			if rep.Proof == check.Sampled {
				return ExitSampled
			}
			return ExitIncomplete
		}
	}
	return ExitHolds
}

// oneLine escapes control characters (a newline in an argument).
func oneLine(s string) string { return trace.Printable(s) }

func badInput(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "mcheck: %s\n", oneLine(err.Error()))
	return ExitIncomplete
}

// isTerminal says whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// defaultMemoryBudget leaves room for the rest of the machine: half of its
// memory (or of the container's limit), and no more than three quarters of
// what is available now; 8 GiB if unknown.
func defaultMemoryBudget() int64 {
	return memoryBudgetFrom(readFile("/proc/meminfo"), cgroupLimits(readFile("/proc/self/cgroup"), readFile)...)
}

func readFile(name string) string {
	data, _ := os.ReadFile(name)
	return string(data)
}

// machineMemory is the memory of this machine, or of its container's
// limit when lower (0 if unknown): no size flag may ask for more.
func machineMemory() int64 {
	total, _ := memoryFrom(readFile("/proc/meminfo"), cgroupLimits(readFile("/proc/self/cgroup"), readFile)...)
	return total
}

// cgroupLimits reads the memory limits of the control groups this process
// is in (selfCgroup is the text of /proc/self/cgroup): cgroup v2's
// memory.max and v1's memory.limit_in_bytes, of its own group and of every
// group above it (a nested group's parent may have the lower limit), and
// of the root of the hierarchy as a container sees it.
func cgroupLimits(selfCgroup string, read func(name string) string) []string {
	const v2, v1 = "/sys/fs/cgroup", "/sys/fs/cgroup/memory"
	files := []string{v2 + "/memory.max", v1 + "/memory.limit_in_bytes"}
	for _, line := range strings.Split(selfCgroup, "\n") {
		// hierarchy-ID:controllers:path
		parts := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(parts) != 3 {
			continue
		}
		var root, file string
		switch {
		case parts[0] == "0" && parts[1] == "":
			root, file = v2, "memory.max"
		case slices.Contains(strings.Split(parts[1], ","), "memory"):
			root, file = v1, "memory.limit_in_bytes"
		default:
			continue
		}
		for dir := path.Clean("/" + parts[2]); dir != "/"; dir = path.Dir(dir) {
			files = append(files, root+dir+"/"+file)
		}
	}
	var limits []string
	for _, f := range files {
		if text := read(f); text != "" {
			limits = append(limits, text)
		}
	}
	return limits
}

// memoryBudgetFrom is defaultMemoryBudget from the text of /proc/meminfo and
// of the cgroup limits that apply (memory.max, memory.limit_in_bytes): the
// lowest of them counts as the machine's memory.
func memoryBudgetFrom(meminfo string, cgroupLimits ...string) int64 {
	total, avail := memoryFrom(meminfo, cgroupLimits...)
	if total == 0 {
		return 8 << 30
	}
	budget := total / 2
	if avail > 0 {
		budget = min(budget, avail*3/4)
	}
	return max(budget, 256<<20)
}

// memoryFrom reads the memory of the machine (or of the lowest cgroup
// limit, when lower) and what is available now from the text of
// /proc/meminfo and of the cgroup limits; 0 when unknown.
func memoryFrom(meminfo string, cgroupLimits ...string) (total, avail int64) {
	for _, line := range strings.Split(meminfo, "\n") {
		var kb int64
		if _, err := fmt.Sscanf(line, "MemTotal: %d kB", &kb); err == nil {
			total = kb * 1024
		}
		if _, err := fmt.Sscanf(line, "MemAvailable: %d kB", &kb); err == nil {
			avail = kb * 1024
		}
	}
	for _, text := range cgroupLimits {
		// "max" (v2) and v1's near-2^63 "unlimited" are no limit.
		if limit, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64); err == nil && limit > 0 && limit < 1<<62 && (total == 0 || limit < total) {
			total = limit
		}
	}
	return total, avail
}
