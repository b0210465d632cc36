package model

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKernelScripts runs the kernel's step scripts in testdata/kernel, in
// etcd raft's style: each command is followed by the output it must
// print, and `go test ./model -run TestKernelScripts -rewrite` writes the
// outputs anew (read the diff before committing it). The scripts run the
// test algorithm of kernel_test.go (tAlg: a handler per message kind) on
// hand-written states. The commands:
//
//	new n=N [alg=codec|plain|bare|detect] [generic] [ids=3,9,4]
//	    [crashes=K] [restarts=K] [queue=K] [detector=NAME]
//	    [initiators=ID,...] [down=ID,...] [initial-leader]
//	    [props=p1-elected,all-alive] [timing=sync delay=D]
//	                 a kernel (alg: tCodecAlg, tAlg, bareAlg, detectAlg;
//	                 generic: WithGenericHashing); prints its predicates.
//	                 A timed kernel's states are shown as Describe shows
//	                 them (with ages and timers) and reached by steps only
//	initial          the initial states; the first becomes the current one
//	state            the state written in the input becomes the current
//	                 one; prints it as decoded
//	steps            every enabled step of the current state, in the
//	                 kernel's order: label, action, fairness class (and the
//	                 step's predicate bits), then the successor
//	step             takes the steps whose labels are the input lines, in
//	                 turn, printing each successor
//	props            the predicates that hold in the current state
//	describe         the current state as Describe shows it, then its Fields
//	view             the current state's View
//	fairclass C ...  the names of fairness classes
//
// A state is written as the scripts print it, processes named by ID:
//
//	p1{busy elected=3 got=ELECTION(5) from=p2 arm0 arm1 just1 restarted leader}
//	p2✝{} | p1→p2 [NOTE(1) ELECTION(5)] | crashes=1 restarts=0
//
// a process with every field zero is p1{}, one not written is live with
// every field zero, a crashed one is marked ✝ (its local state is shown
// too), "|" and line ends separate the parts. Messages are NOTE (recorded
// only), ELECTION (forwarded cw), PROBE (forwarded ccw), TO(j) (NOTE(own
// ID) to position j), BURST(j) (j NOTEs cw), ELECTED(j) (elected := j).
func TestKernelScripts(t *testing.T) {
	datadriven.Walk(t, "testdata/kernel", func(t *testing.T, path string) {
		s := &kscript{t: t}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			s.t = t
			out, err := s.run(d)
			if err != nil {
				return "error: " + err.Error() + "\n"
			}
			return out
		})
	})
}

// kscript is a script's kernel and its current state.
type kscript struct {
	t     *testing.T
	f     *fixture
	state []byte
}

// scriptProp is a predicate a script may ask for by name.
func scriptProp(name string) (Property[tLocal, tMsg], bool) {
	switch name {
	case "p1-elected":
		return Property[tLocal, tMsg]{Name: name, Holds: func(v *View[tLocal, tMsg]) bool { return v.Elected(0) != 0 }}, true
	case "all-alive":
		return Property[tLocal, tMsg]{Name: name, Holds: func(v *View[tLocal, tMsg]) bool { return v.Alive(0) && v.Alive(1) && v.Alive(2) }}, true
	}
	return Property[tLocal, tMsg]{}, false
}

func (s *kscript) run(d *datadriven.TestData) (string, error) {
	if d.Cmd != "new" && s.f == nil {
		return "", fmt.Errorf("%s before new", d.Cmd)
	}
	if d.Cmd != "new" && d.Cmd != "initial" && d.Cmd != "state" && d.Cmd != "fairclass" && s.state == nil {
		return "", fmt.Errorf("%s before a state (initial or state)", d.Cmd)
	}
	switch d.Cmd {
	case "new":
		return s.new(d)
	case "initial":
		var b Batch
		s.f.e.Initial(&b)
		var out strings.Builder
		for i := range b.Succs {
			fmt.Fprintf(&out, "%s  [action %#x %s]\n  %s\n", "initial", uint32(b.Succs[i].Action), fairName(b.Succs[i].Fair), s.render(b.State(i)))
		}
		s.state = slices.Clone(b.State(0))
		return out.String(), nil
	case "state":
		if s.f.k.shape.timed {
			return "", fmt.Errorf("a timed kernel's states have ages and timers, which the notation lacks: reach them with initial and step")
		}
		st, err := s.parse(d.Input)
		if err != nil {
			return "", err
		}
		s.state = s.f.enc(st)
		return s.render(s.state) + "\n", nil
	case "steps":
		return s.steps()
	case "step":
		var out strings.Builder
		for _, want := range strings.Split(strings.TrimSpace(d.Input), "\n") {
			want = strings.TrimSpace(want)
			var b Batch
			s.f.e.Expand(s.state, &b)
			i := slices.IndexFunc(b.Succs, func(x Succ) bool { return s.f.e.Label(s.state, x.Action) == want })
			if i < 0 {
				return "", fmt.Errorf("no step %q here", want)
			}
			s.state = slices.Clone(b.State(i))
			fmt.Fprintf(&out, "%s\n  %s\n", want, s.render(s.state))
		}
		return out.String(), nil
	case "props":
		var b Batch
		s.f.e.Expand(s.state, &b)
		var out strings.Builder
		for i, name := range s.f.k.Predicates() {
			fmt.Fprintf(&out, "%s %t\n", name, b.Props&(1<<i) != 0)
		}
		return out.String(), nil
	case "describe":
		var out strings.Builder
		fmt.Fprintln(&out, s.f.e.Describe(s.state))
		for _, fl := range s.f.e.Fields(s.state) {
			fmt.Fprintf(&out, "  %s=%s\n", fl.Name, fl.Value)
		}
		return out.String(), nil
	case "view":
		return s.view(d)
	case "fairclass":
		var out strings.Builder
		for _, a := range d.CmdArgs {
			c, err := strconv.Atoi(a.Key)
			if err != nil {
				return "", fmt.Errorf("fairclass %s: not a number", a.Key)
			}
			fmt.Fprintf(&out, "%d %s\n", c, s.f.k.FairClass(int32(c)))
		}
		return out.String(), nil
	}
	return "", fmt.Errorf("unknown command %q", d.Cmd)
}

func fairName(c int32) string {
	if c == NoFairness {
		return "unfair"
	}
	return "fair " + strconv.Itoa(int(c))
}

func (s *kscript) new(d *datadriven.TestData) (string, error) {
	s.f, s.state = nil, nil
	var cfg Config
	var alg Algorithm[tLocal, tMsg] = tCodecAlg{}
	var opts []Option
	var props []Property[tLocal, tMsg]
	for _, a := range d.CmdArgs {
		ints := func() ([]int, error) {
			var out []int
			for _, v := range strings.Split(strings.Join(a.Vals, ","), ",") {
				i, err := strconv.Atoi(v)
				if err != nil {
					return nil, fmt.Errorf("%s=%s: not a number", a.Key, v)
				}
				out = append(out, i)
			}
			return out, nil
		}
		one := func() (int, error) {
			is, err := ints()
			if err == nil && len(is) != 1 {
				err = fmt.Errorf("%s takes one number", a.Key)
			}
			if err != nil {
				return 0, err
			}
			return is[0], nil
		}
		var err error
		switch a.Key {
		case "n":
			cfg.N, err = one()
		case "ids":
			cfg.IDs, err = ints()
		case "crashes":
			cfg.MaxCrashes, err = one()
		case "restarts":
			cfg.MaxRestarts, err = one()
		case "queue":
			cfg.MaxQueue, err = one()
		case "initiators":
			cfg.Initiators, err = ints()
		case "down":
			cfg.Down, err = ints()
		case "initial-leader":
			cfg.InitialLeader = true
		case "detector":
			cfg.Detector, err = ParseDetector(strings.Join(a.Vals, ","))
		case "timing":
			cfg.Timing, err = ParseTiming(strings.Join(a.Vals, ","))
		case "delay":
			cfg.Delay, err = one()
		case "generic":
			opts = append(opts, WithGenericHashing())
		case "alg":
			switch strings.Join(a.Vals, ",") {
			case "codec":
				alg = tCodecAlg{}
			case "plain":
				alg = tAlg{}
			case "bare":
				alg = bareAlg{}
			case "detect":
				alg = detectAlg{}
			default:
				err = fmt.Errorf("alg=%s: one of codec, plain, bare, detect", strings.Join(a.Vals, ","))
			}
		case "props":
			for _, v := range strings.Split(strings.Join(a.Vals, ","), ",") {
				p, ok := scriptProp(v)
				if !ok {
					return "", fmt.Errorf("props=%s: one of p1-elected, all-alive", v)
				}
				props = append(props, p)
			}
		default:
			err = fmt.Errorf("unknown argument %q", a.Key)
		}
		if err != nil {
			return "", err
		}
	}
	k, err := New(alg, cfg, props, opts...)
	if err != nil {
		return "", err
	}
	s.f = &fixture{k: k, e: k.newExpander()}
	if len(props) == 0 {
		return "ok\n", nil
	}
	return "predicates: " + strings.Join(k.Predicates(), " ") + "\n", nil
}

// steps lists every successor of the current state.
func (s *kscript) steps() (string, error) {
	before := slices.Clone(s.state)
	var b Batch
	s.f.e.Expand(s.state, &b)
	if !slices.Equal(before, s.state) {
		return "", fmt.Errorf("Expand changed the state it expanded")
	}
	var out strings.Builder
	npreds := len(s.f.k.Predicates())
	for i, x := range b.Succs {
		fmt.Fprintf(&out, "%s  [action %#x %s", s.f.e.Label(s.state, x.Action), uint32(x.Action), fairName(x.Fair))
		if npreds > 0 {
			fmt.Fprintf(&out, " props %0*b", npreds, x.Props)
		}
		out.WriteString("]\n")
		if slices.Equal(b.State(i), s.state) {
			out.WriteString("  (the same state)\n")
		} else {
			fmt.Fprintf(&out, "  %s\n", s.render(b.State(i)))
		}
	}
	if len(b.Succs) == 0 {
		out.WriteString("no steps\n")
	}
	if b.Discarded > 0 {
		fmt.Fprintf(&out, "(%d discarded by the channel bound)\n", b.Discarded)
	}
	return out.String(), nil
}

func (s *kscript) view(d *datadriven.TestData) (string, error) {
	v := s.f.e.View(s.state)
	var out strings.Builder
	fmt.Fprintf(&out, "n=%d alive=%#b ids=%v elected=%v\n", v.N, v.Alive, v.ID[:v.N], v.Elected[:v.N])
	for _, a := range d.CmdArgs {
		if a.Key != "alive-id" {
			return "", fmt.Errorf("view takes alive-id=ID,...")
		}
		for _, x := range strings.Split(strings.Join(a.Vals, ","), ",") {
			id, err := strconv.Atoi(x)
			if err != nil {
				return "", fmt.Errorf("alive-id=%s: not a number", x)
			}
			fmt.Fprintf(&out, "alive-id %d %t\n", id, v.AliveID(id))
		}
	}
	return out.String(), nil
}

// ---- the state notation ----

var msgOps = func() map[string]uint8 {
	m := map[string]uint8{}
	for op, name := range opNames {
		m[name] = op
	}
	return m
}()

// render writes an encoded state in the scripts' notation.
func (s *kscript) render(state []byte) string {
	if s.f.k.shape.timed {
		return s.f.e.Describe(state)
	}
	ids := s.f.k.layouts[0].ids
	st := s.f.dec(s.t, state)
	var parts []string
	var procs []string
	for p, l := range st.Local {
		name := ProcName(ids[p])
		if st.Alive&(1<<p) == 0 {
			name += "✝"
		}
		var fs []string
		if l.Busy {
			fs = append(fs, "busy")
		}
		if l.Elected != 0 {
			fs = append(fs, "elected="+strconv.Itoa(l.Elected))
		}
		if l.Got != (tMsg{}) || l.From != 0 {
			fs = append(fs, "got="+tAlg{}.FormatMsg(l.Got), "from="+ProcName(ids[l.From]))
		}
		for _, b := range []struct {
			on   bool
			name string
		}{{l.Arm0, "arm0"}, {l.Arm1, "arm1"}, {l.Just1, "just1"}, {l.Restarted, "restarted"}, {l.Leader, "leader"}} {
			if b.on {
				fs = append(fs, b.name)
			}
		}
		procs = append(procs, name+"{"+strings.Join(fs, " ")+"}")
	}
	parts = append(parts, strings.Join(procs, " "))
	var keys [][2]int
	for pq := range st.Chans {
		keys = append(keys, pq)
	}
	slices.SortFunc(keys, func(a, b [2]int) int { return (a[0]*MaxN + a[1]) - (b[0]*MaxN + b[1]) })
	for _, pq := range keys {
		var ms []string
		for _, m := range st.Chans[pq] {
			ms = append(ms, tAlg{}.FormatMsg(m))
		}
		parts = append(parts, ProcName(ids[pq[0]])+"→"+ProcName(ids[pq[1]])+" ["+strings.Join(ms, " ")+"]")
	}
	if st.Crashes > 0 || st.Restarts > 0 {
		parts = append(parts, fmt.Sprintf("crashes=%d restarts=%d", st.Crashes, st.Restarts))
	}
	return strings.Join(parts, " | ")
}

var (
	procRE = regexp.MustCompile(`^p(\d+)(✝?)\{([^}]*)\}`)
	chanRE = regexp.MustCompile(`^p(\d+)→p(\d+) \[([^\]]*)\]$`)
	msgRE  = regexp.MustCompile(`^([A-Z]+)\((\d+)\)$`)
)

// parse reads a state in the scripts' notation.
func (s *kscript) parse(text string) (ws, error) {
	k := s.f.k
	ids := k.layouts[0].ids
	pos := func(name string) (int, error) {
		id, _ := strconv.Atoi(name)
		if p := slices.Index(ids, id); p >= 0 {
			return p, nil
		}
		return 0, fmt.Errorf("no process p%s (IDs %v)", name, ids)
	}
	msg := func(text string) (tMsg, error) {
		m := msgRE.FindStringSubmatch(text)
		if m == nil || msgOps[m[1]] == 0 {
			return tMsg{}, fmt.Errorf("%q is not a message (NOTE(1), ELECTION(2), ...)", text)
		}
		j, _ := strconv.Atoi(m[2])
		return tMsg{msgOps[m[1]], j}, nil
	}
	st := ws{Alive: 1<<k.n - 1, Local: make([]tLocal, k.n)}
	for _, part := range strings.FieldsFunc(text, func(r rune) bool { return r == '|' || r == '\n' }) {
		part = strings.TrimSpace(part)
		switch {
		case part == "":
		case strings.HasPrefix(part, "crashes=") || strings.HasPrefix(part, "restarts="):
			for _, f := range strings.Fields(part) {
				key, val, _ := strings.Cut(f, "=")
				n, err := strconv.Atoi(val)
				if err != nil {
					return ws{}, fmt.Errorf("%s: not a number", f)
				}
				switch key {
				case "crashes":
					st.Crashes = n
				case "restarts":
					st.Restarts = n
				default:
					return ws{}, fmt.Errorf("%s: crashes= or restarts=", f)
				}
			}
		case strings.Contains(part, "→"):
			m := chanRE.FindStringSubmatch(part)
			if m == nil {
				return ws{}, fmt.Errorf("%q is not a channel (p1→p2 [NOTE(1)])", part)
			}
			from, err := pos(m[1])
			if err != nil {
				return ws{}, err
			}
			to, err := pos(m[2])
			if err != nil {
				return ws{}, err
			}
			if st.Chans == nil {
				st.Chans = chans{}
			}
			for _, text := range strings.Fields(m[3]) {
				mm, err := msg(text)
				if err != nil {
					return ws{}, err
				}
				st.Chans[[2]int{from, to}] = append(st.Chans[[2]int{from, to}], mm)
			}
		default:
			for rest := part; rest != ""; rest = strings.TrimSpace(rest) {
				m := procRE.FindStringSubmatch(rest)
				if m == nil {
					return ws{}, fmt.Errorf("%q is not a process (p1{busy elected=3})", rest)
				}
				rest = rest[len(m[0]):]
				p, err := pos(m[1])
				if err != nil {
					return ws{}, err
				}
				if m[2] != "" {
					st.Alive &^= 1 << p
				}
				l := &st.Local[p]
				for _, f := range strings.Fields(m[3]) {
					key, val, _ := strings.Cut(f, "=")
					var err error
					switch key {
					case "busy":
						l.Busy = true
					case "arm0":
						l.Arm0 = true
					case "arm1":
						l.Arm1 = true
					case "just1":
						l.Just1 = true
					case "restarted":
						l.Restarted = true
					case "leader":
						l.Leader = true
					case "elected":
						l.Elected, err = strconv.Atoi(val)
					case "got":
						l.Got, err = msg(val)
					case "from":
						l.From, err = pos(strings.TrimPrefix(val, "p"))
					default:
						err = fmt.Errorf("unknown field %q", f)
					}
					if err != nil {
						return ws{}, fmt.Errorf("p%s: %w", m[1], err)
					}
				}
			}
		}
	}
	return st, nil
}

// The scripts took over the kernel_test.go cases that expanded
// hand-built states: as many expansions (29 f.expand and one Expand),
// initial states (5), Describe checks (3), fairness-class tables (2) and
// predicate and View checks (1 each) as those tests made, at least, so
// that a case dropped from a script is noticed.
func TestKernelScriptsKeepTheMovedCases(t *testing.T) {
	files, err := filepath.Glob("testdata/kernel/*.txt")
	require.NoError(t, err)
	got := map[string]int{}
	for _, name := range files {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		// A command is the line after a blank line (or a comment) that the
		// "----" of its expected output follows.
		lines := strings.Split(string(b), "\n")
		for i := 0; i+1 < len(lines); i++ {
			if (i == 0 || lines[i-1] == "" || strings.HasPrefix(lines[i-1], "#")) && lines[i] != "" && !strings.HasPrefix(lines[i], "#") {
				cmd, _, _ := strings.Cut(lines[i], " ")
				got[cmd]++
			}
		}
	}
	for cmd, least := range map[string]int{"steps": 30, "initial": 5, "describe": 3, "fairclass": 2, "props": 1, "view": 1} {
		assert.GreaterOrEqual(t, got[cmd], least, "%s commands in testdata/kernel", cmd)
	}
}
