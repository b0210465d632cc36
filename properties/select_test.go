package properties_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
)

var catalogue = []model.PropertyInfo{
	{Name: "SingleLeader", Groups: []string{"safety"}},
	{Name: "Agreement", Groups: []string{"safety"}},
	{Name: "Termination", Groups: []string{"liveness"}},
	{Name: "LeaderNotDemoted", Optional: true},
	{Name: "Mine"},
}

func TestSelect(t *testing.T) {
	for _, c := range []struct {
		list string
		want []string
	}{
		{"", []string{"SingleLeader", "Agreement", "Termination", "Mine"}},
		{"all", []string{"SingleLeader", "Agreement", "Termination", "Mine"}},
		{"safety", []string{"SingleLeader", "Agreement"}},
		{"liveness, single-leader", []string{"SingleLeader", "Termination"}},
		{"leader_not_demoted,all", []string{"SingleLeader", "Agreement", "Termination", "LeaderNotDemoted", "Mine"}},
		{"MINE,mine", []string{"Mine"}},
	} {
		got, err := properties.Select(catalogue, c.list)
		require.NoError(t, err, c.list)
		assert.Equal(t, c.want, got, c.list)
	}
	_, err := properties.Select(catalogue, "safety,Liveliness")
	assert.EqualError(t, err, `unknown property "Liveliness": use a comma list of SingleLeader, Agreement, Termination, LeaderNotDemoted, Mine, safety, liveness, all`)
	assert.Equal(t, "", properties.Duplicate(catalogue))
	assert.Equal(t, "single_leader", properties.Duplicate(append(catalogue, model.PropertyInfo{Name: "single_leader"})))
}

func TestWords(t *testing.T) {
	assert.Equal(t, []string{"SingleLeader", "Agreement", "Termination", "LeaderNotDemoted", "Mine", "safety", "liveness", "all"}, properties.Words(catalogue))
}

// Check takes the named properties in the order named, and refuses a name
// it does not have or one named twice.
func TestCheck(t *testing.T) {
	all := properties.Standard[int, int]()
	got, err := properties.Check(all, []string{"Quiescent", "SingleLeader"})
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, "Quiescent", got[0].Name)
	assert.Equal(t, "SingleLeader", got[1].Name)
	_, err = properties.Check(all, []string{"SingleLeader", "Agreement", "SingleLeader"})
	assert.EqualError(t, err, `property "SingleLeader" selected twice`)
	_, err = properties.Check(all, []string{"Liveness"})
	assert.EqualError(t, err, `no property "Liveness"`)
	got, err = properties.Check(all, nil)
	require.NoError(t, err)
	assert.Empty(t, got)
}

// The standard catalogue: three checked by default, three optional, and
// each kind as documented.
func TestStandard(t *testing.T) {
	var infos []model.PropertyInfo
	for _, p := range properties.Standard[int, int]() {
		infos = append(infos, p.Info())
	}
	names, err := properties.Select(infos, "all")
	require.NoError(t, err)
	assert.Equal(t, []string{"SingleLeader", "Agreement", "Termination"}, names)
	kinds := map[string]model.PropertyKind{}
	for _, p := range infos {
		kinds[p.Name] = p.Kind
	}
	assert.Equal(t, map[string]model.PropertyKind{"SingleLeader": model.Invariant, "Agreement": model.Invariant, "Termination": model.EventuallyAlways,
		"LeaderNotDemoted": model.StepProperty, "LeaderCrashRecovered": model.LeadsTo, "Quiescent": model.EventuallyAlways}, kinds)
	assert.Equal(t, "", properties.Duplicate(infos))
}
