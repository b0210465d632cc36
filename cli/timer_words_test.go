package cli_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A timer too long for the state encoding is blamed on the flag that made
// it so, with the values that fit: the model knows only the ticks (a
// timer of 1532 ticks, with --delay 255; T2's default, with --timeout).
func TestTimerTooLongNamesTheFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--delay", "255"}, "mcheck: with --delay 255, T2 defaults to 2T+2D = 1532 ticks, too long for the state encoding (a timer runs at most 254 ticks): give --delay 42 or less, or --timeout and --timeout-coord of 254 or less\n"},
		{[]string{"--timeout", "127"}, "mcheck: with --timeout 127, T2 defaults to 2T+2D = 256 ticks, too long for the state encoding (a timer runs at most 254 ticks): give --timeout 126 or less, or --timeout-coord 254 or less\n"},
		{[]string{"--delay", "200", "--timeout-coord", "10"}, "mcheck: with --delay 200, T defaults to 2D+1 = 401 ticks, too long for the state encoding (a timer runs at most 254 ticks): give --delay 126 or less, or --timeout 254 or less\n"},
		{[]string{"--timeout-coord", "300"}, "mcheck: --timeout-coord 300 is too long for the state encoding: a timer runs at most 254 ticks; give --timeout-coord 254 or less\n"},
		{[]string{"--timeout", "300"}, "mcheck: --timeout 300 is too long for the state encoding: a timer runs at most 254 ticks; give --timeout 254 or less\n"},
		{[]string{"--timeout", "auto", "--delay", "255"}, "mcheck: with --timeout auto (from T 1) and --delay 255, T2 defaults to 2T+2D = 512 ticks, too long for the state encoding (a timer runs at most 254 ticks): give --delay 126 or less, or --timeout-coord 254 or less\n"},
	} {
		code, out, stderr := run(append([]string{"--algo", "bully", "--n", "3", "--timing", "sync"}, c.args...)...)
		assert.Equal(t, 2, code, "%v", c.args)
		assert.Empty(t, out, "%v", c.args)
		assert.Equal(t, c.want, stderr, "%v", c.args)
	}
	// The values said to fit do fit.
	for _, args := range [][]string{{"--delay", "42"}, {"--timeout", "126"}, {"--delay", "200", "--timeout", "254", "--timeout-coord", "10"}} {
		code, _, stderr := run(append([]string{"--algo", "bully", "--n", "3", "--timing", "sync", "--max-states", "1"}, args...)...)
		assert.NotContains(t, stderr, "too long", "%v", args)
		assert.Equal(t, 2, code, "stopped by --max-states: %v %s", args, stderr)
	}
}
