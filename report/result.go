// Package report renders one verified check as each of mcheck's outputs:
// the text report, JSON, JUnit XML, GitHub annotations and the GitHub job
// summary. Every renderer reads the same Result, so that no output can say
// other verdicts, or show other traces, than another.
package report

import (
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/trace"
)

// Result is a verified check: the report, whose verdicts carry what each
// proves (check.Verdict.Proof, Caveat), and the counterexamples replayed
// through the transition function as trace files (check.Verdict.File):
// the outputs show these files, never a trace that was not replayed.
type Result struct {
	*check.Report
	// Replayed are the verdicts' trace files, primary ones first
	// (check.Report.Files).
	Replayed []*trace.File
	setting  func(field, value string) string
}

// Of is the result of r, whose counterexamples check.Run has replayed.
// setting names an option (a field of check.Request, check.Simulate or
// model.Config: "Continue", "MaxQueue") set to value ("" for the option
// alone) in the reader's words, for the lines that suggest one: the
// command line passes its flags; nil says the field, "Field=value".
func Of(r *check.Report, setting func(field, value string) string) *Result {
	return &Result{Report: r, Replayed: r.Files(), setting: setting}
}

// of is a report of the same run (a sweep's failing search), named alike.
func (x *Result) of(r *check.Report) *Result { return Of(r, x.setting) }

// set is field set to value in the reader's words.
func (x *Result) set(field, value string) string {
	if x.setting != nil {
		if s := x.setting(field, value); s != "" {
			return s
		}
	}
	if value == "" {
		return field
	}
	return field + "=" + value
}

// Settings are the options the texts may suggest (the fields Of's setting
// is asked for): a front end names each.
func Settings() []string {
	return []string{"Continue", "CrashAny", "Depth", "Exact", "InitialLeader", "Initiators", "MaxCrashes", "MaxQueue",
		"MaxStates", "Params", "Properties", "Reduce", "RunSeed", "Timeout"}
}
