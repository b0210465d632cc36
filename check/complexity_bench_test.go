package check_test

import (
	"testing"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// The cost of --complexity against a plain check (all properties, full
// search) of the same configuration.
func BenchmarkComplexity(b *testing.B) {
	for _, c := range []struct {
		name string
		algo string
		cfg  model.Config
	}{
		{"bully-n5-down5-lowest", "bully", model.Config{N: 5, Down: []int{5}, Initiators: []int{1}, InitialLeader: true}},
		{"hirschberg-sinclair-n6", "hirschberg-sinclair", model.Config{N: 6}},
		{"chang-roberts-n5-perm", "chang-roberts", model.Config{N: 5, Perm: true}},
	} {
		spec, _ := specs.Builtin().Lookup(c.algo)
		for _, mode := range []string{"plain", "complexity"} {
			b.Run(c.name+"/"+mode, func(b *testing.B) {
				for b.Loop() {
					_, err := check.Run(check.Request{Spec: spec, Config: c.cfg, Continue: true,
						Complexity: mode == "complexity", Workers: 1})
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
