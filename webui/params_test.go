package webui

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/internal/modelopt"
)

// The page's own URL parameters are no model option's key: parseQuery
// takes them out before the configuration's are parsed, so a flag named
// like one would never reach the model.
func TestPageParametersAreNoModelOption(t *testing.T) {
	keys := append([]string{"algo"}, modelopt.Flags()...)
	for _, p := range []string{paramPath, paramAt, paramCycle, paramSeed, paramProperty, paramKind} {
		assert.NotContains(t, keys, p)
	}
	q, err := parseQuery("algo=ring&anonymous=true&ids=1,2,2&n=3&path=0.1&at=1")
	assert.NoError(t, err)
	assert.Equal(t, "algo=ring&anonymous=true&ids=1%2C2%2C2&n=3", q.cfg.Encode(), "every model key is the configuration's")
}
