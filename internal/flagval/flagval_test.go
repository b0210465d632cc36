package flagval_test

import (
	"flag"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/internal/flagval"
)

type flags struct {
	n     int
	max   int64
	limit time.Duration
	por   bool
	algo  string
}

func newSet(f *flags) *flag.FlagSet {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	flagval.IntVar(fs, &f.n, "n", 3)
	flagval.Int64Var(fs, &f.max, "max-states", 0)
	flagval.DurationVar(fs, &f.limit, "time-limit", 0)
	flagval.BoolVar(fs, &f.por, "por", true)
	flagval.StringVar(fs, &f.algo, "algo", "")
	return fs
}

func TestValuesAreSet(t *testing.T) {
	var f flags
	fs := newSet(&f)
	assert.Equal(t, flags{n: 3, por: true}, f, "defaults")
	require.NoError(t, flagval.Parse(fs, []string{"--n", "0x10", "--max-states=7", "--time-limit", "1m30s", "--por=false", "--algo", "--n", "rest"}))
	assert.Equal(t, flags{n: 16, max: 7, limit: 90 * time.Second, por: false, algo: "--n"}, f)
	assert.Equal(t, []string{"rest"}, fs.Args())
	require.NoError(t, flagval.Parse(fs, []string{"--por"}), "parsed twice, as explore does")
	assert.True(t, f.por)
}

// Each bad flag is reported as data: which flag, which value, what is
// wrong; and its message says how to write it.
func TestBadFlagsAreData(t *testing.T) {
	for _, c := range []struct {
		args []string
		want flagval.Error
		msg  string
	}{
		{[]string{"--time-limit", "20"}, flagval.Error{Problem: flagval.BadValue, Flag: "time-limit", Value: "20"},
			`--time-limit: "20" has no unit: a duration is a number and a unit, like --time-limit 20s (or m, h)`},
		{[]string{"--time-limit=soon"}, flagval.Error{Problem: flagval.BadValue, Flag: "time-limit", Value: "soon"},
			`--time-limit: "soon" is not a duration: write a number and a unit, like --time-limit 90s, 5m or 1h30m`},
		{[]string{"--n", "x"}, flagval.Error{Problem: flagval.BadValue, Flag: "n", Value: "x"},
			`--n: "x" is not a number: give a whole number, like --n 3`},
		{[]string{"--max-states", "99999999999999999999"}, flagval.Error{Problem: flagval.BadValue, Flag: "max-states", Value: "99999999999999999999"},
			`--max-states: "99999999999999999999" is out of range: give a whole number from -9223372036854775808 to 9223372036854775807`},
		{[]string{"--por=maybe"}, flagval.Error{Problem: flagval.BadValue, Flag: "por", Value: "maybe"},
			`--por: "maybe" is not true or false: write --por for true, or --por=false`},
		{[]string{"--n", "4", "--bogus=1"}, flagval.Error{Problem: flagval.Unknown, Flag: "bogus"}, "unknown flag --bogus"},
		{[]string{"--time-limt", "20s"}, flagval.Error{Problem: flagval.Unknown, Flag: "time-limt", Like: "time-limit"}, "unknown flag --time-limt: did you mean --time-limit?"},
		{[]string{"--x"}, flagval.Error{Problem: flagval.Unknown, Flag: "x"}, "unknown flag --x"},
		{[]string{"--por", "--time-limit"}, flagval.Error{Problem: flagval.NoValue, Flag: "time-limit"}, "--time-limit needs a value"},
		{[]string{"--n", "4", "---x"}, flagval.Error{Problem: flagval.BadSyntax, Flag: "---x"}, `"---x" is not a flag: write flags as --name or --name=value`},
		// A value that looks like a flag is the value; what follows is judged.
		{[]string{"--algo", "--bogus", "---x"}, flagval.Error{Problem: flagval.BadSyntax, Flag: "---x"}, `"---x" is not a flag: write flags as --name or --name=value`},
		{[]string{"--algo", "--bogus", "--bogus"}, flagval.Error{Problem: flagval.Unknown, Flag: "bogus"}, "unknown flag --bogus"},
		{[]string{"--algo=x", "--por", "--n"}, flagval.Error{Problem: flagval.NoValue, Flag: "n"}, "--n needs a value"},
	} {
		var f flags
		err := flagval.Parse(newSet(&f), c.args)
		var got *flagval.Error
		require.ErrorAs(t, err, &got, "%v", c.args)
		assert.Equal(t, c.msg, got.Error(), "%v", c.args)
		got.Err = nil
		assert.Equal(t, c.want, *got, "%v", c.args)
	}
}

func TestHelpIsNoError(t *testing.T) {
	var f flags
	assert.ErrorIs(t, flagval.Parse(newSet(&f), []string{"--n", "4", "-h"}), flag.ErrHelp)
}
