package swarm

import (
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/trace"
)

// Input is a member's result and the name it came by (its file).
type Input struct {
	Name   string
	Result *Result
}

// Merged is the union of the members of one swarm.
type Merged struct {
	Settings Settings
	// Members are the members' results by index; Names the names they
	// came by.
	Members []*Result
	Names   []string
	// Violations are the properties some member violated or, a
	// Sometimes, reached (Violation.Status says which), in the order of
	// Settings.Properties.
	Violations []Violation
	// Unfinished are the members that did not finish (Coverage.Unfinished):
	// the merge is then incomplete, as each of them is.
	Unfinished []int
	// Runs and Steps are the members' sums (a search has no runs).
	Runs, Steps int64
	// The distinct states of the members together: at least the most
	// any one explored (MostStates), at most the sum of their counts
	// (SumStates), which counts a state once per member that explored it;
	// Union estimates it from their merged sketches (HyperLogLog, about
	// 1.6% off), kept between those two.
	MostStates, SumStates int64
	Union                 float64
}

// Violation is a property that members violated (or, a Sometimes,
// reached: Status, the members' verdict): every counterexample of it that
// they found, by member, and the shortest of them.
type Violation struct {
	Property string
	Status   check.Status
	Shortest Finding
	All      []Finding
}

// Finding is a counterexample of one member, as replayed, with what the
// member judged of it (Found).
type Finding struct {
	Member int
	By     *Run
	Proof  check.Proof
	Caveat string
	Trace  *trace.File
}

// boundOnly is 1 when the member judged the counterexample to hold of
// the bounded model only (the bound cut a step of its run), else 0.
func (f Finding) boundOnly() int {
	if f.Caveat == check.CaveatRunBounded {
		return 1
	}
	return 0
}

// Steps is the length of the counterexample.
func (f Finding) Steps() int { return len(f.Trace.Steps) - 1 }

// Replay replays a member's counterexample through the model and returns
// it as the model renders it (trace.Replayed), or says why it is not one.
type Replay func(*trace.File) (*trace.File, error)

// Merge checks that inputs are the members of one swarm, each once, none
// missing, replays every counterexample they found, and puts them
// together: for each property, the shortest counterexample any member
// found (the lowest-numbered member's, of those as short), one the channel
// bound did not cut before one it did.
func Merge(inputs []Input, replay Replay) (*Merged, error) {
	if len(inputs) == 0 {
		return nil, fmt.Errorf("no member results to merge")
	}
	first := inputs[0]
	k := first.Result.Members
	m := &Merged{Settings: first.Result.Settings, Members: make([]*Result, k), Names: make([]string, k)}
	for _, in := range inputs {
		r := in.Result
		if r.Members != k {
			return nil, fmt.Errorf("%s is member %d of %d, %s member %d of %d: members of different swarms", in.Name, r.Member, r.Members, first.Name, first.Result.Member, k)
		}
		if d := differ(first.Result.Settings, r.Settings); d != "" {
			return nil, fmt.Errorf("%s and %s are members of different swarms: %s", first.Name, in.Name, d)
		}
		if m.Members[r.Member] != nil {
			return nil, fmt.Errorf("%s and %s are both member %d of %d: give each member once", m.Names[r.Member], in.Name, r.Member, k)
		}
		m.Members[r.Member], m.Names[r.Member] = r, in.Name
	}
	var missing []int
	for i, r := range m.Members {
		if r == nil {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s %s of %d missing (%d given): give every member's result, or run the missing ones again (I/%d for member I)", plural.Noun(len(missing), "member"), Ranges(missing, maxRanges), k, len(inputs), k)
	}

	union := explore.NewSketch()
	found := map[string]*Violation{}
	for i, r := range m.Members {
		c := r.Coverage
		if c.Unfinished {
			m.Unfinished = append(m.Unfinished, i)
		}
		m.Runs += c.Runs
		m.Steps += c.Steps
		m.SumStates += c.States
		m.MostStates = max(m.MostStates, c.States)
		union.Merge(c.Sketch)
		for _, f := range r.Found {
			shown, err := replay(f.Trace)
			if err != nil {
				return nil, fmt.Errorf("%s: the %s counterexample of %s does not replay: %w", m.Names[i], f.Trace.Kind, f.Trace.Property, err)
			}
			v := found[f.Trace.Property]
			if v == nil {
				v = &Violation{Property: f.Trace.Property, Status: f.Status}
				found[v.Property] = v
			}
			if f.Status != v.Status {
				first := v.All[0].Member
				return nil, fmt.Errorf("%s found %s %s, %s found it %s: members of different swarms", m.Names[first], v.Property, v.Status, m.Names[i], f.Status)
			}
			v.All = append(v.All, Finding{Member: i, By: f.By, Proof: f.Proof, Caveat: f.Caveat, Trace: shown})
		}
	}
	// An estimate, within what the counts know for certain.
	m.Union = min(max(union.Estimate(), float64(m.MostStates)), float64(m.SumStates))
	for _, p := range m.Settings.Properties {
		v := found[p]
		if v == nil {
			continue
		}
		// All is in the order of the members, so the stable minimum is the
		// lowest-numbered member's.
		// A run the channel bound did not cut shows the violation of the
		// unbounded model too: it goes before one that may be the bound's
		// artefact, however short.
		v.Shortest = slices.MinFunc(v.All, func(a, b Finding) int {
			return cmp.Or(cmp.Compare(a.boundOnly(), b.boundOnly()), cmp.Compare(a.Steps(), b.Steps()))
		})
		m.Violations = append(m.Violations, *v)
	}
	return m, nil
}

// differ names the first setting in which a and b differ, with both
// values, or is "".
func differ(a, b Settings) string {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	for i := range va.NumField() {
		x, y := va.Field(i).Interface(), vb.Field(i).Interface()
		if reflect.DeepEqual(x, y) {
			continue
		}
		name, _, _ := strings.Cut(va.Type().Field(i).Tag.Get("json"), ",")
		if c, ok := x.(trace.Config); ok && c.Describe() != y.(trace.Config).Describe() {
			return fmt.Sprintf("%s %q vs %q", name, c.Describe(), y.(trace.Config).Describe())
		}
		jx, _ := json.Marshal(x)
		jy, _ := json.Marshal(y)
		return fmt.Sprintf("%s %s vs %s", name, jx, jy)
	}
	return ""
}

// maxRanges is how many ranges of members an error lists: enough to run
// them again by hand, few enough for one line.
const maxRanges = 30

// Ranges writes the members ids (ascending) compactly: runs of consecutive
// ones as ranges, "0-3, 5, 9-12", at most most of them, then how many
// members more ("and 40 more").
func Ranges(ids []int, most int) string {
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if len(parts) == most {
			return strings.Join(parts, ", ") + fmt.Sprintf(" and %d more", len(ids)-i)
		}
		if i == j {
			parts = append(parts, strconv.Itoa(ids[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", ids[i], ids[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
