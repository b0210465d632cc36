#!/usr/bin/env bash
# termination.sh -- what checking Termination costs against the safety-only
# check (issue 14's 1.3x target): chang-roberts --n 4 --crash-any, full
# searches (--por=false --continue), the two checks alternating RUNS times
# (default 5) under /usr/bin/time. It prints one line per run, the ratio of
# each round, then the medians and the ratios of the medians for wall time,
# CPU seconds (user+sys) and peak RSS. The two runs of a round must agree
# on the state count, and the Termination run must have finished its
# fair-cycle check.
#
# Usage: bench/termination.sh [RUNS]
# ENVIRONMENT
#   MCHECK       mcheck binary (default: go build ./cmd/mcheck into a temp dir)
#   MCHECK_ARGS  extra mcheck flags, e.g. "--workers 1"
set -eu -o pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
RUNS=${1:-5}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

[ -x /usr/bin/time ] || { echo "termination.sh: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
MCHECK_BIN=${MCHECK:-}
if [ -z "$MCHECK_BIN" ]; then
	MCHECK_BIN=$WORK/mcheck
	(cd "$ROOT" && go build -o "$MCHECK_BIN" ./cmd/mcheck)
fi
FLAGS="--algo chang-roberts --n 4 --crash-any --por=false --continue --quiet --json"

# timed LIST: runs the check of LIST; sets T_WALL T_CPU T_RSS_MB STATES DONE.
timed() {
	local tf=$WORK/time.txt out
	# shellcheck disable=SC2086
	out=$(/usr/bin/time -o "$tf" -f '%e %U %S %M' "$MCHECK_BIN" $FLAGS --check "$1" ${MCHECK_ARGS:-} 2>/dev/null) || true
	# The last line: a non-zero exit (Termination violated) adds one before it.
	read -r T_WALL u s rss < <(tail -1 "$tf")
	T_CPU=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
	T_RSS_MB=$(awk -v k="$rss" 'BEGIN { printf "%.0f", k / 1024 }')
	STATES=$(sed -n 's/^  "states": \([0-9]*\),$/\1/p' <<<"$out" | head -1)
	DONE=yes
	grep -q '"complete": true' <<<"$out" || DONE="no (search incomplete)"
	if grep -A1 '"name": "Termination"' <<<"$out" | grep -q '"status": "unknown"'; then
		DONE="no (Termination unknown: the fair-cycle check did not finish)"
	fi
	return 0
}

# shellcheck source=lib.sh
. "$HERE/lib.sh"

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) mcheck $(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo '?'); $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# mcheck $FLAGS --check safety | safety,Termination ${MCHECK_ARGS:-}"
printf 'run\tcheck\tstates\twall_s\tcpu_s\trss_MiB\tround_wall_ratio\n'
for r in $(seq "$RUNS"); do
	timed safety
	sw=$T_WALL sst=$STATES
	printf '%d\tsafety\t%s\t%s\t%s\t%s\t\n' "$r" "$STATES" "$T_WALL" "$T_CPU" "$T_RSS_MB"
	echo "$T_WALL" >>"$WORK/s.w"; echo "$T_CPU" >>"$WORK/s.c"; echo "$T_RSS_MB" >>"$WORK/s.r"
	timed safety,Termination
	[ "$STATES" = "$sst" ] || DONE="no (states $STATES, safety $sst)"
	[ "$DONE" = yes ] || { echo "termination.sh: run $r: $DONE" >&2; exit 1; }
	printf '%d\ttermination\t%s\t%s\t%s\t%s\t%s\n' "$r" "$STATES" "$T_WALL" "$T_CPU" "$T_RSS_MB" "$(ratio "$T_WALL" "$sw")"
	echo "$T_WALL" >>"$WORK/t.w"; echo "$T_CPU" >>"$WORK/t.c"; echo "$T_RSS_MB" >>"$WORK/t.r"
done
sw=$(median <"$WORK/s.w"); sc=$(median <"$WORK/s.c"); sr=$(median <"$WORK/s.r")
tw=$(median <"$WORK/t.w"); tc=$(median <"$WORK/t.c"); tr=$(median <"$WORK/t.r")
echo
echo "# medians of $RUNS; ratio = with Termination / safety only; load after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'safety_wall\ttermination_wall\twall_ratio\tsafety_cpu\ttermination_cpu\tcpu_ratio\tsafety_rss_MiB\ttermination_rss_MiB\n'
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$sw" "$tw" "$(ratio "$tw" "$sw")" "$sc" "$tc" "$(ratio "$tc" "$sc")" "$sr" "$tr"
