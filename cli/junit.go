package cli

import (
	"io"

	"github.com/mcheck/mcheck/report"
)

// writeJUnitFile writes the JUnit XML of --junit.
func writeJUnitFile(path string, res *report.Result) error {
	return writeOutput(path, func(w io.Writer) error { return report.JUnit(w, res) })
}
