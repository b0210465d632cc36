// Package modelopt is the one table of the model's options: for each field
// of model.Config, the flag that sets it on the command line (also its key
// in an explorer URL), its field in mchecktest.Config, its key in a trace
// file, its lines in mcheck --help, how it is written back as a flag's
// argument, and an example value.
//
// model defines, defaults and validates the options, naming them by its
// own field names, and speaks no flag. The names people give them belong
// to the front ends, and two front ends share them: the command line with
// its explorer (package cli) and the test helper (package mchecktest). So
// the names live here, between model and both, instead of in either.
// Derived from the table: the flag set's model flags, the Model section of
// the usage text, the names in validation errors (FlagName, APIName), the
// cross-option rules (Given.Resolve), and the explorer URL (Query). Tested
// against it: trace.Config, mchecktest.Config and the flag table of docs/cli.md.
package modelopt

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

// Option is one row of the table: one field of model.Config.
type Option struct {
	// Field is model.Config's field.
	Field string
	// Flag is the command-line flag that sets it, without "--"; it is also
	// the option's key in an explorer URL. Perm shares IDs' flag (--ids
	// perm).
	Flag string
	// Shorthand is another flag for the same field, set from other options
	// (--crash-any is --crashes N-1); ShorthandAPI is its mchecktest name.
	Shorthand, ShorthandAPI string
	// API is mchecktest.Config's field.
	API string
	// Trace is the field's key in a trace file's "config" (trace.Config).
	Trace string
	// Usage is its lines in the Model section of mcheck --help.
	Usage string
	// Example is a valid configuration of three processes in which the
	// field differs from its default (Base), for tests and docs.
	Example model.Config

	// named is how the command line names the field when not "--"+Flag.
	named string
	// bind defines the field's flags on fs, writing into g; nil when
	// another option's flag sets it.
	bind func(fs *flag.FlagSet, g *Given)
	// arg is the field of c (defaults filled in) as its flag's argument,
	// and whether it differs from the default, where initialLeader is the
	// algorithm's default InitialLeader.
	arg func(c model.Config, initialLeader bool) (string, bool)
}

// Base is the configuration the examples differ from: three processes and
// every other option at its default.
func Base() model.Config { return model.Config{N: 3}.WithDefaults() }

// Options is the table, in the order of mcheck --help.
var Options = []Option{
	{
		Field: "N", Flag: "n", API: "N", Trace: "n",
		Usage: fmt.Sprintf(`  --n N                 processes, 2..%d (default 3, or the number of --ids)
`, model.MaxN),
		Example: model.Config{N: 4},
		bind:    func(fs *flag.FlagSet, g *Given) { flagval.IntVarIn(fs, &g.Config.N, "n", 0, 2, model.MaxN) },
		arg: func(c model.Config, _ bool) (string, bool) {
			return strconv.Itoa(c.N), true // always written: the other defaults depend on it
		},
	},
	{
		Field: "IDs", Flag: "ids", API: "IDs", Trace: "ids",
		Usage: `  --ids 3,9,4,8         the processes' IDs in ring order (default 1..N);
                        --ids perm: every arrangement of 1..N, as separate
                        initial states of one search (N <= 8)
`,
		Example: model.Config{N: 3, IDs: []int{3, 9, 4}},
		bind: func(fs *flag.FlagSet, g *Given) {
			fs.Var(idList{ids: &g.Config.IDs, perm: &g.Config.Perm}, "ids", "")
		},
		arg: func(c model.Config, _ bool) (string, bool) {
			if c.Perm || slices.Equal(c.IDs, model.Config{N: c.N}.WithDefaults().IDs) {
				return "", false
			}
			return model.IDList(c.IDs), true
		},
	},
	{
		Field: "Perm", Flag: "ids", named: "--ids perm", API: "Perm", Trace: "perm",
		Example: model.Config{N: 3, Perm: true},
		arg: func(c model.Config, _ bool) (string, bool) {
			return "perm", c.Perm
		},
	},
	{
		Field: "Anonymous", Flag: "anonymous", API: "Anonymous", Trace: "anonymous",
		Usage: `  --anonymous           allow duplicate IDs (--ids 1,1,1); an ID in --initiators
                        or --down names every process carrying it
`,
		Example: model.Config{N: 3, IDs: []int{1, 2, 2}, Anonymous: true},
		bind:    func(fs *flag.FlagSet, g *Given) { flagval.BoolVar(fs, &g.Config.Anonymous, "anonymous", false) },
		arg:     boolArg(func(c model.Config) bool { return c.Anonymous }),
	},
	{
		Field: "MaxCrashes", Flag: "crashes", API: "Crashes", Trace: "crashes",
		Shorthand: "crash-any", ShorthandAPI: "CrashAny",
		Usage: `  --crashes K           up to K crashes in a run (default 0)
  --crash-any           any process may crash at any step, one stays live (--crashes N-1)
`,
		Example: model.Config{N: 3, MaxCrashes: 1},
		bind: func(fs *flag.FlagSet, g *Given) {
			flagval.IntVarIn(fs, &g.Config.MaxCrashes, "crashes", 0, 0, 255)
			flagval.BoolVar(fs, &g.CrashAny, "crash-any", false)
		},
		arg: intArg(func(c model.Config) int { return c.MaxCrashes }),
	},
	{
		Field: "MaxRestarts", Flag: "restarts", API: "Restarts", Trace: "restarts",
		Usage: `  --restarts R          up to R restarts of crashed processes (default 0)
`,
		Example: model.Config{N: 3, MaxCrashes: 1, MaxRestarts: 1},
		bind:    func(fs *flag.FlagSet, g *Given) { flagval.IntVarIn(fs, &g.Config.MaxRestarts, "restarts", 0, 0, 255) },
		arg:     intArg(func(c model.Config) int { return c.MaxRestarts }),
	},
	{
		Field: "Detector", Flag: "detector", API: "Detector", Trace: "detector",
		Usage: `  --detector D          perfect, incomplete (the leader's crash may never be
                        noticed), unreliable, eventual (false suspicions
                        before gst only; needs --timing partial), or heartbeat
                        (suspects a process not heard from for a timeout;
                        needs --timing sync or partial) (default perfect)
`,
		Example: model.Config{N: 3, Detector: model.Unreliable},
		bind: func(fs *flag.FlagSet, g *Given) {
			fs.Var(enumFlag[model.Detector]{&g.Config.Detector, model.ParseDetector, "use perfect, incomplete, unreliable, eventual or heartbeat"}, "detector", "")
		},
		arg: func(c model.Config, _ bool) (string, bool) {
			return c.Detector.String(), c.Detector != model.Perfect
		},
	},
	{
		Field: "FalseSuspicions", Flag: "false-suspicions", API: "FalseSuspicions", Trace: "false_suspicions",
		Usage: `  --false-suspicions K  with --detector eventual: up to K false suspicions
                        before gst (default 1)
`,
		Example: model.Config{N: 3, Timing: model.Partial, Detector: model.Eventual, FalseSuspicions: 2},
		bind: func(fs *flag.FlagSet, g *Given) {
			flagval.IntVarIn(fs, &g.Config.FalseSuspicions, "false-suspicions", 0, 1, model.MaxFalseSuspicions)
		},
		arg: func(c model.Config, _ bool) (string, bool) {
			return strconv.Itoa(c.FalseSuspicions), c.FalseSuspicions > 1
		},
	},
	{
		Field: "HeartbeatPeriod", Flag: "heartbeat-period", API: "HeartbeatPeriod", Trace: "heartbeat_period",
		Usage: `  --heartbeat-period P  with --detector heartbeat: every live process sends
                        a heartbeat at least every P ticks (default 1)
`,
		Example: model.Config{N: 3, Timing: model.Sync, Detector: model.Heartbeat, HeartbeatPeriod: 2},
		bind: func(fs *flag.FlagSet, g *Given) {
			flagval.IntVarIn(fs, &g.Config.HeartbeatPeriod, "heartbeat-period", 0, 1, model.MaxHeartbeat)
		},
		arg: func(c model.Config, _ bool) (string, bool) {
			return strconv.Itoa(c.HeartbeatPeriod), c.HeartbeatPeriod > 1
		},
	},
	{
		Field: "HeartbeatTimeout", Flag: "heartbeat-timeout", API: "HeartbeatTimeout", Trace: "heartbeat_timeout",
		Usage: `  --heartbeat-timeout TO  with --detector heartbeat: suspect a process not
                        heard from for TO ticks (default P+D, the least that
                        never suspects a live process once in sync)
`,
		Example: model.Config{N: 3, Timing: model.Sync, Detector: model.Heartbeat, HeartbeatTimeout: 1},
		bind: func(fs *flag.FlagSet, g *Given) {
			flagval.IntVarIn(fs, &g.Config.HeartbeatTimeout, "heartbeat-timeout", 0, 1, model.MaxHeartbeat)
		},
		arg: func(c model.Config, _ bool) (string, bool) {
			return strconv.Itoa(c.HeartbeatTimeout), c.HeartbeatTimeout != 0 && c.HeartbeatTimeout != c.HeartbeatPeriod+c.Delay
		},
	},
	{
		Field: "Initiators", Flag: "initiators", API: "Initiators", Trace: "initiators",
		Usage: `  --initiators 3,9      only these IDs initiate/detect/suspect (default all)
`,
		Example: model.Config{N: 3, Initiators: []int{2}},
		bind:    func(fs *flag.FlagSet, g *Given) { fs.Var(idList{ids: &g.Config.Initiators}, "initiators", "") },
		arg: func(c model.Config, _ bool) (string, bool) {
			return model.IDList(c.Initiators), c.Initiators != nil
		},
	},
	{
		Field: "Down", Flag: "down", API: "Down", Trace: "down",
		Usage: `  --down 4              these IDs are crashed from the start
`,
		Example: model.Config{N: 3, Down: []int{1}},
		bind:    func(fs *flag.FlagSet, g *Given) { fs.Var(idList{ids: &g.Config.Down}, "down", "") },
		arg: func(c model.Config, _ bool) (string, bool) {
			return model.IDList(c.Down), len(c.Down) > 0
		},
	},
	{
		Field: "InitialLeader", Flag: "initial-leader", API: "InitialLeader", Trace: "initial_leader",
		Usage: `  --initial-leader      start as if the largest ID had just been elected
                        (default on for bully, off for the ring algorithms;
                        --initial-leader=false turns it off)
`,
		Example: model.Config{N: 3, InitialLeader: true},
		bind:    func(fs *flag.FlagSet, g *Given) { fs.Var(&g.InitialLeader, "initial-leader", "") },
		arg: func(c model.Config, initialLeader bool) (string, bool) {
			return strconv.FormatBool(c.InitialLeader), c.InitialLeader != initialLeader
		},
	},
	{
		Field: "MaxQueue", Flag: "max-queue", API: "MaxQueue", Trace: "max_queue",
		Usage: `  --max-queue K         at most K messages per channel (default 2N); steps
                        beyond it are discarded and counted; auto: check at
                        bound 1, 2, 3, ... until a bound does not finish
                        within --time-limit and --memory, and report the
                        verdicts of the largest bound that finished (or of a
                        violation, at the bound where it was found)
`,
		Example: model.Config{N: 3, MaxQueue: 2},
		bind: func(fs *flag.FlagSet, g *Given) {
			g.Config.MaxQueue = -1 // not given: the model's default
			fs.Var(orAuto{k: &g.Config.MaxQueue, auto: &g.AutoQueue, unset: -1, dflt: "2N", most: 255,
				use: "use 1 or more, or auto to deepen the bound within --time-limit and --memory"}, "max-queue", "")
		},
		arg: func(c model.Config, _ bool) (string, bool) {
			return strconv.Itoa(c.MaxQueue), c.MaxQueue != 2*c.N
		},
	},
	{
		Field: "Timing", Flag: "timing", API: "Timing", Trace: "timing",
		Usage: `  --timing M            async (default: no clocks), sync (discrete time: every
                        message arrives 1 to D ticks after it was sent, and
                        timers are real) or partial (sync once a gst step
                        has come; before it messages may be late)
`,
		Example: model.Config{N: 3, Timing: model.Sync},
		bind: func(fs *flag.FlagSet, g *Given) {
			fs.Var(enumFlag[model.Timing]{&g.Config.Timing, model.ParseTiming, "use async, sync or partial"}, "timing", "")
		},
		arg: func(c model.Config, _ bool) (string, bool) {
			return c.Timing.String(), c.Timing != model.Async
		},
	},
	{
		Field: "Delay", Flag: "delay", API: "Delay", Trace: "delay",
		Usage: `  --delay D             the worst one-way latency in ticks (default 1; with
                        --timing sync or partial)
`,
		Example: model.Config{N: 3, Timing: model.Sync, Delay: 2},
		bind:    func(fs *flag.FlagSet, g *Given) { flagval.IntVarIn(fs, &g.Config.Delay, "delay", 0, 1, model.MaxTicks) },
		arg: func(c model.Config, _ bool) (string, bool) {
			return strconv.Itoa(c.Delay), c.Delay != 0 && c.Delay != 1
		},
	},
	{
		Field: "Timeout", Flag: "timeout", API: "Timeout", Trace: "timeout",
		Usage: `  --timeout T           Bully's T, the wait for an OK, in ticks (default 2D+1;
                        with --timing sync or partial, for algorithms with
                        timers); auto: check at T = 1, 2, 3, ... (T2 at its
                        default) until every property holds, then T2 = 1,
                        2, ... at that T, within --time-limit and --memory,
                        and report the smallest values and the
                        counterexample of the largest that fails
`,
		Example: model.Config{N: 3, Timing: model.Sync, Timeout: 5},
		bind: func(fs *flag.FlagSet, g *Given) {
			fs.Var(orAuto{k: &g.Config.Timeout, auto: &g.AutoTimeout, dflt: "2D+1", most: model.MaxTicks,
				use: "use 1 tick or more, or auto to search for the smallest T at which every property holds"}, "timeout", "")
		},
		arg: func(c model.Config, _ bool) (string, bool) {
			return strconv.Itoa(c.Timeout), c.Timeout != 0 && c.Timeout != 2*c.Delay+1
		},
	},
	{
		Field: "TimeoutCoord", Flag: "timeout-coord", API: "TimeoutCoord", Trace: "timeout_coord",
		Usage: `  --timeout-coord T2    Bully's T', the wait for a COORDINATOR after an OK, in
                        ticks (default 2T+2D; likewise)
`,
		Example: model.Config{N: 3, Timing: model.Sync, TimeoutCoord: 4},
		bind: func(fs *flag.FlagSet, g *Given) {
			flagval.IntVarIn(fs, &g.Config.TimeoutCoord, "timeout-coord", 0, 1, model.MaxTicks)
		},
		arg: func(c model.Config, _ bool) (string, bool) {
			return strconv.Itoa(c.TimeoutCoord), c.TimeoutCoord != 0 && c.TimeoutCoord != 2*c.Timeout+2*c.Delay
		},
	},
	{
		Field: "Params", Flag: "param", API: "Params", Trace: "params",
		Usage: `  --param NAME=V        set the algorithm's parameter NAME (repeatable, or
                        H=2,L=5); bully's T and T2 are --timeout and
                        --timeout-coord; NAME=auto: check at V = its least
                        value, then the next, ... until every property
                        holds (as --timeout auto), and report the smallest
`,
		Example: model.Config{N: 3, Timing: model.Sync, Params: map[string]int{"T": 5}},
		bind:    func(fs *flag.FlagSet, g *Given) { fs.Var(paramFlag{g}, "param", "") },
		arg: func(c model.Config, _ bool) (string, bool) {
			return ParamsArg(c.Params), len(c.Params) > 0
		},
	},
	{
		Field: "Channels", Flag: "channels", API: "Channels", Trace: "channels",
		Usage: `  --channels C          fifo (default: each channel delivers in the order
                        sent) or unordered (a channel is a multiset: a
                        delivery takes any message in it)
`,
		Example: model.Config{N: 3, Channels: model.Unordered},
		bind: func(fs *flag.FlagSet, g *Given) {
			fs.Var(enumFlag[model.Channels]{&g.Config.Channels, model.ParseChannels, "use fifo or unordered"}, "channels", "")
		},
		arg: func(c model.Config, _ bool) (string, bool) {
			return c.Channels.String(), c.Channels != model.FIFO
		},
	},
}

func intArg(field func(model.Config) int) func(model.Config, bool) (string, bool) {
	return func(c model.Config, _ bool) (string, bool) { return strconv.Itoa(field(c)), field(c) != 0 }
}

func boolArg(field func(model.Config) bool) func(model.Config, bool) (string, bool) {
	return func(c model.Config, _ bool) (string, bool) { return "true", field(c) }
}

// Lookup is the row of model.Config's field, or false.
func Lookup(field string) (Option, bool) {
	i := slices.IndexFunc(Options, func(o Option) bool { return o.Field == field })
	if i < 0 {
		return Option{}, false
	}
	return Options[i], true
}

// FlagName names model.Config's field by its flag, for the model's
// validation messages (model.Config.ValidateNamed): "--crashes".
func FlagName(field string) string {
	o, ok := Lookup(field)
	switch {
	case !ok:
		return ""
	case o.named != "":
		return o.named
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
func Flags() []string {
	var names []string
	for _, o := range Options {
		for _, f := range []string{o.Flag, o.Shorthand} {
			if f != "" && !slices.Contains(names, f) {
				names = append(names, f)
			}
		}
	}
	return names
}

// Usage is the Model section of mcheck --help: the options' lines.
func Usage() string {
	var b strings.Builder
	for _, o := range Options {
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
func (g *Given) Bind(fs *flag.FlagSet) {
	for _, o := range Options {
		if o.bind != nil {
			o.bind(fs, g)
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
	c = c.WithDefaults()
	q := url.Values{"algo": {algo}}
	for _, o := range Options {
		if v, ok := o.arg(c, initialLeader); ok {
			q.Set(o.Flag, v)
		}
	}
	return q
}

// Args writes c as command-line flags (those that differ from the
// defaults), the inverse of parsing them with Given.Bind and Resolve.
func Args(c model.Config, initialLeader bool) []string {
	c = c.WithDefaults()
	var args []string
	for _, o := range Options {
		if v, ok := o.arg(c, initialLeader); ok {
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
