package webui_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/internal/needs"
	"github.com/mcheck/mcheck/trace"
)

// The page numbers a lasso's cycle as the text report and the charts do,
// and says time as they do: static/words.js, run in node, says what
// trace.CycleWords, PremiseWords, TimedWords and TimeWords say.
func TestPageWordsMatchTheReport(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		needs.Missing(t, needs.Node, "no node on PATH to run static/words.js (install the Debian package nodejs)")
	}
	src, err := os.ReadFile("static/words.js")
	require.NoError(t, err)
	cases := [][2]int{{1, 1}, {6, 8}, {2, 12}, {8, 38}, {3, 4}}
	in, err := json.Marshal(cases)
	require.NoError(t, err)
	times := []int{0, 1, 3, 12}
	tin, err := json.Marshal(times)
	require.NoError(t, err)
	script := string(src) + "\nconsole.log(JSON.stringify(" + string(in) + ".map(([f, l]) => cycleWords(f, l))));\nconsole.log(JSON.stringify(premiseWords));\n" +
		"console.log(JSON.stringify(timedWords));\nconsole.log(JSON.stringify(" + string(tin) + ".map(timeWords)));\n" +
		"console.log(JSON.stringify([[0,1,null],[1,1,null],[1,2,null],[2,2,null],[1,1,false],[1,1,true],[1,0,null]].map(([a, d, g]) => ageMark(a, d, g))));\n"
	out, err := exec.Command(node, "-e", script).Output()
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Len(t, lines, 5)
	var marks []string
	require.NoError(t, json.Unmarshal([]byte(lines[4]), &marks))
	no, yes := false, true
	for i, c := range []struct {
		age, delay int
		gst        *bool
	}{{0, 1, nil}, {1, 1, nil}, {1, 2, nil}, {2, 2, nil}, {1, 1, &no}, {1, 1, &yes}, {1, 0, nil}} {
		assert.Equal(t, trace.AgeMark(c.age, c.delay, c.gst), marks[i], "the age's mark of %+v", c)
	}
	var premise, timed string
	require.NoError(t, json.Unmarshal([]byte(lines[1]), &premise))
	assert.Equal(t, trace.PremiseWords, premise, "the premise's mark")
	require.NoError(t, json.Unmarshal([]byte(lines[2]), &timed))
	assert.Equal(t, trace.TimedWords, timed, "a timed run's notation")
	var timeWords []string
	require.NoError(t, json.Unmarshal([]byte(lines[3]), &timeWords))
	for i, tm := range times {
		assert.Equal(t, trace.TimeWords(tm), timeWords[i], "the time after a step")
	}
	var got []struct{ Repeat, Back string }
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &got))
	require.Len(t, got, len(cases))
	for i, c := range cases {
		repeat, back := trace.CycleWords(c[0], c[1])
		assert.Equal(t, repeat, got[i].Repeat, c)
		assert.Equal(t, back, got[i].Back, c)
	}
}
