package cli

import (
	"errors"

	"github.com/mcheck/mcheck/internal/modelopt"
	"github.com/mcheck/mcheck/model"
)

// flagOf names a field of check.Request or of model.Config, or an option
// of report's texts (report.Settings), by its flag: the library says
// "MaxStates" or "Continue" in its messages (check.Request.Name), and the
// command line's user reads the flag.
func flagOf(field string) string {
	if n := modelopt.FlagName(field); n != "" {
		return n
	}
	switch field {
	case "MaxStates":
		return "--max-states"
	case "Continue":
		return "--continue"
	case "CrashAny":
		return "--crash-any"
	case "Depth":
		return "--depth"
	case "Exact":
		return "--exact"
	case "Properties":
		return "--check"
	case "Reduce":
		return "--por"
	case "RunSeed":
		return "--run-seed"
	}
	return ""
}

// flagWords says in the command line's words an error in which the library
// names an option by its field.
func flagWords(err error) error {
	if errors.Is(err, model.ErrNoInitialLeader) {
		return errors.New("--initial-leader: this algorithm defines no initial-leader state: leave it off, or give the algorithm InitLeader (model.Leaderer)")
	}
	return err
}
