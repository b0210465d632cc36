package cli_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// --depth's help names every way a run ends before its depth (explore's
// runner: a violation, a fair cycle inside the goal, no step enabled) and
// says what a run does in a quiescent state with faults left: it takes one
// and goes on, so only a run that ends with no step enabled has used every
// fault it could.
func TestDepthHelpSaysRunsUseTheirFaults(t *testing.T) {
	code, out, _ := run("--help")
	assert.Equal(t, 0, code)
	help := strings.Join(strings.Fields(out), " ")
	assert.Contains(t, help, "--depth N the most steps of one run (default 1000); a run ends sooner at a violation, at a fair cycle that keeps Termination, or where no step is enabled: in a quiescent state (no fair step enabled) with faults left (crashes, restarts, spurious steps) it takes one and goes on, so a run that ends with no step enabled has used every fault it could, while one that ends at a violation or a cycle may have faults left")
	assert.NotContains(t, help, "a run ends sooner only where no step is enabled")
	assert.NotContains(t, help, "when the scheduler picks the end there")
}
