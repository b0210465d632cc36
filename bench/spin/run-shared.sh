#!/usr/bin/env bash
# run-shared.sh -- mcheck side by side with the hand-tuned SPIN models of
# ../shared/spin/ (one d_step per action instance, loops unrolled; see its
# README), full safety searches of the same configurations:
#
#   bully_n4_boot.pml   = mcheck --algo bully --n 4 --initial-leader=false
#   cr_n4_crashany.pml  = mcheck --algo chang-roberts --n 4 --crash-any
#
# mcheck runs with --check safety --por=false (SPIN's -DSAFETY -DNOREDUCE:
# the assertions SingleLeader and Agreement, every state). Each tool runs
# RUNS times (default 3) under /usr/bin/time -f; the script prints one line
# per run, then the medians and the ratios mcheck / SPIN of wall time, CPU
# seconds (user+sys) and peak RSS.
#
# Usage: bench/spin/run-shared.sh [RUNS]
# ENVIRONMENT
#   SHARED_SPIN  folder of the models (default: ../shared/spin beside the clone,
#                or beside the main clone when this is a git worktree)
#   MCHECK       mcheck binary (default: go build ./cmd/mcheck into a temp dir)
#   MCHECK_ARGS  extra mcheck flags, e.g. "--workers 1"
set -eu -o pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SHARED=${SHARED_SPIN:-$ROOT/../shared/spin}
if [ -z "${SHARED_SPIN:-}" ] && [ ! -d "$SHARED" ]; then
	# A git worktree: the shared folder sits beside the main clone.
	common=$(cd "$ROOT" && git rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
	[ -n "$common" ] && SHARED=$(dirname "$common")/../shared/spin
fi
RUNS=${1:-3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

[ -d "$SHARED" ] || { echo "run-shared.sh: no SPIN models at $SHARED (set SHARED_SPIN)" >&2; exit 2; }
command -v spin >/dev/null || { echo "run-shared.sh: spin is not installed (apt-get install spin)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "run-shared.sh: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }

MCHECK_BIN=${MCHECK:-}
if [ -z "$MCHECK_BIN" ]; then
	MCHECK_BIN=$WORK/mcheck
	(cd "$ROOT" && go build -o "$MCHECK_BIN" ./cmd/mcheck)
fi

# name | model file | pan flags | mcheck flags
CONFIGS=(
	"bully-n4-boot|bully_n4_boot.pml|-m1000000|--algo bully --n 4 --initial-leader=false"
	"cr-n4-crashany|cr_n4_crashany.pml|-m1000000 -w26|--algo chang-roberts --n 4 --crash-any"
)

# timed CMD...: runs CMD under /usr/bin/time; sets T_WALL T_CPU T_RSS_MB and OUT.
timed() {
	local tf=$WORK/time.txt
	OUT=$(/usr/bin/time -o "$tf" -f '%e %U %S %M' "$@" 2>&1) || true
	read -r T_WALL u s rss <"$tf"
	T_CPU=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
	T_RSS_MB=$(awk -v k="$rss" 'BEGIN { printf "%.0f", k / 1024 }')
}

# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(spin -V | head -1); mcheck $(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo '?'); $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'config\ttool\trun\tstates\twall_s\tcpu_s\trss_MiB\n'
SUMMARY=()
for c in "${CONFIGS[@]}"; do
	IFS='|' read -r name pml panflags mflags <<<"$c"
	d=$WORK/$name
	mkdir -p "$d"
	cp "$SHARED/$pml" "$d/"
	(cd "$d" && spin -a "$pml" >/dev/null && gcc -O2 -DSAFETY -DNOBOUNDCHECK -DNOFAIR -DNOREDUCE -DMEMLIM=9000 -o pan pan.c)
	: >"$d/spin.w" >"$d/spin.c" >"$d/spin.r" >"$d/go.w" >"$d/go.c" >"$d/go.r"
	for r in $(seq "$RUNS"); do
		# shellcheck disable=SC2086
		cd "$d" && timed ./pan $panflags && cd "$ROOT"
		st=$(sed -n 's/^ *\([0-9e+.]*\) states, stored.*/\1/p' <<<"$OUT" | head -1)
		grep -q "errors: 0" <<<"$OUT" || st="$st (errors!)"
		printf '%s\tspin\t%d\t%s\t%s\t%s\t%s\n' "$name" "$r" "$st" "$T_WALL" "$T_CPU" "$T_RSS_MB"
		echo "$T_WALL" >>"$d/spin.w"; echo "$T_CPU" >>"$d/spin.c"; echo "$T_RSS_MB" >>"$d/spin.r"

		# shellcheck disable=SC2086
		timed "$MCHECK_BIN" $mflags --check safety --por=false --quiet --json ${MCHECK_ARGS:-}
		st=$(sed -n 's/^  "states": \([0-9]*\),$/\1/p' <<<"$OUT" | head -1)
		grep -q '"complete": true' <<<"$OUT" || st="$st (incomplete!)"
		printf '%s\tmcheck\t%d\t%s\t%s\t%s\t%s\n' "$name" "$r" "$st" "$T_WALL" "$T_CPU" "$T_RSS_MB"
		echo "$T_WALL" >>"$d/go.w"; echo "$T_CPU" >>"$d/go.c"; echo "$T_RSS_MB" >>"$d/go.r"
	done
	sw=$(median <"$d/spin.w"); sc=$(median <"$d/spin.c"); sr=$(median <"$d/spin.r")
	gw=$(median <"$d/go.w"); gc=$(median <"$d/go.c"); gr=$(median <"$d/go.r")
	SUMMARY+=("$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$name" "$sw" "$gw" "$(ratio "$gw" "$sw")" "$sc" "$gc" "$(ratio "$gc" "$sc")" "$sr" "$gr" "$(ratio "$gr" "$sr")")")
done
echo
echo "# medians of $RUNS; ratio = mcheck / SPIN (below 1: mcheck needs less); load after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'config\tspin_wall\tmcheck_wall\twall_ratio\tspin_cpu\tmcheck_cpu\tcpu_ratio\tspin_rss_MiB\tmcheck_rss_MiB\trss_ratio\n'
printf '%s\n' "${SUMMARY[@]}"
