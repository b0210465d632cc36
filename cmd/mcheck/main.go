// Command mcheck model-checks leader-election algorithms: every interleaving
// and every crash point, safety and liveness, shortest counterexamples.
//
//	mcheck --algo bully --n 4 --crash-any
//
// See mcheck --help, README.md and docs/cli.md.
package main

import (
	"os"

	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/membudget"
	"github.com/mcheck/mcheck/specs"
)

func main() {
	os.Exit(cli.MainWith(os.Args[1:], specs.Builtin(), os.Stdout, os.Stderr, cli.Hooks{Budget: membudget.Apply}))
}
