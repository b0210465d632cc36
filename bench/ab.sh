#!/usr/bin/env bash
# ab.sh -- before/after in CPU seconds: two mcheck builds run the searches of
# bench/spin/run-shared.sh (full safety searches, two workers) in turn,
# OLD, NEW, OLD, NEW, ..., so that both see the same hour of a shared host.
# Each run's user+sys CPU seconds, wall seconds and peak RSS go out as
# benchmark lines (one file per build), for benchstat to compare:
#
#   bash bench/ab.sh 9adbb81 HEAD 5     # or two built binaries
#   benchstat "$AB_OUT"/old.txt "$AB_OUT"/new.txt
#
# Usage: bench/ab.sh OLD NEW [ROUNDS]   (default 5)
#   OLD, NEW  an mcheck binary, or a git revision of this repository
#             (built from `git archive` of it)
# ENVIRONMENT
#   AB_OUT    where old.txt and new.txt go (default: a new directory, printed)
set -eu -o pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
[ $# -ge 2 ] || { echo "usage: bench/ab.sh OLD NEW [ROUNDS]   (OLD, NEW: mcheck binaries or git revisions)" >&2; exit 2; }
ROUNDS=${3:-5}
[ -x /usr/bin/time ] || { echo "ab.sh: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
OUTDIR=${AB_OUT:-$(mktemp -d)}
mkdir -p "$OUTDIR"

# build NAME SPEC: the binary SPEC, or SPEC's tree built; prints its path.
build() {
	if [ -f "$2" ] && [ -x "$2" ]; then
		echo "$2"
		return
	fi
	local src=$WORK/$1-src
	mkdir -p "$src"
	(cd "$ROOT" && git rev-parse --verify -q "$2^{commit}" >/dev/null) ||
		{ echo "ab.sh: $2 is neither an executable nor a git revision" >&2; exit 2; }
	(cd "$ROOT" && git archive "$2") | tar -x -C "$src"
	(cd "$src" && go build -o "$WORK/$1" ./cmd/mcheck)
	echo "$WORK/$1"
}
OLD=$(build old "$1")
NEW=$(build new "$2")

CONFIGS=(
	"bully-n4-boot|--algo bully --n 4 --initial-leader=false"
	"cr-n4-crashany|--algo chang-roberts --n 4 --crash-any"
)

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) old=$1 new=$2, $ROUNDS rounds; $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
: >"$OUTDIR/old.txt"
: >"$OUTDIR/new.txt"
for _ in $(seq "$ROUNDS"); do
	for c in "${CONFIGS[@]}"; do
		IFS='|' read -r name flags <<<"$c"
		for side in old new; do
			bin=$OLD
			[ "$side" = new ] && bin=$NEW
			# shellcheck disable=SC2086
			/usr/bin/time -o "$WORK/time" -f '%e %U %S %M' "$bin" $flags --check safety --por=false --quiet --json >"$WORK/out" 2>&1 || true
			grep -q '"complete": true' "$WORK/out" || { echo "ab.sh: $side's search of $name did not complete:" >&2; cat "$WORK/out" >&2; exit 1; }
			read -r wall u s rss <"$WORK/time"
			printf 'BenchmarkSearch/%s 1 %s cpu-sec %s wall-sec %s rss-KiB\n' "$name" \
				"$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')" "$wall" "$rss" >>"$OUTDIR/$side.txt"
		done
	done
done
echo "$OUTDIR"
