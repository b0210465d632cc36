#!/usr/bin/env bash
# CI for deploy/: the local swarm script and the Slurm script (with a
# stand-in for sbatch that runs an array's tasks one after another, with
# the variables Slurm sets) each run a swarm of 4 members and merge them,
# and the merged report must be exactly the union of what the members
# found (the check and its members are those of cli's
# TestSwarmOfFourMergesTheUnion). Needs go; run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/bin/mcheck" ./cmd/mcheck
export MCHECK="$tmp/bin/mcheck"
check=(--algo bully --n 3 --crashes 1 --restarts 1 --check "all,LeaderNotDemoted" --simulate --runs 20 --continue)

# expect NAME FILE: the merged report in FILE has the union of the members.
expect() {
	local want
	for want in \
		"mcheck merge: 4 members of a simulation swarm of bully, N=3" \
		"total        80 runs, 636 steps" \
		"  SingleLeader      VIOLATED  after 4 steps p2 and p3 each consider themselves leader  (found by members 0, 3; the shortest is member 3's" \
		"  Agreement         VIOLATED  after 4 steps" \
		"  Termination       unknown  no violation in 80 random runs of 4 members" \
		"  LeaderNotDemoted  VIOLATED  step 5, deliver p1→p2 ELECTION(1), demotes the live leader p2 (now elected=⊥)  (found by members 0, 2, 3;"; do
		if ! grep -qF -- "$want" "$2"; then
			echo "$1: the merged report has no line with: $want" >&2
			cat "$2" >&2
			exit 1
		fi
	done
	echo "ok: $1"
}

echo "-- deploy/local/swarm.sh: 4 members with xargs -P 2, then the merge"
status=0
PARALLEL=2 deploy/local/swarm.sh 4 "$tmp/local" "${check[@]}" >"$tmp/local.txt" || status=$?
if [ "$status" -ne 1 ]; then
	echo "deploy/local/swarm.sh: exit status $status, want 1 (a violation)" >&2
	cat "$tmp/local.txt" >&2
	exit 1
fi
expect deploy/local/swarm.sh "$tmp/local.txt"
test -s "$tmp/local/merged.json"

echo "-- deploy/slurm/array.sh: an array of 4 and its merge, through a stand-in sbatch"
cat >"$tmp/bin/sbatch" <<'SBATCH'
#!/usr/bin/env bash
# A stand-in for Slurm's sbatch: runs the job at once (an array's tasks
# one after another, each with the variables Slurm sets), then prints a
# job ID as --parsable does.
set -euo pipefail
array='' output=/dev/null
while [ $# -gt 0 ]; do
	case $1 in
	--array=*) array=${1#--array=} ;;
	--output=*) output=${1#--output=} ;;
	--parsable | --job-name=* | --dependency=afterany:*) ;;
	-*)
		echo "sbatch stand-in: unexpected option $1" >&2
		exit 1
		;;
	*) break ;;
	esac
	shift
done
if [ -z "$array" ]; then
	"$@" >"$output" 2>&1 || true
else
	first=${array%-*} last=${array#*-}
	for i in $(seq "$first" "$last"); do
		SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_MIN=$first SLURM_ARRAY_TASK_MAX=$last \
			SLURM_ARRAY_TASK_COUNT=$((last - first + 1)) SLURM_ARRAY_TASK_STEP=1 \
			"$@" >"${output//%a/$i}" 2>&1 || echo "sbatch stand-in: task $i exited $?" >&2
	done
fi
echo 4242
SBATCH
chmod +x "$tmp/bin/sbatch"
PATH="$tmp/bin:$PATH" deploy/slurm/array.sh 4 "$tmp/slurm" "${check[@]}" | tee "$tmp/submit.txt"
grep -q "submitted: array job 4242 of 4 members, and its merge" "$tmp/submit.txt"
expect deploy/slurm/array.sh "$tmp/slurm/merge.log"
grep -qF "mcheck merge: exit status 1 (1: a violation" "$tmp/slurm/merge.log"
test -s "$tmp/slurm/merged.json"
