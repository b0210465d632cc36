package lelann

import (
	"fmt"
	"strings"

	"github.com/mcheck/mcheck/internal/plural"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
)

// Properties are LeLann's own claims (optional: --check NAME),
// docs/semantics.md section 2.10.
func (Algorithm) Properties() []model.Property[Local, Msg] {
	return []model.Property[Local, Msg]{{
		Name: "DecidedKnowsAllLive", Kind: model.Invariant, Optional: true,
		Doc:   "a live decided process has seen the ID of every live process",
		Holds: func(v *model.View[Local, Msg]) bool { return len(unseen(v)) == 0 },
		Explain: func(f *model.Failure[Local, Msg]) string {
			return fmt.Sprintf("after %s %s", plural.Count(f.Steps, "step"), strings.Join(unseen(f.State), "; "))
		},
	}, properties.MessageBound[Local, Msg](properties.SendBound{
		Formula: "N²", Of: func(n int) int { return n * n },
		Why: "the notes: each of the N processes causes N messages",
	})}
}

// unseen lists the live decided processes that have not seen a live ID.
func unseen(v *model.View[Local, Msg]) []string {
	var out []string
	for p := 0; p < v.N(); p++ {
		l := v.Local(p)
		if !v.Alive(p) || l.Status != Decided {
			continue
		}
		var missing []string
		for q := 0; q < v.N(); q++ {
			if v.Alive(q) && l.Known&(1<<q) == 0 {
				missing = append(missing, v.Name(q))
			}
		}
		if missing != nil {
			out = append(out, fmt.Sprintf("%s has decided (elected=%d) without seeing the ID of live %s", v.Name(p), l.Elected, strings.Join(missing, ", ")))
		}
	}
	return out
}
