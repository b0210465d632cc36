package trace_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/internal/modelopt"
	"github.com/mcheck/mcheck/trace"
)

// Every option of the model's table has its key in a trace file, survives
// Config -> trace file -> Config, and shows in the report's heading
// (Describe): an option added to the model and not to trace.Config fails
// here.
func TestConfigKeepsEveryModelOption(t *testing.T) {
	tt := reflect.TypeFor[trace.Config]()
	keys := map[string]bool{}
	for i := range tt.NumField() {
		key, _, _ := strings.Cut(tt.Field(i).Tag.Get("json"), ",")
		keys[key] = true
	}
	base := trace.ConfigOf("ring", modelopt.Base()).Describe()
	for _, o := range modelopt.Options {
		assert.True(t, keys[o.Trace], "trace.Config has no key %q for model.Config.%s", o.Trace, o.Field)

		want := o.Example.WithDefaults()
		data, err := json.Marshal(trace.ConfigOf("ring", want))
		require.NoError(t, err)
		var back trace.Config
		require.NoError(t, json.Unmarshal(data, &back))
		var raw map[string]any
		require.NoError(t, json.Unmarshal(data, &raw))
		assert.Contains(t, raw, o.Trace, "%s is written under its key: %s", o.Field, data)
		got, err := back.Model()
		require.NoError(t, err, o.Field)
		assert.Equal(t, want, got, "%s through %s", o.Field, data)

		assert.NotEqual(t, base, back.Describe(), "the heading shows %s", o.Field)
	}
}
