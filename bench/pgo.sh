#!/usr/bin/env bash
# pgo.sh -- regenerates cmd/mcheck/default.pgo, the CPU profile that `go
# build ./cmd/mcheck` uses for profile-guided optimisation (the go command's
# -pgo=auto reads default.pgo in the main package's folder): whole checks
# of check's benchmarks (BenchmarkSpinConfigs, BenchmarkCheck,
# BenchmarkTimed, BenchmarkTutorialRing), merged into one profile.
#
# Run it after a change that moves where the time goes. A stale profile is
# still correct (it only guides inlining and devirtualisation), just less
# useful; results never depend on it.
#
# Usage: bench/pgo.sh
set -eu -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$ROOT"
go test -c -o "$WORK/check.test" ./check
"$WORK/check.test" -test.run '^$' -test.bench 'SpinConfigs' -test.benchtime 1x -test.cpuprofile "$WORK/spin.prof" >/dev/null
"$WORK/check.test" -test.run '^$' -test.bench 'Check$|Timed$|TutorialRing' -test.benchtime 1x -test.cpuprofile "$WORK/other.prof" >/dev/null
go tool pprof -proto "$WORK/spin.prof" "$WORK/other.prof" >cmd/mcheck/default.pgo
echo "pgo.sh: wrote cmd/mcheck/default.pgo ($(wc -c <cmd/mcheck/default.pgo) bytes)"
