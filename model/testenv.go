package model

// TestEnv runs an algorithm's handlers outside the kernel, for unit tests:
// a fixed set of processes, which are live, what each has elected (for
// suspects), what is queued to each, and a record of what was sent.
//
//	env := model.NewTestEnv[ring.Msg](3, 9, 4, 8)
//	var l ring.Local
//	ring.Algorithm{}.Receive(env.Ctx(0), &l, 3, ring.Msg{Kind: ring.Election, J: 9})
//	// env.Sent == []Sent{{From: 0, To: 1, Msg: ELECTION(9)}}
type TestEnv[M any] struct {
	IDs     []int
	Alive   []bool
	Elected []int       // per position, for Suspects; 0 is ⊥
	Queued  [][]Sent[M] // per receiving position, for Pending
	Sent    []Sent[M]   // sends to live processes, in order
	Lost    []Sent[M]   // sends to crashed processes
	// Timer is, per position, what a handler last asked of its timer
	// (Ctx.RestartTimer, Ctx.StopTimer); nil until one asks.
	Timer []TimerOp
	// Params are the algorithm's parameters, for Ctx.Param.
	Params map[string]int
}

// Sent is a message from one position to another.
type Sent[M any] struct {
	From, To int
	Msg      M
}

// NewTestEnv has processes with the given IDs in ring order, all live.
func NewTestEnv[M any](ids ...int) *TestEnv[M] {
	e := &TestEnv[M]{IDs: ids, Alive: make([]bool, len(ids)), Elected: make([]int, len(ids)), Queued: make([][]Sent[M], len(ids))}
	for p := range e.Alive {
		e.Alive[p] = true
	}
	return e
}

// Ctx is a handler context for position self.
func (e *TestEnv[M]) Ctx(self int) *Ctx[M] { return &Ctx[M]{self: self, env: e} }

// GuardCtx is a timer guard's context for position self (with Pending).
func (e *TestEnv[M]) GuardCtx(self int) *GuardCtx[M] {
	return &GuardCtx[M]{Ctx[M]{self: self, env: e}}
}

// Reset forgets what was sent and asked of the timers.
func (e *TestEnv[M]) Reset() { e.Sent, e.Lost, e.Timer = nil, nil, nil }

func (e *TestEnv[M]) setTimer(p int, op TimerOp) {
	if e.Timer == nil {
		e.Timer = make([]TimerOp, len(e.IDs))
	}
	e.Timer[p] = op
}

func (e *TestEnv[M]) n() int { return len(e.IDs) }
func (e *TestEnv[M]) param(name string) int {
	return Times{params: e.Params}.Param(name)
}
func (e *TestEnv[M]) idOf(p int) int   { return e.IDs[p] }
func (e *TestEnv[M]) alive(p int) bool { return e.Alive[p] }

func (e *TestEnv[M]) next(p int, d Dir) int {
	var alive uint64
	for q, a := range e.Alive {
		if a {
			alive |= 1 << q
		}
	}
	return nextLive(p, d, alive)
}
func (e *TestEnv[M]) posOf(id int) int {
	for p, x := range e.IDs {
		if x == id {
			return p
		}
	}
	return -1
}

func (e *TestEnv[M]) byID() []int {
	ps := make([]int, len(e.IDs))
	for p := range ps {
		ps[p] = p
	}
	for i := 1; i < len(ps); i++ { // insertion sort: a handful of processes
		for j := i; j > 0 && e.IDs[ps[j]] < e.IDs[ps[j-1]]; j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
	return ps
}

func (e *TestEnv[M]) suspects(p int) bool {
	q := e.posOf(e.Elected[p])
	return e.Elected[p] == 0 || q < 0 || !e.Alive[q]
}

func (e *TestEnv[M]) send(from, to int, m M) {
	if e.Alive[to] {
		e.Sent = append(e.Sent, Sent[M]{from, to, m})
	} else {
		e.Lost = append(e.Lost, Sent[M]{from, to, m})
	}
}

func (e *TestEnv[M]) pending(to int, pred func(from int, m M) bool) bool {
	for _, s := range e.Queued[to] {
		if pred(s.From, s.Msg) {
			return true
		}
	}
	return false
}
