package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/trace"
)

// Bully's timeout race: with T = 2 at D = 1 it elects two coordinators.
var race = []string{"--algo", "bully", "--n", "4", "--crash-any", "--timing", "sync", "--delay", "1", "--timeout", "2", "--check", "SingleLeader"}

// What CI reads of a timed check shows its time: JUnit's suite names the
// timing in its properties and the failure's trace has the ticks and the
// ages, the annotation's title names the timing, and the job summary's
// chart has the ticks on its time axis.
func TestTimedCIOutputs(t *testing.T) {
	dir := t.TempDir()
	junit, summary := filepath.Join(dir, "mcheck.xml"), filepath.Join(dir, "summary.md")
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	code, out, stderr := run(append(race, "--junit", junit)...)
	require.Equal(t, 1, code, stderr)

	data, err := os.ReadFile(junit)
	require.NoError(t, err)
	root := parseXML(t, data)
	validateJUnit(t, root)
	props := map[string]string{}
	for _, c := range root.children[0].children {
		if c.name == "properties" {
			for _, p := range c.children {
				props[p.attrs["name"]] = p.attrs["value"]
			}
		}
	}
	assert.Equal(t, map[string]string{"timing": "sync", "delay": "1", "timeout": "2", "timeout-coord": "6"},
		map[string]string{"timing": props["timing"], "delay": props["delay"], "timeout": props["timeout"], "timeout-coord": props["timeout-coord"]})
	assert.Contains(t, root.children[0].attrs["name"], "timing sync, delay 1, timeout 2, timeout-coord 6")
	fail := cases(root)["SingleLeader"].children[0]
	require.Equal(t, "failure", fail.name)
	// The failure's body is the text report's trace, ticks and ages and all.
	i := strings.Index(out, "SingleLeader counterexample, 8 steps:")
	require.GreaterOrEqual(t, i, 0, out)
	assert.Contains(t, fail.text, out[i:])
	for _, s := range []string{"(" + trace.TimedWords + ")", "   4  tick\n", "      p2.timer: 1 → 0\n", "      chan p3→p2: [OK(3)@0] → [OK(3)@1(due)]\n"} {
		assert.Contains(t, fail.text, s)
	}

	assert.Equal(t, "::error title=mcheck bully (timing sync%2C delay 1%2C timeout 2%2C timeout-coord 6)%3A SingleLeader violated::after 8 steps p2 and p3 each consider themselves leader\n", stderr)

	data, err = os.ReadFile(summary)
	require.NoError(t, err)
	md := string(data)
	assert.True(t, strings.HasPrefix(md, "## mcheck bully, N=4, ids 1,2,3,4, crash-any (up to 3 crashes), perfect detector, initial leader, timing sync, delay 1, timeout 2, timeout-coord 6, max-queue 8\n"), md)
	for _, s := range []string{"    Note over p1,p4: 0: initial state, t=0\n", "    Note over p1,p4: 4: tick, t=1\n", "    p2->>p3: 5: ELECTION(2)@1(due)\n",
		"    Note over p1,p4: 6: tick, t=2\n", "    Note over p2: 2: detect, elected := ⊥, timer := 2\n", "    Note over p3,p2: in flight p3→p2: OK(3)@1(due)\n"} {
		assert.Contains(t, md, s)
	}
}

// An untimed check's JUnit has no timing properties.
func TestUntimedJUnitHasNoTiming(t *testing.T) {
	junit := filepath.Join(t.TempDir(), "mcheck.xml")
	code, _, stderr := run("--algo", "chang-roberts", "--n", "3", "--junit", junit)
	require.Equal(t, 0, code, stderr)
	data, err := os.ReadFile(junit)
	require.NoError(t, err)
	assert.NotContains(t, string(data), `name="timing"`)
	assert.NotContains(t, string(data), "delay")
}

// mcheck replay of a timed trace: --msc draws the time axis, and
// --full-states shows every state's timers, ages and gst.
func TestTimedReplay(t *testing.T) {
	const file = "../testdata/msc/bully-partial-restart.Termination-stuck.trace.json"
	dir := t.TempDir()
	svg, md := filepath.Join(dir, "chart.svg"), filepath.Join(dir, "chart.md")
	code, out, stderr := run("replay", "--full-states", "--msc", svg, file)
	require.Equal(t, 0, code, stderr)
	for _, s := range []string{
		"   4  tick\n      p1{status=idle elected=3 timer=off} p2{status=electing elected=⊥ timer=2} p3{status=idle elected=3 timer=off} | p3→p1 [COORDINATOR(3)@1(late)] | p3→p2 [COORDINATOR(3)@1(late)] | crashes=1 restarts=1 gst=false\n",
		"  12  gst\n      p1{status=idle elected=2 timer=off} p2{status=idle elected=3 timer=off} p3{status=idle elected=3 timer=off} | crashes=1 restarts=1 gst=true\n",
	} {
		assert.Contains(t, out, s)
	}
	data, err := os.ReadFile(svg)
	require.NoError(t, err)
	wellFormed(t, data)
	assert.Equal(t, 4, strings.Count(string(data), `<line class="tick"`), "a rule per tick: steps 4, 6, 7, 10")
	assert.Equal(t, 1, strings.Count(string(data), `<line class="gst"`))
	assert.Equal(t, 1, strings.Count(string(data), `<g class="timer">`))
	code, _, stderr = run("replay", "--quiet", "--msc", md, file)
	require.Equal(t, 0, code, stderr)
	data, err = os.ReadFile(md)
	require.NoError(t, err)
	assert.Contains(t, string(data), "    Note over p1,p3: 12: gst, t=4\n")
	assert.Contains(t, string(data), "    p3->>p2: 9: COORDINATOR(3)@1(late)\n")
}

// A simulation's actions line names tick and gst where the model of time
// has them (taken, in these runs), and only there.
func TestSimulationActionsOfTime(t *testing.T) {
	for timing, want := range map[string][]bool{ // tick, gst
		"async":   {false, false},
		"sync":    {true, false},
		"partial": {true, true},
	} {
		args := []string{"--algo", "bully", "--n", "3", "--crash-any", "--simulate", "--runs", "50", "--timing", timing}
		if timing != "async" {
			args = append(args, "--timeout", "3")
		}
		_, out, stderr := run(args...)
		i := strings.Index(out, "actions      ")
		require.GreaterOrEqual(t, i, 0, stderr)
		line := out[i : i+strings.Index(out[i:], "\n")]
		assert.Equal(t, want, []bool{strings.Contains(line, "tick"), strings.Contains(line, "gst")}, "%s: %s", timing, line)
		assert.NotRegexp(t, `never .*(tick|gst)`, line, timing)
	}
}
