package cli

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/explore"
)

// The progress line's guess: the nearer of --max-states and the memory
// budget at the rates so far; nothing when neither is known.
func TestDeadline(t *testing.T) {
	p := explore.Progress{States: 1000, Elapsed: 10 * time.Second, MemBytes: 1 << 20}
	require.Equal(t, "  stops by 1m30s at the latest (--max-states)", deadline(p, 10_000, 1<<30))
	require.Equal(t, "  stops by 30s at the latest (memory budget)", deadline(p, 1_000_000, 4<<20))
	require.Equal(t, "", deadline(explore.Progress{}, 10_000, 1<<30))
	require.Equal(t, "", deadline(p, 0, 0))
}
