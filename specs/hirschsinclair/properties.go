package hirschsinclair

import (
	"fmt"
	"math/big"

	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
)

// Properties are Hirschberg-Sinclair's own claims (optional: --check NAME),
// docs/semantics.md section 2.10.
func (Algorithm) Properties() []model.Property[Local, Msg] {
	return []model.Property[Local, Msg]{{
		Name: "LogPhases", Kind: model.Invariant, Optional: true,
		Doc: "a candidate in phase k has 2^(k-1) < N: a probe of N hops comes back, so there are at most ⌈log2 N⌉+1 phases",
		Holds: func(v *model.View[Local, Msg]) bool {
			for p := 0; p < v.N(); p++ {
				if l := v.Local(p); l.Status == Candidate && l.Phase > 0 && 1<<(l.Phase-1) >= v.N() {
					return false
				}
			}
			return true
		},
	}, {
		Name: "WinnersPerPhase", Kind: model.Invariant, Optional: true,
		Doc:   "for every k, at most ⌊N/(2^k+1)⌋ processes have phase > k (have won phase k)",
		Holds: func(v *model.View[Local, Msg]) bool { _, _, ok := tooManyWinners(v); return ok },
		Explain: func(f *model.Failure[Local, Msg]) string {
			k, w, _ := tooManyWinners(f.State)
			return fmt.Sprintf("after %s %d processes have won phase %d, more than ⌊N/(2^%d+1)⌋ = %d", plural.Count(f.Steps, "step"), w, k, k, f.State.N()/(1<<k+1))
		},
	}, properties.MessageBound[Local, Msg](properties.SendBound{
		Formula: "4N + N + Σ_{k=1}^{⌈log2(N-1)⌉+1} 4·2^k·N/(2^(k-1)+1)", Of: Bound,
		Why: "the notes' bound", Called: "the notes' bound",
	})}
}

// tooManyWinners finds the first phase k with more winners (processes whose
// phase is above k) than ⌊N/(2^k+1)⌋, and their number; ok when none has.
func tooManyWinners(v *model.View[Local, Msg]) (k, winners int, ok bool) {
	top := 0
	for p := 0; p < v.N(); p++ {
		top = max(top, v.Local(p).Phase)
	}
	for k = 0; k < top; k++ {
		winners = 0
		for p := 0; p < v.N(); p++ {
			if v.Local(p).Phase > k {
				winners++
			}
		}
		if winners > v.N()/(1<<k+1) {
			return k, winners, false
		}
	}
	return 0, 0, true
}

// Bound is the notes' bound on the messages of one election among n
// processes, rounded down: 4n for phase 0, n for the announcement, and at
// most n/(2^(k-1)+1) winners of phase k-1 sending 4·2^k each in every
// phase k from 1 to ⌈log2(n-1)⌉+1. Exact rationals: the sum is no integer.
func Bound(n int) int {
	sum := big.NewRat(int64(5*n), 1)
	for k := 1; k <= ceilLog2(n-1)+1; k++ {
		sum.Add(sum, big.NewRat(int64(4*(1<<k)*n), int64(1<<(k-1)+1)))
	}
	return int(new(big.Int).Quo(sum.Num(), sum.Denom()).Int64())
}

// ceilLog2 is the least c with 2^c >= x (0 for x <= 1).
func ceilLog2(x int) int {
	c := 0
	for 1<<c < x {
		c++
	}
	return c
}
