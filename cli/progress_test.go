package cli

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
)

func at(secs int, states int64) explore.Progress {
	return explore.Progress{States: states, Depth: secs, Queue: 10, Elapsed: time.Duration(secs) * time.Second, MemBytes: 3 << 20}
}

// With stderr a pipe (a CI log), progress is one plain line every few
// seconds: no carriage returns, no escape codes, no guessed times.
func TestProgressOnAPipe(t *testing.T) {
	r, w, err := os.Pipe()
	require.NoError(t, err)
	p := newProgress(w, 1_000_000, 64<<20)
	require.False(t, p.terminal, "a pipe is not a terminal")
	for s := 1; s <= 12; s++ {
		p.update(at(s, int64(s)*10_000))
	}
	p.done()
	require.NoError(t, w.Close())
	out, err := io.ReadAll(r)
	require.NoError(t, err)
	assert.Equal(t,
		"mcheck: 1s  10,000 states  10,000/s  depth 1  queue 10  memory 3.0 MiB  1% of --max-states  5% of the search's 51.2 MiB of --memory 64.0 MiB\n"+
			"mcheck: 6s  60,000 states  10,000/s  depth 6  queue 10  memory 3.0 MiB  6% of --max-states  5% of the search's 51.2 MiB of --memory 64.0 MiB\n"+
			"mcheck: 11s  110,000 states  10,000/s  depth 11  queue 10  memory 3.0 MiB  11% of --max-states  5% of the search's 51.2 MiB of --memory 64.0 MiB\n",
		string(out))
	assert.NotContains(t, string(out), "\r")
	assert.NotContains(t, string(out), "\033")
}

// On a terminal, one line is rewritten in place, cut to the width, and
// cleared before the report.
func TestProgressOnATerminal(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, terminal: true, width: 30, maxStates: 0, budget: 0}
	p.update(at(1, 1_234_567))
	p.update(at(2, 2_000_000))
	p.done()
	assert.Equal(t, "\r1s  1,234,567 states  1,234,5\033[K\r2s  2,000,000 states  1,000,0\033[K\r\033[K", b.String())
	for _, line := range strings.Split(b.String(), "\r") {
		assert.LessOrEqual(t, len(strings.TrimSuffix(line, "\033[K")), 29)
	}
}

// The caps' use is shown as a share, and stops at 100%.
func TestProgressLine(t *testing.T) {
	assert.Equal(t, "0s  0 states  0/s  depth 0  queue 0  memory 0 B", progressLine(explore.Progress{}, 0, 0))
	assert.Equal(t, "2s  500 states  250/s  depth 2  queue 10  memory 3.0 MiB  100% of --max-states  100% of the search's 819.2 KiB of --memory 1.0 MiB",
		progressLine(at(2, 500), 400, 1<<20))
	// After the search: the phase, and how far it is.
	fair := explore.Progress{States: 16_281_308, Elapsed: 13 * time.Second, MemBytes: 3 << 20,
		Phase: explore.CheckingFairCycles, Done: 4_070_327, Of: 16_281_308}
	assert.Equal(t, "13s  fair-cycle check over 16,281,308 states: 4,070,327 done (25%)  memory 3.0 MiB  0% of the search's 819.2 MiB of --memory 1.0 GiB",
		progressLine(fair, 400, 1<<30))
	measures := explore.Progress{States: 2_000, Elapsed: 3 * time.Second, Phase: explore.ComputingMeasures}
	assert.Equal(t, "3s  measures over 2,000 states  memory 0 B", progressLine(measures, 0, 0))
	assert.Equal(t, "héllo", cut("héllo wörld", 5))
	assert.Equal(t, "abc", cut("abc", 0))
}

// With --max-queue auto each line names the bound being searched, and a
// new bound's first line is shown at once although its time starts again.
func TestProgressNamesTheBound(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, 0, 0)
	p.startSearch("bound 1")
	p.update(at(1, 100))
	p.update(at(7, 700))
	p.startSearch("bound 2")
	p.update(at(1, 50))
	p.update(at(3, 150))
	assert.Equal(t,
		"mcheck: bound 1: 1s  100 states  100/s  depth 1  queue 10  memory 3.0 MiB\n"+
			"mcheck: bound 1: 7s  700 states  100/s  depth 7  queue 10  memory 3.0 MiB\n"+
			"mcheck: bound 2: 1s  50 states  50/s  depth 1  queue 10  memory 3.0 MiB\n",
		b.String())
}

// A sweep's progress lines name its search: the bound with --max-queue
// auto, T and T2 with --timeout auto.
func TestSearchNames(t *testing.T) {
	c := model.Config{MaxQueue: 2, Timeout: 3, TimeoutCoord: 8}
	var o options
	o.model.AutoQueue = true
	assert.Equal(t, "bound 2", o.searchName(c))
	o.model.AutoQueue, o.model.AutoTimeout = false, true
	assert.Equal(t, "T 3, T2 8", o.searchName(c))
}
