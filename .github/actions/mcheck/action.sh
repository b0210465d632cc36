#!/usr/bin/env bash
# The steps of the mcheck action (action.yml), each run as
#   action.sh install|check|test|verdict
# with the action's inputs in the environment (VERSION, CHECK, PROGRAM,
# TEST, OUT, CHECK_STATUS, TEST_STATUS, FAIL_ON_NONE) and GitHub's
# GITHUB_OUTPUT and GITHUB_STEP_SUMMARY. A script, not inline steps, so
# that shellcheck reads it and CI runs it (.ci/run).
set -euo pipefail

case ${1:-} in
install)
	# With no version, the one the module requires (mchecktest's), else the latest.
	if [ -z "${VERSION:-}" ] && [ -f go.mod ] && go list -m github.com/mcheck/mcheck >/dev/null 2>&1; then
		go install github.com/mcheck/mcheck/cmd/mcheck
	else
		go install "github.com/mcheck/mcheck/cmd/mcheck@${VERSION:-latest}"
	fi
	mcheck --version
	;;
check)
	mkdir -p "$OUT/traces"
	# GITHUB_ACTIONS makes mcheck print an ::error annotation per violated
	# property; GITHUB_STEP_SUMMARY with --msc appends the verdicts and the
	# chart to the job's summary.
	status=0
	# shellcheck disable=SC2086 # the program and the flags are words
	${PROGRAM:-mcheck} $CHECK --trace-out "$OUT/traces/" --junit "$OUT/junit.xml" --msc "$OUT/chart.md" || status=$?
	echo "status=$status" >>"$GITHUB_OUTPUT"
	;;
test)
	mkdir -p "$OUT"
	status=0
	# shellcheck disable=SC2086 # the arguments are words
	go test $TEST 2>&1 | tee "$OUT/go-test.log" || status=${PIPESTATUS[0]}
	echo "status=$status" >>"$GITHUB_OUTPUT"
	if [ "$status" -ne 0 ]; then
		# An annotation per failed test, and mchecktest's failure text (the
		# violated property, its counterexample) in the summary, whose
		# limit is 1 MiB.
		grep -E '^\s*--- FAIL: ' "$OUT/go-test.log" |
			sed -E 's/^\s*--- FAIL: ([^ ]+).*/::error title=go test::\1 failed: the job summary and the artifact have its counterexample/' || true
		{
			echo "## go test $TEST: FAILED"
			echo
			echo '```text'
			grep -vE '^(=== RUN|=== PAUSE|=== CONT|--- PASS|PASS$|ok )' "$OUT/go-test.log" | head -c 900000
			echo '```'
		} >>"$GITHUB_STEP_SUMMARY"
	fi
	;;
verdict)
	fail=0
	case ${CHECK_STATUS:-0} in
	0) ;;
	3)
		if [ "${FAIL_ON_NONE:-false}" = true ]; then
			echo "mcheck: none found (exit status 3), which proves nothing"
			fail=1
		fi
		;;
	1)
		echo "mcheck: a property is violated (exit status 1): the job summary has the counterexample, the artifact its trace files"
		fail=1
		;;
	*)
		echo "mcheck: exit status $CHECK_STATUS (bad input, or an incomplete search)"
		fail=1
		;;
	esac
	if [ "${TEST_STATUS:-0}" -ne 0 ]; then
		echo "go test: exit status $TEST_STATUS"
		fail=1
	fi
	exit "$fail"
	;;
*)
	echo "usage: $0 install|check|test|verdict" >&2
	exit 2
	;;
esac
