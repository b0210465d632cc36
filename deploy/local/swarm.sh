#!/usr/bin/env bash
# Run a swarm of K members of one sampled mcheck check on this machine, P
# at a time (xargs -P), then merge them: member I of K has its own seed and
# scheduler (--simulate) or hash seed and bit array (--bitstate), writes
# DIR/member-I-of-K.json and its report to DIR/member-I-of-K.log, and the
# merged report is printed (and written to DIR/merged.json).
#
#   deploy/local/swarm.sh K DIR MCHECK_FLAGS...
#   deploy/local/swarm.sh 8 swarm --algo chang-roberts --n 12 --crashes 1 --simulate --time-limit 5m
#
# Each member takes one worker (--workers 1 unless the flags say
# otherwise): the members are the parallelism. PARALLEL is how many run at
# once (default: one per CPU); MCHECK names the mcheck program (default:
# mcheck on the PATH). The exit status is the merge's: 1 a violation
# (replayed), 3 none found (nothing proven), 2 bad input, a member that
# left no result (its log says why) or one that did not finish, 0 every
# Sometimes reached.
set -euo pipefail

mcheck=${MCHECK:-mcheck}
parallel=${PARALLEL:-$(getconf _NPROCESSORS_ONLN)}

if [ $# -lt 3 ]; then
	echo "usage: $0 K DIR MCHECK_FLAGS...  (e.g. $0 8 swarm --algo ring --n 12 --simulate --time-limit 5m)" >&2
	exit 2
fi
k=$1 dir=$2
shift 2
case $k in
'' | *[!0-9]* | 0)
	echo "$0: K must be a number of members, 1 or more, not \"$k\"" >&2
	exit 2
	;;
esac
mkdir -p "$dir"
rm -f "$dir"/member-*-of-"$k".json "$dir"/member-*-of-"$k".log

# xargs exits 123 when a member exits 1 (a violation) or 3 (none found):
# the merge judges the members, and names any that left no result. The
# inner shell expands its own arguments: $1 is a member's index.
# shellcheck disable=SC2016
seq 0 $((k - 1)) | xargs -P "$parallel" -I{} sh -c \
	'i=$1 k=$2 dir=$3; shift 3; exec "$@" --shard "$i/$k" --json-out "$dir/" >"$dir/member-$i-of-$k.log" 2>&1' \
	member {} "$k" "$dir" "$mcheck" --workers 1 --quiet "$@" || true

for i in $(seq 0 $((k - 1))); do
	if [ ! -s "$dir/member-$i-of-$k.json" ]; then
		echo "$0: member $i left no result: $(tail -n 1 "$dir/member-$i-of-$k.log")" >&2
	fi
done
exec "$mcheck" merge --json-out "$dir/merged.json" "$dir"/member-*-of-"$k".json
