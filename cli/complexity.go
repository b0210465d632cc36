package cli

import (
	"fmt"
	"io"
	"slices"

	"github.com/mcheck/mcheck/check"
)

// --complexity: the measures of docs/semantics.md section 5 as text and JSON.

// writeWitnessChart draws the witness run in path.
func writeWitnessChart(path, witness string, r *check.Report, stderr io.Writer) error {
	if witness == "" {
		fmt.Fprintf(stderr, "mcheck: --msc: no witness run to draw; %s not written\n", path)
		return nil
	}
	f, err := r.WitnessFile(witness)
	if err != nil {
		return err
	}
	return writeMSCFile(path, f)
}

// checkComplexity: --witness needs --complexity, which needs the full state
// graph.
func (o *options) checkComplexity(given map[string]bool) error {
	switch {
	case given["witness"] && !o.complexity:
		return fmt.Errorf("--witness names a run of --complexity: add --complexity")
	case o.complexity && o.bitstate > 0:
		return fmt.Errorf("--complexity needs the whole state graph: drop --bitstate")
	}
	return nil
}

// witnessOf is the run --witness names: by default the maximum of the
// messages when there are complete runs, else none; "none" for none. A
// name checked before the search (checkWitness) that the search has no run
// for (no complete run, or no measures) is none too: the report says why.
func witnessOf(given string, r *check.Report) string {
	switch {
	case given == "none":
		return ""
	case given != "":
		if !slices.Contains(r.Complexity.WitnessNames(), given) {
			return ""
		}
		return given
	case r.Complexity.Measures != nil && r.Complexity.Measures.CompleteRuns:
		return "max"
	}
	return ""
}
