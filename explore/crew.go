package explore

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// crew runs the phases of the search's batches on its workers. The
// goroutine that starts a phase takes part in it, and the helpers stay
// from phase to phase: each spins a short while for the next phase, then
// sleeps until one starts. A phase on fresh goroutines waited about 60 µs
// for the second one to be scheduled (0.47 s over the 8,136 phases of
// chang-roberts --n 4 --crash-any, BENCHMARKS.md), and the short phases
// (claim, count, write: tens of µs a batch) ran on one core meanwhile.
type crew struct {
	spin     bool // helpers may spin: each has a core of its own
	phase    atomic.Pointer[phase]
	mu       sync.Mutex
	wake     *sync.Cond
	sleeping atomic.Int32
	gone     sync.WaitGroup
}

// phase is f(w, i) for i in [0, n), w the worker's number (0 for the
// goroutine that started it). Helpers join a phase as they see it; one that
// comes late finds no item left and leaves.
type phase struct {
	n      int64
	f      func(w, i int)
	next   atomic.Int64
	active atomic.Int32 // workers inside the phase
	stop   bool
	mu     sync.Mutex
	failed *WorkerPanic // the first item that panicked
}

// WorkerPanic is a panic of an item of a phase (an algorithm's handler, say),
// raised again in the goroutine that ran the phase, so that its caller can
// recover it as if the search had one goroutine. Its text has the stack of
// the worker where the panic happened.
type WorkerPanic struct {
	Value any
	Stack []byte
}

func (p *WorkerPanic) Error() string {
	return fmt.Sprintf("%v\n\nstack of the worker at the panic:\n%s", p.Value, p.Stack)
}

// spinFor is how long an idle helper spins before it sleeps: longer than
// the serial steps between phases of a batch and between batches (tens of
// µs), shorter than a table growth.
const spinFor = 200 * time.Microsecond

// newCrew starts helpers goroutines; stop ends them.
func newCrew(helpers int) *crew {
	c := &crew{spin: helpers < runtime.GOMAXPROCS(0)}
	c.wake = sync.NewCond(&c.mu)
	idle := &phase{}
	c.phase.Store(idle)
	for w := 1; w <= helpers; w++ {
		c.gone.Add(1)
		go c.help(w, idle)
	}
	return c
}

// run runs f(w, i) for i in [0, n) on the crew and returns when every call
// has returned; f's writes are then visible to the caller.
func (c *crew) run(n int, f func(w, i int)) {
	p := &phase{n: int64(n), f: f}
	c.start(p)
	p.work(0)
	// Items are all handed out: wait for the helpers' last ones.
	for p.active.Load() != 0 {
		runtime.Gosched()
	}
	p.mu.Lock()
	failed := p.failed
	p.mu.Unlock()
	if failed != nil {
		panic(failed)
	}
}

// stop ends the helpers and waits for them.
func (c *crew) stop() {
	c.start(&phase{stop: true})
	c.gone.Wait()
}

func (c *crew) start(p *phase) {
	c.phase.Store(p)
	if c.sleeping.Load() > 0 {
		// Under mu: a helper that counted itself asleep holds it until it
		// waits, so the broadcast cannot come between its look and its wait.
		c.mu.Lock()
		c.wake.Broadcast()
		c.mu.Unlock()
	}
}

func (c *crew) help(w int, last *phase) {
	defer c.gone.Done()
	for {
		p := c.await(last)
		if p.stop {
			return
		}
		p.work(w)
		last = p
	}
}

// work takes items of the phase until none is left. A worker counts itself
// active before it takes one, so a caller that finds no item left and no
// worker active knows that every item has been done.
func (p *phase) work(w int) {
	p.active.Add(1)
	defer p.active.Add(-1)
	defer p.catch()
	for {
		i := p.next.Add(1) - 1
		if i >= p.n {
			break
		}
		p.f(w, int(i))
	}
}

// catch keeps the first panic of the phase's items for run to raise, and
// hands out no more items. A panic on a helper would otherwise end the
// process, whatever its caller recovers.
func (p *phase) catch() {
	v := recover()
	if v == nil {
		return
	}
	p.mu.Lock()
	if p.failed == nil {
		p.failed = &WorkerPanic{Value: v, Stack: debug.Stack()}
	}
	p.mu.Unlock()
	p.next.Store(p.n)
}

// await returns the first phase started after last.
func (c *crew) await(last *phase) *phase {
	if c.spin {
		deadline := time.Now().Add(spinFor)
		for k := 1; ; k++ {
			if p := c.phase.Load(); p != last {
				return p
			}
			if k%64 == 0 && time.Now().After(deadline) {
				break
			}
			runtime.Gosched()
		}
	}
	c.mu.Lock()
	c.sleeping.Add(1)
	for c.phase.Load() == last {
		c.wake.Wait()
	}
	c.sleeping.Add(-1)
	p := c.phase.Load()
	c.mu.Unlock()
	return p
}
