#!/usr/bin/env bash
# CI for the mcheck action's steps (action.sh), run here as GitHub runs
# them: a check that holds, a check with a violation (the annotation, the
# summary with the chart, the trace files, the JUnit report, the verdict),
# and a go test that fails. Needs go; run from anywhere.
set -euo pipefail
cd "$(dirname "$0")"
action=$PWD/action.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd ../../.. && go build -o "$tmp/bin/mcheck" ./cmd/mcheck)

fail() {
	echo "action_test: $*" >&2
	exit 1
}
# step NAME ARGS...: run action.sh ARGS in a fresh runner directory.
step() {
	local name=$1
	shift
	export OUT=$tmp/$name/out GITHUB_OUTPUT=$tmp/$name/output GITHUB_STEP_SUMMARY=$tmp/$name/summary.md GITHUB_ACTIONS=true
	mkdir -p "$tmp/$name"
	"$action" "$@" >"$tmp/$name/log" 2>&1
}
export PROGRAM=$tmp/bin/mcheck

CHECK="--algo bully --n 3 --crash-any" step holds check
grep -qx "status=0" "$tmp/holds/output" || fail "a check that holds: $(cat "$tmp/holds/output")"
grep -q "| SingleLeader | holds |" "$tmp/holds/summary.md" || fail "no verdicts in the summary of a check that holds"
CHECK_STATUS=0 step holds-verdict verdict || fail "the verdict of a check that holds failed"

CHECK="--algo chang-roberts --n 4 --crashes 1" step violated check
grep -qx "status=1" "$tmp/violated/output" || fail "a violation: $(cat "$tmp/violated/output")"
grep -q "^::error title=mcheck chang-roberts%3A Termination violated::stuck without a leader" "$tmp/violated/log" || fail "no annotation: $(cat "$tmp/violated/log")"
grep -q '^```mermaid' "$tmp/violated/summary.md" || fail "no chart in the summary"
grep -q "| Termination | \*\*VIOLATED\*\* |" "$tmp/violated/summary.md" || fail "no verdict in the summary"
test -s "$tmp/violated/out/traces/Termination-stuck.trace.json" || fail "no trace file: $(ls -R "$tmp/violated/out")"
"$PROGRAM" replay --quiet "$tmp/violated/out/traces/Termination-stuck.trace.json" >/dev/null || fail "the trace file does not replay"
grep -q '<failure' "$tmp/violated/out/junit.xml" || fail "no failure in the JUnit report"
if CHECK_STATUS=1 step violated-verdict verdict; then fail "the verdict of a violation passed"; fi
grep -q "a property is violated" "$tmp/violated-verdict/log"
CHECK_STATUS=3 step none-verdict verdict || fail "none found failed without fail-on-none-found"
if CHECK_STATUS=3 FAIL_ON_NONE=true step none-fail-verdict verdict; then fail "none found passed with fail-on-none-found"; fi

mkdir -p "$tmp/mod"
cat >"$tmp/mod/go.mod" <<'GOMOD'
module example.com/student

go 1.26
GOMOD
cat >"$tmp/mod/x_test.go" <<'GOTEST'
package student

import "testing"

func TestElection(t *testing.T) { t.Error("Termination VIOLATED: ELECTION(4) of crashed p4 circulates forever") }
func TestRing(t *testing.T)     {}
GOTEST
(cd "$tmp/mod" && TEST="./..." step gotest test) || fail "the test step itself failed"
grep -qx "status=1" "$tmp/gotest/output" || fail "a failing go test: $(cat "$tmp/gotest/output")"
grep -qx "::error title=go test::TestElection failed: the job summary and the artifact have its counterexample" "$tmp/gotest/log" || fail "no annotation: $(cat "$tmp/gotest/log")"
grep -q "ELECTION(4) of crashed p4 circulates forever" "$tmp/gotest/summary.md" || fail "no failure text in the summary"
grep -q "ELECTION(4) of crashed p4 circulates forever" "$tmp/gotest/out/go-test.log" || fail "no go test log in the artifact"
if grep -q "TestRing" "$tmp/gotest/log"; then fail "a passing test was annotated"; fi
if TEST_STATUS=1 step gotest-verdict verdict; then fail "the verdict of a failing go test passed"; fi
echo "ok: the mcheck action's steps (a check that holds, a violation, a failing go test)"
