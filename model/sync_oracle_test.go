package model_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	cr "github.com/mcheck/mcheck/specs/changroberts"
)

// crSync is the synchronous schedule of docs/semantics.md section 5.5 for
// Chang-Roberts (section 3), written from the contract alone: plain slices,
// no kernel. It is the oracle of TestSynchronousAgreesWithAnOracle.
type crSync struct {
	ids         []int
	alive       []bool
	participant []bool
	elected     []int
	chans       [][]crMsg // chans[from*n+to], head first
	bound       int
}

type crMsg struct {
	elected bool // ELECTED, else ELECTION
	j       int
}

// oracleStep is a step of the schedule: its round, kind, and positions
// (p the process, q the receiver of a delivery, whose sender is p).
type oracleStep struct {
	round   int
	kind    model.Kind
	p, q    int
	sends   int
	blocked bool // refused by the channel bound
}

type oracleRun struct {
	steps              []oracleStep
	rounds, latency    int
	overflow, revisits bool
	sends              int
}

func (s *crSync) n() int { return len(s.ids) }

// next is the nearest live position after p, clockwise (p itself when alone).
func (s *crSync) next(p int) int {
	for d := 1; d <= s.n(); d++ {
		if q := (p + d) % s.n(); s.alive[q] {
			return q
		}
	}
	return p
}

func (s *crSync) clone() *crSync {
	c := *s
	c.participant = append([]bool(nil), s.participant...)
	c.elected = append([]int(nil), s.elected...)
	c.chans = make([][]crMsg, len(s.chans))
	for i, q := range s.chans {
		c.chans[i] = append([]crMsg(nil), q...)
	}
	return &c
}

func (s *crSync) key() string {
	return fmt.Sprint(s.participant, s.elected, s.chans)
}

// send appends m to chan(p, next(p)); it reports false when that leaves
// more than the bound in the channel.
func (s *crSync) send(p int, m crMsg) bool {
	ch := p*s.n() + s.next(p)
	s.chans[ch] = append(s.chans[ch], m)
	return len(s.chans[ch]) <= s.bound
}

func (s *crSync) suspects(p int) bool {
	if s.elected[p] == 0 {
		return true
	}
	for q, id := range s.ids {
		if id == s.elected[p] && s.alive[q] {
			return false
		}
	}
	return true
}

// receive runs q's handler for m; false: a send went over the bound.
func (s *crSync) receive(q int, m crMsg) (sends int, ok bool) {
	id := s.ids[q]
	switch {
	case m.elected:
		s.participant[q], s.elected[q] = false, m.j
		if m.j != id {
			return 1, s.send(q, m)
		}
	case m.j > id:
		s.participant[q], s.elected[q] = true, 0
		return 1, s.send(q, crMsg{j: m.j})
	case m.j < id && !s.participant[q]:
		s.participant[q], s.elected[q] = true, 0
		return 1, s.send(q, crMsg{j: id})
	case m.j == id:
		s.participant[q], s.elected[q] = false, id
		return 1, s.send(q, crMsg{elected: true, j: id})
	}
	return 0, true
}

func (s *crSync) play() oracleRun {
	var run oracleRun
	round := 0
	run.rounds = 1
	// try takes a step on a copy and keeps it when the bound allows.
	try := func(kind model.Kind, p, q int, step func(c *crSync) (int, bool)) bool {
		c := s.clone()
		sends, ok := step(c)
		run.rounds = round + 1
		st := oracleStep{round: round, kind: kind, p: p, q: q, sends: sends, blocked: !ok}
		run.steps = append(run.steps, st)
		if !ok {
			run.overflow = true
			return false
		}
		*s = *c
		run.latency, run.sends = round, run.sends+sends
		return true
	}
	for p := range s.ids {
		if s.alive[p] && !s.participant[p] && s.suspects(p) {
			if !try(model.KindInitiate, p, 0, func(c *crSync) (int, bool) {
				c.participant[p], c.elected[p] = true, 0
				return 1, c.send(p, crMsg{j: c.ids[p]})
			}) {
				return run
			}
		}
	}
	seen := map[string]bool{}
	for {
		run.rounds = round + 1
		inFlight := 0
		for _, q := range s.chans {
			inFlight += len(q)
		}
		if inFlight == 0 {
			return run
		}
		if seen[s.key()] {
			run.revisits = true
			return run
		}
		seen[s.key()] = true
		round++
		counts := make([]int, len(s.chans))
		for i, q := range s.chans {
			counts[i] = len(q)
		}
		for to := range s.ids {
			for from := range s.ids {
				for range counts[from*s.n()+to] {
					if !try(model.KindDeliver, from, to, func(c *crSync) (int, bool) {
						ch := from*c.n() + to
						m := c.chans[ch][0]
						c.chans[ch] = c.chans[ch][1:]
						return c.receive(to, m)
					}) {
						return run
					}
				}
			}
		}
	}
}

func permutations(xs []int) [][]int {
	if len(xs) <= 1 {
		return [][]int{append([]int(nil), xs...)}
	}
	var out [][]int
	for i := range xs {
		rest := append(append([]int(nil), xs[:i]...), xs[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]int{xs[i]}, p...))
		}
	}
	return out
}

// The synchronous schedule of Chang-Roberts, played by the kernel and by
// the oracle above, for every arrangement of the IDs of 3 to 5 processes,
// with and without a process down, at channel bounds 1 to 3 (most of them
// stop at the bound, some in round 0, some after it): the same steps in
// the same rounds, the same rounds begun, latency, sends, and the same
// step refused by the bound.
func TestSynchronousAgreesWithAnOracle(t *testing.T) {
	stopped, inLaterRound := 0, 0
	for n := 3; n <= 5; n++ {
		base := make([]int, n)
		for i := range base {
			base[i] = i + 1
		}
		for _, ids := range permutations(base) {
			for _, down := range []int{0, n} { // none, or the largest ID
				for bound := 1; bound <= 3; bound++ {
					cfg := model.Config{N: n, IDs: ids, MaxQueue: bound}
					o := &crSync{ids: ids, alive: make([]bool, n), participant: make([]bool, n), elected: make([]int, n), chans: make([][]crMsg, n*n), bound: bound}
					for p := range o.alive {
						o.alive[p] = ids[p] != down
					}
					if down != 0 {
						cfg.Down = []int{down}
					}
					want := o.play()
					k, err := model.New[cr.Local, cr.Msg](cr.Algorithm{}, cfg, nil)
					require.NoError(t, err)
					got := k.Synchronous()
					name := fmt.Sprintf("ids %v down %d bound %d", ids, down, bound)
					var steps []oracleStep
					for _, st := range got.Steps {
						a := st.Action
						steps = append(steps, oracleStep{round: st.Round, kind: a.Kind(), p: a.P(), q: a.Q(), sends: st.Sent.Total()})
					}
					if got.Overflow {
						// The oracle records the refused step last, like Blocked.
						a := got.Blocked
						last := want.steps[len(want.steps)-1]
						steps = append(steps, oracleStep{round: got.Rounds - 1, kind: a.Kind(), p: a.P(), q: a.Q(), sends: last.sends, blocked: true})
						stopped++
						if got.Rounds > 1 {
							inLaterRound++
						}
					}
					require.Equal(t, want.steps, steps, name)
					assert.Equal(t, want.overflow, got.Overflow, name)
					assert.Equal(t, want.revisits, got.Unbounded, name)
					assert.Equal(t, want.rounds, got.Rounds, name)
					assert.Equal(t, want.latency, got.Latency, name)
					assert.Equal(t, want.sends, got.Sent.Total(), name)
				}
			}
		}
	}
	// The oracle's configurations do reach the case this guards.
	assert.Greater(t, stopped, 100)
	assert.Greater(t, inLaterRound, 50)
}
