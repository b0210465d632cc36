package mchecktest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testdata/traps is a module of four students' algorithms. Three have one
// optional method declared so that it compiles and would silently never be
// called: Timer for Timers, Properties on the pointer receiver of an
// algorithm given as a value, MsgType(m Msg) for MsgType(m *Msg); their go
// test fails at once, naming the signature mcheck expects. The fourth
// writes into the map of the old state: its go test fails naming the
// algorithm, the step and the field.
func TestAPITrapsFailGoTest(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to run the module's tests")
	}
	cmd := exec.Command(gobin, "test", "-count=1", "./...")
	cmd.Dir = filepath.Join("testdata", "traps")
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "the module's tests must fail:\n%s", out)
	for _, want := range []string{
		"FAIL\texample.com/traps/timer",
		"timer.Algorithm: method Timer() []model.Timer[ring.Local, ring.Msg] looks like Timers() []model.Timer[ring.Local, ring.Msg] of model.Timed",
		"rename it, func (timer.Algorithm) Timers() []model.Timer[ring.Local, ring.Msg]",
		"FAIL\texample.com/traps/pointerprops",
		"method Properties is declared on the pointer receiver *pointerprops.Algorithm",
		"declare func (pointerprops.Algorithm) Properties() []model.Property[ring.Local, ring.Msg], or pass &pointerprops.Algorithm{}",
		"FAIL\texample.com/traps/valuemsgtype",
		"method MsgType(ring.Msg) int does not match MsgType(*ring.Msg) int of model.MsgTyper",
		"declare func (valuemsgtype.Algorithm) MsgType(*ring.Msg) int",
		"FAIL\texample.com/traps/aliasing",
		`aliasing.Algorithm: the algorithm is not a function of its inputs: step "deliver p1→p2 ELECT(1)" changed the state it started from (p2.Seen was map[2:true] and is map[1:true 2:true] after the step)`,
	} {
		assert.Contains(t, string(out), want)
	}
}
