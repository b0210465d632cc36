package model

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/ts"
)

// The kernel's actions, one by one, on small hand-built states of a tiny test
// algorithm whose handlers do exactly what a test needs: record the message
// they got, forward it clockwise or counter-clockwise, send to a named
// position, send a burst, or set elected.

const (
	opNote    uint8 = iota + 1 // record only
	opFwd                      // forward the same message cw ("ELECTION")
	opCCW                      // forward the same message ccw ("PROBE")
	opTo                       // send NOTE(own ID) to position J
	opBurst                    // send J NOTEs cw
	opElected                  // elected := J
)

var opNames = map[uint8]string{opNote: "NOTE", opFwd: "ELECTION", opCCW: "PROBE", opTo: "TO", opBurst: "BURST", opElected: "ELECTED"}

type tMsg struct {
	Op uint8
	J  int
}

type tLocal struct {
	Busy      bool
	Elected   int
	Got       tMsg // the last message received
	From      int  // the position it came from
	Arm0      bool // timer 0 ("timeout-ok") armed
	Arm1      bool // timer 1 ("timeout-coord") armed
	Just1     bool // timer 1 justified
	Restarted bool // set by OnRestart
	Leader    bool // set by InitLeader
}

func note(j int) tMsg     { return tMsg{opNote, j} }
func election(j int) tMsg { return tMsg{opFwd, j} }

// tAlg has every optional interface but Codec (so it takes the generic path).
type tAlg struct{}

func (tAlg) Init() tLocal          { return tLocal{} }
func (tAlg) Elected(l *tLocal) int { return l.Elected }
func (tAlg) CanInitiate(_ *Ctx[tMsg], l *tLocal, suspects bool) bool {
	return !l.Busy && suspects
}

func (tAlg) Initiate(c *Ctx[tMsg], l *tLocal) {
	l.Busy, l.Elected = true, 0
	c.SendNext(CW, election(c.ID()))
}

func (tAlg) Receive(c *Ctx[tMsg], l *tLocal, from int, m tMsg) {
	l.Got, l.From = m, from
	switch m.Op {
	case opFwd:
		c.SendNext(CW, m)
	case opCCW:
		c.SendNext(CCW, m)
	case opTo:
		c.Send(m.J, note(c.ID()))
	case opBurst:
		for i := range m.J {
			c.SendNext(CW, note(i))
		}
	case opElected:
		l.Elected = m.J
	}
}

func (tAlg) FormatMsg(m tMsg) string           { return opNames[m.Op] + "(" + strconv.Itoa(m.J) + ")" }
func (tAlg) InitLeader(leader int) tLocal      { return tLocal{Elected: leader, Leader: true} }
func (tAlg) OnRestart(c *Ctx[tMsg], l *tLocal) { l.Restarted = true; c.SendNext(CW, note(c.ID())) }

func (tAlg) FormatLocal(_ *Ctx[tMsg], l *tLocal) []Field {
	return []Field{{"busy", Bool(l.Busy)}, {"elected", Int(l.Elected)}}
}

func (tAlg) Timers() []Timer[tLocal, tMsg] {
	return []Timer[tLocal, tMsg]{
		{
			Name:  "timeout-ok",
			Armed: func(l *tLocal) bool { return l.Arm0 },
			// Justified when nothing at all is queued for the process.
			Justified: func(c *GuardCtx[tMsg], _ *tLocal) bool {
				return !c.Pending(func(int, tMsg) bool { return true })
			},
			Fire: func(c *Ctx[tMsg], l *tLocal) {
				l.Arm0, l.Elected = false, c.ID()
				c.SendNext(CW, tMsg{opElected, c.ID()})
			},
			Duration: func(t Times) int { return t.Timeout },
		},
		{
			Name:      "timeout-coord",
			Armed:     func(l *tLocal) bool { return l.Arm1 },
			Justified: func(_ *GuardCtx[tMsg], l *tLocal) bool { return l.Just1 },
			Fire:      func(_ *Ctx[tMsg], l *tLocal) { l.Arm1, l.Busy = false, true },
			Duration:  func(Times) int { return 2 },
		},
	}
}

// tCodecAlg is tAlg with a Codec (the fast path).
type tCodecAlg struct{ tAlg }

func (tCodecAlg) AppendLocal(b []byte, l *tLocal) []byte {
	var flags byte
	for i, f := range []bool{l.Busy, l.Arm0, l.Arm1, l.Just1, l.Restarted, l.Leader} {
		if f {
			flags |= 1 << i
		}
	}
	b = binary.AppendUvarint(append(b, flags), uint64(l.Elected))
	b = tCodecAlg{}.AppendMsg(b, &l.Got)
	return binary.AppendUvarint(b, uint64(l.From))
}

func (tCodecAlg) DecodeLocal(b []byte, l *tLocal) ([]byte, error) {
	if len(b) == 0 {
		return nil, errShort
	}
	f := b[0]
	*l = tLocal{Busy: f&1 != 0, Arm0: f&2 != 0, Arm1: f&4 != 0, Just1: f&8 != 0, Restarted: f&16 != 0, Leader: f&32 != 0}
	var err error
	if l.Elected, b, err = uvarint(b[1:]); err != nil {
		return nil, err
	}
	if b, err = (tCodecAlg{}).DecodeMsg(b, &l.Got); err != nil {
		return nil, err
	}
	l.From, b, err = uvarint(b)
	return b, err
}

func (tCodecAlg) AppendMsg(b []byte, m *tMsg) []byte {
	return binary.AppendUvarint(append(b, m.Op), uint64(m.J))
}

func (tCodecAlg) DecodeMsg(b []byte, m *tMsg) ([]byte, error) {
	if len(b) == 0 {
		return nil, errShort
	}
	m.Op = b[0]
	var err error
	m.J, b, err = uvarint(b[1:])
	return b, err
}

func uvarint(b []byte) (int, []byte, error) {
	v, k := binary.Uvarint(b)
	if k <= 0 {
		return 0, nil, errShort
	}
	return int(v), b[k:], nil
}

// bareAlg implements Algorithm only: no Leaderer, Restarter, Timed,
// LocalFormatter or Codec.
type bareAlg struct{}

func (bareAlg) Init() tLocal          { return tAlg{}.Init() }
func (bareAlg) Elected(l *tLocal) int { return l.Elected }
func (bareAlg) CanInitiate(c *Ctx[tMsg], l *tLocal, s bool) bool {
	return tAlg{}.CanInitiate(c, l, s)
}
func (bareAlg) Initiate(c *Ctx[tMsg], l *tLocal)                  { tAlg{}.Initiate(c, l) }
func (bareAlg) Receive(c *Ctx[tMsg], l *tLocal, from int, m tMsg) { tAlg{}.Receive(c, l, from, m) }
func (bareAlg) FormatMsg(m tMsg) string                           { return tAlg{}.FormatMsg(m) }

// detectAlg names its initiate action "detect", like Bully.
type detectAlg struct{ tCodecAlg }

func (detectAlg) InitiateName() string { return "detect" }

// anyAlg is an algorithm over arbitrary types, for the generic-path checks.
type anyAlg[L, M any] struct{}

func (anyAlg[L, M]) Init() L                            { var l L; return l }
func (anyAlg[L, M]) Elected(*L) int                     { return 0 }
func (anyAlg[L, M]) CanInitiate(*Ctx[M], *L, bool) bool { return false }
func (anyAlg[L, M]) Initiate(*Ctx[M], *L)               {}
func (anyAlg[L, M]) Receive(*Ctx[M], *L, int, M)        {}
func (anyAlg[L, M]) FormatMsg(M) string                 { return "" }

// ---- hand-built states ----

type chans = map[[2]int][]tMsg

// ws is a global state written by hand: alive bits, local states, the
// non-empty channels chan(p,q) at key {p, q}, and the counters.
type ws struct {
	Alive    uint64
	Local    []tLocal
	Chans    chans
	Crashes  int
	Restarts int
}

func (s ws) world(k *Kernel[tLocal, tMsg]) *world[tLocal, tMsg] {
	n := k.n
	w := &world[tLocal, tMsg]{}
	w.init(n)
	w.alive, w.crashes, w.restarts = s.Alive, s.Crashes, s.Restarts
	copy(w.local, s.Local)
	numberLocals(k, w)
	for pq, q := range s.Chans {
		ch := pq[0]*n + pq[1]
		for i := range q {
			w.chans[ch] = k.codec.AppendMsg(w.chans[ch], &q[i])
		}
		w.count[ch] = len(q)
		w.busy.setTo(ch, len(q) > 0)
	}
	return w
}

// norm makes two equal states compare equal: no empty channel entries,
// every local state present.
func (s ws) norm(n int) ws {
	out := ws{Alive: s.Alive, Local: make([]tLocal, n), Crashes: s.Crashes, Restarts: s.Restarts}
	copy(out.Local, s.Local)
	for pq, q := range s.Chans {
		if len(q) > 0 {
			if out.Chans == nil {
				out.Chans = chans{}
			}
			out.Chans[pq] = slices.Clone(q)
		}
	}
	return out
}

func wsOf(k *Kernel[tLocal, tMsg], w *world[tLocal, tMsg]) ws {
	n := len(w.local)
	s := ws{Alive: w.alive, Local: slices.Clone(w.local), Crashes: w.crashes, Restarts: w.restarts}
	for i, q := range w.chans {
		ms := k.decodeChan(nil, q, w.count[i])
		if w.count[i] != len(ms) {
			panic(fmt.Sprintf("channel %d: count %d, %d messages", i, w.count[i], len(ms)))
		}
		if len(ms) > 0 {
			if s.Chans == nil {
				s.Chans = chans{}
			}
			s.Chans[[2]int{i / n, i % n}] = ms
		}
	}
	return s
}

// busy returns n local states that cannot initiate.
func busy(n int) []tLocal {
	ls := make([]tLocal, n)
	for p := range ls {
		ls[p].Busy = true
	}
	return ls
}

type fixture struct {
	k *Kernel[tLocal, tMsg]
	e *expander[tLocal, tMsg]
}

func newFixAlg(t *testing.T, alg Algorithm[tLocal, tMsg], cfg Config, opts ...Option) *fixture {
	t.Helper()
	k, err := New(alg, cfg, nil, opts...)
	require.NoError(t, err)
	return &fixture{k: k, e: k.newExpander()}
}

func newFix(t *testing.T, cfg Config) *fixture { return newFixAlg(t, tCodecAlg{}, cfg) }

func (f *fixture) enc(s ws) []byte { return f.e.encode(nil, s.world(f.k)) }

func (f *fixture) dec(t *testing.T, b []byte) ws {
	t.Helper()
	w := &world[tLocal, tMsg]{}
	w.init(f.k.n)
	require.NoError(t, f.e.decode(b, w, nil))
	return wsOf(f.k, w)
}

// step is one successor of a hand-built state, decoded.
type step struct {
	A     Action
	Label string
	Fair  int32
	To    ws
}

// expand returns every successor of s in the kernel's order, and how many
// were discarded by the channel bound.
func (f *fixture) expand(t *testing.T, s ws) ([]step, int) {
	t.Helper()
	state := f.enc(s)
	before := slices.Clone(state)
	var b Batch
	f.e.Expand(state, &b)
	var steps []step
	for i, x := range b.Succs {
		steps = append(steps, step{A: Action(x.Action), Fair: x.Fair, To: f.dec(t, b.State(i))})
		steps[i].Label = f.e.Label(state, x.Action)
	}
	require.Equal(t, before, state, "Expand must not change the state it expands")
	return steps, b.Discarded
}

func labelsOf(steps []step) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.Label
	}
	return out
}

func stepNamed(t *testing.T, steps []step, label string) step {
	t.Helper()
	for _, s := range steps {
		if s.Label == label {
			return s
		}
	}
	t.Fatalf("no step %q among %q", label, labelsOf(steps))
	return step{}
}

func requireState(t *testing.T, n int, want, got ws) {
	t.Helper()
	require.Equal(t, want.norm(n), got.norm(n))
}

// ---- actions ----

func TestActionPacking(t *testing.T) {
	a := mkAction(KindTimeout, 3, 7, 2)
	assert.Equal(t, KindTimeout, a.Kind())
	assert.Equal(t, 3, a.P())
	assert.Equal(t, 7, a.Q())
	assert.Equal(t, 2, a.Timer())

	b := mkAction(KindRestart, 255, 255, 255)
	assert.Equal(t, KindRestart, b.Kind())
	assert.Equal(t, 255, b.P())
	assert.Equal(t, 255, b.Q())
	assert.Equal(t, 255, b.Timer())

	assert.Equal(t, Action(0), mkAction(KindDeliver, 0, 0, 0))
	assert.Equal(t, Action(0x05030000), mkAction(KindCrash, 3, 0, 0))
	assert.Equal(t, Action(0x00010200), mkAction(KindDeliver, 1, 2, 0))
	assert.NotEqual(t, mkAction(KindDeliver, 1, 2, 0), mkAction(KindDeliver, 2, 1, 0))
	assert.NotEqual(t, mkAction(KindTimeout, 1, 0, 0), mkAction(KindEarlyTimeout, 1, 0, 0))
	assert.NotEqual(t, mkAction(KindTimeout, 1, 0, 0), mkAction(KindTimeout, 1, 0, 1))

	// The report order of kinds.
	assert.Equal(t, []Kind{0, 1, 2, 3, 4, 5, 6},
		[]Kind{KindDeliver, KindInitiate, KindTimeout, KindSuspect, KindEarlyTimeout, KindCrash, KindRestart})
}

func TestCtxNextSkipsCrashedPositionsBothWays(t *testing.T) {
	f := newFix(t, Config{N: 5, IDs: []int{3, 9, 4, 8, 1}})
	w := ws{Alive: 0b10101, Local: make([]tLocal, 5)}.world(f.k) // positions 1 and 3 crashed
	next := func(p int, d Dir) int { return f.e.at(w, p).Next(d) }
	assert.Equal(t, 2, next(0, CW))
	assert.Equal(t, 4, next(2, CW))
	assert.Equal(t, 0, next(4, CW)) // wraps around
	assert.Equal(t, 4, next(0, CCW))
	assert.Equal(t, 0, next(2, CCW))
	assert.Equal(t, 2, next(4, CCW))
	// From a crashed position too: the nearest live one after it.
	assert.Equal(t, 2, next(1, CW))
	assert.Equal(t, 0, next(1, CCW))

	all := ws{Alive: 0b11111, Local: make([]tLocal, 5)}.world(f.k)
	assert.Equal(t, 0, f.e.at(all, 4).Next(CW))
	assert.Equal(t, 4, f.e.at(all, 0).Next(CCW))
	assert.Equal(t, 3, f.e.at(all, 2).Next(CW))
	assert.Equal(t, 1, f.e.at(all, 2).Next(CCW))

	// The rest of the handler's window.
	c := f.e.at(w, 1)
	assert.Equal(t, 1, c.Self())
	assert.Equal(t, 9, c.ID())
	assert.Equal(t, 5, c.N())
	assert.Equal(t, 8, c.IDOf(3))
	assert.Equal(t, 3, c.PosOf(8))
	assert.Equal(t, -1, c.PosOf(7))
	assert.Equal(t, []int{4, 0, 2, 3, 1}, c.ByID())
	assert.False(t, c.Alive(1))
	assert.True(t, c.Alive(2))
	assert.Equal(t, CCW, CW.Back())
	assert.Equal(t, CW, CCW.Back())
	assert.Equal(t, "cw", CW.String())
	assert.Equal(t, "ccw", CCW.String())
}

func TestCtxNextAloneIsSelf(t *testing.T) {
	f := newFix(t, Config{N: 5})
	w := ws{Alive: 0b01000, Local: make([]tLocal, 5)}.world(f.k)
	assert.Equal(t, 3, f.e.at(w, 3).Next(CW))
	assert.Equal(t, 3, f.e.at(w, 3).Next(CCW))
}

func TestDeliverPopsHeadOfFIFOAndRunsHandler(t *testing.T) {
	f := newFix(t, Config{N: 3})
	s := ws{Alive: 0b111, Local: busy(3), Chans: chans{
		{0, 1}: {election(5), note(6)},
		{2, 1}: {note(7)},
	}}
	steps, discarded := f.expand(t, s)
	require.Equal(t, 0, discarded)
	// One deliver per non-empty channel, in channel order; nothing else is enabled.
	require.Equal(t, []string{"deliver p1→p2 ELECTION(5)", "deliver p3→p2 NOTE(7)"}, labelsOf(steps))

	d := steps[0]
	assert.Equal(t, mkAction(KindDeliver, 0, 1, 0), d.A)
	assert.Equal(t, int32(0*3+1), d.Fair)
	want := ws{Alive: 0b111, Local: busy(3), Chans: chans{
		{0, 1}: {note(6)},     // the head was popped, the rest keeps its order
		{2, 1}: {note(7)},     // another channel is untouched
		{1, 2}: {election(5)}, // the handler forwarded it cw
	}}
	want.Local[1].Got, want.Local[1].From = election(5), 0
	requireState(t, 3, want, d.To)

	d = steps[1]
	assert.Equal(t, mkAction(KindDeliver, 2, 1, 0), d.A)
	assert.Equal(t, int32(2*3+1), d.Fair)
	want = ws{Alive: 0b111, Local: busy(3), Chans: chans{{0, 1}: {election(5), note(6)}}}
	want.Local[1].Got, want.Local[1].From = note(7), 2
	requireState(t, 3, want, d.To)
}

func TestLoneProcessSendsToItself(t *testing.T) {
	f := newFix(t, Config{N: 3})
	// Only position 1 is live; what a crashed process sent is still delivered.
	s := ws{Alive: 0b010, Local: busy(3), Crashes: 2, Chans: chans{{0, 1}: {election(5)}, {2, 1}: {{opCCW, 6}}}}
	steps, _ := f.expand(t, s)
	require.Equal(t, []string{"deliver p1→p2 ELECTION(5)", "deliver p3→p2 PROBE(6)"}, labelsOf(steps))
	want := ws{Alive: 0b010, Local: busy(3), Crashes: 2, Chans: chans{{1, 1}: {election(5)}, {2, 1}: {{opCCW, 6}}}}
	want.Local[1].Got = election(5)
	requireState(t, 3, want, steps[0].To)
	want = ws{Alive: 0b010, Local: busy(3), Crashes: 2, Chans: chans{{0, 1}: {election(5)}, {1, 1}: {{opCCW, 6}}}}
	want.Local[1].Got, want.Local[1].From = tMsg{opCCW, 6}, 2
	requireState(t, 3, want, steps[1].To)

	// Delivering on the self-channel: a step from the state to itself.
	loop := ws{Alive: 0b010, Local: busy(3), Crashes: 2, Chans: chans{{1, 1}: {election(5)}}}
	loop.Local[1].Got, loop.Local[1].From = election(5), 1
	steps, _ = f.expand(t, loop)
	require.Equal(t, []string{"deliver p2→p2 ELECTION(5)"}, labelsOf(steps))
	assert.Equal(t, int32(1*3+1), steps[0].Fair)
	requireState(t, 3, loop, steps[0].To)
	assert.Equal(t, f.enc(loop), f.enc(steps[0].To))
}

func TestSendToCrashedProcessIsLost(t *testing.T) {
	f := newFix(t, Config{N: 3})
	s := ws{Alive: 0b011, Local: busy(3), Crashes: 1, Chans: chans{{0, 1}: {{opTo, 2}, election(5)}}}
	steps, _ := f.expand(t, s)
	require.Equal(t, []string{"deliver p1→p2 TO(2)"}, labelsOf(steps))
	want := ws{Alive: 0b011, Local: busy(3), Crashes: 1, Chans: chans{{0, 1}: {election(5)}}}
	want.Local[1].Got = tMsg{opTo, 2}
	requireState(t, 3, want, steps[0].To) // NOTE(2) to the crashed position 2 is gone

	// Directly through the Ctx.
	w := ws{Alive: 0b011, Local: busy(3)}.world(f.k)
	c := f.e.at(w, 0)
	c.Send(2, note(1))
	requireState(t, 3, ws{Alive: 0b011, Local: busy(3)}, wsOf(f.k, w))
	c.Send(1, note(1))
	c.Send(0, note(2))
	requireState(t, 3, ws{Alive: 0b011, Local: busy(3), Chans: chans{{0, 1}: {note(1)}, {0, 0}: {note(2)}}}, wsOf(f.k, w))
}

func TestCrashEmptiesChannelsIntoItKeepsChannelsOutResetsLocal(t *testing.T) {
	f := newFix(t, Config{N: 3, MaxCrashes: 2})
	ls := busy(3)
	ls[1] = tLocal{Busy: true, Elected: 3, Arm1: true, Got: note(9)}
	s := ws{Alive: 0b111, Local: ls, Crashes: 1, Chans: chans{
		{0, 1}: {note(1)},
		{0, 2}: {note(2)},
		{1, 0}: {note(3)},
		{1, 1}: {note(4)},
		{1, 2}: {note(5)},
		{2, 1}: {note(6), note(7)},
	}}
	steps, _ := f.expand(t, s)
	require.Equal(t, []string{
		"deliver p1→p2 NOTE(1)", "deliver p1→p3 NOTE(2)", "deliver p2→p1 NOTE(3)",
		"deliver p2→p2 NOTE(4)", "deliver p2→p3 NOTE(5)", "deliver p3→p2 NOTE(6)",
		"crash p1", "crash p2", "crash p3", // p2's timeout-coord is armed but not justified
	}, labelsOf(steps))

	c := stepNamed(t, steps, "crash p2")
	assert.Equal(t, mkAction(KindCrash, 1, 0, 0), c.A)
	assert.Equal(t, NoFairness, c.Fair)
	want := ws{Alive: 0b101, Local: busy(3), Crashes: 2, Chans: chans{
		{0, 2}: {note(2)},
		{1, 0}: {note(3)}, // what p2 sent is still delivered
		{1, 2}: {note(5)},
	}}
	want.Local[1] = tLocal{} // Init
	requireState(t, 3, want, c.To)

	c = stepNamed(t, steps, "crash p1")
	want = ws{Alive: 0b110, Local: busy(3), Crashes: 2, Chans: chans{
		{0, 1}: {note(1)}, {0, 2}: {note(2)}, {1, 1}: {note(4)}, {1, 2}: {note(5)}, {2, 1}: {note(6), note(7)},
	}}
	want.Local[0] = tLocal{}
	want.Local[1] = ls[1]
	requireState(t, 3, want, c.To)
}

func TestCrashNotEnabledAtMaxCrashes(t *testing.T) {
	for _, tc := range []struct{ max, used int }{{2, 2}, {0, 0}, {1, 1}} {
		f := newFix(t, Config{N: 3, MaxCrashes: tc.max})
		steps, _ := f.expand(t, ws{Alive: 0b111, Local: busy(3), Crashes: tc.used})
		assert.Empty(t, steps, "MaxCrashes %d, crashes %d", tc.max, tc.used)
	}
	f := newFix(t, Config{N: 3, MaxCrashes: 2})
	steps, _ := f.expand(t, ws{Alive: 0b111, Local: busy(3), Crashes: 1})
	assert.Equal(t, []string{"crash p1", "crash p2", "crash p3"}, labelsOf(steps))
}

func TestCrashNotEnabledForTheOnlyLiveProcess(t *testing.T) {
	f := newFix(t, Config{N: 3, MaxCrashes: 2})
	steps, _ := f.expand(t, ws{Alive: 0b100, Local: busy(3), Crashes: 0})
	assert.Empty(t, steps)
	steps, _ = f.expand(t, ws{Alive: 0b101, Local: busy(3), Crashes: 0})
	assert.Equal(t, []string{"crash p1", "crash p3"}, labelsOf(steps))
	requireState(t, 3, ws{Alive: 0b100, Local: []tLocal{{}, {Busy: true}, {Busy: true}}, Crashes: 1}, steps[0].To)
}

func TestRestartResetsLocalRunsOnRestartAndCounts(t *testing.T) {
	f := newFix(t, Config{N: 3, MaxCrashes: 1, MaxRestarts: 2})
	ls := busy(3)
	ls[1] = tLocal{Busy: true, Elected: 7, Arm0: true} // junk: the kernel must not keep it
	s := ws{Alive: 0b101, Local: ls, Crashes: 1, Restarts: 1, Chans: chans{{1, 0}: {note(1)}}}
	steps, _ := f.expand(t, s)
	// Crash is used up; the crashed p2's armed timer is not looked at.
	require.Equal(t, []string{"deliver p2→p1 NOTE(1)", "restart p2"}, labelsOf(steps))
	r := steps[1]
	assert.Equal(t, mkAction(KindRestart, 1, 0, 0), r.A)
	assert.Equal(t, NoFairness, r.Fair)
	want := ws{Alive: 0b111, Local: busy(3), Crashes: 1, Restarts: 2, Chans: chans{
		{1, 0}: {note(1)},
		{1, 2}: {note(2)}, // OnRestart's send, cw from p2
	}}
	want.Local[1] = tLocal{Restarted: true} // Init, then OnRestart
	requireState(t, 3, want, r.To)

	// Without a Restarter: the local state is exactly Init and nothing is sent.
	g := newFixAlg(t, bareAlg{}, Config{N: 3, MaxRestarts: 1})
	steps, _ = g.expand(t, ws{Alive: 0b101, Local: ls, Crashes: 1})
	require.Equal(t, []string{"restart p2"}, labelsOf(steps))
	requireState(t, 3, ws{Alive: 0b111, Local: []tLocal{{Busy: true}, {}, {Busy: true}}, Crashes: 1, Restarts: 1}, steps[0].To)
}

func TestRestartOnlyWhileRestartsBelowMax(t *testing.T) {
	for _, tc := range []struct{ max, used int }{{2, 2}, {0, 0}} {
		f := newFix(t, Config{N: 3, MaxRestarts: tc.max})
		steps, _ := f.expand(t, ws{Alive: 0b001, Local: busy(3), Crashes: 2, Restarts: tc.used})
		assert.Empty(t, steps, "MaxRestarts %d, restarts %d", tc.max, tc.used)
	}
	f := newFix(t, Config{N: 3, MaxRestarts: 2})
	steps, _ := f.expand(t, ws{Alive: 0b001, Local: busy(3), Crashes: 2, Restarts: 1})
	assert.Equal(t, []string{"restart p2", "restart p3"}, labelsOf(steps))
}

func TestChannelBoundDiscardsStepsThatOverflow(t *testing.T) {
	ls := busy(3)
	ls[1] = tLocal{} // p2 may initiate: it sends ELECTION(2) to p3
	s := ws{Alive: 0b111, Local: ls, Chans: chans{
		{0, 1}: {election(5)},      // p2 forwards it to p3
		{1, 2}: {note(1), note(2)}, // full at K = 2
		{2, 0}: {{opBurst, 2}},     // p1 sends two NOTEs to p2
	}}

	f := newFix(t, Config{N: 3, MaxQueue: 2})
	steps, discarded := f.expand(t, s)
	// deliver p1→p2 (chan p2→p3 would hold 3), deliver p3→p1 (chan p1→p2
	// would hold 3) and initiate p2 (chan p2→p3 would hold 3) are dropped.
	assert.Equal(t, 3, discarded)
	require.Equal(t, []string{"deliver p2→p3 NOTE(1)"}, labelsOf(steps))
	want := ws{Alive: 0b111, Local: busy(3), Chans: chans{
		{0, 1}: {election(5)}, {1, 2}: {note(2)}, {2, 0}: {{opBurst, 2}},
	}}
	want.Local[1] = tLocal{}
	want.Local[2].Got, want.Local[2].From = note(1), 1
	requireState(t, 3, want, steps[0].To)

	// At K = 3 the same steps end exactly at the bound: all taken.
	f = newFix(t, Config{N: 3, MaxQueue: 3})
	steps, discarded = f.expand(t, s)
	assert.Equal(t, 0, discarded)
	require.Equal(t, []string{"deliver p1→p2 ELECTION(5)", "deliver p2→p3 NOTE(1)", "deliver p3→p1 BURST(2)", "initiate p2"}, labelsOf(steps))
	assert.Equal(t, []tMsg{election(5), note(0), note(1)}, steps[2].To.Chans[[2]int{0, 1}])
	assert.Equal(t, []tMsg{note(1), note(2), election(2)}, steps[3].To.Chans[[2]int{1, 2}])
}

func TestChannelBoundIsJudgedAfterThePop(t *testing.T) {
	f := newFix(t, Config{N: 2, MaxQueue: 2})
	// p1 alone, its self-channel at the bound: pop one, push one.
	s := ws{Alive: 0b01, Local: busy(2), Crashes: 1, Chans: chans{{0, 0}: {election(7), election(8)}}}
	steps, discarded := f.expand(t, s)
	assert.Equal(t, 0, discarded)
	require.Equal(t, []string{"deliver p1→p1 ELECTION(7)"}, labelsOf(steps))
	want := ws{Alive: 0b01, Local: busy(2), Crashes: 1, Chans: chans{{0, 0}: {election(8), election(7)}}}
	want.Local[0].Got = election(7)
	requireState(t, 2, want, steps[0].To)

	// Pop one, push two: one over.
	steps, discarded = f.expand(t, ws{Alive: 0b01, Local: busy(2), Crashes: 1, Chans: chans{{0, 0}: {{opBurst, 2}, note(9)}}})
	assert.Equal(t, 1, discarded)
	assert.Empty(t, steps)

	// Pop one, push one, from a full self-channel: taken.
	steps, discarded = f.expand(t, ws{Alive: 0b01, Local: busy(2), Crashes: 1, Chans: chans{{0, 0}: {{opBurst, 1}, note(9)}}})
	assert.Equal(t, 0, discarded)
	require.Len(t, steps, 1)
	assert.Equal(t, []tMsg{note(9), note(0)}, steps[0].To.Chans[[2]int{0, 0}])
}

func TestInitiatorsRestrictInitiateAndSuspectOnly(t *testing.T) {
	f := newFix(t, Config{N: 3, IDs: []int{3, 9, 4}, Initiators: []int{9}, Detector: Unreliable})

	// Everyone suspects (elected = ⊥): only p9 may initiate.
	steps, _ := f.expand(t, ws{Alive: 0b111, Local: make([]tLocal, 3)})
	require.Equal(t, []string{"initiate p9"}, labelsOf(steps))
	assert.Equal(t, int32(9+1), steps[0].Fair)

	// Everyone has the live p4 as leader: only p9 may falsely suspect it
	// (p4 itself never does).
	ls := []tLocal{{Elected: 4}, {Elected: 4}, {Elected: 4}}
	steps, _ = f.expand(t, ws{Alive: 0b111, Local: ls})
	require.Equal(t, []string{"suspect p9"}, labelsOf(steps))

	// Deliveries and timeouts (early ones included) are not restricted.
	ls = busy(3)
	ls[0].Arm0 = true
	steps, _ = f.expand(t, ws{Alive: 0b111, Local: ls, Chans: chans{{0, 2}: {election(3)}}})
	require.Equal(t, []string{"deliver p3→p4 ELECTION(3)", "timeout-ok p3", "early-timeout-ok p3"}, labelsOf(steps))
	want := ws{Alive: 0b111, Local: busy(3), Chans: chans{{2, 0}: {election(3)}}}
	want.Local[0].Arm0 = true
	want.Local[2].Got = election(3)
	requireState(t, 3, want, steps[0].To)
}

func TestDownProcessesStartCrashedAndDoNotCountAsCrashes(t *testing.T) {
	f := newFix(t, Config{N: 4, Down: []int{4, 2}, MaxCrashes: 1})
	var b Batch
	f.e.Initial(&b)
	require.Len(t, b.Succs, 1)
	assert.Equal(t, ts.Action(0), b.Succs[0].Action)
	assert.Equal(t, NoFairness, b.Succs[0].Fair)
	init := f.dec(t, b.State(0))
	requireState(t, 4, ws{Alive: 0b0101, Local: make([]tLocal, 4)}, init)

	steps, _ := f.expand(t, init)
	// Crashes are still available: the down processes used none.
	require.Equal(t, []string{"initiate p1", "crash p1", "initiate p3", "crash p3"}, labelsOf(steps))
	requireState(t, 4, ws{Alive: 0b0100, Local: make([]tLocal, 4), Crashes: 1}, steps[1].To)

	// A down process may restart.
	f = newFix(t, Config{N: 4, Down: []int{4, 2}, MaxRestarts: 1})
	steps, _ = f.expand(t, init)
	require.Equal(t, []string{"initiate p1", "restart p2", "initiate p3", "restart p4"}, labelsOf(steps))
}

func TestInitialLeader(t *testing.T) {
	lead := tLocal{Elected: 9, Leader: true}
	for _, tc := range []struct {
		down  []int
		alive uint64
		want  []tLocal
	}{
		{nil, 0b111, []tLocal{lead, lead, lead}},
		// The largest ID over all processes, even a down one; down processes start from Init.
		{[]int{9}, 0b101, []tLocal{lead, {}, lead}},
		{[]int{3}, 0b110, []tLocal{{}, lead, lead}},
	} {
		f := newFix(t, Config{N: 3, IDs: []int{3, 9, 4}, Down: tc.down, InitialLeader: true})
		var b Batch
		f.e.Initial(&b)
		require.Len(t, b.Succs, 1)
		requireState(t, 3, ws{Alive: tc.alive, Local: tc.want}, f.dec(t, b.State(0)))
	}
	// Without the flag, Init everywhere.
	f := newFix(t, Config{N: 3, IDs: []int{3, 9, 4}})
	var b Batch
	f.e.Initial(&b)
	requireState(t, 3, ws{Alive: 0b111, Local: make([]tLocal, 3)}, f.dec(t, b.State(0)))
}

func TestInitialLeaderNeedsLeaderer(t *testing.T) {
	_, err := New[tLocal, tMsg](bareAlg{}, Config{N: 3, InitialLeader: true}, nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrNoInitialLeader)
	assert.Contains(t, err.Error(), "Config.InitialLeader: this algorithm defines no initial-leader state")
}

func TestUnreliableDetectorSuspectsOnlyALiveOtherLeader(t *testing.T) {
	ls := []tLocal{
		{Elected: 2},             // p1: leader p2 is live and not itself → suspect
		{Elected: 2},             // p2: its own leader → nothing
		{Elected: 6},             // p3: leader p6 crashed → initiate (perfect guard), no suspect
		{Elected: 2, Busy: true}, // p4: the initiate guard fails → nothing
		{},                       // p5: ⊥ → initiate, no suspect
		{},                       // p6: crashed
	}
	s := ws{Alive: 0b011111, Local: ls, Crashes: 1}

	f := newFix(t, Config{N: 6, Detector: Unreliable})
	steps, _ := f.expand(t, s)
	require.Equal(t, []string{"suspect p1", "initiate p3", "initiate p5"}, labelsOf(steps))
	sus := steps[0]
	assert.Equal(t, mkAction(KindSuspect, 0, 0, 0), sus.A)
	assert.Equal(t, NoFairness, sus.Fair)
	want := ws{Alive: 0b011111, Local: slices.Clone(ls), Crashes: 1, Chans: chans{{0, 1}: {election(1)}}}
	want.Local[0] = tLocal{Busy: true} // the effect of initiate
	requireState(t, 6, want, sus.To)
	assert.Equal(t, int32(36+2), steps[1].Fair)

	f = newFix(t, Config{N: 6})
	steps, _ = f.expand(t, s)
	require.Equal(t, []string{"initiate p3", "initiate p5"}, labelsOf(steps))
}

func TestTimeoutsAndEarlyTimeouts(t *testing.T) {
	ls := busy(3)
	ls[0].Arm0, ls[0].Arm1, ls[0].Just1 = true, true, true // both justified
	ls[1].Arm0 = true                                      // a message is queued for p2: not justified
	ls[2].Arm1 = true                                      // not justified
	s := ws{Alive: 0b111, Local: ls, Chans: chans{{2, 1}: {note(1)}}}

	type lf struct {
		Label string
		Fair  int32
	}
	collect := func(steps []step) []lf {
		var out []lf
		for _, s := range steps {
			out = append(out, lf{s.Label, s.Fair})
		}
		return out
	}
	n := int32(3)
	tc := func(p, timer int32) int32 { return n*n + n + p*2 + timer }

	f := newFix(t, Config{N: 3})
	steps, _ := f.expand(t, s)
	require.Equal(t, []lf{
		{"deliver p3→p2 NOTE(1)", 2*n + 1},
		{"timeout-ok p1", tc(0, 0)},
		{"timeout-coord p1", tc(0, 1)},
	}, collect(steps))
	assert.Equal(t, mkAction(KindTimeout, 0, 0, 1), steps[2].A)
	fired := ws{Alive: 0b111, Local: slices.Clone(ls), Chans: chans{{2, 1}: {note(1)}, {0, 1}: {{opElected, 1}}}}
	fired.Local[0].Arm0, fired.Local[0].Elected = false, 1
	requireState(t, 3, fired, steps[1].To)

	f = newFix(t, Config{N: 3, Detector: Unreliable})
	steps, _ = f.expand(t, s)
	require.Equal(t, []lf{
		{"deliver p3→p2 NOTE(1)", 2*n + 1},
		{"timeout-ok p1", tc(0, 0)},
		{"early-timeout-ok p1", tc(0, 0)}, // justified, so it satisfies the fair timeout too
		{"timeout-coord p1", tc(0, 1)},
		{"early-timeout-coord p1", tc(0, 1)},
		{"early-timeout-ok p2", NoFairness},
		{"early-timeout-coord p3", NoFairness},
	}, collect(steps))
	assert.Equal(t, mkAction(KindEarlyTimeout, 1, 0, 0), steps[5].A)
	requireState(t, 3, fired, steps[2].To)
	early := ws{Alive: 0b111, Local: slices.Clone(ls), Chans: chans{{2, 1}: {note(1)}, {1, 2}: {{opElected, 2}}}}
	early.Local[1].Arm0, early.Local[1].Elected = false, 2
	requireState(t, 3, early, steps[5].To)
}

func TestFairnessClasses(t *testing.T) {
	f := newFix(t, Config{N: 3, IDs: []int{3, 9, 4}})
	k := f.k
	assert.Equal(t, "unfair", k.FairClass(NoFairness))
	assert.Equal(t, "deliver p3→p3", k.FairClass(0))
	assert.Equal(t, "deliver p9→p4", k.FairClass(5))
	assert.Equal(t, "deliver p4→p3", k.FairClass(6))
	assert.Equal(t, "deliver p4→p4", k.FairClass(8))
	assert.Equal(t, "initiate p3", k.FairClass(9))
	assert.Equal(t, "initiate p4", k.FairClass(11))
	assert.Equal(t, "timeout-ok p3", k.FairClass(12))
	assert.Equal(t, "timeout-coord p3", k.FairClass(13))
	assert.Equal(t, "timeout-ok p9", k.FairClass(14))
	assert.Equal(t, "timeout-coord p4", k.FairClass(17))
	assert.Equal(t, int32(5), k.classDeliver(1, 2))
	assert.Equal(t, int32(10), k.classInitiate(1))
	assert.Equal(t, int32(17), k.classTimer(2, 1))

	// One state with every kind of step.
	f = newFix(t, Config{N: 3, Detector: Unreliable, MaxCrashes: 1, MaxRestarts: 1})
	s := ws{Alive: 0b011, Local: []tLocal{{Elected: 2}, {}, {}}, Chans: chans{{0, 1}: {note(1)}, {1, 0}: {note(2)}}}
	steps, _ := f.expand(t, s)
	type lf struct {
		Label string
		Fair  int32
	}
	var got []lf
	for _, s := range steps {
		got = append(got, lf{s.Label, s.Fair})
	}
	assert.Equal(t, []lf{
		{"deliver p1→p2 NOTE(1)", 1}, // one class per channel
		{"deliver p2→p1 NOTE(2)", 3},
		{"suspect p1", NoFairness},
		{"crash p1", NoFairness},
		{"initiate p2", 10}, // one class per process
		{"crash p2", NoFairness},
		{"restart p3", NoFairness},
	}, got)
}

func TestFairClassOfDetect(t *testing.T) {
	f := newFixAlg(t, detectAlg{}, Config{N: 2})
	assert.Equal(t, "detect p2", f.k.FairClass(5))
	steps, _ := f.expand(t, ws{Alive: 0b11, Local: make([]tLocal, 2)})
	assert.Equal(t, []string{"detect p1", "detect p2"}, labelsOf(steps))
}

// ---- encoding ----

func richState() ws {
	return ws{
		Alive: 0b1011,
		Local: []tLocal{
			{Busy: true, Elected: 300, Got: tMsg{opBurst, 1 << 19}, From: 3, Arm0: true},
			{Leader: true, Restarted: true, Just1: true, Arm1: true},
			{},
			{Elected: 4, From: 2, Got: election(4)},
		},
		Chans: chans{
			{0, 1}: {note(1), election(2), tMsg{opCCW, 1000}},
			{3, 3}: {note(0)},
			{2, 0}: {tMsg{opElected, 4}, note(7)},
		},
		Crashes:  200, // a two-byte uvarint
		Restarts: 2,
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	for _, f := range []*fixture{
		newFix(t, Config{N: 4}),
		newFixAlg(t, tAlg{}, Config{N: 4}),
		newFixAlg(t, tCodecAlg{}, Config{N: 4}, WithGenericHashing()),
	} {
		s := richState()
		b := f.enc(s)
		requireState(t, 4, s, f.dec(t, b))
		// The same state encodes to the same bytes in one kernel, whatever
		// the slices' capacities; a different state to different bytes.
		w := s.world(f.k)
		for i := range w.chans {
			w.chans[i] = append(make([]byte, 0, 17), w.chans[i]...)
		}
		assert.Equal(t, b, f.e.encode(nil, w))
		// Another kernel, which numbered other local states first, writes
		// other numbers, but the fingerprint hashes the values' canonical
		// encodings: the same.
		if !f.k.generic { // the generic path numbers messages as it meets them
			other := newFixAlg(t, f.k.alg, f.k.cfg)
			_, err := other.k.localTab.number(other.k.codec.AppendLocal(nil, &tLocal{Busy: true, Elected: 3}))
			require.NoError(t, err)
			assert.NotEqual(t, b, other.e.encode(nil, s.world(other.k)), "the numbers are each kernel's")
			assert.Equal(t, f.e.fingerprint(s.world(f.k)), other.e.fingerprint(s.world(other.k)))
		}
		empty := ws{Alive: 0b1111, Local: make([]tLocal, 4)}
		requireState(t, 4, empty, f.dec(t, f.enc(empty)))

		variants := []func(*ws){
			func(s *ws) { s.Alive = 0b1111 },
			func(s *ws) { s.Crashes = 201 },
			func(s *ws) { s.Restarts = 0 },
			func(s *ws) { s.Local[2].Busy = true },
			func(s *ws) { s.Local[0].Got.J++ },
			func(s *ws) { s.Chans[[2]int{0, 1}][0], s.Chans[[2]int{0, 1}][1] = election(2), note(1) },
			func(s *ws) { s.Chans[[2]int{3, 2}], s.Chans[[2]int{3, 3}] = s.Chans[[2]int{3, 3}], nil },
			func(s *ws) { s.Chans[[2]int{2, 0}] = s.Chans[[2]int{2, 0}][:1] },
		}
		for i, change := range variants {
			v := richState()
			change(&v)
			assert.NotEqual(t, b, f.enc(v), "variant %d", i)
			requireState(t, 4, v, f.dec(t, f.enc(v)))
		}
	}
}

func TestDecodeRejectsCorruptStates(t *testing.T) {
	f := newFix(t, Config{N: 4})
	full := f.enc(richState())
	w := &world[tLocal, tMsg]{}
	w.init(4)
	for i := range full {
		assert.Error(t, f.e.decode(full[:i], w, nil), "prefix of %d bytes", i)
	}
	err := f.e.decode(append(slices.Clone(full), 0), w, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "left over")

	// A channel index beyond N*N.
	var b []byte
	b = binary.AppendUvarint(b, 0)
	b = binary.AppendUvarint(b, 0)
	b = append(b, 0b1111, 0)
	locals := len(b)
	for range 4 {
		b = binary.AppendUvarint(b, uint64(f.k.initLid))
	}
	b = binary.AppendUvarint(b, 1)
	at := len(b) // the channel record: index, messages, bytes, messages
	msg := tCodecAlg{}.AppendMsg(nil, &tMsg{opNote, 1})
	b = append(b, 16, 1, byte(len(msg)))
	b = append(b, msg...)
	err = f.e.decode(b, w, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "channel index 16 out of range")
	b[at] = 15 // the last channel is fine
	require.NoError(t, f.e.decode(b, w, nil))
	assert.Equal(t, []tMsg{note(1)}, f.k.decodeChan(nil, w.chans[15], 1))
	assert.Equal(t, 1, w.count[15])
	b[at+2] = byte(len(msg) + 1) // more bytes than there are
	assert.Error(t, f.e.decode(b, w, nil))
	b[at+1], b[at+2] = 0, byte(len(msg)) // listed, but no messages
	err = f.e.decode(b, w, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "empty but listed")
	b[at+1] = 1
	require.NoError(t, f.e.decode(b, w, nil))
	require.Less(t, f.k.initLid, uint32(0x7f))
	b[locals+2] = 0x7f // a local state never numbered
	err = f.e.decode(b, w, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "process 2's local state: a number that was never given")
}

// ---- labels and rendering ----

func TestLabels(t *testing.T) {
	f := newFix(t, Config{N: 5, IDs: []int{2, 3, 9, 4, 1}})
	state := f.enc(ws{Alive: 0b11111, Local: make([]tLocal, 5), Chans: chans{{0, 1}: {election(9), note(1)}}})
	for _, tc := range []struct {
		a    Action
		want string
	}{
		{mkAction(KindDeliver, 0, 1, 0), "deliver p2→p3 ELECTION(9)"}, // the head of the channel
		{mkAction(KindDeliver, 1, 0, 0), "deliver p3→p2 ?"},
		{mkAction(KindInitiate, 0, 0, 0), "initiate p2"},
		{mkAction(KindTimeout, 4, 0, 0), "timeout-ok p1"},
		{mkAction(KindTimeout, 4, 0, 1), "timeout-coord p1"},
		{mkAction(KindEarlyTimeout, 2, 0, 0), "early-timeout-ok p9"},
		{mkAction(KindSuspect, 1, 0, 0), "suspect p3"},
		{mkAction(KindCrash, 3, 0, 0), "crash p4"},
		{mkAction(KindRestart, 2, 0, 0), "restart p9"},
		{Action(0x09000000), "action 0x9000000"},
	} {
		assert.Equal(t, tc.want, f.e.Label(state, ts.Action(tc.a)))
	}
}

func TestDescribeAndFields(t *testing.T) {
	f := newFix(t, Config{N: 3, IDs: []int{1, 2, 3}})
	s := ws{Alive: 0b101, Local: []tLocal{{Busy: true, Elected: 3}, {}, {}}, Crashes: 1,
		Chans: chans{{0, 2}: {election(1), note(2)}, {2, 2}: {note(5)}}}
	st := f.enc(s)
	assert.Equal(t, "p1{busy=true elected=3} p2✝ p3{busy=false elected=0} | p1→p3 [ELECTION(1) NOTE(2)] | p3→p3 [NOTE(5)] | crashes=1 restarts=0", f.e.Describe(st))
	var fields []string
	for _, fl := range f.e.Fields(st) {
		fields = append(fields, fl.Name+"="+fl.Value.String())
	}
	assert.Equal(t, []string{
		"p1.alive=true", "p1.busy=true", "p1.elected=3",
		"p2.alive=false", "p2.busy=false", "p2.elected=0",
		"p3.alive=true", "p3.busy=false", "p3.elected=0",
		"chan p1→p3=[ELECTION(1) NOTE(2)]", "chan p3→p3=[NOTE(5)]",
		"crashes=1", "restarts=0",
	}, fields)
	assert.Equal(t, "p1{busy=false elected=0} p2{busy=false elected=0} p3{busy=false elected=0}",
		f.e.Describe(f.enc(ws{Alive: 0b111, Local: make([]tLocal, 3)})))

	// Without a LocalFormatter, the local state is shown field by field.
	g := newFixAlg(t, bareAlg{}, Config{N: 2})
	l := tLocal{Busy: true, Elected: 3}
	assert.Equal(t, "p1{busy=true elected=3 got={Op:0 J:0} from=0 arm0=false arm1=false just1=false restarted=false leader=false} p2✝",
		g.e.Describe(g.enc(ws{Alive: 0b01, Local: []tLocal{l, {}}})))
}

func TestPredicatesAndView(t *testing.T) {
	preds := []Property[tLocal, tMsg]{
		{Name: "p0 elected", Holds: func(v *View[tLocal, tMsg]) bool { return v.Elected(0) != 0 }},
		{Name: "all alive", Holds: func(v *View[tLocal, tMsg]) bool { return v.Alive(0) && v.Alive(1) && v.Alive(2) }},
	}
	k, err := New[tLocal, tMsg](tCodecAlg{}, Config{N: 3, IDs: []int{3, 9, 4}, MaxCrashes: 1}, preds)
	require.NoError(t, err)
	assert.Equal(t, []string{"p0 elected", "all alive"}, k.Predicates())
	e := k.newExpander()
	f := &fixture{k: k, e: e}
	ls := busy(3)
	ls[1].Elected, ls[2].Elected = 9, 9
	state := f.enc(ws{Alive: 0b111, Local: ls, Chans: chans{{1, 0}: {{opElected, 9}}}})
	var b Batch
	e.Expand(state, &b)
	assert.Equal(t, uint64(0b10), b.Props)
	var got []string
	for i, s := range b.Succs {
		got = append(got, fmt.Sprintf("%s %02b", e.Label(state, s.Action), b.Succs[i].Props))
	}
	assert.Equal(t, []string{"deliver p9→p3 ELECTED(9) 11", "crash p3 00", "crash p9 00", "crash p4 00"}, got)

	v := e.View(state)
	assert.Equal(t, 3, v.N)
	assert.Equal(t, uint64(0b111), v.Alive)
	assert.Equal(t, [MaxN]int{3, 9, 4}, v.ID)
	assert.Equal(t, [MaxN]int{0, 9, 9}, v.Elected)
	assert.True(t, v.AliveID(9))
	assert.False(t, v.AliveID(7))

	_, err = New[tLocal, tMsg](tCodecAlg{}, Config{N: 3}, make([]Property[tLocal, tMsg], 65))
	require.Error(t, err)
}

// ---- the generic (hashstructure) path ----

func TestGenericHashingIsChosenWithoutACodec(t *testing.T) {
	for _, tc := range []struct {
		alg     Algorithm[tLocal, tMsg]
		opts    []Option
		generic bool
	}{
		{tAlg{}, nil, true},
		{bareAlg{}, nil, true},
		{tCodecAlg{}, nil, false},
		{tCodecAlg{}, []Option{WithGenericHashing()}, true},
	} {
		k, err := New(tc.alg, Config{N: 2}, nil, tc.opts...)
		require.NoError(t, err)
		assert.Equal(t, tc.generic, k.Generic(), "%T %d options", tc.alg, len(tc.opts))
		_, isIntern := k.codec.(*internCodec[tLocal, tMsg])
		assert.Equal(t, tc.generic, isIntern)
	}
}

// graphOf explores a system breadth first through the Expander interface,
// and returns its edges as "describe(src) --label--> describe(dst)".
func graphOf(t *testing.T, sys System, describe func([]byte) string) (edges []string, states, discarded int) {
	t.Helper()
	x := sys.NewExpander()
	var b Batch
	x.Initial(&b)
	seen := map[string]bool{string(b.State(0)): true}
	queue := [][]byte{slices.Clone(b.State(0))}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		x.Expand(s, &b)
		discarded += b.Discarded
		type out struct {
			label string
			dst   []byte
		}
		var outs []out
		for i, succ := range b.Succs {
			outs = append(outs, out{x.Label(s, succ.Action), slices.Clone(b.State(i))})
		}
		for _, o := range outs {
			edges = append(edges, describe(s)+" --"+o.label+"--> "+describe(o.dst))
			if !seen[string(o.dst)] {
				seen[string(o.dst)] = true
				queue = append(queue, o.dst)
			}
		}
	}
	sort.Strings(edges)
	return edges, len(seen), discarded
}

func TestGenericAndCodecPathsExploreTheSameGraph(t *testing.T) {
	cfg := Config{N: 3, MaxCrashes: 1, MaxRestarts: 1, Detector: Unreliable, MaxQueue: 1, InitialLeader: true}
	// The whole decoded state, so that states are told apart by content.
	full := func(k *Kernel[tLocal, tMsg]) func([]byte) string {
		e := k.newExpander()
		return func(b []byte) string { return fmt.Sprintf("%+v", wsOf(k, e.load(b)).norm(k.n)) }
	}
	fast, err := New[tLocal, tMsg](tCodecAlg{}, cfg, nil)
	require.NoError(t, err)
	edges, states, discarded := graphOf(t, fast, full(fast))
	require.Greater(t, states, 100)
	require.Greater(t, discarded, 0)
	for _, alg := range []Algorithm[tLocal, tMsg]{tAlg{}, tCodecAlg{}} {
		slow, err := New(alg, cfg, nil, WithGenericHashing())
		require.NoError(t, err)
		require.True(t, slow.Generic())
		e2, s2, d2 := graphOf(t, slow, full(slow))
		assert.Equal(t, states, s2)
		assert.Equal(t, discarded, d2)
		assert.Equal(t, edges, e2)
	}
}

type hiddenLocal struct {
	Elected int
	secret  int //nolint:unused // what the test is about
}

type nestedLocal struct {
	Elected int
	Inner   []struct {
		OK     int
		buried bool //nolint:unused // what the test is about
	}
}

type funcMsg struct{ F func() }

func TestGenericHashingRefusesUnexportedFields(t *testing.T) {
	_, err := New(anyAlg[hiddenLocal, tMsg]{}, Config{N: 2}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "secret")
	assert.Contains(t, err.Error(), "unexported")

	_, err = New(anyAlg[nestedLocal, tMsg]{}, Config{N: 2}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "buried")

	_, err = New(anyAlg[tLocal, funcMsg]{}, Config{N: 2}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "F")
	assert.Contains(t, err.Error(), "func")

	_, err = New(anyAlg[tLocal, tMsg]{}, Config{N: 2}, nil)
	require.NoError(t, err)
}

type ptrLocal struct {
	Elected int
	P       *int
	I       any
}

// hashstructure/v2 hashes a nil pointer like a pointer to 0 and a nil
// interface like 0, so the generic path refuses such fields rather than
// merge different states.
func TestGenericHashingRefusesPointersAndInterfaces(t *testing.T) {
	_, err := New(anyAlg[ptrLocal, tMsg]{}, Config{N: 2}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ptrLocal.P is a ptr")
	assert.Contains(t, err.Error(), "cannot tell nil from a zero value")
}
