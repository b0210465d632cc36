package check

import (
	"context"
	"slices"

	"github.com/mcheck/mcheck/model"
)

// probeDeterminism is the look of model.Kernel.CheckDeterminism at the
// first limit states of a breadth-first search, one state at a time, so
// that it stops (without a verdict) when ctx is done: a caller that caps
// time or memory cancels ctx, and a handler whose local state grows
// without bound must not run the probe on to the end of the machine's
// memory. A system without CheckSteps gets its own whole-probe method.
func probeDeterminism(ctx context.Context, sys model.System, limit int) error {
	c, ok := sys.(model.StepChecker)
	if !ok {
		if d, ok := sys.(model.DeterminismChecker); ok {
			return d.CheckDeterminism(limit)
		}
		return nil
	}
	if ctx == nil {
		ctx = context.Background()
	}
	e := sys.NewExpander()
	var b model.Batch
	e.Initial(&b)
	seen := map[string]bool{}
	var queue [][]byte
	push := func(b *model.Batch) {
		for j := range b.Succs {
			if s := b.State(j); !seen[string(s)] && len(seen) < limit {
				seen[string(s)] = true
				queue = append(queue, slices.Clone(s))
			}
		}
	}
	push(&b)
	for len(queue) > 0 && ctx.Err() == nil {
		s := queue[0]
		queue = queue[1:]
		if err := c.CheckSteps(s); err != nil {
			return err
		}
		e.Expand(s, &b)
		push(&b)
	}
	return nil
}
