package trace

import (
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/internal/modelopt"
	"github.com/mcheck/mcheck/model"
)

// The heading names an option that Describe has no words for, by its
// flag, when it differs from its default: a new row of the table shows
// without an edit here.
func TestDescribeShowsANewRow(t *testing.T) {
	jitter := "0"
	row := modelopt.Option{
		Field: "Jitter", Flag: "jitter", API: "Jitter", Trace: "jitter",
		Bind: func(*flag.FlagSet, *modelopt.Given) {},
		Arg:  func(model.Config, bool) (string, bool) { return jitter, jitter != "0" },
	}
	tab := append(append(modelopt.Table{}, modelopt.Options...), row)
	c := ConfigOf("ring", modelopt.Base())
	assert.Empty(t, c.describeRest(modelopt.Options), "Describe words every option of the table itself")
	assert.Empty(t, c.describeRest(tab), "at its default")
	jitter = "2"
	assert.Equal(t, []string{"jitter 2"}, c.describeRest(tab))
}
