// Package slow sorts the tests into the fast loop (go test ./..., which
// must finish in about a minute on two cores) and the slow set that
// .ci/run adds with the build tag slow (go test -tags slow ./...): whole
// end-to-end runs, sweeps over every reference configuration, searches of
// millions of states. A slow test moves here, it is not deleted: the fast
// loop keeps a test of each rule at a small size.
package slow

import "testing"

// Test skips t in the fast loop, saying how to run it.
func Test(t testing.TB) {
	t.Helper()
	if !On {
		t.Skip("slow test: runs with go test -tags slow (as .ci/run does)")
	}
}

// Size is full with -tags slow and fast otherwise: a sweep or a search
// cap that keeps checking its rule in the fast loop, at a smaller size.
func Size(fast, full int) int {
	if On {
		return full
	}
	return fast
}
