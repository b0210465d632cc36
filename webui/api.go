package webui

// The JSON the page reads. adapter.go fills it from the model.

import "github.com/mcheck/mcheck/trace"

// View is the page at one step of a path.
type View struct {
	Config trace.Config `json:"config"` // with defaults filled in
	// Query is the URL query of this view: the configuration, the path, the
	// step shown and the cycle.
	Query string `json:"query"`
	// Path is the index of the chosen step in each state; At is the number
	// of them taken (the state shown is the one after step At).
	Path    []int  `json:"path"`
	At      int    `json:"at"`
	Cycle   *int   `json:"cycle"`   // where a lasso's cycle starts, or null
	History []Step `json:"history"` // the steps of the path, step 1 first

	Processes []Process `json:"processes"`
	Channels  []Channel `json:"channels"`
	Counters  []Value   `json:"counters"`

	Steps      []Step     `json:"steps"`     // the steps enabled here
	Discarded  int        `json:"discarded"` // steps the channel bound cut off here
	Quiescent  bool       `json:"quiescent"` // no fair step is enabled, none discarded
	Properties []Property `json:"properties"`

	// Note says why a random run did not end in a quiescent state.
	Note string `json:"note,omitempty"`

	Chart     string `json:"chart"`      // the path as an SVG chart
	ChartNote string `json:"chart_note"` // why there is no chart
}

// Step is a step: enabled (with its index) or taken.
type Step struct {
	Index int    `json:"index"`
	Label string `json:"label"`
	Fair  bool   `json:"fair"` // false: in no weak-fairness class (crash, restart, ...)
}

// Process is one process's box.
type Process struct {
	Name         string  `json:"name"`
	ID           int     `json:"id"`
	Alive        bool    `json:"alive"`
	AliveChanged bool    `json:"alive_changed"`
	Fields       []Value `json:"fields"`
}

// Value is a named value and whether the last step changed it.
type Value struct {
	Name    string `json:"name"`
	Value   string `json:"value"`
	Changed bool   `json:"changed"`
}

// Channel is a channel, head first; empty ones only when the last step
// emptied them.
type Channel struct {
	From     string   `json:"from"`
	To       string   `json:"to"`
	Messages []string `json:"messages"`
	Changed  bool     `json:"changed"`
}

// Property is a state predicate's value in the state shown.
type Property struct {
	Name  string `json:"name"`
	Holds bool   `json:"holds"`
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
	Complete        bool             `json:"complete"`
	Stopped         string           `json:"stopped"`
	States          int64            `json:"states"`
	Verdicts        []Verdict        `json:"verdicts"`
	Counterexamples []Counterexample `json:"counterexamples"`
}

// Verdict of one property.
type Verdict struct {
	Name    string `json:"name"`
	Status  string `json:"status"`
	Summary string `json:"summary"`
}

// Counterexample is one found by a check, as a path to load.
type Counterexample struct {
	Property string `json:"property"`
	Kind     string `json:"kind"`
	Summary  string `json:"summary"`
	Bounded  bool   `json:"bounded"`
	Path     []int  `json:"path"`
	Cycle    *int   `json:"cycle"`
	Query    string `json:"query"`
}

// Problem is the body of every 4xx and 5xx answer.
type Problem struct {
	Error string `json:"error"`
}
