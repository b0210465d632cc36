package specs_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/specs/ring"
)

// A course's algorithm named like a built-in one must not replace it
// silently.
func TestRegisterTwiceIsAnError(t *testing.T) {
	reg := specs.Builtin()
	builtin, err := reg.Lookup("ring")
	require.NoError(t, err)

	mine := specs.Spec{Name: "ring", Summary: "my ring", Build: specs.Builder(ring.Algorithm{})}
	err = reg.Register(mine)
	require.EqualError(t, err, `register "ring": the name is taken (bully, chang-roberts, hirschberg-sinclair, lelann, ring, ring-timeout); give your algorithm another name`)
	got, _ := reg.Lookup("ring")
	assert.Equal(t, builtin.Summary, got.Summary, "the built-in one stays")

	mine.Name = "myring"
	require.NoError(t, reg.Register(mine))
	assert.EqualError(t, reg.Register(mine), `register "myring": the name is taken (bully, chang-roberts, hirschberg-sinclair, lelann, myring, ring, ring-timeout); give your algorithm another name`)
	assert.EqualError(t, reg.Register(specs.Spec{Build: mine.Build}), "register: a spec needs a Name")
	assert.EqualError(t, reg.Register(specs.Spec{Name: "x"}), `register "x": the spec has no Build (use specs.Builder(yourAlgorithm))`)
}
