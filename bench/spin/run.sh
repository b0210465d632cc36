#!/usr/bin/env bash
# run.sh -- SPIN side of the mcheck performance comparison.
#
# Usage:
#   bench/spin/run.sh [OPTIONS] [CONFIG ...]     side-by-side SPIN / mcheck runs
#   bench/spin/run.sh --max-n [OPTIONS]          largest N for which
#                                                `bully --n N --crash-any` finishes
#                                                within --limit seconds in SPIN
#
# CONFIG is MODEL:N[:OPT,OPT,...]
#   MODEL  bully | changroberts (also: chang-roberts, cr)
#   OPT    il | noil          --initial-leader on / off (default: bully on, cr off)
#          crash-any          --crash-any (maxCrashes = N-1)
#          crashes=C          --crashes C
#          restarts=R         --restarts R
#          k=K                --max-queue K (default 2N)
# Without CONFIG the standard set runs:
#   bully:3:noil changroberts:3 changroberts:3:crash-any bully:4:noil changroberts:4:crash-any
#
# OPTIONS
#   --no-go         SPIN only
#   --collapse      compile pan with -DCOLLAPSE (less memory, more time)
#   --continue      do not stop at the first violation (pan -c0, mcheck --continue);
#                   needed for full counts when a property is violated (e.g. restarts)
#   --bfs           breadth-first pan (-DBFS; scratch variables made ordinary
#                   globals, as pan refuses BFS with hidden ones): spin_depth is
#                   then the shortest-path depth and must equal mcheck's depth
#                   (checked in the match column); for cross-checks, not timing
#   --timeout S     wall-clock limit per tool run (default 180)
#   --limit S       --max-n: time limit per N (default 60)
#   --max-n-go      --max-n: also run mcheck on each N (same limit)
# ENVIRONMENT
#   SPIN_MEMLIM_MB  pan -DMEMLIM (default 8192)
#   SPIN_HASH_W     pan -w (hash table of 2^W slots, default 25)
#   SPIN_DEPTH      pan -m (DFS depth bound, default 1000000; a run that hits it
#                   is reported as truncated)
#   SPIN_CFLAGS_EXTRA  more gcc flags for pan, e.g. "-DNOCOMP" (faster, more memory)
#   MCHECK          mcheck binary to use (default: go build ./cmd/mcheck once into
#                   a temp dir; the binary is what `go run ./cmd/mcheck` runs)
#   MCHECK_ARGS     extra mcheck flags, e.g. "--workers 1"
#
# Output: one line per run, tab-separated, header first:
#   model N opts | spin states, transitions, pan seconds (wall), cpu seconds (user+sys),
#   memory MB (pan's "total actual memory usage"), states/s (wall) |
#   mcheck states, transitions, seconds, cpu, memory MB, states/s |
#   match (states equal and spin transitions = mcheck transitions + 1, SPIN counting
#   the initial state as one transition; with --bfs also equal depths) |
#   ratio = mcheck states/s / spin states/s | spin depth (DFS stack depth, or BFS
#   depth with --bfs), mcheck depth (BFS) |
#   notes (violations, timeouts; load = 1-minute load average before the run).
set -u -o pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
MEMLIM=${SPIN_MEMLIM_MB:-8192}
HASHW=${SPIN_HASH_W:-25}
DEPTH=${SPIN_DEPTH:-1000000}
TIMEOUT=180
LIMIT=60
RUN_GO=1
COLLAPSE=0
CONTINUE=0
BFS=0
MAXN=0
MAXN_GO=0
CONFIGS=()

while [ $# -gt 0 ]; do
	case "$1" in
	--no-go) RUN_GO=0 ;;
	--collapse) COLLAPSE=1 ;;
	--continue) CONTINUE=1 ;;
	--bfs) BFS=1 ;;
	--timeout) TIMEOUT=$2; shift ;;
	--limit) LIMIT=$2; shift ;;
	--max-n) MAXN=1 ;;
	--max-n-go) MAXN_GO=1 ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*) CONFIGS+=("$1") ;;
	esac
	shift
done

for tool in spin gcc python3; do
	command -v $tool >/dev/null || { echo "run.sh: $tool not found (apt-get install -y spin)" >&2; exit 2; }
done
PAN_CFLAGS="-O2 -DNOREDUCE -DSAFETY -DNOFAIR -DMEMLIM=$MEMLIM -DVECTORSZ=4096"
[ $COLLAPSE = 1 ] && PAN_CFLAGS+=" -DCOLLAPSE"
[ $BFS = 1 ] && PAN_CFLAGS+=" -DBFS"
[ -n "${SPIN_CFLAGS_EXTRA:-}" ] && PAN_CFLAGS+=" $SPIN_CFLAGS_EXTRA"
TIMECMD=()
[ -x /usr/bin/time ] && TIMECMD=(/usr/bin/time -f '__CPU__ %U %S %e %M')

WORK=$(mktemp -d /tmp/spinbench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

MCHECK_BIN=${MCHECK:-}
build_mcheck() {
	[ -n "$MCHECK_BIN" ] && return 0
	MCHECK_BIN=$WORK/mcheck
	(cd "$ROOT" && go build -o "$MCHECK_BIN" ./cmd/mcheck) >&2 || { echo "run.sh: go build ./cmd/mcheck failed" >&2; MCHECK_BIN=; return 1; }
}

# parse_config CONFIG -> sets MODEL ALGO N SPINDEFS GOFLAGS DESC
parse_config() {
	local cfg=$1 opts o
	IFS=: read -r MODEL N opts <<<"$cfg"
	case "$MODEL" in
	bully) MODEL=bully ALGO=bully IL=1 ;;
	changroberts|chang-roberts|cr) MODEL=changroberts ALGO=chang-roberts IL=0 ;;
	*) echo "run.sh: unknown model in $cfg" >&2; return 1 ;;
	esac
	[[ "$N" =~ ^[0-9]+$ ]] && [ "$N" -ge 2 ] && [ "$N" -le 8 ] || { echo "run.sh: N must be 2..8 in $cfg" >&2; return 1; }
	SPINDEFS="-DN=$N" GOFLAGS="--algo $ALGO --n $N" DESC=""
	IFS=, read -r -a olist <<<"${opts:-}"
	for o in "${olist[@]}"; do
		case "$o" in
		il) IL=1 ;;
		noil) IL=0 ;;
		crash-any) SPINDEFS+=" -DCRASHANY"; GOFLAGS+=" --crash-any" ;;
		crashes=*) SPINDEFS+=" -DMAXCRASH=${o#*=}"; GOFLAGS+=" --crashes ${o#*=}" ;;
		restarts=*) SPINDEFS+=" -DMAXRESTART=${o#*=}"; GOFLAGS+=" --restarts ${o#*=}" ;;
		k=*) SPINDEFS+=" -DK=${o#*=}"; GOFLAGS+=" --max-queue ${o#*=}" ;;
		"") ;;
		*) echo "run.sh: unknown option $o in $cfg" >&2; return 1 ;;
		esac
		[ -n "$o" ] && [ "$o" != il ] && [ "$o" != noil ] && DESC+="${DESC:+,}$o"
	done
	SPINDEFS+=" -DIL=$IL"
	if [ $IL = 1 ]; then GOFLAGS+=" --initial-leader=true"; DESC="il${DESC:+,}$DESC"
	else GOFLAGS+=" --initial-leader=false"; DESC="noil${DESC:+,}$DESC"; fi
}

# run_spin (uses MODEL SPINDEFS) [limit] -> sets S_STATES S_TRANS S_SEC S_CPU S_MEM S_NOTE
run_spin() {
	local lim=${1:-$TIMEOUT} d=$WORK/spin.$RANDOM out rc
	mkdir -p "$d" && cp "$HERE/$MODEL.pml" "$HERE/iter.h" "$d/"
	S_STATES=- S_TRANS=- S_SEC=- S_CPU=- S_MEM=- S_NOTE= S_DEPTH=-
	local sdefs=$SPINDEFS; [ $BFS = 1 ] && sdefs+=" -DSCRATCH="
	(cd "$d" && spin $sdefs -a "$MODEL.pml" >spin.out 2>&1) || { S_NOTE="spin -a failed: $(tail -1 "$d/spin.out")"; return 1; }
	(cd "$d" && gcc $PAN_CFLAGS -o pan pan.c >gcc.out 2>&1) || { S_NOTE="gcc failed"; return 1; }
	local copt=""; [ $CONTINUE = 1 ] && copt="-c0"
	out=$(cd "$d" && "${TIMECMD[@]}" timeout -s INT -k 10 "$lim" ./pan $copt -m"$DEPTH" -w"$HASHW" 2>&1); rc=$?
	echo "$out" >"$d/pan.out"
	S_STATES=$(awk '/states, stored/{print $1; exit}' <<<"$out")
	S_TRANS=$(awk '/transitions \(= stored\+matched\)/{print $1; exit}' <<<"$out")
	S_SEC=$(sed -n 's/^pan: elapsed time \([0-9.e+]*\) seconds.*/\1/p' <<<"$out" | head -1)
	S_MEM=$(awk '/total actual memory usage/{print $1; exit}' <<<"$out")
	S_CPU=$(awk '/^__CPU__/{printf "%.2f", $2+$3}' <<<"$out")
	local wall=$(awk '/^__CPU__/{print $4}' <<<"$out")
	[ -z "$S_MEM" ] && S_MEM=$(awk '/^__CPU__/{printf "%.0f", $5/1024}' <<<"$out")  # -DNOCOMP prints no total: max RSS
	S_DEPTH=$(sed -n 's/.*depth reached \([0-9]*\).*/\1/p' <<<"$out" | tail -1)
	local errs=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' <<<"$out" | head -1)
	[ -z "$S_SEC" ] && S_SEC=${wall:-0}
	if [ $rc = 124 ] || [ $rc = 137 ]; then S_NOTE="spin: timeout ${lim}s (partial counts); "; return 1; fi
	grep -q "max search depth too small" <<<"$out" && S_NOTE+="spin: depth bound hit (raise SPIN_DEPTH); "
	grep -q "out of memory\|reached -DMEMLIM" <<<"$out" && { S_NOTE+="spin: out of memory (SPIN_MEMLIM_MB=$MEMLIM); "; return 1; }
	[ -n "$errs" ] && [ "$errs" != 0 ] && S_NOTE+="spin: $errs assertion violation(s)${copt:+ (search continued)}; "
	[ -z "$S_STATES" ] && { S_NOTE+="spin: no result (rc=$rc); "; S_STATES=-; return 1; }
	return 0
}

# run_go (uses GOFLAGS) [limit] -> sets G_STATES G_TRANS G_SEC G_CPU G_MEM G_NOTE
run_go() {
	local lim=${1:-$TIMEOUT} out rc js
	G_STATES=- G_TRANS=- G_SEC=- G_CPU=- G_MEM=- G_NOTE= G_DEPTH=-
	build_mcheck || { G_NOTE="mcheck build failed"; return 1; }
	local cont=""; [ $CONTINUE = 1 ] && cont="--continue"
	out=$("${TIMECMD[@]}" timeout -s INT -k 10 "$lim" "$MCHECK_BIN" $GOFLAGS --check safety --por=false $cont --quiet --json ${MCHECK_ARGS:-} 2>&1); rc=$?
	local timedout=0; { [ $rc = 124 ] || [ $rc = 137 ]; } && timedout=1
	G_CPU=$(awk '/^__CPU__/{printf "%.2f", $2+$3}' <<<"$out")
	js=$(sed '/^__CPU__/d; /^Command exited with non-zero status/d' <<<"$out")
	read -r G_STATES G_TRANS G_SEC G_MEM G_VIOL G_COMPLETE G_DEPTH < <(python3 -c '
import json, sys
try:
    d = json.loads(sys.stdin.read())
except Exception:
    print("- - - - - - -"); sys.exit()
viol = sum(1 for p in d.get("properties", []) if p.get("status") == "violated")
print(d["states"], d["transitions"], "%.3f" % d["seconds"], "%.0f" % (d.get("memory_bytes", 0) / 2**20), viol, d.get("complete", True), d.get("depth", "-"))
' <<<"$js")
	[ $timedout = 1 ] && G_NOTE="mcheck: timeout ${lim}s$([ "$G_STATES" != - ] && echo ' (partial counts)'); "
	[ "$G_STATES" = - ] && { G_NOTE+="mcheck: no JSON (rc=$rc): $(head -c 200 <<<"$js" | tr '\n\t' '  '); "; return 1; }
	[ $timedout = 1 ] && return 1
	[ "$G_VIOL" != 0 ] && G_NOTE+="mcheck: $G_VIOL property violated${cont:+ (search continued)}; "
	[ "$G_COMPLETE" != True ] && G_NOTE+="mcheck: incomplete search; "
	return 0
}

ratio() { # a b -> a/b with 2 decimals
	python3 -c 'import sys
try:
    a, b = float(sys.argv[1]), float(sys.argv[2])
    print("%.2f" % (a / b) if b > 0 else "-")
except ValueError:
    print("-")' "$1" "$2"
}

rate() { # states seconds
	python3 -c 'import sys
s, t = sys.argv[1], sys.argv[2]
try:
    s, t = float(s), float(t)
    print("%.0f" % (s / t) if t > 0 else "-")
except ValueError:
    print("-")' "$1" "$2"
}

header() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		model N opts spin_states spin_trans spin_sec spin_cpu spin_memMB spin_st/s \
		go_states go_trans go_sec go_cpu go_memMB go_st/s match go/spin spin_depth go_depth notes
}

if [ $MAXN = 1 ]; then
	echo "# largest N for which bully --n N --crash-any (initial leader on, K=2N) finishes within ${LIMIT}s in SPIN"
	echo "# pan: gcc $PAN_CFLAGS; ./pan -m$DEPTH -w$HASHW"
	header
	best=-
	for n in 2 3 4 5 6 7 8; do
		parse_config "bully:$n:crash-any" || exit 2
		LOAD=$(cut -d' ' -f1 /proc/loadavg)
		run_spin "$LIMIT"; ok=$?
		G_STATES=- G_TRANS=- G_SEC=- G_CPU=- G_MEM=- G_NOTE=; gok=1
		[ $MAXN_GO = 1 ] && { run_go "$LIMIT"; gok=$?; }
		m=-; [ $ok = 0 ] && [ $gok = 0 ] && { [ "$S_STATES" = "$G_STATES" ] && [ "$S_TRANS" = $((G_TRANS + 1)) ] && m=yes || m=NO; }
		sr=$(rate "$S_STATES" "$S_SEC"); gr=$(rate "$G_STATES" "$G_SEC")
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
			$MODEL $N "$DESC" "$S_STATES" "$S_TRANS" "$S_SEC" "$S_CPU" "$S_MEM" "$sr" \
			"$G_STATES" "$G_TRANS" "$G_SEC" "$G_CPU" "$G_MEM" "$gr" "$m" "$(ratio "$gr" "$sr")" "${S_DEPTH:--}" "${G_DEPTH:--}" "${S_NOTE}${G_NOTE}load=$LOAD"
		[ $ok = 0 ] || break
		best=$n
	done
	echo "# largest N within ${LIMIT}s in SPIN: $best"
	exit 0
fi

[ ${#CONFIGS[@]} = 0 ] && CONFIGS=(bully:3:noil changroberts:3 changroberts:3:crash-any bully:4:noil changroberts:4:crash-any)
echo "# pan: gcc $PAN_CFLAGS; ./pan$([ $CONTINUE = 1 ] && echo ' -c0') -m$DEPTH -w$HASHW"
[ $RUN_GO = 1 ] && echo "# mcheck: --check safety --por=false$([ $CONTINUE = 1 ] && echo ' --continue') --quiet --json ${MCHECK_ARGS:-}"
header
status=0
for cfg in "${CONFIGS[@]}"; do
	parse_config "$cfg" || { status=2; continue; }
	LOAD=$(cut -d' ' -f1 /proc/loadavg)
	sok=0; run_spin || { sok=1; status=1; }
	G_STATES=- G_TRANS=- G_SEC=- G_CPU=- G_MEM=- G_NOTE=; gok=1
	[ $RUN_GO = 1 ] && { run_go; gok=$?; [ $gok = 0 ] || status=1; }
	m=-
	if [ $sok = 0 ] && [ $gok = 0 ]; then
		if [ "$S_STATES" = "$G_STATES" ] && [ "$S_TRANS" = $((G_TRANS + 1)) ] && { [ $BFS = 0 ] || [ "$S_DEPTH" = "$G_DEPTH" ]; }; then
			m=yes; else m=NO; status=1; fi
	fi
	sr=$(rate "$S_STATES" "$S_SEC"); gr=$(rate "$G_STATES" "$G_SEC")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		$MODEL $N "$DESC" "$S_STATES" "$S_TRANS" "$S_SEC" "$S_CPU" "$S_MEM" "$sr" \
		"$G_STATES" "$G_TRANS" "$G_SEC" "$G_CPU" "$G_MEM" "$gr" "$m" "$(ratio "$gr" "$sr")" "${S_DEPTH:--}" "${G_DEPTH:--}" "${S_NOTE}${G_NOTE}load=$LOAD"
done
exit $status
