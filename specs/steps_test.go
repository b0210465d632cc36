package specs_test

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/mcheck/mcheck/internal/modelopt"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// TestSteps runs the step scripts in testdata/steps, in etcd raft's style:
// each command is followed by the output it must print, and
// `go test ./specs -run TestSteps -rewrite` writes the outputs anew (read
// the diff before committing it). The commands:
//
//	new algo=NAME [FLAG=VALUE ...]   a system (the flags of mcheck's Model
//	                                 section, without "--"); prints the
//	                                 initial state
//	steps                            the enabled steps, one label a line
//	step                             takes the steps whose labels are the
//	LABEL ...                        input lines, in turn, printing each
//	                                 one's state after it
//	props                            the algorithm's invariants and Sometimes
//	                                 goals (not those that count sends), true
//	                                 or false here
func TestSteps(t *testing.T) {
	datadriven.Walk(t, "testdata/steps", func(t *testing.T, path string) {
		var s stepper
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			out, err := s.run(d)
			if err != nil {
				return "error: " + err.Error() + "\n"
			}
			return out
		})
	})
}

// stepper is a script's system and the state it has walked to.
type stepper struct {
	x     model.Expander
	state []byte
	b     model.Batch
	props []string // the predicates the system evaluates, by bit
}

func (s *stepper) run(d *datadriven.TestData) (string, error) {
	if d.Cmd != "new" && s.x == nil {
		return "", fmt.Errorf("%s before new", d.Cmd)
	}
	switch d.Cmd {
	case "new":
		return s.new(d)
	case "steps":
		var out strings.Builder
		for _, l := range s.labels() {
			fmt.Fprintln(&out, l)
		}
		if s.b.Discarded > 0 {
			fmt.Fprintf(&out, "(%d discarded by the channel bound)\n", s.b.Discarded)
		}
		return out.String(), nil
	case "step":
		var out strings.Builder
		for _, want := range strings.Split(strings.TrimSpace(d.Input), "\n") {
			want = strings.TrimSpace(want)
			labels := s.labels()
			i := slices.Index(labels, want)
			if i < 0 {
				return "", fmt.Errorf("no step %q here; enabled: %s", want, strings.Join(labels, "; "))
			}
			s.state = slices.Clone(s.b.State(i))
			fmt.Fprintf(&out, "%s\n  %s\n", want, s.x.Describe(s.state))
		}
		return out.String(), nil
	case "props":
		s.x.Expand(s.state, &s.b)
		var out strings.Builder
		for i, name := range s.props {
			fmt.Fprintf(&out, "%s %t\n", name, s.b.Props&(1<<i) != 0)
		}
		return out.String(), nil
	}
	return "", fmt.Errorf("unknown command %q", d.Cmd)
}

// new builds the system of the command's arguments and loads its
// (first) initial state.
func (s *stepper) new(d *datadriven.TestData) (string, error) {
	s.x = nil
	var algo string
	var args []string
	for _, a := range d.CmdArgs {
		if a.Key == "algo" {
			algo = strings.Join(a.Vals, ",")
			continue
		}
		if len(a.Vals) == 0 {
			args = append(args, "--"+a.Key)
		} else {
			args = append(args, "--"+a.Key+"="+strings.Join(a.Vals, ","))
		}
	}
	spec, err := specs.Builtin().Lookup(algo)
	if err != nil {
		return "", err
	}
	cfg, err := parseModelFlags(args, spec.InitialLeader)
	if err != nil {
		return "", err
	}
	s.props = s.props[:0]
	for _, p := range spec.Build.Properties() {
		// Not those that count sends: they put the counts into every state.
		if (p.Kind == model.Invariant || p.Kind == model.Sometimes) && p.CountSends == 0 && len(p.CountTypes) == 0 {
			s.props = append(s.props, p.Name)
		}
	}
	sys, err := spec.Build.System(cfg, s.props)
	if err != nil {
		return "", err
	}
	if s.x, err = model.ExpanderOf(sys); err != nil {
		return "", err
	}
	s.x.Initial(&s.b)
	s.state = slices.Clone(s.b.State(0))
	return s.x.Describe(s.state) + "\n", nil
}

// labels expands the current state and names its steps, in the kernel's
// order.
func (s *stepper) labels() []string {
	s.x.Expand(s.state, &s.b)
	out := make([]string, len(s.b.Succs))
	for i, succ := range s.b.Succs {
		out[i] = s.x.Label(s.state, succ.Action)
	}
	return out
}

// parseModelFlags is the command line's reading of the model flags.
func parseModelFlags(args []string, initialLeader bool) (model.Config, error) {
	var g modelopt.Given
	fs := flag.NewFlagSet("new", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	g.Bind(fs)
	if err := fs.Parse(args); err != nil {
		return model.Config{}, err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if g.Config.MaxQueue < 0 { // not given: the default, as the command line does
		g.Config.MaxQueue = 0
	}
	return g.Resolve(func(field string) bool { o, _ := modelopt.Lookup(field); return given[o.Flag] }, modelopt.FlagName, initialLeader)
}
