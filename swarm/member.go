// Package swarm splits a sampled check among diversified members, as
// SPIN's swarm verification does, and merges what they found: each member
// is the same check with its own seed, scheduler, hash seed or bit array
// size, run by a cluster scheduler (a Kubernetes Indexed Job, a Slurm
// array) or by xargs on one machine, each writing its result to a file.
// The members find more together than one run of the same length would,
// because they sample differently; like every sampled search, they prove
// nothing when they find nothing.
package swarm

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcheck/mcheck/explore"
)

// Member is member Index of a swarm of Count, numbered from 0 as
// Kubernetes numbers the pods of an Indexed Job (JOB_COMPLETION_INDEX).
type Member struct {
	Index, Count int
	// From says where Index came from: Given, or the environment variable
	// it was read from.
	From string
}

// Where a member's index comes from.
const (
	Given      = "given"
	Kubernetes = "JOB_COMPLETION_INDEX"
	Slurm      = "SLURM_ARRAY_TASK_ID"
)

// MaxMembers bounds the size of a swarm: more members than any cluster
// runs at once is a mistake, not a swarm.
const MaxMembers = 100_000

// Parse reads a member from "I/K" (member I of K, from 0), or from "/K",
// which takes I from the environment (getenv): a Kubernetes Indexed Job's
// JOB_COMPLETION_INDEX, or a Slurm array task's SLURM_ARRAY_TASK_ID,
// counted from SLURM_ARRAY_TASK_MIN in steps of SLURM_ARRAY_TASK_STEP, so
// that --array=0-3, --array=1-4 and --array=0-6:2 all number their tasks
// 0..3; SLURM_ARRAY_TASK_COUNT, when set, must be K.
func Parse(s string, getenv func(string) string) (Member, error) {
	idx, count, ok := strings.Cut(strings.TrimSpace(s), "/")
	k, err := strconv.Atoi(count)
	switch {
	case !ok || err != nil:
		return Member{}, fmt.Errorf("%q is not I/K: give the member's index from 0 and the number of members, like 0/4, or /4 to read the index from JOB_COMPLETION_INDEX (Kubernetes) or SLURM_ARRAY_TASK_ID (Slurm)", s)
	case k < 1 || k > MaxMembers:
		return Member{}, fmt.Errorf("%q: a swarm has 1 to %d members, not %d", s, MaxMembers, k)
	}
	m := Member{Count: k, From: Given}
	if idx == "" {
		if m.Index, m.From, err = fromEnv(k, getenv); err != nil {
			return Member{}, err
		}
		return m, nil
	}
	if m.Index, err = strconv.Atoi(idx); err != nil {
		return Member{}, fmt.Errorf("%q is not I/K: %q is not a member index (0 to %d)", s, idx, k-1)
	}
	if m.Index < 0 || m.Index >= k {
		return Member{}, fmt.Errorf("%q: member %d of %d is outside 0..%d (members are numbered from 0)", s, m.Index, k, k-1)
	}
	return m, nil
}

// fromEnv reads the index of a member of k from the cluster scheduler's
// environment.
func fromEnv(k int, getenv func(string) string) (int, string, error) {
	job, task := getenv(Kubernetes), getenv(Slurm)
	switch {
	case job != "" && task != "":
		return 0, "", fmt.Errorf("both %s=%s (Kubernetes) and %s=%s (Slurm) are set: give the index, as I/%d", Kubernetes, job, Slurm, task, k)
	case job != "":
		i, err := strconv.Atoi(job)
		if err != nil || i < 0 || i >= k {
			return 0, "", fmt.Errorf("%s=%q is not a member index 0..%d: run %d completions of the Indexed Job", Kubernetes, job, k-1, k)
		}
		return i, Kubernetes, nil
	case task != "":
		i, err := slurmIndex(k, task, getenv)
		return i, Slurm, err
	}
	return 0, "", fmt.Errorf("no member index: give it as I/%d, or run in a Kubernetes Indexed Job (%s) or a Slurm array (%s)", k, Kubernetes, Slurm)
}

// slurmIndex is the position of array task id among the tasks of the
// array, min, min+step, ...: Slurm numbers tasks as --array says, from 0
// or from 1 or in steps.
func slurmIndex(k int, id string, getenv func(string) string) (int, error) {
	num := func(name, def string) (int, error) {
		v := getenv(name)
		if v == "" {
			v = def
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, fmt.Errorf("%s=%q is not a number", name, v)
		}
		return n, nil
	}
	task, err := num(Slurm, "")
	if err != nil {
		return 0, err
	}
	first, err := num("SLURM_ARRAY_TASK_MIN", "0")
	if err != nil {
		return 0, err
	}
	step, err := num("SLURM_ARRAY_TASK_STEP", "1")
	if err != nil {
		return 0, err
	}
	if c := getenv("SLURM_ARRAY_TASK_COUNT"); c != "" && c != strconv.Itoa(k) {
		return 0, fmt.Errorf("SLURM_ARRAY_TASK_COUNT=%s, but the swarm has %d members: submit the array with %d tasks (--array=0-%d)", c, k, k, k-1)
	}
	if step < 1 {
		return 0, fmt.Errorf("SLURM_ARRAY_TASK_STEP=%d is not a step of an array (1 or more): submit the array as a range, --array=0-%d", step, k-1)
	}
	// task-first in uint64, which holds the distance between any two
	// ints: in int it overflows for ids far apart.
	if task < first || (uint64(task)-uint64(first))%uint64(step) != 0 || (uint64(task)-uint64(first))/uint64(step) >= uint64(k) {
		return 0, fmt.Errorf("%s=%s is not one of %d tasks numbered from SLURM_ARRAY_TASK_MIN=%d in steps of %d: submit the array as a range, --array=0-%d", Slurm, id, k, first, step, k-1)
	}
	return int((uint64(task) - uint64(first)) / uint64(step)), nil
}

func (m Member) String() string { return fmt.Sprintf("%d/%d", m.Index, m.Count) }

// Salts keep the members' seeds of one kind apart from their seeds of
// another, and from the runs' seeds of the base seed (explore.RunSeed).
const (
	simSalt  = 0x5357_4152_4d53_494d // "SWARMSIM"
	hashSalt = 0x5357_4152_4d48_5348 // "SWARMHSH"
)

// Seed is the member's master seed of a simulation whose members share
// base: member i's runs are those of its own seed, which its report
// prints, so that one member can be run again alone.
func (m Member) Seed(base uint64) uint64 { return explore.RunSeed(base^simSalt, int64(m.Index)) }

// Scheduler is the member's scheduler when the swarm does not fix one:
// the schedulers in turn, from member 0's Faults (the default), so that
// half the members take faults at a rate drawn per run and half at their
// share of the enabled steps.
func (m Member) Scheduler() explore.Scheduler {
	return explore.Scheduler(m.Index % len(explore.SchedulerNames()))
}

// HashSeed is the member's hash seed of a bitstate search
// (explore.Options.BitstateSeed): never 0, which is no seed.
func (m Member) HashSeed(base uint64) uint64 {
	return max(explore.RunSeed(base^hashSalt, int64(m.Index)), 1)
}

// sizeSteps is how many sizes of bit array the members take in turn.
const sizeSteps = 4

// BitstateBytes is the member's bit array, from the swarm's largest: the
// largest, a half, a quarter or an eighth of it in turn, as SPIN's swarm
// spreads its runs over a range of sizes: a smaller array fills sooner
// and misses more, but finishes sooner and misses other states.
func (m Member) BitstateBytes(largest int64) int64 { return largest >> (m.Index % sizeSteps) }
