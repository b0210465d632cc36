package mchecktest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"time"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/ts"
)

// DefaultMaxMemory is the memory cap when Config.MaxMemory is 0: far more
// than the state cap's two million states take, well under a laptop's
// memory, so that a local state that grows without bound fails its test
// instead of the whole test binary.
const DefaultMaxMemory = 4 << 30

// errMemCap is the cause of a search stopped by Config.MaxMemory.
var errMemCap = errors.New("the memory cap (Config.MaxMemory) was reached")

// memoryPoll is how often the watchdog reads the size of the Go heap.
const memoryPoll = 10 * time.Millisecond

// PanicError is the error of a check whose algorithm panicked: in a
// handler, a guard, a timer's Duration, a formatter or a property.
type PanicError struct {
	Algo string
	// Value is what was raised.
	Value any
	// Func is the algorithm's method (or function) that raised it, with its
	// file and line, as far as the stack shows it ("" if not).
	Func string
	// Path is the steps from an initial state to State, the first state
	// (in breadth-first order) where a step panics, and State that state
	// rendered; empty when a fresh search did not find the panic again.
	Path  []string
	State string
	// Stack is the stack of the goroutine that panicked.
	Stack string
}

func (e *PanicError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s panicked: %v", e.Algo, e.Value)
	if e.Func != "" {
		fmt.Fprintf(&b, "\nin %s", e.Func)
	}
	switch {
	case e.State != "" && len(e.Path) == 0:
		fmt.Fprintf(&b, "\nin a step from the initial state %s", e.State)
	case e.State != "":
		fmt.Fprintf(&b, "\nin a step from the state %s\nreached by %s", e.State, strings.Join(e.Path, "; "))
	}
	fmt.Fprintf(&b, "\n\nstack at the panic:\n%s", e.Stack)
	return b.String()
}

// AbandonedError is the error of a check that a cap could not stop: the
// goroutine of its search is left running.
type AbandonedError struct {
	// Why says which cap, and what the algorithm was doing when it was
	// abandoned as far as the stacks show it.
	Why string
}

func (e *AbandonedError) Error() string { return e.Why }

// caps are a guarded run's limits (0: none).
type caps struct {
	maxTime   time.Duration
	maxMemory int64
	deadline  time.Time // go test's -timeout, when the test has one
}

// outcome is what the search's goroutine hands back.
type outcome struct {
	rep *check.Report
	err error
}

// guarded runs check.Run(req) on a goroutine of its own under c and
// returns its report and error; req.Context gets the caps. A panic of the
// algorithm becomes a *PanicError. A search that does not stop when a cap
// asks it to (a handler that loops, or allocates more at each step than the
// cap allows) is abandoned with an *AbandonedError, and its goroutine is
// leaked deliberately: Go cannot stop a goroutine from outside, and the
// test must fail with what happened rather than hang or run the machine
// out of memory.
func guarded[L, M any](alg model.Algorithm[L, M], req *check.Request, c caps) (*check.Report, error) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	var stopTime <-chan time.Time
	if c.maxTime > 0 {
		tm := time.AfterFunc(c.maxTime, func() { cancel(errTimeCap) })
		defer tm.Stop()
	}
	if !c.deadline.IsZero() {
		// Stop the search before go test's -timeout kills the whole binary,
		// so that the failure says what happened.
		left := time.Until(c.deadline)
		tm := time.AfterFunc(left-left/10, func() { cancel(context.DeadlineExceeded) })
		defer tm.Stop()
	}
	req.Context = ctx
	done := make(chan outcome, 1)
	pkg, typ := algType(alg)
	go func() {
		var o outcome
		defer func() { done <- o }()
		defer func() {
			if v := recover(); v != nil {
				o = outcome{err: panicError(req, v, debug.Stack(), pkg, typ)}
			}
		}()
		o.rep, o.err = check.Run(*req)
	}()
	var poll <-chan time.Time
	if c.maxMemory > 0 {
		tk := time.NewTicker(memoryPoll)
		defer tk.Stop()
		poll = tk.C
	}
	stopped, heap := ctx.Done(), uint64(0)
	for {
		select {
		case o := <-done:
			return o.rep, o.err
		case <-poll:
			if h := heapBytes(); h > uint64(c.maxMemory) {
				heap, poll = h, nil
				cancel(errMemCap)
			}
		case <-stopped:
			// The search checks its context between batches: give it a
			// while to stop and hand back what it found.
			stopped = nil
			grace := time.Second + c.maxTime/10
			if !c.deadline.IsZero() {
				grace = min(grace, time.Until(c.deadline)/2)
			}
			stopTime = time.After(grace)
		case <-stopTime:
			return nil, abandoned(context.Cause(ctx), c, heap, pkg, typ)
		}
	}
}

// abandoned says why a search that did not stop was given up.
func abandoned(cause error, c caps, heap uint64, pkg, typ string) error {
	var why string
	switch {
	case errors.Is(cause, errMemCap):
		why = fmt.Sprintf("the search went over the memory cap of %s (Config.MaxMemory, default %s; -1: no cap) with %s of Go heap and did not stop: a local state may grow without bound (a slice or map that every step makes larger)",
			explore.FormatBytes(c.maxMemory), explore.FormatBytes(DefaultMaxMemory), explore.FormatBytes(int64(heap)))
	case errors.Is(cause, errTimeCap):
		why = fmt.Sprintf("the search did not finish within MaxTime (%s; Config.MaxTime, default %s; -1: no cap) and did not stop when asked: a handler may loop forever",
			c.maxTime, DefaultMaxTime)
	default:
		why = "the search did not stop before the test's deadline (go test -timeout) when asked: a handler may loop forever"
	}
	if f := running(pkg, typ); f != "" {
		why += "; the algorithm was running " + f
	}
	return &AbandonedError{Why: why + " (its goroutine is left running)"}
}

// heapBytes is the size of the Go heap's objects, live or not yet
// collected.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// algType is the package path and name of alg's type, by which its
// methods are found in stacks.
func algType(alg any) (pkg, typ string) {
	t := reflect.TypeOf(alg)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return "", ""
	}
	name, _, _ := strings.Cut(t.Name(), "[") // a generic type's arguments
	return t.PkgPath(), name
}

// algFrame is the innermost frame of stack (as runtime.Stack writes it)
// in a method of the algorithm's type, or a function it declares, as
// "pkg.Type.Method (file.go:12)"; "" when there is none.
func algFrame(stack, pkg, typ string) string {
	if pkg == "" || typ == "" {
		return ""
	}
	for _, f := range frames(stack) {
		if strings.HasPrefix(f.fn, pkg+"."+typ+".") || strings.HasPrefix(f.fn, pkg+".(*"+typ+").") {
			return f.String()
		}
	}
	return ""
}

// panicFrame is the frame that raised the panic of stack (trimmed by
// panicStack): the algorithm's, or else the innermost one.
func panicFrame(stack, pkg, typ string) string {
	if f := algFrame(stack, pkg, typ); f != "" {
		return f
	}
	if fs := frames(stack); len(fs) > 0 {
		return fs[0].String()
	}
	return ""
}

// frame is a function of a stack and its file:line.
type frame struct{ fn, file string }

func (f frame) String() string {
	fn := f.fn[strings.LastIndex(f.fn, "/")+1:]
	if f.file == "" {
		return fn
	}
	return fn + " (" + f.file + ")"
}

// frames are the frames of stack, innermost first, over all goroutines.
func frames(stack string) []frame {
	var fs []frame
	lines := strings.Split(stack, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line == "" || strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "goroutine ") {
			continue
		}
		fn := line
		if k := strings.LastIndex(fn, "("); k > 0 {
			fn = fn[:k]
		}
		var file string
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") {
			i++
			file = strings.TrimSpace(lines[i])
			if k := strings.LastIndex(file, " +0x"); k > 0 {
				file = file[:k]
			}
			file = file[strings.LastIndex(file, "/")+1:]
		}
		fs = append(fs, frame{fn, file})
	}
	return fs
}

// running is where the algorithm's code is now, on any goroutine.
func running(pkg, typ string) string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	return algFrame(string(buf), pkg, typ)
}

// panicError describes the panic v of the algorithm of req, raised with
// stack: the method that raised it, and the first state (breadth first)
// where a step raises it again.
func panicError(req *check.Request, v any, stack []byte, pkg, typ string) error {
	if wp, ok := v.(*explore.WorkerPanic); ok {
		v, stack = wp.Value, wp.Stack
	}
	e := &PanicError{Algo: req.Spec.Name, Value: v, Stack: panicStack(string(stack))}
	e.Func = panicFrame(e.Stack, pkg, typ)
	e.Path, e.State = findPanic(req)
	return e
}

// panicStack is stack from the frame that panicked on: below the last
// panic, for check.Run recovers the algorithm's panic and raises it again.
func panicStack(stack string) string {
	if i := strings.LastIndex(stack, "\npanic("); i >= 0 {
		if j := strings.Index(stack[i+1:], "\n\t"); j >= 0 {
			if k := strings.Index(stack[i+1+j+1:], "\n"); k >= 0 {
				return stack[i+1+j+1+k+1:]
			}
		}
	}
	return stack
}

// postMortemStates bounds the search for the state where the algorithm
// panicked: the search that panicked went breadth first too, and a panic
// that it met beyond this many states is reported without its state.
const postMortemStates = 100_000

// findPanic searches req's system breadth first, one state at a time, for
// the first state whose expansion panics, and returns the steps to it and
// the state rendered; nothing when no state within postMortemStates does.
func findPanic(req *check.Request) (path []string, state string) {
	defer func() {
		if recover() != nil { // building or describing the system panics too
			path, state = nil, ""
		}
	}()
	sys, err := req.Spec.Build.System(req.Config, req.Properties)
	if err != nil {
		return nil, ""
	}
	e, err := model.ExpanderOf(sys)
	if err != nil {
		return nil, ""
	}
	type node struct {
		state  []byte
		parent int
		action ts.Action
	}
	var nodes []node
	var b model.Batch
	seen := map[string]bool{}
	push := func(parent int) {
		for j := range b.Succs {
			s := b.State(j)
			if seen[string(s)] || len(seen) >= postMortemStates {
				continue
			}
			seen[string(s)] = true
			nodes = append(nodes, node{state: slices.Clone(s), parent: parent, action: b.Succs[j].Action})
		}
	}
	e.Initial(&b)
	push(-1)
	expands := func(s []byte) (ok bool) {
		defer func() {
			if recover() != nil {
				ok = false
			}
		}()
		e.Expand(s, &b)
		return true
	}
	for i := 0; i < len(nodes); i++ {
		if req.Context != nil && req.Context.Err() != nil {
			return nil, ""
		}
		if expands(nodes[i].state) {
			push(i)
			continue
		}
		for j := i; nodes[j].parent >= 0; j = nodes[j].parent {
			p := nodes[nodes[j].parent]
			path = append(path, e.Label(p.state, nodes[j].action))
		}
		for l, r := 0, len(path)-1; l < r; l, r = l+1, r-1 {
			path[l], path[r] = path[r], path[l]
		}
		return path, e.Describe(nodes[i].state)
	}
	return nil, ""
}
