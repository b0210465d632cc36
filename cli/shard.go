package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/flagval"
	"github.com/mcheck/mcheck/report"
	"github.com/mcheck/mcheck/swarm"
	"github.com/mcheck/mcheck/trace"
)

// swarmFlags are --shard, which makes a sampled check one member of a
// swarm (package swarm), and --json-out, which writes the JSON report to
// a file: a member's result, for mcheck merge.
type swarmFlags struct {
	shard   string
	jsonOut string
	// member is --shard resolved by checkShard (nil without it); fixed is
	// whether --scheduler was given, which every member then takes.
	member *swarm.Member
	fixed  bool
}

func (s *swarmFlags) bind(fs *flag.FlagSet) {
	flagval.StringVar(fs, &s.shard, "shard", "")
	flagval.StringVar(fs, &s.jsonOut, "json-out", "")
}

// checkShard applies the rules of --shard, reading a member's index from
// the environment (getenv) when it gives only /K.
func (o *options) checkShard(given map[string]bool, getenv func(string) string) error {
	s := &o.swarm
	if !given["shard"] {
		return nil
	}
	switch {
	case !o.sim.on && o.bitstate == 0:
		return errors.New("--shard splits a sampled search among members: add --simulate or --bitstate SIZE (an exhaustive search is one search: run it whole, or with --workers)")
	case o.sim.runSeed.set:
		return errors.New("--run-seed replays one run alone: drop --shard (a member's report names the run seed of each counterexample)")
	}
	m, err := swarm.Parse(s.shard, getenv)
	if err != nil {
		return fmt.Errorf("--shard: %w", err)
	}
	s.member, s.fixed = &m, given["scheduler"]
	return nil
}

// applyShard gives a member of a swarm its own settings, derived from its
// index: a simulation's seed and (unless --scheduler fixes it) scheduler;
// a bitstate search's hash seed and bit array.
func (o *options) applyShard(req *check.Request) {
	m := o.swarm.member
	if m == nil {
		return
	}
	switch s := req.Strategy.(type) {
	case *check.Simulate:
		s.Seed = m.Seed(o.sim.seed.n)
		if !o.swarm.fixed {
			s.Scheduler = m.Scheduler()
		}
	case check.Bitstate:
		req.Strategy = check.Bitstate{Bytes: m.BitstateBytes(o.bitstate), Seed: m.HashSeed(o.sim.seed.n)}
	}
}

// jsonOutPath is where --json-out writes: the path given, or in a
// directory, member-I-of-K.json.
func (s *swarmFlags) jsonOutPath() string {
	if s.member != nil && isDirPath(s.jsonOut) {
		return filepath.Join(s.jsonOut, fmt.Sprintf("member-%d-of-%d.json", s.member.Index, s.member.Count))
	}
	return s.jsonOut
}

// checkJSONOut checks --json-out before the search: a file, or for a
// member of a swarm a directory (existing, or ending in / in a parent that
// exists).
func (s *swarmFlags) checkJSONOut() error {
	switch {
	case s.jsonOut == "":
		return nil
	case s.member == nil && isDirPath(s.jsonOut):
		return fmt.Errorf("--json-out: %s is a directory: give a file name (a directory takes a --shard member's result, as member-I-of-K.json)", s.jsonOut)
	case s.member != nil:
		if err := checkTraceOut(s.jsonOut); err != nil {
			return fmt.Errorf("--json-out: %w", err)
		}
		return nil
	}
	if err := checkOutputFile(s.jsonOut); err != nil {
		return fmt.Errorf("--json-out: %w", err)
	}
	return nil
}

// writeJSONOut writes the JSON report to --json-out (creating only the
// directory asked for, whose parent was checked before the search).
func (s *swarmFlags) writeJSONOut(res *report.Result, member *swarm.Result) error {
	if s.member != nil && isDirPath(s.jsonOut) {
		if err := os.Mkdir(s.jsonOut, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	return writeOutput(s.jsonOutPath(), func(w io.Writer) error { return report.JSON(w, res, member) })
}

// memberResult is a member's result for mcheck merge (nil when this check
// is no member): the swarm's settings, the member's own, what it covered
// and the counterexamples it found, whole.
func (o *options) memberResult(rep *check.Report, req check.Request) *swarm.Result {
	m := o.swarm.member
	if m == nil {
		return nil
	}
	st := rep.Stats
	r := &swarm.Result{
		Format: swarm.Format, Member: m.Index, Members: m.Count, IndexFrom: m.From,
		Settings: swarm.Settings{
			Strategy: rep.Strategy, Config: trace.ConfigOf(rep.Algo, rep.Config),
			Continue: o.cont, Generic: o.generic, Seed: o.sim.seed.n,
		},
		Coverage: swarm.Coverage{
			Complete: st.Complete, Stopped: st.Stopped, States: st.States, Steps: st.Transitions, Depth: st.Depth,
			// Stopped by what it found, it looked for the rest (exitStatus).
			Unfinished: !st.Complete && st.Stop != explore.StopFirstViolation && st.Stop != explore.StopExamples,
			Seconds:    st.Elapsed.Seconds(),
		},
		Found: []swarm.Found{},
	}
	for _, v := range rep.Verdicts {
		if v.Status != check.Unchecked {
			r.Settings.Properties = append(r.Settings.Properties, v.Name)
		}
	}
	o.memberStrategy(r, rep, req)
	add := func(f *trace.File, status check.Status, proof check.Proof, caveat string) {
		found := swarm.Found{Status: status, Proof: proof, Caveat: caveat, Trace: f}
		for _, by := range rep.Found {
			if by.Property == f.Property && by.Kind == f.Kind {
				found.By = &swarm.Run{Index: by.Run, Seed: by.RunSeed}
			}
		}
		r.Found = append(r.Found, found)
	}
	// In the order of rep.Files(), each with its verdict as judged.
	for _, v := range rep.Verdicts {
		if v.File != nil {
			add(v.File, v.Status, v.Proof, v.Caveat)
		}
		for _, a := range v.Also {
			add(a.File, check.Violated, v.Proof, alsoCaveat(v, a))
		}
	}
	return r
}

// memberStrategy is what a member's strategy (simulation, bitstate)
// adds to its result: its settings, what it derived, what it covered.
func (o *options) memberStrategy(r *swarm.Result, rep *check.Report, req check.Request) {
	st := rep.Stats
	if sim := rep.Simulation; sim != nil {
		r.Settings.Runs, r.Settings.Depth = req.Strategy.(*check.Simulate).Runs, o.sim.depth
		if o.timeLimit > 0 {
			r.Settings.TimeLimit = o.timeLimit.String()
		}
		if o.swarm.fixed {
			r.Settings.Scheduler = o.sim.scheduler
		}
		r.Derived = swarm.Derived{Seed: sim.Seed, Scheduler: sim.Scheduler.String()}
		r.Coverage.Runs, r.Coverage.NewLate, r.Coverage.Sketch = sim.Runs, sim.NewLate, sim.Seen
	}
	if b := rep.Bitstate; b != nil {
		r.Settings.Bitstate, r.Settings.MaxStates = o.bitstate, o.maxStates
		r.Derived = swarm.Derived{Seed: b.Seed, Bitstate: req.Strategy.(check.Bitstate).Bytes}
		r.Coverage.BitstateBytes, r.Coverage.Fill, r.Coverage.Sketch = b.Bytes, b.Fill, b.Seen
		if st.Complete {
			c := b.Coverage
			r.Coverage.ExpectedCoverage = &c
		}
	}
}

// alsoCaveat is the caveat of a further counterexample of verdict v: the
// verdict's own is its first counterexample's, and the bound may have cut a
// step of one run and not of another.
func alsoCaveat(v check.Verdict, a check.Counterexample) string {
	switch {
	case a.Bounded:
		return check.CaveatRunBounded
	case v.Caveat == check.CaveatRunBounded:
		return check.CaveatRunUnbounded
	}
	return v.Caveat
}

// writeMemberLine says, under a member's report, which member it is and
// where its result went.
func (o *options) writeMemberLine(w io.Writer) {
	m := o.swarm.member
	if m == nil {
		return
	}
	from := ""
	if m.From != swarm.Given {
		from = " (index from " + m.From + ")"
	}
	where := "write it with --json-out DIR/ for mcheck merge"
	if o.swarm.jsonOut != "" {
		where = "its result for mcheck merge is " + o.swarm.jsonOutPath()
	}
	fmt.Fprintf(w, "\nswarm        member %d of %d%s; %s\n", m.Index, m.Count, from, where)
}
