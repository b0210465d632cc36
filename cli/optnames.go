package cli

import "github.com/mcheck/mcheck/internal/modelopt"

// flagOf names a field of check.Request or of model.Config by its flag:
// the library says "MaxStates" or "Continue" in its messages
// (check.Request.Name), and the command line's user reads the flag.
func flagOf(field string) string {
	if n := modelopt.FlagName(field); n != "" {
		return n
	}
	switch field {
	case "MaxStates":
		return "--max-states"
	case "Continue":
		return "--continue"
	}
	return ""
}
