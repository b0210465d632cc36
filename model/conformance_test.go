package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/bully"
	"github.com/mcheck/mcheck/specs/changroberts"
	"github.com/mcheck/mcheck/specs/hirschsinclair"
	"github.com/mcheck/mcheck/specs/lelann"
	"github.com/mcheck/mcheck/specs/ring"
)

// base is a correct algorithm without optional methods; the traps below
// embed it and add one wrong optional method each.
type base struct{}

type cLocal struct{ Elected int }
type cMsg struct{ ID int }

func (base) Init() cLocal                                     { return cLocal{} }
func (base) Elected(l *cLocal) int                            { return l.Elected }
func (base) CanInitiate(*model.Ctx[cMsg], *cLocal, bool) bool { return false }
func (base) Initiate(*model.Ctx[cMsg], *cLocal)               {}
func (base) Receive(*model.Ctx[cMsg], *cLocal, int, cMsg)     {}
func (base) FormatMsg(cMsg) string                            { return "M" }

type misnamedTimers struct{ base }

func (misnamedTimers) Timer() []model.Timer[cLocal, cMsg] { return nil }

type pointerProperties struct{ base }

func (*pointerProperties) Properties() []model.Property[cLocal, cMsg] { return nil }

type valueMsgType struct{ base }

func (valueMsgType) MsgTypes() []string { return []string{"A"} }
func (valueMsgType) MsgType(cMsg) int   { return 0 }

type halfCodec struct{ base }

func (halfCodec) AppendLocal(b []byte, _ *cLocal) []byte { return b }

type helpers struct{ base }

// Names near optional ones, but nothing of the model in them: helpers.
func (helpers) Round() int     { return 0 }
func (helpers) Timer() string  { return "" }
func (helpers) Leader() string { return "" }

type good struct{ base }

func (good) Timers() []model.Timer[cLocal, cMsg]                 { return nil }
func (good) MsgTypes() []string                                  { return []string{"A"} }
func (good) MsgType(*cMsg) int                                   { return 0 }
func (good) Properties() []model.Property[cLocal, cMsg]          { return nil }
func (good) InitLeader(int) cLocal                               { return cLocal{} }
func (good) DescribeMsg(cMsg) model.Value                        { return model.Int(0) }
func (good) OnRestart(*model.Ctx[cMsg], *cLocal)                 {}
func (good) FormatLocal(*model.Ctx[cMsg], *cLocal) []model.Field { return nil }

func TestCheckMethodsFindsTheTraps(t *testing.T) {
	for _, c := range []struct {
		name string
		alg  model.Algorithm[cLocal, cMsg]
		want []string
	}{
		{"Timer for Timers", misnamedTimers{}, []string{
			"model_test.misnamedTimers: method Timer() []model.Timer[model_test.cLocal, model_test.cMsg] looks like Timers() []model.Timer[model_test.cLocal, model_test.cMsg] of model.Timed",
			"the timers never fire", "rename it, func (model_test.misnamedTimers) Timers() []model.Timer[model_test.cLocal, model_test.cMsg]"}},
		{"Properties on a pointer receiver", pointerProperties{}, []string{
			"method Properties is declared on the pointer receiver *model_test.pointerProperties, but the algorithm is a model_test.pointerProperties value",
			"its properties are never checked",
			"declare func (model_test.pointerProperties) Properties() []model.Property[model_test.cLocal, model_test.cMsg], or pass &model_test.pointerProperties{}"}},
		{"MsgType of a value", valueMsgType{}, []string{
			"method MsgType(model_test.cMsg) int does not match MsgType(*model_test.cMsg) int of model.MsgTyper",
			`every message counts as type "MSG"`, "declare func (model_test.valueMsgType) MsgType(*model_test.cMsg) int"}},
		{"half a codec", halfCodec{}, []string{
			"model_test.halfCodec: AppendLocal of model.Codec without the rest of it is never called",
			"func (model_test.halfCodec) DecodeLocal([]byte, *model_test.cLocal) ([]byte, error)"}},
	} {
		err := model.CheckMethods(c.alg)
		require.Error(t, err, c.name)
		for _, w := range c.want {
			assert.Contains(t, err.Error(), w, c.name)
		}
		assert.NotContains(t, err.Error(), "\n", "one line")
	}
	// Given as a pointer, the pointer receiver's methods are the algorithm's.
	assert.NoError(t, model.CheckMethods[cLocal, cMsg](&pointerProperties{}))
	assert.NoError(t, model.CheckMethods[cLocal, cMsg](helpers{}))
	assert.NoError(t, model.CheckMethods[cLocal, cMsg](good{}))
	assert.NoError(t, model.CheckMethods[cLocal, cMsg](base{}))
	// The built-in algorithms pass.
	assert.NoError(t, model.CheckMethods[ring.Local, ring.Msg](ring.Algorithm{}))
	assert.NoError(t, model.CheckMethods[changroberts.Local, changroberts.Msg](changroberts.Algorithm{}))
	assert.NoError(t, model.CheckMethods[lelann.Local, lelann.Msg](lelann.Algorithm{}))
	assert.NoError(t, model.CheckMethods[hirschsinclair.Local, hirschsinclair.Msg](hirschsinclair.Algorithm{}))
	assert.NoError(t, model.CheckMethods[bully.Local, bully.Msg](bully.Algorithm{}))
}
