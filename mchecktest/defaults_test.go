package mchecktest

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/internal/modelopt"
	"github.com/mcheck/mcheck/specs/ring"
)

// The default caps reach the search. The state cap is the guard; the time
// cap is a valve that a model under the state cap does not reach even at
// a fifth of the generic (no Codec) speed of 50,000 states a second, so
// that machine load cannot turn a pass into a failure.
func TestDefaultCaps(t *testing.T) {
	req, maxTime, err := request(ring.Algorithm{}, Config{N: 3})
	require.NoError(t, err)
	assert.Equal(t, int64(DefaultMaxStates), req.MaxStates)
	assert.Equal(t, DefaultMaxTime, maxTime)
	assert.Equal(t, int64(DefaultMaxMemory), req.MemoryBudget)
	assert.GreaterOrEqual(t, DefaultMaxTime, time.Duration(DefaultMaxStates/10_000)*time.Second)

	req, maxTime, err = request(ring.Algorithm{}, Config{N: 3, MaxStates: -1, MaxTime: -1, MaxMemory: -1})
	require.NoError(t, err)
	assert.Zero(t, req.MaxStates)
	assert.Zero(t, req.MemoryBudget)
	assert.Zero(t, maxTime)
}

// nonModel are Config's fields that are no model option.
var nonModel = []string{"Name", "Check", "Properties", "MaxStates", "MaxTime", "MaxMemory", "FullStates", "Complexity", "Continue", "Simulate"}

// Config has every option of the model's table, under the table's name
// (API), and reaches the model with it: an option added to the table (and
// so to the command line) and not to Config, or not passed on, fails here.
func TestConfigHasEveryModelOption(t *testing.T) {
	ct := reflect.TypeFor[Config]()
	var want []string
	for _, o := range modelopt.Options {
		want = append(want, o.API)
		if o.ShorthandAPI != "" {
			want = append(want, o.ShorthandAPI)
		}
	}
	for i := range ct.NumField() {
		name := ct.Field(i).Name
		assert.True(t, slices.Contains(want, name) || slices.Contains(nonModel, name), "Config.%s is in no row of modelopt.Options", name)
	}
	for _, o := range modelopt.Options {
		// The whole example, field by field, under Config's names.
		var cfg Config
		cv := reflect.ValueOf(&cfg).Elem()
		for _, f := range modelopt.Options {
			dst := cv.FieldByName(f.API)
			require.True(t, dst.IsValid(), "Config has no field %s for model.Config.%s", f.API, f.Field)
			dst.Set(reflect.ValueOf(o.Example).FieldByName(f.Field))
		}
		got, err := modelConfig(cfg)
		require.NoError(t, err, o.Field)
		assert.Equal(t, o.Example.WithDefaults(), got.WithDefaults(), "%s: %+v", o.Field, cfg)
	}
	cfg, err := modelConfig(Config{CrashAny: true, N: 4})
	require.NoError(t, err)
	assert.Equal(t, 3, cfg.MaxCrashes)
}

// The tutorial's list of Config's fields is complete.
func TestTutorialListsConfigsFields(t *testing.T) {
	data, err := os.ReadFile("../docs/tutorial.md")
	require.NoError(t, err)
	m := regexp.MustCompile("(?s)- `mchecktest.Config` has (.*?)\n- ").FindSubmatch(data)
	require.NotNil(t, m, "docs/tutorial.md's paragraph on mchecktest.Config")
	ct := reflect.TypeFor[Config]()
	for i := range ct.NumField() {
		if name := ct.Field(i).Name; name != "Name" {
			assert.Contains(t, string(m[1]), "`"+name+"`", "docs/tutorial.md's paragraph on mchecktest.Config names %s", name)
		}
	}
}
