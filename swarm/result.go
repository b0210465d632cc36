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
		case !reflect.DeepEqual(t.Config, r.Settings.Config):
			return fmt.Errorf("a counterexample of %s in a check of %s", t.Config.Describe(), r.Settings.Config.Describe())
		case !slices.Contains(r.Settings.Properties, t.Property):
			return fmt.Errorf("a counterexample of %s, which the check did not check", t.Property)
		}
	}
	return nil
}
