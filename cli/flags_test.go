package cli_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/specs"
)

// Flags that were once accepted silently or wrongly.
func TestFlagsRejectedWithAReason(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--algo", "ring", "--n", "0"}, "--n 0 is out of range: use 2 to 16 processes"},
		{[]string{"--algo", "ring", "--n", "3", "--crashes", "5"}, "--crashes 5 can never happen with --n 3 and --restarts 0: one process always stays live, so at most 2 crashes (N-1, plus one per restart) can happen (--crash-any means --crashes 2; see docs/model.md)"},
		{[]string{"--algo", "bully", "--n", "3", "--crashes", "4", "--restarts", "1"}, "so at most 3 crashes"},
		{[]string{"--algo", "bully", "--n", "3", "--initiators", "2", "--down", "2"}, "--initiators: no initiator starts live (--down) and none can restart, so no election can ever start"},
		{[]string{"--algo", "ring", "--n", "3", "--max-queue", "300"}, "--max-queue 300 is too large: use at most 255"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, stderr := run(c.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.True(t, strings.HasPrefix(stderr, "mcheck: --"), stderr)
			assert.Contains(t, stderr, c.want)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
		})
	}
	// The limits themselves are accepted: N-1 crashes, more with restarts, a
	// down initiator that can restart.
	for _, args := range [][]string{
		{"--algo", "ring", "--n", "3", "--crashes", "2", "--check", "safety"},
		{"--algo", "bully", "--n", "3", "--crashes", "3", "--restarts", "1", "--check", "safety", "--continue"},
		{"--algo", "bully", "--n", "3", "--initiators", "2", "--down", "2", "--restarts", "1", "--check", "safety", "--continue"},
	} {
		code, _, stderr := run(args...)
		assert.NotEqual(t, 2, code, "%v: %s", args, stderr)
		assert.Empty(t, stderr)
	}
}

func TestEveryHelpExitsZero(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"replay", "--help"}, {"replay", "-h"}} {
		code, out, stderr := run(args...)
		assert.Equal(t, 0, code, "%v", args)
		assert.Empty(t, stderr, "%v", args)
		assert.Contains(t, out, "Usage:", "%v", args)
		assert.Contains(t, out, "mcheck replay [--full-states]", "%v", args)
	}
}

func TestVersion(t *testing.T) {
	code, out, stderr := run("--version")
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `^mcheck github\.com/mcheck/mcheck \S+.*, go1\.\d+`, out)
	assert.Equal(t, 1, strings.Count(out, "\n"))
}

// A trace of an algorithm that only a course's own mcheck registers: the
// stock mcheck says which program can replay it.
func TestReplayOfAnotherProgramsAlgorithm(t *testing.T) {
	course := specs.Builtin()
	ring, err := course.Lookup("ring")
	require.NoError(t, err)
	ring.Name = "myring"
	require.NoError(t, course.Register(ring))

	path := filepath.Join(t.TempDir(), "t.trace.json")
	var out, errb bytes.Buffer
	code := cli.Main([]string{"--algo", "myring", "--n", "3", "--crashes", "1", "--trace-out", path}, course, &out, &errb)
	require.Equal(t, 1, code, errb.String())
	out.Reset()
	code = cli.Main([]string{"replay", "--quiet", path}, course, &out, &errb)
	require.Equal(t, 0, code, "the course's own mcheck replays it: %s", errb.String())

	code, stdout, stderr := run("replay", path)
	assert.Equal(t, 2, code)
	assert.Empty(t, stdout)
	assert.Equal(t, "mcheck: replay: "+path+` is a trace of "myring", which this mcheck does not have (it has bully, chang-roberts, hirschberg-sinclair, lelann, ring): replay it with the mcheck program that registers "myring", such as your course's own (go run ./mcheck replay `+path+")\n", stderr)
}
