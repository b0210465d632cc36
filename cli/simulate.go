package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
)

// The flags of --simulate: random runs instead of a search.
type simFlags struct {
	on        bool
	seed      seedValue // --seed
	runSeed   seedValue // --run-seed
	runs      int64
	depth     int
	scheduler string
}

// seedValue is a 64-bit seed: decimal, or hexadecimal with 0x.
type seedValue struct {
	n   uint64
	set bool
}

func (s *seedValue) String() string { return "" }
func (s *seedValue) Set(v string) error {
	n, err := strconv.ParseUint(strings.TrimSpace(v), 0, 64)
	if err != nil {
		return fmt.Errorf("%q is not a seed: give a whole number from 0 to 2^64-1, like 42 or 0x2a", v)
	}
	s.n, s.set = n, true
	return nil
}

// checkSimulate applies the rules of --simulate and its flags.
func (o *options) checkSimulate(given map[string]bool) error {
	s := &o.sim
	if !s.on {
		for _, f := range []string{"seed", "run-seed", "runs", "depth", "scheduler"} {
			if f == "seed" && given["shard"] && o.bitstate > 0 {
				continue // the base of the members' hash seeds
			}
			if given[f] {
				return fmt.Errorf("--%s is a flag of --simulate: add --simulate, or drop it", f)
			}
		}
		return nil
	}
	switch {
	case o.bitstate > 0:
		return errors.New("--simulate takes random runs and keeps no state table: drop --bitstate")
	case o.model.AutoQueue:
		return errors.New("--simulate with --max-queue auto: random runs prove no bound, give --max-queue K")
	case o.model.AutoTimeout:
		return errors.New("--simulate with --timeout auto: random runs prove no T holds, give --timeout T")
	case o.exact:
		return errors.New("--exact applies to a search's state table, which --simulate does not keep: drop --exact")
	case given["max-states"]:
		return errors.New("--max-states bounds a search: --simulate is bounded by --runs and --time-limit")
	case given["witness"]:
		return errors.New("--witness names a run of the exhaustive measures: --simulate samples them, drop --witness")
	case given["runs"] && s.runs <= 0:
		return fmt.Errorf("--runs %d would take no run: give 1 or more (default: until --time-limit, else %d)", s.runs, check.DefaultRuns)
	case s.depth <= 0:
		return fmt.Errorf("--depth %d would take no step: give 1 or more (default %d)", s.depth, check.DefaultDepth)
	case !knownScheduler(s.scheduler):
		return fmt.Errorf("--scheduler: no scheduler %q: use %s", s.scheduler, strings.Join(explore.SchedulerNames(), " or "))
	case s.runSeed.set && s.seed.set:
		return errors.New("--run-seed replays one run, --seed is the seed of all: give only one of them")
	case s.runSeed.set && given["runs"] && s.runs != 1:
		return errors.New("--run-seed replays one run: drop --runs")
	}
	return nil
}

// strategy is the search the flags ask for.
func (o *options) strategy() check.Strategy {
	if sim := o.simulation(); sim != nil {
		return sim
	}
	if o.bitstate > 0 {
		return check.Bitstate{Bytes: o.bitstate}
	}
	return check.BreadthFirst{}
}

// simulation is the check.Simulate of the flags (nil without --simulate).
func (o *options) simulation() *check.Simulate {
	s := &o.sim
	if !s.on {
		return nil
	}
	sched, _ := explore.ParseScheduler(s.scheduler)
	c := &check.Simulate{Seed: s.seed.n, Runs: s.runs, TimeLimit: o.timeLimit, Depth: s.depth, Scheduler: sched}
	if c.Runs == 0 && c.TimeLimit == 0 {
		c.Runs = check.DefaultRuns
	}
	if s.runSeed.set {
		c.Seed, c.One, c.Runs = s.runSeed.n, true, 1
	}
	return c
}

func knownScheduler(name string) bool {
	_, ok := explore.ParseScheduler(name)
	return ok
}
