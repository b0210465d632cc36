package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/golden"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/trace"
)

// handMade is a verified result built by hand: a bounded search that
// finished, one property violated with its replayed trace (a file bully
// wrote), one that holds vacuously, one unknown and one not checked.
func handMade(t *testing.T) *Result {
	t.Helper()
	in, err := os.Open("testdata/SingleLeader.trace.json")
	require.NoError(t, err)
	defer in.Close()
	f, err := trace.Read(in)
	require.NoError(t, err)
	rep := &check.Report{
		Algo:   "bully",
		Config: model.Config{N: 3, IDs: []int{1, 2, 3}, Detector: model.Unreliable, InitialLeader: true, MaxQueue: 6},
		Stats: explore.Stats{Complete: true, States: 12_345, Transitions: 67_890, Depth: 14, Discarded: 321,
			Elapsed: 1500 * time.Millisecond, MemBytes: 3 << 20, CollisionProbability: 3.1e-12},
		Strategy: "bfs", Proof: check.UpToBound,
		Verdicts: []check.Verdict{
			{Name: "SingleLeader", Property: model.PropertyInfo{Name: "SingleLeader", Kind: model.Invariant}, Status: check.Violated,
				Kind: cex.Invariant, Summary: f.Summary, File: f, Proof: check.UpToBound},
			{Name: "Stability", Property: model.PropertyInfo{Name: "Stability", Kind: model.StepProperty}, Status: check.Holds,
				Vacuous: check.NeverTriggered, Proof: check.UpToBound},
			{Name: "Termination", Property: model.PropertyInfo{Name: "Termination", Kind: model.EventuallyAlways}, Status: check.Unknown,
				Summary: "the fair-cycle check was not run", Proof: check.Incomplete},
			{Name: "Leader", Property: model.PropertyInfo{Name: "Leader", Kind: model.Sometimes}, Status: check.Unchecked},
		},
	}
	return Of(rep, flagWords)
}

// Text, JSON and JUnit of one result, pinned (go test ./report -update
// rewrites them).
func TestOutputsOfOneResult(t *testing.T) {
	res := handMade(t)
	var text, js, junit bytes.Buffer
	Text(&text, res, false)
	require.NoError(t, JSON(&js, res, nil))
	require.NoError(t, JUnit(&junit, res))
	golden.Check(t, "testdata/result.txt", text.Bytes())
	golden.Check(t, "testdata/result.json", js.Bytes())
	golden.Check(t, "testdata/result.junit.xml", junit.Bytes())
}

// The text and the JSON of one result say the same verdicts, and show the
// same replayed trace.
func TestTextAndJSONSayTheSameVerdicts(t *testing.T) {
	res := handMade(t)
	var text, js bytes.Buffer
	Text(&text, res, false)
	require.NoError(t, JSON(&js, res, nil))

	var out struct {
		Properties []struct {
			Name, Status string
			Trace        []struct{ Action string }
		}
	}
	require.NoError(t, json.Unmarshal(js.Bytes(), &out))
	fromJSON := map[string]string{}
	var actions []string
	for _, p := range out.Properties {
		fromJSON[p.Name] = statusWord(check.Status(p.Status))
		for _, s := range p.Trace {
			actions = append(actions, s.Action)
		}
	}

	_, props, ok := strings.Cut(text.String(), "\nproperties\n")
	require.True(t, ok, text.String())
	fromText := map[string]string{}
	for _, line := range strings.Split(props, "\n") {
		if !strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "  note:") {
			break
		}
		name, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		status, _, _ := strings.Cut(strings.TrimSpace(rest), "  ")
		fromText[name] = status
	}
	assert.Len(t, fromText, len(res.Verdicts))
	assert.Equal(t, fromText, fromJSON)

	require.NotEmpty(t, actions)
	for i, a := range actions {
		assert.Contains(t, text.String(), fmt.Sprintf("\n%4d  %s\n", i, a), "step %d of the JSON's trace is the text's", i)
	}
}
