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
