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

// The test algorithm of the kernel's tests: handlers that do exactly what
// a test needs: record the message they got, forward it clockwise or
// counter-clockwise, send to a named position, send a burst, or set
// elected. The kernel's actions on it, one by one, are the scripts in
// testdata/kernel (kernel_script_test.go); the tests here are those of
// what a script does not show: the Ctx, the encoding's bytes, the
// generic path's types.

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

// A send through the Ctx to a crashed process is lost; to a live one,
// itself included, it is queued. (Through a handler: testdata/kernel/deliver.txt.)
func TestCtxSendToCrashedProcessIsLost(t *testing.T) {
	f := newFix(t, Config{N: 3})
	w := ws{Alive: 0b011, Local: busy(3)}.world(f.k)
	c := f.e.at(w, 0)
	c.Send(2, note(1))
	requireState(t, 3, ws{Alive: 0b011, Local: busy(3)}, wsOf(f.k, w))
	c.Send(1, note(1))
	c.Send(0, note(2))
	requireState(t, 3, ws{Alive: 0b011, Local: busy(3), Chans: chans{{0, 1}: {note(1)}, {0, 0}: {note(2)}}}, wsOf(f.k, w))
}

func TestInitialLeaderNeedsLeaderer(t *testing.T) {
	_, err := New[tLocal, tMsg](bareAlg{}, Config{N: 3, InitialLeader: true}, nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrNoInitialLeader)
	assert.Contains(t, err.Error(), "Config.InitialLeader: this algorithm defines no initial-leader state")
}

// The class numbers of each family (their names and the steps' classes:
// testdata/kernel/fairness.txt).
func TestFairnessClassNumbers(t *testing.T) {
	f := newFix(t, Config{N: 3, IDs: []int{3, 9, 4}})
	assert.Equal(t, int32(5), f.k.classDeliver(1, 2))
	assert.Equal(t, int32(10), f.k.classInitiate(1))
	assert.Equal(t, int32(17), f.k.classTimer(2, 1))
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

// At most 64 predicates: a Batch's bits (the predicates themselves:
// testdata/kernel/props.txt).
func TestTooManyPredicates(t *testing.T) {
	_, err := New[tLocal, tMsg](tCodecAlg{}, Config{N: 3}, make([]Property[tLocal, tMsg], 65))
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
