package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/msc"
	"github.com/mcheck/mcheck/trace"
)

// StepSummary writes the check as a Markdown section for a GitHub job
// summary: the configuration, how far the search went, a verdict table, and
// the Mermaid chart of each counterexample.
func StepSummary(w io.Writer, rep *Result) error {
	st := rep.Stats
	fmt.Fprintf(w, "## mcheck %s\n\n", mdCell(trace.ConfigOf(rep.Algo, rep.Config).Describe()))
	if st.Complete {
		fmt.Fprintf(w, "Search complete: %s states, %s transitions, depth %d.\n\n", Commas(st.States), Commas(st.Transitions), st.Depth)
	} else {
		fmt.Fprintf(w, "Search **incomplete** (%s): %s states, %s transitions, depth %d.\n\n", mdCell(st.Stopped), Commas(st.States), Commas(st.Transitions), st.Depth)
	}
	fmt.Fprintf(w, "| property | status | summary |\n|---|---|---|\n")
	for _, v := range rep.Verdicts {
		fmt.Fprintf(w, "| %s | %s | %s |\n", v.Name, statusCell(rep, v), mdCell(v.Summary))
		for _, a := range v.Also {
			fmt.Fprintf(w, "| | also | %s |\n", mdCell(a.Summary))
		}
	}
	if note := boundNote(rep.Report); note != "" {
		fmt.Fprintf(w, "\nNote: %s.\n", mdCell(note))
	}
	fmt.Fprintln(w)
	for _, f := range rep.Replayed {
		if err := msc.Markdown(w, f, 3); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}

func statusCell(rep *Result, v check.Verdict) string {
	s := statusWord(v.Status)
	if v.Status == check.Violated || v.Status == check.Unreachable {
		s = "**" + s + "**"
	}
	if (v.Property.Kind == model.EventuallyAlways || v.Property.Kind == model.LeadsTo) && rep.Bounded() && (v.Status == check.Holds || v.Status == check.Violated) {
		s += " (bounded model only)"
	}
	return s
}

// mdCell makes s safe in a Markdown table cell.
func mdCell(s string) string {
	return strings.NewReplacer(`\`, `\\`, "|", `\|`, "<", "&lt;", ">", "&gt;", "*", `\*`, "_", `\_`, "`", "\\`").Replace(trace.Printable(strings.ReplaceAll(s, "\n", " ")))
}
