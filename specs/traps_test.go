package specs_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/specs/ring"
)

// misTyped is the ring algorithm with MsgTypes and a MsgType that takes a
// message by value: it compiles, and every message would count as "MSG".
type misTyped struct{ ring.Algorithm }

func (misTyped) MsgTypes() []string     { return []string{"ELECTION", "ELECTED"} }
func (misTyped) MsgType(m ring.Msg) int { return int(m.Kind) }

// The CLI registry refuses an algorithm whose optional method mcheck would
// never call, with the signature it expects, and keeps the others.
func TestRegisterRefusesAnOptionalMethodNeverCalled(t *testing.T) {
	reg := specs.Builtin()
	err := reg.Register(specs.Spec{Name: "ring-typed", Build: specs.Builder[ring.Local, ring.Msg](misTyped{})})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `register "ring-typed": specs_test.misTyped: method MsgType(ring.Msg) int does not match MsgType(*ring.Msg) int of model.MsgTyper`)
	assert.Contains(t, err.Error(), "declare func (specs_test.misTyped) MsgType(*ring.Msg) int")
	_, err = reg.Lookup("ring-typed")
	assert.Error(t, err)
	// A factory that escaped registration cannot build a system either.
	_, err = specs.Builder[ring.Local, ring.Msg](misTyped{}).System(model.Config{N: 3}, nil)
	assert.ErrorContains(t, err, "MsgType(*ring.Msg) int")
	// Embedding ring.Algorithm as a pointer is fine.
	require.NoError(t, reg.Register(specs.Spec{Name: "ring-again", Build: specs.Builder[ring.Local, ring.Msg](&ring.Algorithm{})}))
}
