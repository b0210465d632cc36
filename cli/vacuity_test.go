package cli_test

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cli"
)

const idleLine = "vacuous: no step is enabled in the initial state, so every property holds of the initial state alone; " +
	"to change that, try --initial-leader=false (start with an election), or --crash-any or --crashes K (let processes fail)"

// mcheck --algo bully --n 8 (initial leader, no crash) takes no step: the
// text, the JSON and the JUnit say so in one line with what to change, and
// the exit status is still that of the verdicts.
func TestIdleSearchSaysSo(t *testing.T) {
	junit := filepath.Join(t.TempDir(), "j.xml")
	code, out, errOut := run("--algo", "bully", "--n", "8", "--junit", junit)
	require.Equal(t, cli.ExitHolds, code, errOut)
	assert.Contains(t, out, "  Termination   holds (vacuously: see the note below)\n")
	assert.Contains(t, out, "  note: "+idleLine+"\n")
	assert.Equal(t, 1, strings.Count(out, "vacuous:"), "one line")

	x, err := os.ReadFile(junit)
	require.NoError(t, err)
	var suites struct {
		Suite struct {
			Out   string `xml:"system-out"`
			Cases []struct {
				Name string `xml:"name,attr"`
				Out  string `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal(x, &suites))
	assert.Contains(t, suites.Suite.Out, idleLine)
	require.Len(t, suites.Suite.Cases, 3)
	for _, c := range suites.Suite.Cases {
		assert.Equal(t, idleLine, c.Out, c.Name)
	}

	code, out, _ = run("--algo", "bully", "--n", "8", "--json")
	require.Equal(t, cli.ExitHolds, code)
	var got struct {
		Vacuous    string `json:"vacuous"`
		Properties []struct {
			Name    string `json:"name"`
			Vacuity string `json:"vacuity"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, idleLine, got.Vacuous)
	assert.Equal(t, "always-in-goal", got.Properties[2].Vacuity)

	// With something to do, no word of vacuity.
	code, out, _ = run("--algo", "bully", "--n", "3", "--crash-any")
	require.Equal(t, cli.ExitHolds, code)
	assert.NotContains(t, out, "vacuous")
}

// A step property whose antecedent never occurs says so on its line.
func TestNeverTriggeredSaysSo(t *testing.T) {
	code, out, _ := run("--algo", "bully", "--n", "3", "--crashes", "1", "--initiators", "3", "--check", "WaitingAfterOK")
	require.Equal(t, cli.ExitHolds, code, out)
	assert.Contains(t, out, "  WaitingAfterOK  holds  vacuously: no step of the search is one it speaks of; to change that, try --initial-leader=false (start with an election), or more --initiators\n")
	code, out, _ = run("--algo", "bully", "--n", "3", "--crashes", "1", "--initiators", "3", "--check", "WaitingAfterOK", "--json")
	require.Equal(t, cli.ExitHolds, code, out)
	assert.Contains(t, out, `"vacuity": "never-triggered"`)
}
