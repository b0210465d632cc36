package webui

// The JSON the page reads. adapter.go fills it from the model: steps and
// values as data (model.StepInfo, model.Value), each with the text the page
// shows, rendered in Go from that data.

import (
	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/trace"
)

// View is the page at one step of a path.
type View struct {
	Config trace.Config `json:"config"` // with defaults filled in
	// Query is the URL query of this view: the configuration, the path, the
	// step shown, the cycle, and the property it is a counterexample of.
	Query string `json:"query"`
	// Path is the index of the chosen step in each state; At is the number
	// of them taken (the state shown is the one after step At).
	Path  []int `json:"path"`
	At    int   `json:"at"`
	Cycle *int  `json:"cycle"` // where a lasso's cycle starts, or null
	// Property and Kind: the path is a counterexample of Property (verified
	// by replay), of kind Kind; empty for a path walked by hand.
	Property string   `json:"property,omitempty"`
	Kind     cex.Kind `json:"kind,omitempty"`
	// Premise, for a leads-to's counterexample, is the step after which
	// its premise holds (its goal never does from there on); null otherwise.
	Premise *int   `json:"premise,omitempty"`
	History []Step `json:"history"` // the steps of the path, step 1 first

	Processes []Process `json:"processes"`
	Channels  []Channel `json:"channels"`
	// Counters are the crashes and restarts, and in a timed run the time
	// (the ticks so far on the path) and, with partial timing, gst.
	Counters []Value `json:"counters"`

	Steps      []Step     `json:"steps"`     // the steps enabled here
	Discarded  int        `json:"discarded"` // steps the channel bound cut off here
	Quiescent  bool       `json:"quiescent"` // no fair step is enabled, none discarded
	Properties []Property `json:"properties"`

	// Note says why a random run did not end in a quiescent state, or
	// what it violated where it stopped.
	Note string `json:"note,omitempty"`

	Chart     string `json:"chart"`      // the path as an SVG chart
	ChartNote string `json:"chart_note"` // why there is no chart
}

// Step is a step: enabled (with its index) or taken. Its data (kind,
// action, process, peer, timer, msg) sits next to its label, which is
// rendered from it.
type Step struct {
	Index int    `json:"index"`
	Label string `json:"label"`
	Fair  bool   `json:"fair"` // false: in no weak-fairness class (crash, restart, ...)
	// Violates names the step properties this step would break.
	Violates []string `json:"violates,omitempty"`
	// Time, for a step of the path in a timed run, is the time after it:
	// the ticks so far (trace.File.Times).
	Time *int `json:"time,omitempty"`
	model.StepInfo
}

// Process is one process's box.
type Process struct {
	Name         string  `json:"name"`
	ID           int     `json:"id"`
	Alive        bool    `json:"alive"`
	AliveChanged bool    `json:"alive_changed"`
	Fields       []Value `json:"fields"`
	// Timer is the process's timer in a timed run: its ticks left, or off.
	Timer *Value `json:"timer,omitempty"`
}

// Value is a named value, as data and as text, and whether the last step
// changed it.
type Value struct {
	Name    string      `json:"name"`
	Value   model.Value `json:"value"`
	Text    string      `json:"text"`
	Changed bool        `json:"changed"`
}

// Channel is the channel between the processes with IDs From and To, its
// messages head first, as data and as text; empty ones only when the last
// step emptied them.
type Channel struct {
	From     int           `json:"from"`
	To       int           `json:"to"`
	FromName string        `json:"from_name"`
	ToName   string        `json:"to_name"`
	Messages []model.Value `json:"messages"`
	// Ages are the messages' ages in ticks in a timed run; Text shows
	// each message with its age after "@".
	Ages    []int    `json:"ages,omitempty"`
	Text    []string `json:"text"`
	Changed bool     `json:"changed"`
}

// Property is a state predicate's value in the state shown.
type Property struct {
	Name string `json:"name"`
	// Kind is "invariant", or "eventually-always": then Name is its goal
	// (Stable, for the standard liveness property) and Holds says whether it holds here.
	Kind  string `json:"kind"`
	Holds bool   `json:"holds"`
	// Of names the properties this predicate is the goal (or the premise)
	// of; empty for an invariant.
	Of []string `json:"of,omitempty"`
	// Violated: that it does not hold here is a violation: an invariant
	// that does not hold, an eventually-always goal in a quiescent state,
	// or the goal of the property the path is a counterexample of, in the
	// part of the path that shows the violation (a lasso's cycle, a run's
	// stuck last state). A goal not (yet) reached elsewhere is no
	// violation, and the page shows it neutrally.
	Violated bool `json:"violated"`
}

// Job is a check started by the Check button.
type Job struct {
	ID       int      `json:"id"`
	Running  bool     `json:"running"`
	Progress Progress `json:"progress"`
	Error    string   `json:"error,omitempty"`
	Result   *Result  `json:"result,omitempty"`
}

// Progress of a running check.
type Progress struct {
	States  int64   `json:"states"`
	Depth   int     `json:"depth"`
	Queue   int     `json:"queue"`
	Seconds float64 `json:"seconds"`
}

// Result of a finished check.
type Result struct {
	Complete bool   `json:"complete"`
	Stopped  string `json:"stopped"`
	// Proof is what the search proves (check.Proof): "exhaustive",
	// "exhaustive up to the channel bound", "sampled", or "incomplete"
	// when it did not finish; Discarded counts the successors the channel
	// bound discarded.
	Proof           string           `json:"proof"`
	Discarded       int64            `json:"discarded"`
	States          int64            `json:"states"`
	Verdicts        []Verdict        `json:"verdicts"`
	Counterexamples []Counterexample `json:"counterexamples"`
}

// Verdict of one property, with what the search behind it proves and what
// limits it (check.Verdict.Proof and Caveat; Caveat "" when nothing does).
type Verdict struct {
	Name    string `json:"name"`
	Status  string `json:"status"`
	Summary string `json:"summary"`
	Proof   string `json:"proof"`
	Caveat  string `json:"caveat"`
}

// Counterexample is one found by a check, as a path to load.
type Counterexample struct {
	Property string   `json:"property"`
	Kind     cex.Kind `json:"kind"`
	Summary  string   `json:"summary"`
	Bounded  bool     `json:"bounded"`
	Path     []int    `json:"path"`
	Cycle    *int     `json:"cycle"`
	Premise  *int     `json:"premise,omitempty"`
	Query    string   `json:"query"` // the URL query that loads it
}

// Problem is the body of every 4xx and 5xx answer.
type Problem struct {
	Error string `json:"error"`
}
