package check_test

import (
	"testing"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
)

// The cost of counting the sends in the state: the default check
// (SingleLeader, Agreement, Termination) against the same check with the
// invariant "at most max messages" in total, one worker. max is
// --complexity's maximum (docs/complexity.md, the claims table), so the invariant
// holds and both searches cover their whole space; the counting one's
// states are the plain ones split by what was sent on the way to them
// (states/op), each a few bytes longer.
func BenchmarkSendsCounted(b *testing.B) {
	for _, c := range []struct {
		name string
		algo string
		cfg  model.Config
		max  int
	}{
		{"chang-roberts-n5-perm", "chang-roberts", model.Config{N: 5, Perm: true}, 20},
		{"hirschberg-sinclair-n5", "hirschberg-sinclair", model.Config{N: 5}, 54},
		{"bully-n5-down5-lowest", "bully", model.Config{N: 5, Down: []int{5}, Initiators: []int{1}, InitialLeader: true}, 34},
	} {
		spec := withBound(b, c.algo, "total", c.max)
		for _, sends := range []string{"plain", "counted"} {
			sel := []string{"SingleLeader", "Agreement", "Termination"}
			if sends == "counted" {
				sel = append(sel, "SendsAtMost")
			}
			b.Run(c.name+"/sends="+sends, func(b *testing.B) {
				var rep *check.Report
				var err error
				for b.Loop() {
					if rep, err = check.Run(check.Request{Spec: spec, Config: c.cfg, Properties: sel, Continue: true, Workers: 1}); err != nil {
						b.Fatal(err)
					}
				}
				if !rep.Stats.Complete {
					b.Fatalf("%s: the search is incomplete", c.name)
				}
				for _, v := range rep.Verdicts {
					if v.Status != check.Holds {
						b.Fatalf("%s: %s is %s, not holds", c.name, v.Name, v.Status)
					}
				}
				b.ReportMetric(float64(rep.Stats.States), "states/op")
				b.ReportMetric(float64(rep.Stats.MemBytes), "search-bytes/op")
				b.ReportMetric(float64(rep.Stats.States)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
			})
		}
	}
}
