package check

import (
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
)

// breadthFirst is the exhaustive strategy: every reachable state, level by
// level (explore.Run), so that counterexamples are shortest.
type breadthFirst struct{}

func (breadthFirst) name() string { return "breadth-first" }

func (breadthFirst) search(req Request, rep *Report, sys model.System, t targets) (*explore.Result, error) {
	eo := explore.Options{Targets: t.Targets, Liveness: t.liveness(), Continue: req.Continue, MaxStates: req.MaxStates, MemoryBudget: req.MemoryBudget,
		Context: req.Context, Progress: req.Progress, ProgressEvery: req.ProgressEvery, Workers: req.Workers, Bitstate: bitstateOf(req).Bytes, BitstateSeed: bitstateOf(req).Seed,
		Exact: req.Exact, Name: req.Name,
	}
	eo.Reduce = req.Reduce && !t.liveness() && bitstateOf(req).Bytes == 0 && t.reduceOff == "" && !req.Complexity
	if req.Complexity {
		eo.Measure, eo.Continue = true, true
	}
	res, err := explore.Run(sys, eo)
	if err != nil {
		return nil, err
	}
	if res.Reduced && len(res.Violations) > 0 && (req.Context == nil || req.Context.Err() == nil) {
		// The reduced graph keeps every violation reachable, but not every
		// shortest path to one. (An interrupted check keeps the reduced
		// search's counterexample: a rerun would stop at once and lose it.)
		eo.Reduce = false
		full, err := explore.Run(sys, eo)
		if err != nil {
			return nil, err
		}
		// Interrupted before it found one, the rerun keeps the reduced
		// search's counterexample too.
		if full.Stop != explore.StopInterrupted || len(full.Violations) > 0 {
			full.Elapsed += res.Elapsed
			res, rep.RerunFull = full, true
		}
	}
	if r, ok := rep.Expander.(model.Reducer); ok && r.Reduces() && req.Reduce && !t.liveness() && bitstateOf(req).Bytes == 0 && t.reduceOff != "" {
		rep.ReductionOff = t.reduceOff
	}
	if req.Complexity {
		if err := rep.measureComplexity(req, sys, res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// proof: every state, or every state within the channel bound.
func (breadthFirst) proof(res *explore.Result) (Proof, string) {
	if res.Discarded > 0 {
		return UpToBound, ""
	}
	return Exhaustive, ""
}
