package itf_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/itf"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// A leads-to's counterexample keeps its premise through ITF, and an
// example stays an example; both replay after the round trip.
func TestPremiseAndExampleThroughITF(t *testing.T) {
	reg := specs.Builtin()
	for _, req := range []check.Request{
		{Config: model.Config{N: 3, MaxCrashes: 1}, Properties: []string{"LeaderCrashRecovered"}, Continue: true},
		{Config: model.Config{N: 4, MaxCrashes: 1, InitialLeader: true}, Properties: []string{"TakeOver"}},
	} {
		algo := "chang-roberts"
		if req.Properties[0] == "TakeOver" {
			algo = "bully"
		}
		spec, err := reg.Lookup(algo)
		require.NoError(t, err)
		req.Spec = spec
		rep, err := check.Run(req)
		require.NoError(t, err)
		f := rep.Files()[0]
		back, err := itf.Read(write(t, f))
		require.NoError(t, err)
		assert.Equal(t, f.Kind, back.Kind)
		assert.Equal(t, f.Premise, back.Premise)
		require.NoError(t, trace.Replay(back, reg))
	}
}
