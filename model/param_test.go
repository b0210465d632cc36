package model_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	leasex "github.com/mcheck/mcheck/examples/lease"
	"github.com/mcheck/mcheck/model"
)

var leaseParams = leasex.Algorithm{}.Params()

func TestResolveParams(t *testing.T) {
	c, err := model.ResolveParams(leaseParams, model.Config{N: 2, Params: map[string]int{"L": 9}}, nil)
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"H": 2, "L": 9}, c.Params, "the defaults of those not given filled in")

	_, err = model.ResolveParams(leaseParams, model.Config{N: 2, Params: map[string]int{"X": 1, "L": 0}}, nil)
	assert.EqualError(t, err, "Params L=0 is out of range: give L from 1 to 40; its parameters are H (1 to 20, default 2: the heartbeat period, in ticks), L (1 to 40, default 6: the lease, in ticks)",
		"names in order: the first mistake is always the same one")
	_, err = model.ResolveParams(leaseParams, model.Config{N: 2, Params: map[string]int{"X": 1}}, nil)
	assert.EqualError(t, err, "Params X=1: the algorithm has no parameter X; its parameters are H (1 to 20, default 2: the heartbeat period, in ticks), L (1 to 40, default 6: the lease, in ticks)")
	_, err = model.ResolveParams(nil, model.Config{N: 2, Params: map[string]int{"X": 1}}, func(string) string { return "--param" })
	assert.EqualError(t, err, "--param X=1: the algorithm has no parameter X; the algorithm declares no parameters")

	// A parameter held by a Config field moves there.
	bully := []model.Param{{Name: "T", Field: "Timeout", Min: 1, Max: 9}, {Name: "T2", Field: "TimeoutCoord", Min: 1, Max: 9}}
	c, err = model.ResolveParams(bully, model.Config{N: 2, Timing: model.Sync, Params: map[string]int{"T": 5}}, nil)
	require.NoError(t, err)
	assert.Equal(t, model.Config{N: 2, Timing: model.Sync, Timeout: 5}, c)
	_, err = model.ResolveParams(bully, model.Config{N: 2, Timing: model.Sync, Timeout: 4, Params: map[string]int{"T": 5}}, nil)
	assert.EqualError(t, err, "Params T=5 and Timeout 4 set the same timeout: give only one of them")

	_, err = model.ResolveParams([]model.Param{{Name: "A", Default: 5, Min: 1, Max: 3}}, model.Config{N: 2}, nil)
	assert.EqualError(t, err, "Params: parameter A has Default 5 outside 1 to 3")
}

// A parameter is part of the configuration and changes nothing but what
// the algorithm reads of it: here the lease's Duration, so its timer.
func TestParamsSetTheTimers(t *testing.T) {
	for _, tc := range []struct {
		params map[string]int
		want   string
	}{
		{nil, "p1{leading=false elected=2 timer=6} p2{leading=true elected=2 timer=2}"},
		{map[string]int{"L": 3}, "p1{leading=false elected=2 timer=3} p2{leading=true elected=2 timer=2}"},
		{map[string]int{"H": 5, "L": 9}, "p1{leading=false elected=2 timer=9} p2{leading=true elected=2 timer=5}"},
	} {
		k, err := model.New[leasex.Local, leasex.Msg](leasex.Algorithm{}, model.Config{N: 2, Timing: model.Sync, InitialLeader: true, Params: tc.params}, nil)
		require.NoError(t, err)
		w := newTimedWalkOf(t, k)
		assert.Equal(t, tc.want, w.x.Describe(w.state), "%v", tc.params)
	}
	_, err := model.New[leasex.Local, leasex.Msg](leasex.Algorithm{}, model.Config{N: 2, Timing: model.Sync, Params: map[string]int{"L": 41}}, nil)
	assert.ErrorContains(t, err, "Params L=41 is out of range")
}

func TestTimesParam(t *testing.T) {
	times := model.TimesOf(leaseParams, model.Config{N: 2, Timing: model.Sync, Params: map[string]int{"L": 7}})
	assert.Equal(t, 7, times.Param("L"))
	assert.Equal(t, 2, times.Param("H"), "the default")
	assert.Panics(t, func() { times.Param("X") }, "an undeclared name is the algorithm's error")

	env := model.NewTestEnv[leasex.Msg](1, 2)
	env.Params = map[string]int{"H": 4}
	assert.Equal(t, 4, env.Ctx(0).Param("H"))
}

// paramEcho reads its parameter K in a handler: the initiator sends K.
type paramEcho struct{}

func (paramEcho) Params() []model.Param {
	return []model.Param{{Name: "K", Default: 7, Min: 1, Max: 9}}
}
func (paramEcho) Init() int                                          { return 0 }
func (paramEcho) Elected(l *int) int                                 { return *l }
func (paramEcho) CanInitiate(c *model.Ctx[int], l *int, _ bool) bool { return c.Self() == 0 && *l == 0 }
func (paramEcho) Initiate(c *model.Ctx[int], l *int)                 { *l = c.ID(); c.Send(1, c.Param("K")) }
func (paramEcho) Receive(_ *model.Ctx[int], l *int, _ int, m int)    { *l = m }
func (paramEcho) FormatMsg(m int) string                             { return fmt.Sprint(m) }

func TestCtxParam(t *testing.T) {
	for _, tc := range []struct {
		params map[string]int
		want   string
	}{{nil, "7"}, {map[string]int{"K": 3}, "3"}} {
		k, err := model.New[int, int](paramEcho{}, model.Config{N: 2, Params: tc.params}, nil)
		require.NoError(t, err)
		w := newTimedWalkOf(t, k)
		w.take("initiate p1")
		assert.Contains(t, w.x.Describe(w.state), "["+tc.want+"]", "a handler reads the parameter's value: %v", tc.params)
	}
}
