package mchecktest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The report's suggestions name the Config fields a test sets, never a
// flag; an option Config lacks keeps the library's field name.
func TestReportSuggestsConfigFields(t *testing.T) {
	assert.Equal(t, "Config.Continue", configSetting("Continue", ""))
	assert.Equal(t, "Config.MaxQueue = 2", configSetting("MaxQueue", "2"))
	assert.Equal(t, "Config.InitialLeader = false", configSetting("InitialLeader", "false"))
	assert.Equal(t, "Config.Crashes", configSetting("MaxCrashes", ""))
	assert.Equal(t, "Config.Check", configSetting("Properties", ""))
	assert.Equal(t, "", configSetting("Exact", ""), "no such field: the report says Exact")
}
