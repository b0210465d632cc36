// Command mycheck is mcheck with the course's algorithms registered next to
// the built-in ones:
//
//	go run ./cmd/mycheck --algo ring-detect --n 3 --crash-any
//	go run ./cmd/mycheck --help
package main

import (
	"fmt"
	"os"

	"example.com/coursework/bullynook"
	"example.com/coursework/crnomarks"
	"example.com/coursework/maxring"
	"example.com/coursework/ringdetect"
	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/membudget"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/specs/lelann"
)

func main() {
	reg, err := registry()
	if err != nil {
		fmt.Fprintf(os.Stderr, "mycheck: %v\n", err)
		os.Exit(2)
	}
	os.Exit(cli.MainWith(os.Args[1:], reg, os.Stdout, os.Stderr, cli.Hooks{Budget: membudget.Apply}))
}

func registry() (*specs.Registry, error) {
	reg := specs.Builtin()
	err := reg.Register(
		specs.Spec{Name: "cr-no-marks", Summary: "Chang-Roberts without participant marks (broken)",
			Build: specs.Builder(crnomarks.Algorithm{})},
		specs.Spec{Name: "ring-no-check", Summary: "ring algorithm, no detector check (broken)",
			Build: specs.Builder(ringdetect.Algorithm{})},
		specs.Spec{Name: "ring-detect", Summary: "ring algorithm with option 2: ELECTION(k) of a crashed k is dropped",
			Build: specs.Builder(ringdetect.Algorithm{CheckOriginator: true})},
		specs.Spec{Name: "ring-fixed", Summary: "ring algorithm with option 2, the same check on ELECTED, and resend",
			Build: specs.Builder(ringdetect.Algorithm{CheckOriginator: true, CheckLeader: true, Resend: true})},
		specs.Spec{Name: "maxring", Summary: "ring algorithm with the maxID rule for several initiators",
			Build: specs.Builder(maxring.Algorithm{})},
		specs.Spec{Name: "bully-no-ok", Summary: "Bully without the OK answer", InitialLeader: true,
			Build: specs.Builder(bullynook.Algorithm{})},
		specs.Spec{Name: "lelann-notes-order", Summary: "LeLann with the joiner's sends in the notes' order: forward, then its own (broken)",
			Build: specs.Builder(lelann.Algorithm{ForwardFirst: true})},
	)
	return reg, err
}
