package cli_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/cli"
)

// A number too large to read is out of the flag's own range, said in
// numbers the flag takes, never "not a number" or int64's range.
func TestUnreadableNumbersNameTheFlagsRange(t *testing.T) {
	const huge = "99999999999999999999"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--n", huge}, `mcheck: --n: "` + huge + `" is out of range: give a whole number from 2 to 16 (see mcheck --help)`},
		{[]string{"--crashes", huge}, `give a whole number from 0 to 255`},
		{[]string{"--restarts", huge}, `give a whole number from 0 to 255`},
		{[]string{"--max-queue", huge}, `mcheck: --max-queue: "` + huge + `" is out of range: give a whole number from 1 to 255, or auto (see mcheck --help)`},
		{[]string{"--timing", "sync", "--timeout", huge}, `give a whole number from 1 to 1048576, or auto`},
		{[]string{"--timing", "sync", "--delay", huge}, `give a whole number from 1 to 1048576`},
		{[]string{"--max-states", huge}, `give a whole number from 0 to 9223372036854775807`},
		{[]string{"--simulate", "--depth", huge}, `give a whole number from 1 to 2147483647`},
	} {
		code, out, errOut := run(append([]string{"--algo", "bully"}, c.args...)...)
		assert.Equal(t, cli.ExitIncomplete, code, c.args)
		assert.Empty(t, out, c.args)
		assert.Contains(t, errOut, c.want, c.args)
		assert.NotContains(t, errOut, "not a number", c.args)
		assert.NotContains(t, errOut, "-9223372036854775808", c.args)
	}
}
