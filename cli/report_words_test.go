package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/report"
)

// Every option the report's texts may suggest is named by its flag, typed
// as the user types it, so that no line of a report says a field name.
func TestReportSettingsAreFlags(t *testing.T) {
	for _, field := range report.Settings() {
		flag := flagSetting(field, "")
		assert.Regexp(t, `^--[a-z][a-z-]+$`, flag, field)
		assert.NotEmpty(t, newFlagSet(&options{}).Lookup(flag[2:]), "%s: %s is no flag of mcheck", field, flag)
	}
	assert.Equal(t, "--por=false", flagSetting("Reduce", "false"))
	assert.Equal(t, "--max-queue auto", flagSetting("MaxQueue", "auto"))
	assert.Equal(t, "--param T=auto", flagSetting("Params", "T=auto"))
}
