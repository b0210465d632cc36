package cli

import (
	"io"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/report"
)

// The outputs are rendered by package report; cli names the options its
// texts suggest by their flags, and writes each output where the flags say.

// reportOf is rep's result in the command line's words.
func reportOf(rep *check.Report) *report.Result { return report.Of(rep, flagSetting) }

// flagSetting names an option of report's texts (report.Settings) by its
// flag, set to value as it is typed: "--max-queue 2", "--por=false".
func flagSetting(field, value string) string {
	flag := flagOf(field)
	switch value {
	case "":
		return flag
	case "true", "false":
		return flag + "=" + value // a boolean flag takes its value after =
	}
	return flag + " " + value
}

// writeText is the text report of rep.
func writeText(w io.Writer, rep *check.Report, full bool) { report.Text(w, reportOf(rep), full) }
