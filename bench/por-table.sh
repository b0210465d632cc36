#!/usr/bin/env bash
# por-table.sh -- state counts with and without partial-order reduction
# (BENCHMARKS.md, "Partial-order reduction"). One line per configuration:
#   configuration | full: states seconds verdicts | reduced: states seconds verdicts [rerun]
# MCHECK: the mcheck binary (default: built from this checkout).
set -eu -o pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -z "${MCHECK:-}" ]; then
	MCHECK=$(mktemp -d)/mcheck
	(cd "$ROOT" && go build -o "$MCHECK" ./cmd/mcheck)
fi
summary='import json,sys
d=json.load(sys.stdin)
print(d["states"], "%.2f" % d["seconds"], "/".join(p["status"] for p in d["properties"][:2]), "rerun" if d.get("rerun_in_full") else "")'
row() { # ALGO N [FLAGS...]
	local a=$1 n=$2
	shift 2
	local f r
	f=$("$MCHECK" --algo "$a" --n "$n" "$@" --check safety --continue --quiet --json --por=false | python3 -c "$summary" || true)
	r=$("$MCHECK" --algo "$a" --n "$n" "$@" --check safety --continue --quiet --json | python3 -c "$summary" || true)
	echo "$a --n $n $* | $f | $r"
}
for a in ring chang-roberts lelann hirschberg-sinclair; do
	for n in 4 5 6; do row "$a" "$n"; done
done
row chang-roberts 4 --crashes 1
row chang-roberts 5 --crashes 1
row lelann 4 --crashes 1
row ring 4 --detector unreliable --max-queue 2
for n in 4 5 6; do row bully "$n"; done
row bully 4 --initial-leader=false
row bully 4 --crash-any
