package swarm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/trace"
)

// Format names the format of a member's result (Result), the "swarm"
// object of its JSON report.
const Format = "mcheck-swarm-member/2"

// The strategies a swarm splits (Settings.Strategy), as check names them.
const (
	Simulation = "simulation"
	Bitstate   = "bitstate"
)

// Result is what a member reports for the merge: which member of which
// swarm it is, what it covered, and the counterexamples it found, each a
// whole trace file, so that the merge replays it without running the
// member again.
type Result struct {
	Format    string `json:"format"`
	Member    int    `json:"member"`
	Members   int    `json:"members"`
	IndexFrom string `json:"index_from"`
	// Settings are the swarm's: the same in every member.
	Settings Settings `json:"settings"`
	// Derived are the member's own, derived from its index.
	Derived  Derived  `json:"derived"`
	Coverage Coverage `json:"coverage"`
	Found    []Found  `json:"found"`
}

// Settings are what the members of one swarm share: the check, and the
// flags that the members' own settings are derived from. Members whose
// settings differ are of different swarms, and are not merged.
type Settings struct {
	Strategy   string       `json:"strategy"`
	Config     trace.Config `json:"config"`
	Properties []string     `json:"properties"`
	Continue   bool         `json:"continue"`
	Generic    bool         `json:"generic_hash"`
	// Seed is the base seed the members' seeds are derived from.
	Seed uint64 `json:"seed"`
	// A simulation's runs, time limit ("" none), most steps a run, and
	// scheduler ("": each member's own, Member.Scheduler).
	Runs      int64  `json:"runs,omitempty"`
	TimeLimit string `json:"time_limit,omitempty"`
	Depth     int    `json:"max_depth,omitempty"`
	Scheduler string `json:"scheduler,omitempty"`
	// A bitstate search's largest bit array, and its limit on states.
	Bitstate  int64 `json:"bitstate_bytes,omitempty"`
	MaxStates int64 `json:"max_states,omitempty"`
}

// Derived are a member's own settings: a simulation's seed and scheduler,
// or a bitstate search's hash seed and bit array.
type Derived struct {
	Seed      uint64 `json:"seed"`
	Scheduler string `json:"scheduler,omitempty"`
	Bitstate  int64  `json:"bitstate_bytes,omitempty"`
}

// Coverage is what a member explored.
type Coverage struct {
	Complete bool   `json:"complete"`
	Stopped  string `json:"stopped,omitempty"`
	// Unfinished: the member stopped before its budget was spent for a
	// reason other than what it found (a signal, its memory budget), so
	// what it did not find it did not all look for.
	Unfinished bool `json:"unfinished,omitempty"`
	// States is the distinct states the member explored (exact for it;
	// another member's overlap them), Sketch the same as a HyperLogLog
	// sketch, which merges into the count of the union.
	States int64          `json:"states"`
	Sketch explore.Sketch `json:"states_sketch"`
	// Steps is the steps taken (a simulation) or the transitions followed
	// (a search); Depth the longest run, or the deepest level.
	Steps int64 `json:"steps"`
	Depth int   `json:"depth"`
	// A simulation's runs, and the distinct states first seen in its last
	// tenth of the time.
	Runs    int64 `json:"runs,omitempty"`
	NewLate int64 `json:"new_states_last_tenth,omitempty"`
	// A bitstate search's bit array as used (a power of two), the
	// fraction of its bits set, and its conservative estimate of the
	// fraction of states it covered (complete searches only).
	BitstateBytes    int64    `json:"bitstate_bytes,omitempty"`
	Fill             float64  `json:"fill,omitempty"`
	ExpectedCoverage *float64 `json:"expected_coverage_at_least,omitempty"`
	Seconds          float64  `json:"seconds"`
}

// Found is a counterexample a member found and replayed, with the run
// that found it (a simulation's; nil for a search), and what the member
// judged of it (check.Verdict): its status, check.Violated or, for a
// Sometimes's example, check.Reachable; what the member's search proves;
// and what limits it, in the member's words. The merge shows these, and
// never judges a counterexample again.
type Found struct {
	By     *Run         `json:"found_by,omitempty"`
	Status check.Status `json:"status"`
	Proof  check.Proof  `json:"proof"`
	Caveat string       `json:"caveat,omitempty"`
	Trace  *trace.File  `json:"trace"`
}

// Run is the simulation run that found a counterexample: its number, and
// its own seed, which replays it alone.
type Run struct {
	Index int64  `json:"run"`
	Seed  uint64 `json:"run_seed"`
}

// maxResultBytes bounds a member's report: counterexamples of a few
// hundred steps each, far from it.
const maxResultBytes = 256 << 20

// ErrNotMember is a file that is not a member's result.
var ErrNotMember = errors.New("not the result of a swarm member: no \"swarm\" object")

// Decode reads a member's result from its JSON report, and checks it.
func Decode(r io.Reader) (*Result, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxResultBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxResultBytes {
		return nil, fmt.Errorf("larger than %d MiB: not a member's result", maxResultBytes>>20)
	}
	var doc struct {
		Swarm json.RawMessage `json:"swarm"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not a JSON report: %w", err)
	}
	if len(doc.Swarm) == 0 || string(doc.Swarm) == "null" {
		return nil, ErrNotMember
	}
	dec := json.NewDecoder(bytes.NewReader(doc.Swarm))
	dec.DisallowUnknownFields()
	var res Result
	if err := dec.Decode(&res); err != nil {
		return nil, fmt.Errorf("its \"swarm\" object is not a member's result: %w", err)
	}
	return &res, res.Validate()
}

// Validate checks that r is a member's result as Result describes it.
func (r *Result) Validate() error {
	switch {
	case r.Format != Format:
		return fmt.Errorf("format %q, want %q: a result of another mcheck (run the member again with this one)", r.Format, Format)
	case r.Members < 1 || r.Members > MaxMembers:
		return fmt.Errorf("a swarm of %d members: 1 to %d", r.Members, MaxMembers)
	case r.Member < 0 || r.Member >= r.Members:
		return fmt.Errorf("member %d of %d is outside 0..%d", r.Member, r.Members, r.Members-1)
	case r.Settings.Strategy != Simulation && r.Settings.Strategy != Bitstate:
		return fmt.Errorf("strategy %q: a swarm splits a %s or a %s search", r.Settings.Strategy, Simulation, Bitstate)
	case len(r.Coverage.Sketch) != len(explore.NewSketch()):
		return fmt.Errorf("a states sketch of %d bytes, want %d", len(r.Coverage.Sketch), len(explore.NewSketch()))
	}
	if err := r.checkDerived(); err != nil {
		return err
	}
	if err := r.checkCoverage(); err != nil {
		return err
	}
	for _, f := range r.Found {
		t := f.Trace
		if t == nil {
			return errors.New("a counterexample without its trace")
		}
		if err := t.Validate(); err != nil {
			return err
		}
		switch {
		case f.Status != check.Violated && f.Status != check.Reachable:
			return fmt.Errorf("a counterexample of %s with status %q, not %s or %s", t.Property, f.Status, check.Violated, check.Reachable)
		case (f.Status == check.Reachable) != (t.Kind == cex.Example):
			return fmt.Errorf("a %s trace of %s that is %s: an example is reachable, a counterexample violated", t.Kind, t.Property, f.Status)
		case f.Proof == "":
			return fmt.Errorf("a counterexample of %s without the proof of its search", t.Property)
		case r.Settings.Strategy == Simulation && len(t.Steps)-1 > r.Settings.Depth:
			return fmt.Errorf("a counterexample of %s of %d steps, longer than a run of at most %d: %s", t.Property, len(t.Steps)-1, r.Settings.Depth, r.again())
		case f.By != nil && (r.Settings.Strategy != Simulation || f.By.Index < 0 || f.By.Seed != explore.RunSeed(r.Derived.Seed, f.By.Index)):
			return fmt.Errorf("the counterexample of %s names run %d with seed %#x, which is not that run of this member: %s", t.Property, f.By.Index, f.By.Seed, r.again())
		case !reflect.DeepEqual(t.Config, r.Settings.Config):
			return fmt.Errorf("a counterexample of %s in a check of %s", t.Config.Describe(), r.Settings.Config.Describe())
		case !slices.Contains(r.Settings.Properties, t.Property):
			return fmt.Errorf("a counterexample of %s, which the check did not check", t.Property)
		}
	}
	return nil
}

// again is what to do with a result that contradicts itself.
func (r *Result) again() string {
	return fmt.Sprintf("the result was edited, or written by another mcheck; run member %d of %d again", r.Member, r.Members)
}

// checkDerived checks that the member's own settings are those its index
// gives in this swarm: a merge counts and replays what each member's
// settings say it ran.
func (r *Result) checkDerived() error {
	s, d := r.Settings, r.Derived
	m := Member{Index: r.Member, Count: r.Members}
	var want Derived
	switch s.Strategy {
	case Simulation:
		want = Derived{Seed: m.Seed(s.Seed), Scheduler: s.Scheduler}
		if want.Scheduler == "" {
			want.Scheduler = m.Scheduler().String()
		}
	case Bitstate:
		want = Derived{Seed: m.HashSeed(s.Seed), Bitstate: m.BitstateBytes(s.Bitstate)}
	}
	if d != want {
		got, _ := json.Marshal(d)
		exp, _ := json.Marshal(want)
		return fmt.Errorf("member %d of a swarm of seed %d has the settings %s, but its index gives %s: %s", r.Member, s.Seed, got, exp, r.again())
	}
	return nil
}

// checkCoverage checks that what the member says it covered fits its
// settings: no more runs than it was given, no run longer than its
// depth, no more distinct states than it visited or its bit array holds.
func (r *Result) checkCoverage() error {
	s, c := r.Settings, r.Coverage
	bad := func(what string) error {
		return fmt.Errorf("member %d of %d covered %s: %s", r.Member, r.Members, what, r.again())
	}
	switch {
	case c.States < 0 || c.Steps < 0 || c.Depth < 0 || c.Runs < 0 || c.NewLate < 0 || c.BitstateBytes < 0 || c.Seconds < 0:
		return bad("a negative count")
	case c.Unfinished && c.Complete:
		return bad("all it was given, and did not finish")
	case c.NewLate > c.States:
		return bad(fmt.Sprintf("%d states first seen late, of %d", c.NewLate, c.States))
	}
	switch s.Strategy {
	case Simulation:
		switch {
		case s.Depth < 1 || s.Runs < 0 || (s.Runs == 0 && s.TimeLimit == ""):
			return fmt.Errorf("a simulation of %d runs of at most %d steps: %s", s.Runs, s.Depth, r.again())
		case s.Runs > 0 && c.Runs > s.Runs:
			return bad(fmt.Sprintf("%d runs, of %d", c.Runs, s.Runs))
		case c.Complete && s.TimeLimit == "" && c.Runs != s.Runs:
			return bad(fmt.Sprintf("%d runs, of %d, and finished", c.Runs, s.Runs))
		case c.Depth > s.Depth:
			return bad(fmt.Sprintf("a run of %d steps, of at most %d", c.Depth, s.Depth))
		// Divided, as the product may overflow: a run takes at most
		// Depth steps, and visits one state more than its steps.
		case c.Runs == 0 && c.Steps > 0, c.Runs > 0 && (c.Steps-1)/c.Runs >= int64(s.Depth):
			return bad(fmt.Sprintf("%d steps in %d runs of at most %d", c.Steps, c.Runs, s.Depth))
		case c.States-c.Runs > c.Steps:
			return bad(fmt.Sprintf("%d distinct states in %d runs of %d steps in all", c.States, c.Runs, c.Steps))
		case c.BitstateBytes != 0 || c.Fill != 0 || c.ExpectedCoverage != nil:
			return bad("a bit array, in a simulation")
		}
	case Bitstate:
		switch {
		case c.BitstateBytes < 8 || c.BitstateBytes > r.Derived.Bitstate || c.BitstateBytes&(c.BitstateBytes-1) != 0:
			return bad(fmt.Sprintf("a bit array of %d bytes, given %d (it takes the largest power of two that fits)", c.BitstateBytes, r.Derived.Bitstate))
		case c.States > 8*c.BitstateBytes:
			return bad(fmt.Sprintf("%d states in a bit array of %d bits (each new state sets a bit)", c.States, 8*c.BitstateBytes))
		case c.Runs != 0:
			return bad("runs, in a bitstate search")
		case !(c.Fill >= 0 && c.Fill <= 1):
			return bad(fmt.Sprintf("a bit array %v full", c.Fill))
		case c.ExpectedCoverage != nil && (!c.Complete || !(*c.ExpectedCoverage >= 0 && *c.ExpectedCoverage <= 1)):
			return bad(fmt.Sprintf("an expected coverage of %v", *c.ExpectedCoverage))
		}
	}
	return nil
}
