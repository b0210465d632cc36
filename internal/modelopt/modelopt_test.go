package modelopt

import (
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/mcheck/mcheck/internal/golden" // -update is accepted by every test binary
	"github.com/mcheck/mcheck/model"
)

// Every field of model.Config has exactly one row: a field added to the
// model without a row fails here, and the tests of the front ends iterate
// over the rows.
func TestTableCoversEveryConfigField(t *testing.T) {
	var rows []string
	for _, o := range Options {
		rows = append(rows, o.Field)
	}
	assert.ElementsMatch(t, Fields(), rows, "one row per model.Config field")
	for _, o := range Options {
		assert.NotEmpty(t, o.Flag, o.Field)
		assert.NotEmpty(t, o.API, o.Field)
		assert.NotEmpty(t, o.Trace, o.Field)
		assert.NotNil(t, o.Arg, o.Field)
		assert.True(t, o.Bind != nil || o.Named != "", "%s: a flag of its own, or a name through another's", o.Field)
		assert.NotEmpty(t, o.Doc, "%s: mchecktest.Config's comment", o.Field)
	}
}

// Each row of docs/cli.md names its own flag, and a row without one is
// named in another's: every flag of the table has its line in the docs.
func TestDocsRowsNameEveryFlag(t *testing.T) {
	var docs string
	for _, o := range Options {
		docs += o.Docs
		if o.Docs != "" {
			assert.Contains(t, o.Docs, "`--"+o.Flag, o.Field)
			assert.Regexp(t, "^(\\| `--[^\n]*\\|\n)+$", o.Docs, "%s: whole rows of a table", o.Field)
		}
	}
	for _, o := range Options {
		assert.Contains(t, docs, "`"+FlagName(o.Field), o.Field)
		if o.Shorthand != "" {
			assert.Contains(t, docs, "`--"+o.Shorthand+"`", o.Field)
		}
	}
}

// A trace file keeps the order of the format's first keys, and a row
// added later goes after them.
func TestInTraceOrder(t *testing.T) {
	var keys []string
	for _, o := range Options.InTraceOrder() {
		keys = append(keys, o.Trace)
	}
	assert.Equal(t, traceOrder, keys[:len(traceOrder)], "the format's first keys, in their order")
	tab := append(Table{{Field: "Jitter", Trace: "jitter"}}, Options...)
	rows := tab.InTraceOrder()
	assert.Equal(t, "jitter", rows[len(rows)-1].Trace)
	assert.Equal(t, "n", rows[0].Trace)
}

// field is model.Config's field named name in c.
func field(c model.Config, name string) any {
	return reflect.ValueOf(c).FieldByName(name).Interface()
}

// Each example sets its field to something else than the default, and is
// valid, so the round trips of the front ends test every field.
func TestExamplesSetTheirField(t *testing.T) {
	for _, o := range Options {
		ex := o.Example.WithDefaults()
		assert.NotEqual(t, field(Base(), o.Field), field(ex, o.Field), o.Field)
		assert.NoError(t, ex.Validate(), o.Field)
	}
}

// parse reads args as the model's flags and resolves them.
func parse(t *testing.T, args []string, initialLeader bool) (model.Config, error) {
	var g Given
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	g.Bind(fs)
	require.NoError(t, fs.Parse(args))
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if g.Config.MaxQueue < 0 {
		g.Config.MaxQueue = 0
	}
	return g.Resolve(func(field string) bool { o, _ := Lookup(field); return given[o.Flag] }, FlagName, initialLeader)
}

// Config -> flags -> Config keeps every field, for either default of
// InitialLeader.
func TestArgsRoundTrip(t *testing.T) {
	for _, o := range Options {
		for _, initialLeader := range []bool{false, true} {
			args := Args(o.Example, initialLeader)
			back, err := parse(t, args, initialLeader)
			require.NoError(t, err, "%s: %v", o.Field, args)
			assert.Equal(t, o.Example.WithDefaults(), back.WithDefaults(), "%s: %v", o.Field, args)
		}
	}
}

func TestQueryNamesEveryChangedField(t *testing.T) {
	q := Query("ring", model.Config{N: 3, IDs: []int{1, 2, 2}, Anonymous: true}, false)
	assert.Equal(t, "algo=ring&anonymous=true&ids=1%2C2%2C2&n=3", q.Encode())
	q = Query("ring", model.Config{N: 4, Perm: true, MaxQueue: 8}, false)
	assert.Equal(t, "algo=ring&ids=perm&n=4", q.Encode(), "2N is the default bound")
	q = Query("bully", model.Config{N: 3}, true)
	assert.Equal(t, "algo=bully&initial-leader=false&n=3", q.Encode())
}

// The rules between options speak each front end's names.
func TestResolveNamesTheFrontEndsOptions(t *testing.T) {
	crashAny := Given{Config: model.Config{N: 3, MaxCrashes: 1}, CrashAny: true}
	set := func(f string) bool { return f == "MaxCrashes" }
	_, err := crashAny.Resolve(set, FlagName, false)
	assert.EqualError(t, err, "--crash-any means --crashes 2 for --n 3: give only one of them")
	_, err = crashAny.Resolve(set, APIName, false)
	assert.EqualError(t, err, "Config.CrashAny means Config.Crashes 2 for Config.N 3: give only one of them")

	tooMany := Given{Config: model.Config{N: 3, MaxCrashes: 5}}
	_, err = tooMany.Resolve(set, APIName, false)
	assert.EqualError(t, err, "Config.Crashes 5 can never happen with Config.N 3 and Config.Restarts 0: one process always stays live, so at most 2 crashes (N-1, plus one per restart) can happen (Config.CrashAny means Config.Crashes 2; see docs/model.md)")

	_, err = Given{Config: model.Config{N: 40}}.Resolve(set, FlagName, false)
	assert.EqualError(t, err, "--n 40 is out of range: use 2 to 16 processes")
	_, err = Given{Config: model.Config{IDs: []int{1, 1}, Perm: true}}.Resolve(set, FlagName, false)
	assert.EqualError(t, err, "--ids: ID 1 appears twice: IDs must be unique (or allow duplicates with --anonymous)")

	c, err := Given{Config: model.Config{IDs: []int{5, 6, 7, 8}}, CrashAny: true}.Resolve(func(string) bool { return false }, FlagName, true)
	require.NoError(t, err)
	assert.Equal(t, model.Config{N: 4, IDs: []int{5, 6, 7, 8}, MaxCrashes: 3, InitialLeader: true}, c, "N from the IDs, crash-any N-1, the algorithm's initial leader")
}

func TestNames(t *testing.T) {
	assert.Equal(t, "--crashes", FlagName("MaxCrashes"))
	assert.Equal(t, "--ids perm", FlagName("Perm"))
	assert.Equal(t, "Config.Crashes", APIName("MaxCrashes"))
	assert.Equal(t, "", FlagName("Bogus"))
	// Each flag once (Perm shares --ids), a shorthand after its option's
	// flag, in the table's order.
	flags := Flags()
	var want []string
	for _, o := range Options {
		if o.Bind != nil {
			want = append(want, o.Flag)
		}
		if o.Shorthand != "" {
			want = append(want, o.Shorthand)
		}
	}
	assert.Equal(t, want, flags)
	assert.Equal(t, []string{"n", "ids", "anonymous", "crashes", "crash-any", "restarts"}, flags[:6])
	assert.Equal(t, 1, strings.Count(strings.Join(flags, " "), "ids"))
}

// The options of time (docs/semantics.md section 6.1): a duration of 0 given is
// refused where 0 is the default's, the others need a timed mode, and a
// timeout's default follows the delay in force.
func TestTimedOptions(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--timing", "sync", "--delay", "0"}, "--delay 0 is out of range: give 1 tick or more"},
		{[]string{"--timing", "sync", "--timeout", "0"}, "--timeout 0 is out of range: give 1 tick or more"},
		{[]string{"--timing", "partial", "--timeout-coord", "0"}, "--timeout-coord 0 is out of range: give 1 tick or more"},
		{[]string{"--delay", "2"}, "--delay needs --timing sync or partial: the asynchronous model (--timing async, the default) has no clocks"},
		{[]string{"--timing", "async", "--timeout", "3"}, "--timeout needs --timing sync or partial: the asynchronous model (--timing async, the default) has no clocks"},
		{[]string{"--timing", "sync", "--delay", "-1"}, "--delay -1 is negative: a delay is 1 tick or more"},
		{[]string{"--timing", "sync", "--timeout", "2000000"}, "--timeout 2000000 is too large: use at most 1048576 ticks"},
	} {
		_, err := parse(t, c.args, true)
		assert.EqualError(t, err, c.want, "%v", c.args)
	}
	c, err := parse(t, []string{"--timing", "sync", "--delay", "2"}, true)
	require.NoError(t, err)
	assert.Equal(t, model.Times{Delay: 2, Timeout: 5, TimeoutCoord: 14}, c.Times(), "T = 2D+1, T2 = 2T+2D")
	c, err = parse(t, []string{"--timing", "partial", "--timeout", "2"}, true)
	require.NoError(t, err)
	assert.Equal(t, model.Times{Delay: 1, Timeout: 2, TimeoutCoord: 6}, c.Times(), "T2 from the T in force")
	var g Given
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	g.Bind(fs)
	assert.ErrorContains(t, fs.Parse([]string{"--timing", "eventually"}), "use async, sync or partial")
}

// --timeout auto, like --max-queue auto, leaves the value to the command
// line's search: the configuration keeps the default (0), Given says auto,
// and it needs a timed mode.
func TestTimeoutAuto(t *testing.T) {
	var g Given
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	g.Bind(fs)
	require.NoError(t, fs.Parse([]string{"--timing", "sync", "--timeout", "auto"}))
	assert.True(t, g.AutoTimeout)
	assert.Equal(t, 0, g.Config.Timeout)
	assert.Equal(t, "auto", fs.Lookup("timeout").Value.String())
	set := func(f string) bool { return f == "Timeout" || f == "Timing" }
	g.Config.MaxQueue = 0 // not given (the front end's -1): the default
	c, err := g.Resolve(set, FlagName, true)
	require.NoError(t, err, "auto is not a duration of 0 ticks")
	assert.Equal(t, 0, c.Timeout)

	_, err = parse(t, []string{"--timeout", "auto"}, true)
	assert.EqualError(t, err, "--timeout auto needs --timing sync or partial: the asynchronous model (--timing async, the default) has no clocks")
	require.NoError(t, fs.Parse([]string{"--timeout", "4"}))
	assert.False(t, g.AutoTimeout, "the last --timeout counts")
	assert.Equal(t, 4, g.Config.Timeout)
}

// --param reads NAME=V, repeated or as a comma list, and NAME=auto for
// one name; the URL and the command line write them back sorted.
func TestParamFlag(t *testing.T) {
	var g Given
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	g.Bind(fs)
	require.NoError(t, fs.Parse([]string{"--param", "L=5,H=2", "--param", "X=auto", "--param", "L=7"}))
	assert.Equal(t, map[string]int{"H": 2, "L": 7}, g.Config.Params, "the last value given counts")
	assert.Equal(t, "X", g.AutoParam)
	assert.Equal(t, "param=H%3D2%2CL%3D7", Query("a", model.Config{N: 3, Params: g.Config.Params}, false).Encode()[len("algo=a&n=3&"):])
	assert.Equal(t, []string{"--n=3", "--param=H=2,L=7"}, Args(model.Config{N: 3, Params: g.Config.Params}, false))

	for _, tc := range []struct{ arg, err string }{
		{"L", `invalid value "L" for flag -param: "L" is not NAME=V: give a parameter's name and value, like L=5 (or L=auto)`},
		{"L=x", `invalid value "L=x" for flag -param: L=x: "x" is not a whole number: give one, like L=5, or L=auto`},
		{"Y=auto", `invalid value "Y=auto" for flag -param: X=auto and Y=auto: one parameter is searched at a time, give the other a value`},
	} {
		fs.SetOutput(io.Discard)
		assert.EqualError(t, fs.Parse([]string{"--param", tc.arg}), tc.err)
	}

	// Resolved against the algorithm's parameters: bully's T=auto is
	// --timeout auto; a name it does not declare is refused.
	bully := []model.Param{{Name: "T", Field: "Timeout", Min: 1, Max: 9}, {Name: "T2", Field: "TimeoutCoord", Min: 1, Max: 9}}
	g = Given{AutoParam: "T", Config: model.Config{Params: map[string]int{"T2": 4}}}
	require.NoError(t, g.ResolveParams(bully, FlagName))
	assert.True(t, g.AutoTimeout)
	assert.Equal(t, "", g.AutoParam)
	assert.Equal(t, model.Config{TimeoutCoord: 4}, g.Config)
	g = Given{AutoParam: "L"}
	assert.EqualError(t, g.ResolveParams(bully, FlagName), "--param L=auto: the algorithm has no parameter L; its parameters are T (1 to 9), T2 (1 to 9)")
	g = Given{AutoParam: "T2"}
	assert.EqualError(t, g.ResolveParams(bully, FlagName), "--param T2=auto: T2 is searched with the timeout it depends on: give T=auto")
}
