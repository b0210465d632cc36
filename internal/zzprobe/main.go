package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
	"github.com/mcheck/mcheck/specs"
)

func main() {
	debug.SetGCPercent(25)
	reg := specs.Builtin()
	spec, _ := reg.Lookup("bully")
	cfg := model.Config{N: 3, MaxCrashes: 1, Detector: model.Unreliable, InitialLeader: true}
	done := false
	req := check.Request{Spec: spec, Config: cfg, Properties: properties.All, Continue: true, MaxStates: 12_000_000,
		Progress: func(p explore.Progress) {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			fmt.Fprintf(os.Stderr, "states %d acct %d MiB heapalloc %d MiB sys %d MiB\n", p.States, p.MemBytes>>20, ms.HeapAlloc>>20, (ms.Sys-ms.HeapReleased)>>20)
			if !done && p.MemBytes > 600<<20 {
				done = true
				runtime.GC()
				f, _ := os.Create("/tmp/i13probe/heap.pprof")
				pprof.WriteHeapProfile(f)
				f.Close()
			}
		}}
	rep, err := check.Run(req)
	fmt.Println(err, rep.Stats.States)
}
