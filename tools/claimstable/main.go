// Command claimstable prints docs/complexity.md's table of the course notes'
// complexity claims beside the measured values: go run ./tools/claimstable.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/mcheck/mcheck/claims"
)

func main() {
	from := flag.Int("from", 3, "smallest N")
	to := flag.Int("to", 8, "largest N")
	limit := flag.Duration("limit", time.Minute, "stop a scenario's larger N after a run longer than this")
	flag.Parse()
	var ns []int
	for n := *from; n <= *to; n++ {
		ns = append(ns, n)
	}
	if err := claims.Table(os.Stdout, ns, *limit); err != nil {
		fmt.Fprintln(os.Stderr, "claimstable:", err)
		os.Exit(2)
	}
}
