#!/usr/bin/env bash
# share.sh -- the CPU seconds of a real two-worker search, split into the
# model's share (successor generation: the expander's Expand, ExpandReduced
# and Materialize, cumulative) and the engine's (everything else: table,
# claims, frontier, phases, the runtime), for issue 43's two budgets. It
# profiles BenchmarkSpinConfigs (one full safety search each, as
# bench/spin/run-shared.sh runs them) and reads the profile with pprof.
#
# Usage: bench/share.sh [RUNS]   (default 3; prints one line a run, then medians)
# ENVIRONMENT
#   CHECK_TEST  a prebuilt `go test -c ./check` binary (default: built here)
set -eu -o pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
RUNS=${1:-3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# shellcheck source=lib.sh
. "$HERE/lib.sh"

BIN=${CHECK_TEST:-}
if [ -z "$BIN" ]; then
	BIN=$WORK/check.test
	(cd "$ROOT" && go test -c -o "$BIN" ./check)
fi

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) mcheck $(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo '?'); $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'config\trun\ttotal_cpu_s\tmodel_s\tengine_s\n'
for cfg in bully-n4-boot chang-roberts-n4-crash-any; do
	: >"$WORK/m"
	: >"$WORK/e"
	: >"$WORK/t"
	for r in $(seq "$RUNS"); do
		(cd "$ROOT/check" && "$BIN" -test.run '^$' -test.bench "SpinConfigs/$cfg/workers=2\$" -test.benchtime 1x \
			-test.cpuprofile "$WORK/cpu.prof" >/dev/null)
		# pprof's -top -cum: the total, then each function's cumulative seconds.
		read -r total model < <(go tool pprof -top -cum -nodecount 100000 "$BIN" "$WORK/cpu.prof" 2>/dev/null | awk '
			/Total samples/ { for (i = 1; i <= NF; i++) if ($i == "=") { t = $(i + 1); sub(/s$/, "", t) } }
			/model\.\(\*expander\[.*\]\)\.(Expand|ExpandReduced|Materialize)$/ { c = $4; sub(/s$/, "", c); m += c }
			END { printf "%.2f %.2f\n", t, m }')
		engine=$(awk -v t="$total" -v m="$model" 'BEGIN { printf "%.2f", t - m }')
		printf '%s\t%d\t%s\t%s\t%s\n' "$cfg" "$r" "$total" "$model" "$engine"
		echo "$total" >>"$WORK/t"; echo "$model" >>"$WORK/m"; echo "$engine" >>"$WORK/e"
	done
	printf '%s\tmedian\t%s\t%s\t%s\n' "$cfg" "$(median <"$WORK/t")" "$(median <"$WORK/m")" "$(median <"$WORK/e")"
done
