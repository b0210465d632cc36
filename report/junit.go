package report

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/trace"
)

// JUnit XML and GitHub annotations: CI systems show a violated
// property as a failing test. The shape is the common one of Ant, Jenkins
// and GitHub's test reporters: testsuites / testsuite / testcase with
// failure, error or skipped.

type junitSuites struct {
	XMLName xml.Name `xml:"testsuites"`
	Name    string   `xml:"name,attr"`
	junitCounts
	Suites []junitSuite `xml:"testsuite"`
}

// junitCounts are the attributes both suites and a suite carry.
type junitCounts struct {
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Skipped  int    `xml:"skipped,attr"`
	Time     string `xml:"time,attr"`
}

type junitSuite struct {
	Name string `xml:"name,attr"`
	junitCounts
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  string          `xml:"system-out,omitempty"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	// SystemOut says that a passing property held vacuously.
	SystemOut string `xml:"system-out,omitempty"`
	// What the case adds to its suite's counts.
	failures, errors, skipped int
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// JUnit renders the verdicts: one test case per property; a violated
// one fails with its one-line explanation and the text of its traces, an
// unreachable Sometimes fails with why, a reachable one passes with its
// example in system-out, an unknown one is an error with the reason, an
// unchecked one is skipped.
func JUnit(w io.Writer, r *Result) error {
	secs := strconv.FormatFloat((r.Stats.Elapsed + r.Stats.CycleCheck).Seconds(), 'f', 3, 64)
	cfg := trace.ConfigOf(r.Algo, r.Config)
	s := junitSuite{Name: "mcheck " + cfg.Describe(), junitCounts: junitCounts{Time: secs}, SystemOut: searchLine(r)}
	if idle := idleLine(r); idle != "" {
		s.SystemOut += "\n" + idle
	}
	s.Properties = []junitProperty{
		{"algo", r.Algo}, {"states", strconv.FormatInt(r.Stats.States, 10)},
		{"complete", strconv.FormatBool(r.Stats.Complete)}, {"bounded", strconv.FormatBool(r.Bounded())},
	}
	if cfg.Timing != "" {
		// The model of time, as its flags name it: a timed verdict holds
		// for these durations only.
		s.Properties = append(s.Properties, junitProperty{"timing", cfg.Timing}, junitProperty{"delay", strconv.Itoa(cfg.Delay)})
		if cfg.Timeout != 0 {
			s.Properties = append(s.Properties, junitProperty{"timeout", strconv.Itoa(cfg.Timeout)}, junitProperty{"timeout-coord", strconv.Itoa(cfg.TimeoutCoord)})
		}
	}
	for _, v := range r.Verdicts {
		s.add(junitCaseOf(r, v))
	}
	all := junitSuites{Name: "mcheck", junitCounts: s.junitCounts, Suites: []junitSuite{s}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitCaseOf is a property's verdict as a test case.
func junitCaseOf(r *Result, v check.Verdict) junitCase {
	c := junitCase{Name: v.Name, Classname: "mcheck." + r.Algo, Time: "0"}
	switch v.Status {
	case check.Violated:
		var body bytes.Buffer
		for _, f := range verdictFiles(v) {
			body.WriteString("\n")
			trace.WriteText(&body, f, false)
		}
		c.Failure = &junitProblem{Message: v.Summary, Type: "violated (" + v.Kind.String() + ")", Body: body.String()}
		c.failures++
	case check.Unreachable:
		c.Failure = &junitProblem{Message: v.Summary, Type: "unreachable"}
		c.failures++
	case check.Reachable:
		var body bytes.Buffer
		body.WriteString(v.Summary + "\n\n")
		trace.WriteText(&body, v.File, false)
		c.SystemOut = body.String()
	case check.Unknown:
		if r.Proof == check.Sampled && r.Stats.Complete {
			// Nothing found, nothing proven: neither a pass nor a failure.
			c.Skipped = &junitSkipped{Message: v.Summary}
			c.skipped++
			break
		}
		c.Error = &junitProblem{Message: v.Summary, Type: "unknown"}
		c.errors++
	case check.Unchecked:
		c.Skipped = &junitSkipped{Message: "not checked (not in " + r.set("Properties", "") + ")"}
		c.skipped++
	}
	if v.Status == check.Holds {
		c.SystemOut = cmp.Or(idleLine(r), vacuityLine(r, v))
	}
	return c
}

// add counts a case into the suite.
func (s *junitSuite) add(c junitCase) {
	s.Failures += c.failures
	s.Errors += c.errors
	s.Skipped += c.skipped
	s.Cases = append(s.Cases, c)
	s.Tests++
}

// searchLine says how far the search went.
func searchLine(r *Result) string {
	st := r.Stats
	if sim := r.Simulation; sim != nil {
		return fmt.Sprintf("simulation (sampled, not a proof): %s, %s, %s distinct states", Counted(sim.Runs, "run"), Counted(st.Transitions, "step"), Commas(st.States))
	}
	if st.Complete {
		return fmt.Sprintf("search complete: %s states, %s transitions, depth %d", Commas(st.States), Commas(st.Transitions), st.Depth)
	}
	return fmt.Sprintf("search INCOMPLETE (%s): %s states, %s transitions, depth %d", st.Stopped, Commas(st.States), Commas(st.Transitions), st.Depth)
}

// verdictFiles are a verdict's verified counterexamples, primary first.
func verdictFiles(v check.Verdict) []*trace.File {
	var fs []*trace.File
	if v.File != nil {
		fs = append(fs, v.File)
	}
	for _, a := range v.Also {
		fs = append(fs, a.File)
	}
	return fs
}

// Annotations prints a GitHub Actions ::error line per violated
// property (or unreachable Sometimes), so that the run's page shows it;
// a timed check's title says its model of time.
func Annotations(w io.Writer, r *Result) {
	algo := r.Algo
	if timing := trace.ConfigOf(r.Algo, r.Config).DescribeTiming(); timing != "" {
		algo += " (" + timing + ")"
	}
	for _, v := range r.Verdicts {
		if v.Status != check.Violated && v.Status != check.Unreachable {
			continue
		}
		title := fmt.Sprintf("mcheck %s: %s %s", algo, v.Name, v.Status)
		fmt.Fprintf(w, "::error title=%s::%s\n", escapeProperty(title), escapeData(v.Summary))
	}
}

// escapeData and escapeProperty escape a workflow command's message and
// its properties as the GitHub runner reads them.
// Other control characters are escaped (trace.Printable) after them.
func escapeData(s string) string {
	return trace.Printable(strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s))
}

func escapeProperty(s string) string {
	return trace.Printable(strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s))
}
