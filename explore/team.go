package explore

// team is the search's workers: each has its own expanders and scratch,
// and the crew runs a batch's phases on them at once (crew.go). Results
// do not depend on how many there are.
type team struct {
	workers []worker
	// bytes is the workers' own memory: their expanders, measured when
	// the first was made, and their goroutines' stacks.
	bytes int64
	crew  *crew // the helpers of the workers after the first, while the search runs
	// reverse runs the items of every phase of a one-worker search from
	// the last to the first (tests only, Options.test): an order in which
	// workers may meet them, with nothing left to timing.
	reverse bool
}

// parallel runs f(worker, i) for i in [0, n) on the workers (the crew).
func (t *team) parallel(n int, f func(w *worker, i int)) {
	if t.crew == nil || n == 1 {
		for k := range n {
			i := k
			if t.reverse {
				i = n - 1 - k
			}
			f(&t.workers[0], i)
		}
		return
	}
	t.crew.run(n, func(w, i int) { f(&t.workers[w], i) })
}

// inOrder reports whether the workers meet a batch's successors in BFS
// order: one worker, chunks in order.
func (t *team) inOrder() bool { return t.crew == nil && !t.reverse }

// start brings the crew up for a search with more than one worker; stop
// ends it.
func (t *team) start() {
	if len(t.workers) > 1 {
		t.crew = newCrew(len(t.workers) - 1)
	}
}

func (t *team) stop() {
	if t.crew != nil {
		t.crew.stop()
		t.crew = nil
	}
}

// memBytes is what the workers hold: their expanders and their buffers.
func (t *team) memBytes() int64 {
	b := t.bytes
	for i := range t.workers {
		b += t.workers[i].bytes()
	}
	return b
}
