package main

import (
	"os"

	"example.com/coursework/tutorial/myring"
	"github.com/mcheck/mcheck/cli"
	"github.com/mcheck/mcheck/specs"
)

func main() {
	reg := specs.Builtin()
	reg.Register(specs.Spec{Name: "myring", Build: specs.Builder(myring.Algorithm{})})
	os.Exit(cli.Main(os.Args[1:], reg, os.Stdout, os.Stderr))
}
