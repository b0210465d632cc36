package cli

import (
	"context"
	"net"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/specs"
)

// The URL to open names the host as --addr gave it: 0.0.0.0 listens on
// every address (Go's listener says [::]), and no host is localhost.
func TestExploreURLNamesTheHostGiven(t *testing.T) {
	for _, tc := range []struct{ addr, host string }{
		{"0.0.0.0:0", `0\.0\.0\.0`},
		{":0", `localhost`},
		{"127.0.0.1:0", `127\.0\.0\.1`},
	} {
		t.Run(tc.addr, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			var out, errb syncBuffer
			done := make(chan int)
			go func() {
				done <- serveExplorer(ctx, []string{"--algo", "ring", "--n", "3", "--addr", tc.addr}, specs.Builtin(), &out, &errb)
			}()
			defer func() {
				cancel()
				assert.Equal(t, ExitHolds, <-done)
			}()
			want := regexp.MustCompile(`^mcheck explore: open http://` + tc.host + `:(\d+)/\?\S+ \(Ctrl-C stops\)\n$`)
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				if m := want.FindStringSubmatch(out.String()); m != nil {
					assert.NotEqual(t, "0", m[1], "the port the listener took")
					return
				}
				require.True(t, time.Now().Before(deadline), "no URL printed: %q %q", out.String(), errb.String())
			}
		})
	}
	assert.Equal(t, "[::1]:80", listeningAt("[::1]:0", &net.TCPAddr{IP: net.IPv6loopback, Port: 80}))
}
