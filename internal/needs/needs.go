// Package needs decides what a test does when a program it needs from the
// machine is missing (Chromium for the browser tests, node, Quint's ITF
// reader): skip and say why on a developer's machine, fail where the run
// requires it. A skip is printed only by go test -v, so a CI run that
// silently lost its browser tests would still pass; MCHECK_REQUIRE (set
// by .ci/run) and CI=true turn such a skip into a failure.
package needs

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The things a test may need; MCHECK_REQUIRE names them.
const (
	Browser = "browser" // Chromium (internal/chromium.Find)
	Node    = "node"    // node on PATH
	Quint   = "quint"   // Quint's ITF reader from npm (MCHECK_QUINT_DIR)
)

// All is every need, in the order MCHECK_REQUIRE=all means.
var All = []string{Browser, Node, Quint}

// Missing ends t because need is missing (why says what and how to get
// it): t fails when the run requires need, and is skipped otherwise.
func Missing(t testing.TB, need, why string) {
	t.Helper()
	if Required(need) {
		t.Fatalf("%s is required here (%s) but missing: %s", need, reason(), why)
	}
	t.Skipf("%s (skipped: set MCHECK_REQUIRE=%s to make this a failure)", why, need)
}

// Required reports whether this run requires need: MCHECK_REQUIRE lists
// it (a comma list of Browser, Node, Quint, or "all"; "none" requires
// nothing), or MCHECK_REQUIRE is unset and CI is set to true, as CI
// services do.
func Required(need string) bool {
	list, set := os.LookupEnv("MCHECK_REQUIRE")
	return required(list, set, os.Getenv("CI"), need)
}

func required(list string, set bool, ci, need string) bool {
	if !set {
		return strings.EqualFold(ci, "true") || ci == "1"
	}
	for _, w := range strings.Split(list, ",") {
		switch w = strings.ToLower(strings.TrimSpace(w)); {
		case w == "all":
			return slices.Contains(All, need)
		case w == need:
			return true
		}
	}
	return false
}

func reason() string {
	if list, set := os.LookupEnv("MCHECK_REQUIRE"); set {
		return "MCHECK_REQUIRE=" + list
	}
	return "CI=" + os.Getenv("CI") + " requires every need unless MCHECK_REQUIRE says otherwise"
}

// Deps lists every package that the package in the test's directory
// imports, directly or not (go list -deps), for tests that keep a
// package's imports in bounds. Without a go command on PATH the test is
// skipped: the go command runs the tests, so it is there wherever they run
// with go test.
func Deps(t testing.TB) []string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the imports with")
	}
	out, err := exec.Command(gobin, "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	return strings.Fields(string(out))
}
