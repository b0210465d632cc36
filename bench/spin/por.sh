#!/usr/bin/env bash
# por.sh -- does SPIN's own partial-order reduction cut Bully's state space?
#
#   bench/spin/por.sh [N] [K]      (default N=4, K=16)
#
# Generates a per-process Promela model of `bully --n N --initial-leader=false`
# (gen_bully_procs.py: one proctype per process, one channel per ordered pair
# declared xr/xs, every variable local to its process, so that SPIN's
# reduction applies), runs pan with and without -DNOREDUCE, and mcheck on the
# same configuration. K must be large enough that no channel reaches it
# (SPIN's exclusive-channel rules forbid the receiver's look at the head of a
# channel that the bound's guards need, so the model leaves the bound out;
# equal state counts with mcheck at that K show it was never reached).
# Output: one tab-separated line per run: tool, states, transitions, wall s,
# user+sys s, peak RSS KB, and the 1-minute load average before the run.
set -euo pipefail
N=${1:-4}
K=${2:-16}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
python3 "$HERE/gen_bully_procs.py" "$N" "$K" >"$TMP/bully_procs.pml"
(cd "$TMP" && spin -a bully_procs.pml >/dev/null &&
	gcc -O2 -DSAFETY -DNOREDUCE -DMEMLIM=8000 -o pan_noreduce pan.c &&
	gcc -O2 -DSAFETY -DMEMLIM=8000 -o pan_reduce pan.c)
go build -o "$TMP/mcheck" "$ROOT/cmd/mcheck"
load() { cut -d' ' -f1 /proc/loadavg; }
printf 'tool\tstates\ttransitions\twall_s\tcpu_s\trss_kb\tload\n'
for v in noreduce reduce; do
	l=$(load)
	out=$(cd "$TMP" && /usr/bin/time -f 'TIME %e %U %S %M' ./pan_$v -m1000000 -w26 2>&1)
	st=$(grep -oE '^ *[0-9]+ states, stored' <<<"$out" | grep -oE '[0-9]+' | head -1)
	tr=$(grep -oE '[0-9]+ transitions' <<<"$out" | grep -oE '[0-9]+' | head -1)
	read -r _ wall u s rss < <(grep '^TIME' <<<"$out")
	printf 'spin-%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$v" "$st" "$tr" "$wall" "$(echo "$u + $s" | bc)" "$rss" "$l"
done
l=$(load)
out=$(/usr/bin/time -f 'TIME %e %U %S %M' "$TMP/mcheck" --algo bully --n "$N" --initial-leader=false --max-queue "$K" --check safety --json 2>&1 >"$TMP/m.json" || true)
st=$(python3 -c "import json;d=json.load(open('$TMP/m.json'));print(d['states'], d['transitions'])")
read -r _ wall u s rss < <(grep '^TIME' <<<"$out")
printf 'mcheck\t%s\t%s\t%s\t%s\t%s\t%s\n' "${st% *}" "${st#* }" "$wall" "$(echo "$u + $s" | bc)" "$rss" "$l"
