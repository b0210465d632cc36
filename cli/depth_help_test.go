package cli_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// --depth's help says what a run does in a quiescent state with faults
// left: it takes one and goes on (explore's runner), it does not end there.
func TestDepthHelpSaysRunsUseTheirFaults(t *testing.T) {
	code, out, _ := run("--help")
	assert.Equal(t, 0, code)
	help := strings.Join(strings.Fields(out), " ")
	assert.Contains(t, help, "--depth N the most steps of one run (default 1000); a run ends sooner only where no step is enabled: in a quiescent state (no fair step enabled) with faults left (crashes, restarts, spurious steps) it takes one and goes on, so a run that ends early has used every fault it could")
	assert.NotContains(t, help, "when the scheduler picks the end there")
}
