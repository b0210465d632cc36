// Package modelopt is the one table of the model's options: for each field
// of model.Config, the flag that sets it on the command line (also its key
// in an explorer URL), its field in mchecktest.Config and trace.Config, its
// key in a trace file, its lines in mcheck --help, in mchecktest's
// documentation and in docs/cli.md, how it is written back as a flag's
// argument, and an example value.
//
// model defines, defaults and validates the options, naming them by its
// own field names, and speaks no flag. The names people give them belong
// to the front ends, and two front ends share them: the command line with
// its explorer (package cli) and the test helper (package mchecktest). So
// the names live here, between model and both, instead of in either.
// Derived from the table as the program runs: the flag set's model flags,
// the Model section of the usage text, the names in validation errors
// (FlagName, APIName), the cross-option rules (Given.Resolve), and the
// explorer URL (Query). Written from it by go generate (gen/, whose test
// fails while they are stale): trace.Config and its conversions, the model
// fields of mchecktest.Config and their conversion, the model rows of
// docs/cli.md's table of flags and docs/tutorial.md's list of
// mchecktest.Config's fields. So a new model option is a field of
// model.Config and one row here.
package modelopt

//go:generate go run ./gen

import (
	"errors"
	"flag"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/mcheck/mcheck/internal/flagval"
	"github.com/mcheck/mcheck/model"
)

// Option is one row of the table: one field of model.Config. A new model
// option is one row: the flag set, the usage text, the explorer URL and
// the names in errors read the table as the program runs, and go generate
// writes trace.Config, the model fields of mchecktest.Config and the
// lists of options in docs/cli.md and docs/tutorial.md from it (gen/).
type Option struct {
	// Field is model.Config's field.
	Field string
	// Flag is the command-line flag that sets it, without "--"; it is also
	// the option's key in an explorer URL. Perm shares IDs' flag (--ids
	// perm).
	Flag string
	// Shorthand is another flag for the same field, set from other options
	// (--crash-any is --crashes N-1); ShorthandAPI is its mchecktest name,
	// a bool field.
	Shorthand, ShorthandAPI string
	// API is mchecktest.Config's field, and trace.Config's.
	API string
	// Trace is the field's key in a trace file's "config" (trace.Config).
	Trace string
	// TraceAlways writes the key even at its zero value. The first options
	// of the format did; any other is left out at its zero value, so that
	// files written before it existed read as they always did.
	TraceAlways bool
	// Usage is its lines in the Model section of mcheck --help.
	Usage string
	// Doc is the comment of its field in mchecktest.Config (and of
	// ShorthandAPI's, which follows it).
	Doc string
	// Docs is its rows in the table of flags of docs/cli.md; "" for a
	// field named in another's row.
	Docs string
	// Example is a valid configuration of three processes in which the
	// field differs from its default (Base), for tests and docs.
	Example model.Config

	// Named is how the command line names the field when not "--"+Flag.
	Named string
	// Bind defines the field's flags on fs, writing into g; nil when
	// another option's flag sets it.
	Bind func(fs *flag.FlagSet, g *Given)
	// Arg is the field of c (defaults filled in) as its flag's argument,
	// and whether it differs from the default, where initialLeader is the
	// algorithm's default InitialLeader.
	Arg func(c model.Config, initialLeader bool) (string, bool)
}

// Table is a table of options; Options is the model's.
type Table []Option

// Base is the configuration the examples differ from: three processes and
// every other option at its default.
func Base() model.Config { return model.Config{N: 3}.WithDefaults() }

// Options is the table, in the order of mcheck --help.
var Options = Table{
	{
		Field: "N", Flag: "n", API: "N", Trace: "n",
		TraceAlways: true,
		Doc:         `N is the number of processes (default 3, or len(IDs)).`,
		Docs:        "| `--n N` | processes, 2..16 (default 3, or the number of `--ids`) |\n",
		Usage: fmt.Sprintf(`  --n N                 processes, 2..%d (default 3, or the number of --ids)
`, model.MaxN),
		Example: model.Config{N: 4},
		Bind:    func(fs *flag.FlagSet, g *Given) { flagval.IntVarIn(fs, &g.Config.N, "n", 0, 2, model.MaxN) },
		Arg: func(c model.Config, _ bool) (string, bool) {
			return strconv.Itoa(c.N), true // always written: the other defaults depend on it
		},
	},
	{
		Field: "IDs", Flag: "ids", API: "IDs", Trace: "ids",
		TraceAlways: true,
		Doc:         `IDs are the processes' IDs in ring order (default 1..N).`,
		Docs:        "| `--ids 3,9,4,8` | IDs in ring order (default 1..N); processes are named by ID: `p9`. `--ids perm`: every arrangement of 1..N, one initial state each |\n",
		Usage: `  --ids 3,9,4,8         the processes' IDs in ring order (default 1..N);
                        --ids perm: every arrangement of 1..N, as separate
                        initial states of one search (N <= 8)
`,
		Example: model.Config{N: 3, IDs: []int{3, 9, 4}},
		Bind: func(fs *flag.FlagSet, g *Given) {
			fs.Var(idList{ids: &g.Config.IDs, perm: &g.Config.Perm}, "ids", "")
		},
		Arg: func(c model.Config, _ bool) (string, bool) {
			if c.Perm || slices.Equal(c.IDs, model.Config{N: c.N}.WithDefaults().IDs) {
				return "", false
			}
			return model.IDList(c.IDs), true
		},
	},
	{
		Field: "Perm", Flag: "ids", Named: "--ids perm", API: "Perm", Trace: "perm",
		Doc:     `Perm explores every arrangement of the IDs 1..N on the ring, as separate initial states of one search (IDs nil or 1..N).`,
		Example: model.Config{N: 3, Perm: true},
		Arg: func(c model.Config, _ bool) (string, bool) {
			return "perm", c.Perm
		},
	},
	{
		Field: "Anonymous", Flag: "anonymous", API: "Anonymous", Trace: "anonymous",
		Doc:  `Anonymous allows duplicate IDs; an ID in Initiators or Down then names every process that carries it.`,
		Docs: "| `--anonymous` | allow duplicate IDs (`--ids 1,1,1`); processes are then named by ID and position, `p1@0` |\n",
		Usage: `  --anonymous           allow duplicate IDs (--ids 1,1,1); an ID in --initiators
                        or --down names every process carrying it
`,
		Example: model.Config{N: 3, IDs: []int{1, 2, 2}, Anonymous: true},
		Bind:    func(fs *flag.FlagSet, g *Given) { flagval.BoolVar(fs, &g.Config.Anonymous, "anonymous", false) },
		Arg:     boolArg(func(c model.Config) bool { return c.Anonymous }),
	},
	{
		Field: "MaxCrashes", Flag: "crashes", API: "Crashes", Trace: "crashes",
		TraceAlways: true,
		Doc:         `Crashes is the most crashes in a run; CrashAny means N-1 (any process may crash at any step, one stays live).`,
		Docs:        "| `--crashes K` / `--crash-any` | up to K crashes / any process at any step, one stays live |\n",
		Shorthand:   "crash-any", ShorthandAPI: "CrashAny",
		Usage: `  --crashes K           up to K crashes in a run (default 0)
  --crash-any           any process may crash at any step, one stays live (--crashes N-1)
`,
		Example: model.Config{N: 3, MaxCrashes: 1},
		Bind: func(fs *flag.FlagSet, g *Given) {
			flagval.IntVarIn(fs, &g.Config.MaxCrashes, "crashes", 0, 0, 255)
			flagval.BoolVar(fs, &g.CrashAny, "crash-any", false)
		},
		Arg: intArg(func(c model.Config) int { return c.MaxCrashes }),
	},
	{
		Field: "MaxRestarts", Flag: "restarts", API: "Restarts", Trace: "restarts",
		TraceAlways: true,
		Doc:         `Restarts is the most restarts (with the same ID) in a run.`,
		Docs:        "| `--restarts R` | up to R restarts with the same ID |\n",
		Usage: `  --restarts R          up to R restarts of crashed processes (default 0)
`,
		Example: model.Config{N: 3, MaxCrashes: 1, MaxRestarts: 1},
		Bind:    func(fs *flag.FlagSet, g *Given) { flagval.IntVarIn(fs, &g.Config.MaxRestarts, "restarts", 0, 0, 255) },
		Arg:     intArg(func(c model.Config) int { return c.MaxRestarts }),
	},
	{
		Field: "Detector", Flag: "detector", API: "Detector", Trace: "detector",
		TraceAlways: true,
		Doc:         `Detector is model.Perfect (the zero value), model.Incomplete, model.Unreliable, model.Eventual (with Timing model.Partial) or model.Heartbeat (with Timing model.Sync or model.Partial).`,
		Docs:        "| `--detector perfect\\|incomplete\\|unreliable\\|eventual\\|heartbeat` | incomplete: the leader's crash may never be noticed (its detection is not fair); unreliable: adds false suspicions and early timeouts; eventual (`--timing partial` only): false suspicions before `gst` only; heartbeat (`--timing sync\\|partial` only): a process suspects another it has not heard a heartbeat from for a timeout ([semantics.md](semantics.md) section 6.5) |\n",
		Usage: `  --detector D          perfect, incomplete (the leader's crash may never be
                        noticed), unreliable, eventual (false suspicions
                        before gst only; needs --timing partial), or heartbeat
                        (suspects a process not heard from for a timeout;
                        needs --timing sync or partial) (default perfect)
`,
		Example: model.Config{N: 3, Detector: model.Unreliable},
		Bind: func(fs *flag.FlagSet, g *Given) {
			fs.Var(enumFlag[model.Detector]{&g.Config.Detector, model.ParseDetector, "use perfect, incomplete, unreliable, eventual or heartbeat"}, "detector", "")
		},
		Arg: func(c model.Config, _ bool) (string, bool) {
			return c.Detector.String(), c.Detector != model.Perfect
		},
	},
	{
		Field: "FalseSuspicions", Flag: "false-suspicions", API: "FalseSuspicions", Trace: "false_suspicions",
		Doc:  `FalseSuspicions bounds model.Eventual's false suspicions before gst (default 1).`,
		Docs: "| `--false-suspicions K` | with `--detector eventual`: up to K false suspicions before `gst` (default 1) |\n",
		Usage: `  --false-suspicions K  with --detector eventual: up to K false suspicions
                        before gst (default 1)
`,
		Example: model.Config{N: 3, Timing: model.Partial, Detector: model.Eventual, FalseSuspicions: 2},
		Bind: func(fs *flag.FlagSet, g *Given) {
			flagval.IntVarIn(fs, &g.Config.FalseSuspicions, "false-suspicions", 0, 1, model.MaxFalseSuspicions)
		},
		Arg: func(c model.Config, _ bool) (string, bool) {
			return strconv.Itoa(c.FalseSuspicions), c.FalseSuspicions > 1
		},
	},
	{
		Field: "HeartbeatPeriod", Flag: "heartbeat-period", API: "HeartbeatPeriod", Trace: "heartbeat_period",
		Doc:  `HeartbeatPeriod is model.Heartbeat's P in ticks (default 1), as --heartbeat-period.`,
		Docs: "| `--heartbeat-period P` | with `--detector heartbeat`: every live process sends a heartbeat at least every P ticks, 1 to 100 (default 1) |\n",
		Usage: `  --heartbeat-period P  with --detector heartbeat: every live process sends
                        a heartbeat at least every P ticks (default 1)
`,
		Example: model.Config{N: 3, Timing: model.Sync, Detector: model.Heartbeat, HeartbeatPeriod: 2},
		Bind: func(fs *flag.FlagSet, g *Given) {
			flagval.IntVarIn(fs, &g.Config.HeartbeatPeriod, "heartbeat-period", 0, 1, model.MaxHeartbeat)
		},
		Arg: func(c model.Config, _ bool) (string, bool) {
			return strconv.Itoa(c.HeartbeatPeriod), c.HeartbeatPeriod > 1
		},
	},
	{
		Field: "HeartbeatTimeout", Flag: "heartbeat-timeout", API: "HeartbeatTimeout", Trace: "heartbeat_timeout",
		Doc:  `HeartbeatTimeout is model.Heartbeat's TO in ticks (default P+D), as --heartbeat-timeout.`,
		Docs: "| `--heartbeat-timeout TO` | with `--detector heartbeat`: a process suspects another it has not heard from for TO ticks, 1 to 100 (default P + D: the least with which no live process is ever suspected in sync mode or after `gst`) |\n",
		Usage: `  --heartbeat-timeout TO  with --detector heartbeat: suspect a process not
                        heard from for TO ticks (default P+D, the least that
                        never suspects a live process once in sync)
`,
		Example: model.Config{N: 3, Timing: model.Sync, Detector: model.Heartbeat, HeartbeatTimeout: 1},
		Bind: func(fs *flag.FlagSet, g *Given) {
			flagval.IntVarIn(fs, &g.Config.HeartbeatTimeout, "heartbeat-timeout", 0, 1, model.MaxHeartbeat)
		},
		Arg: func(c model.Config, _ bool) (string, bool) {
			return strconv.Itoa(c.HeartbeatTimeout), c.HeartbeatTimeout != 0 && c.HeartbeatTimeout != c.HeartbeatPeriod+c.Delay
		},
	},
	{
		Field: "Initiators", Flag: "initiators", API: "Initiators", Trace: "initiators",
		Doc:  `Initiators: only these IDs initiate (nil: all).`,
		Docs: "| `--initiators 3,9` | only these IDs start elections (all join through messages) |\n",
		Usage: `  --initiators 3,9      only these IDs initiate/detect/suspect (default all)
`,
		Example: model.Config{N: 3, Initiators: []int{2}},
		Bind:    func(fs *flag.FlagSet, g *Given) { fs.Var(idList{ids: &g.Config.Initiators}, "initiators", "") },
		Arg: func(c model.Config, _ bool) (string, bool) {
			return model.IDList(c.Initiators), c.Initiators != nil
		},
	},
	{
		Field: "Down", Flag: "down", API: "Down", Trace: "down",
		Doc:  `Down: these IDs are crashed from the start.`,
		Docs: "| `--down 4` | these IDs are crashed from the start |\n",
		Usage: `  --down 4              these IDs are crashed from the start
`,
		Example: model.Config{N: 3, Down: []int{1}},
		Bind:    func(fs *flag.FlagSet, g *Given) { fs.Var(idList{ids: &g.Config.Down}, "down", "") },
		Arg: func(c model.Config, _ bool) (string, bool) {
			return model.IDList(c.Down), len(c.Down) > 0
		},
	},
	{
		Field: "InitialLeader", Flag: "initial-leader", API: "InitialLeader", Trace: "initial_leader",
		TraceAlways: true,
		Doc:         `InitialLeader starts as if the largest ID had just been elected (the algorithm must implement model.Leaderer or model.LeaderSelfer).`,
		Docs:        "| `--initial-leader[=false]` | start as if the largest ID had just been elected (default on for bully only) |\n",
		Usage: `  --initial-leader      start as if the largest ID had just been elected
                        (default on for bully, off for the ring algorithms;
                        --initial-leader=false turns it off)
`,
		Example: model.Config{N: 3, InitialLeader: true},
		Bind:    func(fs *flag.FlagSet, g *Given) { fs.Var(&g.InitialLeader, "initial-leader", "") },
		Arg: func(c model.Config, initialLeader bool) (string, bool) {
			return strconv.FormatBool(c.InitialLeader), c.InitialLeader != initialLeader
		},
	},
	{
		Field: "MaxQueue", Flag: "max-queue", API: "MaxQueue", Trace: "max_queue",
		TraceAlways: true,
		Doc:         `MaxQueue bounds every channel (default 2N).`,
		Docs:        "| `--max-queue K` | at most K messages per channel (default 2N); steps beyond it are discarded and counted |\n| `--max-queue auto` | bound deepening: check at bound 1, 2, 3, ... until a bound does not finish within `--time-limit` and `--memory`; report the verdicts of the largest bound that finished (below) |\n",
		Usage: `  --max-queue K         at most K messages per channel (default 2N); steps
                        beyond it are discarded and counted; auto: check at
                        bound 1, 2, 3, ... until a bound does not finish
                        within --time-limit and --memory, and report the
                        verdicts of the largest bound that finished (or of a
                        violation, at the bound where it was found)
`,
		Example: model.Config{N: 3, MaxQueue: 2},
		Bind: func(fs *flag.FlagSet, g *Given) {
			g.Config.MaxQueue = -1 // not given: the model's default
			fs.Var(orAuto{k: &g.Config.MaxQueue, auto: &g.AutoQueue, unset: -1, dflt: "2N", most: 255,
				use: "use 1 or more, or auto to deepen the bound within --time-limit and --memory"}, "max-queue", "")
		},
		Arg: func(c model.Config, _ bool) (string, bool) {
			return strconv.Itoa(c.MaxQueue), c.MaxQueue != 2*c.N
		},
	},
	{
		Field: "Timing", Flag: "timing", API: "Timing", Trace: "timing",
		Doc:  `Timing is model.Async (the zero value: no clocks), model.Sync or model.Partial (docs/semantics.md section 6.1). In a timed mode every timer of the algorithm needs a Duration.`,
		Docs: "| `--timing async\\|sync\\|partial` | the model of time ([model.md](model.md#time---timing), [semantics.md](semantics.md#6-time---timing) section 6): async (default) has no clocks; sync adds ticks, message ages and real timers (every message arrives 1 to D ticks after it was sent, Bully's timeouts fire when their timer runs out, not when a detector justifies them); partial is sync after a `gst` step, before which messages may be late |\n",
		Usage: `  --timing M            async (default: no clocks), sync (discrete time: every
                        message arrives 1 to D ticks after it was sent, and
                        timers are real) or partial (sync once a gst step
                        has come; before it messages may be late)
`,
		Example: model.Config{N: 3, Timing: model.Sync},
		Bind: func(fs *flag.FlagSet, g *Given) {
			fs.Var(enumFlag[model.Timing]{&g.Config.Timing, model.ParseTiming, "use async, sync or partial"}, "timing", "")
		},
		Arg: func(c model.Config, _ bool) (string, bool) {
			return c.Timing.String(), c.Timing != model.Async
		},
	},
	{
		Field: "Delay", Flag: "delay", API: "Delay", Trace: "delay",
		Doc:  `Delay is D, the worst one-way latency in ticks (default 1); only with Timing model.Sync or model.Partial, as are Timeout and TimeoutCoord.`,
		Docs: "| `--delay D` | the worst one-way latency in ticks (default 1); only with `--timing sync` or `partial` |\n",
		Usage: `  --delay D             the worst one-way latency in ticks (default 1; with
                        --timing sync or partial)
`,
		Example: model.Config{N: 3, Timing: model.Sync, Delay: 2},
		Bind:    func(fs *flag.FlagSet, g *Given) { flagval.IntVarIn(fs, &g.Config.Delay, "delay", 0, 1, model.MaxTicks) },
		Arg: func(c model.Config, _ bool) (string, bool) {
			return strconv.Itoa(c.Delay), c.Delay != 0 && c.Delay != 1
		},
	},
	{
		Field: "Timeout", Flag: "timeout", API: "Timeout", Trace: "timeout",
		Doc:  `Timeout is the T that timers' Durations read (default 2D+1).`,
		Docs: "| `--timeout T`, `--timeout-coord T2` | Bully's T (the wait for an OK) and T' (the wait for a COORDINATOR after an OK) in ticks (defaults 2D+1 and 2T+2D); only with `--timing sync` or `partial`, and for algorithms with timers |\n| `--timeout auto` | for an algorithm with timers in a timed mode: check at T = 1, 2, 3, ... (T2 at its default, or as given) until every property holds, then T2 = 1, 2, ... at that T; report the smallest values and the counterexample at the largest that fails (exit 0 when found, 1 when no T that fits the state encoding holds, 2 when the search did not finish); budgets as with `--max-queue auto` |\n",
		Usage: `  --timeout T           Bully's T, the wait for an OK, in ticks (default 2D+1;
                        with --timing sync or partial, for algorithms with
                        timers); auto: check at T = 1, 2, 3, ... (T2 at its
                        default) until every property holds, then T2 = 1,
                        2, ... at that T, within --time-limit and --memory,
                        and report the smallest values and the
                        counterexample of the largest that fails
`,
		Example: model.Config{N: 3, Timing: model.Sync, Timeout: 5},
		Bind: func(fs *flag.FlagSet, g *Given) {
			fs.Var(orAuto{k: &g.Config.Timeout, auto: &g.AutoTimeout, dflt: "2D+1", most: model.MaxTicks,
				use: "use 1 tick or more, or auto to search for the smallest T at which every property holds"}, "timeout", "")
		},
		Arg: func(c model.Config, _ bool) (string, bool) {
			return strconv.Itoa(c.Timeout), c.Timeout != 0 && c.Timeout != 2*c.Delay+1
		},
	},
	{
		Field: "TimeoutCoord", Flag: "timeout-coord", API: "TimeoutCoord", Trace: "timeout_coord",
		Doc: `TimeoutCoord is the T2 (T') that timers' Durations read (default 2T+2D).`,
		Usage: `  --timeout-coord T2    Bully's T', the wait for a COORDINATOR after an OK, in
                        ticks (default 2T+2D; likewise)
`,
		Example: model.Config{N: 3, Timing: model.Sync, TimeoutCoord: 4},
		Bind: func(fs *flag.FlagSet, g *Given) {
			flagval.IntVarIn(fs, &g.Config.TimeoutCoord, "timeout-coord", 0, 1, model.MaxTicks)
		},
		Arg: func(c model.Config, _ bool) (string, bool) {
			return strconv.Itoa(c.TimeoutCoord), c.TimeoutCoord != 0 && c.TimeoutCoord != 2*c.Timeout+2*c.Delay
		},
	},
	{
		Field: "Params", Flag: "param", API: "Params", Trace: "params",
		Doc:  `Params sets the algorithm's parameters (model.Parameterized) by name, as mcheck --param NAME=V: map[string]int{"H": 2, "L": 5}; one not named takes its default, and a name the algorithm does not declare or a value out of its range fails the test.`,
		Docs: "| `--param NAME=V` | the algorithm's parameter NAME (`model.Parameterized`: named integers with a default and a range, such as a heartbeat period H and a lease L), part of the configuration (traces keep it, `replay` uses it); repeatable, or several as `H=2,L=5`; a name the algorithm does not declare or a value out of its range is refused (exit 2), listing its parameters. Bully's T and T2 are its parameters `T` and `T2`: `--param T=5` is `--timeout 5`. `--param NAME=auto` checks NAME at its least value, the next, ... up to its largest, until every property holds, within `--time-limit` and `--memory`, and reports the smallest value, the parameter searched, and the counterexample of the largest value that fails (`T=auto` is `--timeout auto`); not with `--max-queue auto`, `--timeout auto`, `--complexity`, `--bitstate` or `--simulate` |\n",
		Usage: `  --param NAME=V        set the algorithm's parameter NAME (repeatable, or
                        H=2,L=5); bully's T and T2 are --timeout and
                        --timeout-coord; NAME=auto: check at V = its least
                        value, then the next, ... until every property
                        holds (as --timeout auto), and report the smallest
`,
		Example: model.Config{N: 3, Timing: model.Sync, Params: map[string]int{"T": 5}},
		Bind:    func(fs *flag.FlagSet, g *Given) { fs.Var(paramFlag{g}, "param", "") },
		Arg: func(c model.Config, _ bool) (string, bool) {
			return ParamsArg(c.Params), len(c.Params) > 0
		},
	},
	{
		Field: "Channels", Flag: "channels", API: "Channels", Trace: "channels",
		Doc:  `Channels is model.FIFO (the zero value) or model.Unordered (multisets: a delivery takes any message in the channel).`,
		Docs: "| `--channels fifo\\|unordered` | fifo (default): each channel delivers its messages in the order they were sent; unordered: a channel is a multiset, and a delivery takes any message in it ([semantics.md](semantics.md) section 1, Channels) |\n",
		Usage: `  --channels C          fifo (default: each channel delivers in the order
                        sent) or unordered (a channel is a multiset: a
                        delivery takes any message in it)
`,
		Example: model.Config{N: 3, Channels: model.Unordered},
		Bind: func(fs *flag.FlagSet, g *Given) {
			fs.Var(enumFlag[model.Channels]{&g.Config.Channels, model.ParseChannels, "use fifo or unordered"}, "channels", "")
		},
		Arg: func(c model.Config, _ bool) (string, bool) {
			return c.Channels.String(), c.Channels != model.FIFO
		},
	},
}

// traceOrder is the order of the keys of a trace file's "config" in the
// format mcheck-trace/2, fixed with its first options: the files in use
// keep it byte for byte. The fields of mchecktest.Config follow it too.
var traceOrder = []string{
	"n", "ids", "crashes", "restarts", "detector", "initiators", "down", "initial_leader", "max_queue",
	"anonymous", "perm", "timing", "delay", "timeout", "timeout_coord", "params", "channels",
	"false_suspicions", "heartbeat_period", "heartbeat_timeout",
}

// InTraceOrder is t's rows in the order of a trace file's keys: the keys
// of traceOrder first, then any other row in t's order, so that a new row
// goes at the end.
func (t Table) InTraceOrder() Table {
	rank := func(o Option) int {
		if i := slices.Index(traceOrder, o.Trace); i >= 0 {
			return i
		}
		return len(traceOrder)
	}
	rows := slices.Clone(t)
	slices.SortStableFunc(rows, func(a, b Option) int { return rank(a) - rank(b) })
	return rows
}

func intArg(field func(model.Config) int) func(model.Config, bool) (string, bool) {
	return func(c model.Config, _ bool) (string, bool) { return strconv.Itoa(field(c)), field(c) != 0 }
}

func boolArg(field func(model.Config) bool) func(model.Config, bool) (string, bool) {
	return func(c model.Config, _ bool) (string, bool) { return "true", field(c) }
}

// Lookup is the row of model.Config's field, or false.
func Lookup(field string) (Option, bool) { return Options.Lookup(field) }

// Lookup is t's row of the field, or false.
func (t Table) Lookup(field string) (Option, bool) {
	i := slices.IndexFunc(t, func(o Option) bool { return o.Field == field })
	if i < 0 {
		return Option{}, false
	}
	return t[i], true
}

// FlagName names model.Config's field by its flag, for the model's
// validation messages (model.Config.ValidateNamed): "--crashes".
func FlagName(field string) string {
	o, ok := Lookup(field)
	switch {
	case !ok:
		return ""
	case o.Named != "":
		return o.Named
	}
	return "--" + o.Flag
}

// APIName names model.Config's field by mchecktest.Config's field:
// "Config.Crashes".
func APIName(field string) string {
	if o, ok := Lookup(field); ok {
		return "Config." + o.API
	}
	return ""
}

// Flags are the model's flags, shorthands included, in the table's order.
func Flags() []string { return Options.Flags() }

// Flags are t's flags, shorthands included, in t's order.
func (t Table) Flags() []string {
	var names []string
	for _, o := range t {
		for _, f := range []string{o.Flag, o.Shorthand} {
			if f != "" && !slices.Contains(names, f) {
				names = append(names, f)
			}
		}
	}
	return names
}

// Usage is the Model section of mcheck --help: the options' lines.
func Usage() string { return Options.Usage() }

// Usage is t's lines of usage text.
func (t Table) Usage() string {
	var b strings.Builder
	for _, o := range t {
		b.WriteString(o.Usage)
	}
	return b.String()
}

// Given is a model configuration as a front end gives it, before the
// defaults and rules that depend on the algorithm and on N.
type Given struct {
	Config model.Config
	// CrashAny means MaxCrashes N-1 (--crash-any).
	CrashAny bool
	// InitialLeader, when set, overrides the algorithm's default.
	InitialLeader OptBool
	// AutoQueue is --max-queue auto (the command line's bound deepening).
	AutoQueue bool
	// AutoTimeout is --timeout auto (the command line's search for the
	// smallest timeouts that hold); Config.Timeout is then 0.
	AutoTimeout bool
	// AutoParam is the parameter of --param NAME=auto (the command line's
	// search for its smallest value that holds), or "".
	AutoParam string
}

// ResolveParams reads the parameters given (--param) against those the
// algorithm declares (model.ResolveParams): T=5 of bully is --timeout 5,
// T=auto --timeout auto; an unknown NAME=auto is refused, listing them.
func (g *Given) ResolveParams(params []model.Param, name func(field string) string) error {
	if a := g.AutoParam; a != "" {
		i := slices.IndexFunc(params, func(p model.Param) bool { return p.Name == a })
		switch {
		case i < 0:
			return fmt.Errorf("%s %s=auto: the algorithm has no parameter %s; %s", name("Params"), a, a, paramsWords(params))
		case params[i].Field == "Timeout":
			g.AutoTimeout, g.AutoParam = true, ""
		case params[i].Field != "":
			return fmt.Errorf("%s %s=auto: %s is searched with the timeout it depends on: give %s=auto", name("Params"), a, a, params[slices.IndexFunc(params, func(p model.Param) bool { return p.Field == "Timeout" })].Name)
		}
	}
	c, err := model.ResolveParams(params, g.Config, name)
	if err != nil {
		return err
	}
	g.Config = c
	return nil
}

func paramsWords(params []model.Param) string {
	if len(params) == 0 {
		return "the algorithm declares no parameters"
	}
	return "its parameters are " + model.ParamsList(params)
}

// ParamsArg writes parameters as --param's argument, by name: "H=2,L=5".
func ParamsArg(params map[string]int) string {
	names := make([]string, 0, len(params))
	for n := range params {
		names = append(names, n)
	}
	slices.Sort(names)
	for i, n := range names {
		names[i] = n + "=" + strconv.Itoa(params[n])
	}
	return strings.Join(names, ",")
}

// Bind defines the model's flags on fs, writing into g.
func (g *Given) Bind(fs *flag.FlagSet) { Options.Bind(fs, g) }

// Bind defines t's flags on fs, writing into g.
func (t Table) Bind(fs *flag.FlagSet, g *Given) {
	for _, o := range t {
		if o.Bind != nil {
			o.Bind(fs, g)
		}
	}
}

// Resolve applies the defaults and the rules between options: N is 3 or
// the number of IDs unless set (set reports whether a field was given),
// CrashAny is MaxCrashes N-1, InitialLeader defaults to initialLeader; the
// result is validated. Errors name the fields by name (FlagName, APIName).
// MaxQueue must be 0 (the default, 2N) or more.
func (g Given) Resolve(set func(field string) bool, name func(field string) string, initialLeader bool) (model.Config, error) {
	c := g.Config
	if c.N == 0 && !set("N") {
		c.N = 3
		if c.IDs != nil {
			c.N = len(c.IDs)
		}
	}
	if c.N < 2 || c.N > model.MaxN {
		return c, model.Config{N: c.N}.ValidateNamed(name) // says N is out of range
	}
	if g.CrashAny {
		if set("MaxCrashes") && c.MaxCrashes != c.N-1 {
			return c, fmt.Errorf("%s means %s %d for %s %d: give only one of them", shorthandName(name), name("MaxCrashes"), c.N-1, name("N"), c.N)
		}
		c.MaxCrashes = c.N - 1
	}
	// A duration of 0 ticks given: 0 is the model's "default", not a
	// duration.
	for _, f := range []string{"Delay", "Timeout", "TimeoutCoord"} {
		if set(f) && reflect.ValueOf(c).FieldByName(f).Int() == 0 && !(f == "Timeout" && g.AutoTimeout) {
			return c, fmt.Errorf("%s 0 is out of range: give 1 tick or more", name(f))
		}
	}
	if g.AutoTimeout && !c.Timed() {
		return c, fmt.Errorf("%s auto needs %s sync or partial: the asynchronous model (%s async, the default) has no clocks", name("Timeout"), name("Timing"), name("Timing"))
	}
	c.InitialLeader = initialLeader
	if g.InitialLeader.Given {
		c.InitialLeader = g.InitialLeader.Value
	}
	err := c.WithDefaults().ValidateNamed(name)
	if fe := (*model.FieldError)(nil); errors.As(err, &fe) && fe.Field == "MaxCrashes" {
		return c, fmt.Errorf("%w (%s means %s %d; see docs/model.md)", err, shorthandName(name), name("MaxCrashes"), c.N-1)
	}
	return c, err
}

// shorthandName names MaxCrashes' shorthand the way name names fields.
func shorthandName(name func(string) string) string {
	o, _ := Lookup("MaxCrashes")
	if strings.HasPrefix(name("MaxCrashes"), "--") {
		return "--" + o.Shorthand
	}
	return "Config." + o.ShorthandAPI
}

// Query writes c as an explorer URL's parameters, the algorithm under
// "algo": every option that differs from its default, as its flag's
// argument; initialLeader is the algorithm's default InitialLeader.
func Query(algo string, c model.Config, initialLeader bool) url.Values {
	return Options.Query(algo, c, initialLeader)
}

// Query writes c as an explorer URL's parameters by t's rows.
func (t Table) Query(algo string, c model.Config, initialLeader bool) url.Values {
	c = c.WithDefaults()
	q := url.Values{"algo": {algo}}
	for _, o := range t {
		if v, ok := o.Arg(c, initialLeader); ok {
			q.Set(o.Flag, v)
		}
	}
	return q
}

// Args writes c as command-line flags (those that differ from the
// defaults), the inverse of parsing them with Given.Bind and Resolve.
func Args(c model.Config, initialLeader bool) []string { return Options.Args(c, initialLeader) }

// Args writes c as command-line flags by t's rows.
func (t Table) Args(c model.Config, initialLeader bool) []string {
	c = c.WithDefaults()
	var args []string
	for _, o := range t {
		if v, ok := o.Arg(c, initialLeader); ok {
			args = append(args, "--"+o.Flag+"="+v)
		}
	}
	return args
}

// Fields are model.Config's field names, in order: what the table must
// cover.
func Fields() []string {
	t := reflect.TypeFor[model.Config]()
	names := make([]string, t.NumField())
	for i := range names {
		names[i] = t.Field(i).Name
	}
	return names
}
