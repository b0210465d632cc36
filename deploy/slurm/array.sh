#!/usr/bin/env bash
# Submit a swarm of K members of one sampled mcheck check to Slurm: an
# array job of K tasks, each member I of K (from SLURM_ARRAY_TASK_ID) with
# its own seed and scheduler (--simulate) or hash seed and bit array
# (--bitstate), writing DIR/member-I-of-K.json; and a merge job that runs
# once every task has ended, whatever its exit status (afterany: the merge
# names a member that left no result).
#
#   deploy/slurm/array.sh K DIR MCHECK_FLAGS...
#   deploy/slurm/array.sh 64 "$SCRATCH/swarm" --algo chang-roberts --n 16 --crashes 1 --simulate --time-limit 50m
#
# mcheck on the nodes: a static binary runs on any Linux node, whatever
# its libraries. Build it once, on any machine with Go, into DIR's file
# system (or copy it there), and name it with MCHECK:
#
#   CGO_ENABLED=0 GOOS=linux go build -trimpath -o "$SCRATCH/bin/mcheck" ./cmd/mcheck
#   MCHECK="$SCRATCH/bin/mcheck" deploy/slurm/array.sh 64 "$SCRATCH/swarm" ...
#
# (MCHECK defaults to mcheck on the PATH of every node.)
#
# The time limit: a task that Slurm kills at the partition's time limit
# leaves no result. Give the tasks a limit (SBATCH_TIMELIMIT, or the
# partition's default: sinfo -o "%P %l") longer than mcheck's own
# --time-limit, with room for the replay and the write:
#
#   SBATCH_TIMELIMIT=1:00:00 deploy/slurm/array.sh 64 "$SCRATCH/swarm" ... --time-limit 50m
#
# DIR must be on a file system that every node sees. The merged report is
# DIR/merge.log (and DIR/merged.json); each member's is DIR/member-I.log.
# sbatch takes its other options (account, partition, CPUs) from the
# environment as usual: SBATCH_ACCOUNT, SBATCH_PARTITION, and for each
# task SLURM_CPUS_PER_TASK through SBATCH_CPUS_PER_TASK (mcheck uses the
# CPUs its task is given).
#
# A task's exit status says whether it left its result, a verdict or not;
# the merge job's is 0 when it merged (the verdict is in merge.log: a
# violation, replayed, or none found, which proves nothing).
set -euo pipefail

mcheck=${MCHECK:-mcheck}

usage() {
	echo "usage: $0 K DIR MCHECK_FLAGS...  (e.g. $0 64 \"\$SCRATCH/swarm\" --algo ring --n 12 --simulate --time-limit 30m)" >&2
	exit 2
}

case ${1:-} in
--member)
	# One task of the array, run by Slurm: the index is SLURM_ARRAY_TASK_ID,
	# 0..K-1 as submitted below.
	k=$2 dir=$3
	shift 3
	out="$dir/member-$SLURM_ARRAY_TASK_ID-of-$k.json"
	rm -f "$out"
	status=0
	"$mcheck" "$@" --quiet --shard "/$k" --json-out "$dir/" || status=$?
	# 1 (a violation) and 3 (none found) are both results.
	if [ -s "$out" ]; then
		exit 0
	fi
	exit "$status"
	;;
--merge)
	k=$2 dir=$3
	status=0
	"$mcheck" merge --json-out "$dir/merged.json" "$dir"/member-*-of-"$k".json || status=$?
	echo "mcheck merge: exit status $status (1: a violation, replayed above; 3: none found, nothing proven; 2: bad input, or a member did not finish; 0: every Sometimes reached)"
	case $status in
	1 | 3) exit 0 ;;
	esac
	exit "$status"
	;;
esac

[ $# -ge 3 ] || usage
k=$1 dir=$2
shift 2
case $k in
'' | *[!0-9]* | 0) usage ;;
esac
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
script=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")

members=$(sbatch --parsable --job-name=mcheck-swarm --array="0-$((k - 1))" \
	--output="$dir/member-%a.log" "$script" --member "$k" "$dir" "$@")
members=${members%%;*} # the job ID, without a cluster name
sbatch --parsable --job-name=mcheck-swarm-merge --dependency="afterany:$members" \
	--output="$dir/merge.log" "$script" --merge "$k" "$dir" >/dev/null
echo "submitted: array job $members of $k members, and its merge; the merged report will be $dir/merge.log"
