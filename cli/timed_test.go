package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/trace"
)

// Why time is modelled: in the synchronous model with D = 1, Bully with
// T = 2 elects two coordinators, and the shortest counterexample shows the
// race (a timeout taken at 0 while the OK, D ticks old, is on its way to
// the process); T = 3 holds.
func TestBullyTimeoutRace(t *testing.T) {
	args := []string{"--algo", "bully", "--n", "4", "--crash-any", "--timing", "sync", "--delay", "1"}
	report, files := traceFiles(t, append(args, "--timeout", "2", "--check", "SingleLeader"), 1)
	assert.Contains(t, string(report), "timing sync, delay 1, timeout 2, timeout-coord 6")
	require.Len(t, files, 1)
	data, err := os.ReadFile(files[0])
	require.NoError(t, err)
	f, err := trace.Read(bytes.NewReader(data))
	require.NoError(t, err)
	require.Len(t, f.Steps, 9, "8 steps")
	raced := false
	for i := 1; i < len(f.Steps); i++ {
		s := f.Steps[i].Step
		if s.Kind != model.KindTimeout {
			continue
		}
		before := f.Steps[i-1].State
		for _, c := range before.Channels {
			for j, m := range c.Messages {
				raced = raced || c.To == s.Process && m.Type() == "OK" && c.Ages[j] == 1
			}
		}
		for _, p := range before.Processes {
			if p.ID == s.Process {
				assert.Equal(t, "0", p.Timer.String(), "the timeout is taken at 0")
			}
		}
	}
	assert.True(t, raced, "a timeout-ok is taken while an OK of age D is on its way to its process:\n%s", report)

	code, out, stderr := run(append(args, "--timeout", "3")...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "states       3,144 distinct")
	assert.Regexp(t, `SingleLeader\s+holds`, out)
	assert.Regexp(t, `Termination\s+holds\n`, out)
}

// Bad options of time: one line, exit status 2.
func TestTimedBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--algo", "bully", "--timing", "sync", "--delay", "0"}, "--delay 0 is out of range: give 1 tick or more"},
		{[]string{"--algo", "bully", "--delay", "2"}, "--delay needs --timing sync or partial"},
		{[]string{"--algo", "bully", "--timing", "async", "--timeout", "3"}, "--timeout needs --timing sync or partial"},
		{[]string{"--algo", "ring", "--timeout", "3"}, "--timeout: this algorithm has no timers, so there is no timeout to set: leave --timeout out"},
		{[]string{"--algo", "lelann", "--timing", "partial", "--timeout-coord", "3"}, "--timeout-coord: this algorithm has no timers"},
		{[]string{"--algo", "bully", "--timing", "sync", "--timeout", "200"}, "with --timeout 200, T2 defaults to 2T+2D = 402 ticks, too long for the state encoding (a timer runs at most 254 ticks): give --timeout 126 or less, or --timeout-coord 254 or less"},
		{[]string{"--algo", "bully", "--timing", "later"}, `--timing: "later" is unknown: use async, sync or partial`},
	} {
		code, out, stderr := run(c.args...)
		assert.Equal(t, 2, code, "%v", c.args)
		assert.Empty(t, out)
		assert.Contains(t, stderr, c.want, "%v", c.args)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
	}
}

// --json: the configuration's time, and states with timers, ages and gst;
// steps of kind tick and gst.
func TestTimedJSON(t *testing.T) {
	code, out, stderr := run("--algo", "bully", "--n", "3", "--crashes", "2", "--timing", "partial", "--timeout", "2", "--check", "SingleLeader", "--json")
	require.Equal(t, 1, code, stderr)
	var rep struct {
		Timing       string `json:"timing"`
		Delay        int    `json:"delay"`
		Timeout      int    `json:"timeout"`
		TimeoutCoord int    `json:"timeout_coord"`
		Properties   []struct {
			Trace []struct {
				Action string            `json:"action"`
				Step   *model.StepInfo   `json:"step"`
				State  map[string]string `json:"state"`
			} `json:"trace"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, []any{"partial", 1, 2, 6}, []any{rep.Timing, rep.Delay, rep.Timeout, rep.TimeoutCoord})
	tr := rep.Properties[0].Trace
	require.NotEmpty(t, tr)
	assert.Equal(t, "off", tr[0].State["p1.timer"])
	assert.Equal(t, "false", tr[0].State["gst"])
	ticked := false
	for _, s := range tr[1:] {
		if s.Step.Kind == model.KindTick {
			ticked = true
			assert.Equal(t, "tick", s.Action)
			assert.Equal(t, model.StepInfo{Kind: model.KindTick, Action: "tick"}, *s.Step)
		}
		for k, v := range s.State {
			if strings.HasPrefix(k, "ages ") {
				assert.Regexp(t, `^\[[0-9 ]+\]$`, v, k)
			}
		}
	}
	assert.True(t, ticked)
}

// --complexity in a timed mode: time in ticks beside the messages, its
// witnesses printed, kept as trace files that replay and carried in JSON;
// the synchronous schedule is said to be the asynchronous model's.
func TestTimedComplexity(t *testing.T) {
	args := []string{"--algo", "bully", "--n", "3", "--down", "3", "--initiators", "1", "--timing", "sync", "--complexity"}
	code, out, stderr := run(append(args, "--witness", "max:time")...)
	require.Equal(t, 0, code, stderr)
	for _, want := range []string{
		"  lost          min 2  max 2\n  time (ticks)  min 5  max 5\n",
		"  synchronous  latency 4 rounds after round 0, 5 messages (ELECTION 3, OK 1, COORDINATOR 1), 2 lost\n    played on the asynchronous model of this configuration: D, T and T2 play no part in it\n",
		"time.max witness run, 10 steps:",
	} {
		assert.Contains(t, out, want)
	}
	dir := t.TempDir() + "/"
	code, _, stderr = run(append(args, "--witness", "min:time", "--trace-out", dir)...)
	require.Equal(t, 0, code, stderr)
	code, out, stderr = run("replay", "--quiet", dir+"time.min-witness.trace.json")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "the witness of time.min (10 steps; every step replays)")
	code, out, stderr = run(append(args, "--json")...)
	require.Equal(t, 0, code, stderr)
	var rep struct {
		Complexity struct {
			Time struct{ Min, Max any } `json:"time"`
		} `json:"complexity"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, []any{5.0, 5.0}, []any{rep.Complexity.Time.Min, rep.Complexity.Time.Max})
	code, _, stderr = run("--algo", "bully", "--n", "3", "--complexity", "--witness", "max:time")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `no witness "max:time" among the measures of bully`)
}
