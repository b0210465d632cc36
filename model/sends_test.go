package model_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/bully"
	"github.com/mcheck/mcheck/specs/ring"
)

// step takes the step labelled label from state and returns its successor
// and what it sent.
func step(t *testing.T, x model.Expander, state []byte, label string) ([]byte, model.Sends) {
	t.Helper()
	var b model.Batch
	x.Expand(state, &b)
	for i, s := range b.Succs {
		if x.Label(state, s.Action) == label {
			return slices.Clone(b.State(i)), s.Sent
		}
	}
	require.FailNow(t, "no step "+label)
	return nil, model.Sends{}
}

func initial(x model.Expander) []byte {
	var b model.Batch
	x.Initial(&b)
	return slices.Clone(b.State(0))
}

// Sends per step (docs/semantics.md section 5.1): each send counts by type, a send
// to a crashed receiver is lost, and a crash loses every message queued for
// the crashed process.
func TestSendsPerStep(t *testing.T) {
	k := ringSystem(t, model.Config{N: 3, MaxCrashes: 1})
	assert.Equal(t, []string{"ELECTION", "ELECTED"}, k.MsgTypes())
	x, err := model.ExpanderOf(k)
	require.NoError(t, err)
	s := initial(x)
	s, sent := step(t, x, s, "initiate p1")
	assert.Equal(t, model.Sends{ByType: [model.MaxMsgTypes]uint16{1}}, sent)
	s, _ = step(t, x, s, "initiate p3")
	s, sent = step(t, x, s, "crash p2")
	assert.Equal(t, model.Sends{Lost: 1}, sent, "ELECTION(1) in chan(p1,p2) is lost")
	_, sent = step(t, x, s, "deliver p3→p1 ELECTION(3)")
	assert.Equal(t, model.Sends{ByType: [model.MaxMsgTypes]uint16{1}}, sent, "p1 forwards to p3, past crashed p2")
	assert.Equal(t, 1, sent.Total())

	// Bully: p1 detects the crashed coordinator and sends ELECTION to p2 and
	// to crashed p3 (lost).
	kb, err := model.New[bully.Local, bully.Msg](bully.Algorithm{}, model.Config{N: 3, Down: []int{3}}, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"ELECTION", "OK", "COORDINATOR"}, kb.MsgTypes())
	xb, err := model.ExpanderOf(kb)
	require.NoError(t, err)
	_, sent = step(t, xb, initial(xb), "detect p1")
	assert.Equal(t, model.Sends{ByType: [model.MaxMsgTypes]uint16{2}, Lost: 1}, sent)
}

var _ model.Messenger = (*model.Kernel[ring.Local, ring.Msg])(nil)

// counted is a property of the ring algorithm that reads the sends, for a
// kernel that counts them up to limit; the others read one figure each,
// as bits a successor carries: Sent() >= 3, Lost() >= 1, SentOf("ELECTED")
// >= 1.
func counted(limit int) []model.Property[ring.Local, ring.Msg] {
	type view = model.View[ring.Local, ring.Msg]
	return []model.Property[ring.Local, ring.Msg]{
		{Name: "ThreeSent", CountSends: limit, Holds: func(v *view) bool { return v.Sent() >= 3 }},
		{Name: "OneLost", CountSends: limit, Holds: func(v *view) bool { return v.Lost() >= 1 }},
		{Name: "OneElected", CountSends: limit, Holds: func(v *view) bool { return v.SentOf("ELECTED") >= 1 }},
	}
}

// The sends since the initial state are part of the state when a property
// reads them: a send counts by type, a send to a crashed process and a
// message emptied out by a crash count as lost, and every count stops at
// the cap (docs/semantics.md section 5's definitions, as the view and the
// snapshot show them).
func TestSendsCountedInTheState(t *testing.T) {
	k, err := model.New[ring.Local, ring.Msg](ring.Algorithm{}, model.Config{N: 3, MaxCrashes: 1}, counted(3))
	require.NoError(t, err)
	assert.Equal(t, 3, k.SendCap())
	x, err := model.ExpanderOf(k)
	require.NoError(t, err)
	sent := func(state []byte) model.SendsSnapshot { return *x.Snapshot(state).Sent }
	counts := func(total, election, elected, lost int) model.SendsSnapshot {
		return model.SendsSnapshot{Total: total, ByType: []model.TypeCount{{Type: "ELECTION", Count: election}, {Type: "ELECTED", Count: elected}}, Lost: lost, Cap: 3}
	}
	s := initial(x)
	assert.Equal(t, counts(0, 0, 0, 0), sent(s))
	s, _ = step(t, x, s, "initiate p1")
	assert.Equal(t, counts(1, 1, 0, 0), sent(s))
	s, _ = step(t, x, s, "initiate p3")
	s, _ = step(t, x, s, "crash p2")
	assert.Equal(t, counts(2, 2, 0, 1), sent(s), "ELECTION(1) in chan(p1,p2) is lost")
	s, _ = step(t, x, s, "deliver p3→p1 ELECTION(3)")
	assert.Equal(t, counts(3, 3, 0, 1), sent(s))
	s, _ = step(t, x, s, "deliver p1→p3 ELECTION(3)")
	assert.Equal(t, counts(3, 3, 1, 1), sent(s), "the total stops at the cap, 3; ELECTED counts 1")
	assert.Equal(t, "p1{busy=true elected=⊥} p2✝ p3{busy=true elected=⊥} | p3→p1 [ELECTED(3)] | crashes=1 restarts=0 | sent=3 (ELECTION=3 ELECTED=1) lost=1", x.Describe(s))

	// The view reads the same counts: the successors' predicate bits.
	var b model.Batch
	x.Initial(&b)
	assert.Zero(t, b.Succs[0].Props, "nothing sent in the initial state")
	x.Expand(s, &b)
	for i, succ := range b.Succs {
		assert.Equal(t, uint64(0b111), succ.Props, x.Label(s, succ.Action))
		assert.Equal(t, x.Snapshot(b.State(i)).Sent.Lost, 1)
	}

	// Bully: p1 detects the crashed coordinator and sends ELECTION to p2 and
	// to crashed p3 (lost).
	kb, err := model.New[bully.Local, bully.Msg](bully.Algorithm{}, model.Config{N: 3, Down: []int{3}}, nil, model.WithSendCounts(9))
	require.NoError(t, err)
	xb, err := model.ExpanderOf(kb)
	require.NoError(t, err)
	sb, _ := step(t, xb, initial(xb), "detect p1")
	assert.Equal(t, model.SendsSnapshot{Total: 2, ByType: []model.TypeCount{{"ELECTION", 2}, {"OK", 0}, {"COORDINATOR", 0}}, Lost: 1, Cap: 9}, *xb.Snapshot(sb).Sent)
}

// Without a property that reads them the sends are no part of the state:
// its snapshot has none, and a property that reads them all the same is
// told to declare CountSends.
func TestSendsNotCountedWithoutAProperty(t *testing.T) {
	k := ringSystem(t, model.Config{N: 3})
	assert.Zero(t, k.SendCap())
	x, err := model.ExpanderOf(k)
	require.NoError(t, err)
	s, _ := step(t, x, initial(x), "initiate p1")
	assert.Nil(t, x.Snapshot(s).Sent)

	undeclared := model.Property[ring.Local, ring.Msg]{Name: "Undeclared", Holds: func(v *model.View[ring.Local, ring.Msg]) bool { return v.Sent() < 5 }}
	k, err = model.New[ring.Local, ring.Msg](ring.Algorithm{}, model.Config{N: 3}, []model.Property[ring.Local, ring.Msg]{undeclared})
	require.NoError(t, err)
	assert.PanicsWithValue(t, model.ErrSendsNotCounted, func() {
		var b model.Batch
		k.NewExpander().Initial(&b)
	})
}

// A property's CountSends is checked where it is declared.
func TestCountSendsValidated(t *testing.T) {
	holds := func(*model.View[ring.Local, ring.Msg]) bool { return true }
	for _, c := range []struct {
		p    model.Property[ring.Local, ring.Msg]
		want string
	}{
		{model.Property[ring.Local, ring.Msg]{Name: "Neg", Holds: holds, CountSends: -1}, "property Neg: CountSends -1 is negative: 0 reads no sends, B+1 counts them far enough for a bound of B"},
		{model.Property[ring.Local, ring.Msg]{Name: "Wide", Holds: holds, CountSends: 65536}, "property Wide: CountSends 65536 does not fit the state encoding: count up to 65535 at most"},
		{model.Property[ring.Local, ring.Msg]{Name: "Both", Holds: holds, CountSends: 3, ElectedOnly: true}, "property Both: ElectedOnly promises that it reads only liveness, IDs and elected values, and CountSends that it reads the sends: drop ElectedOnly"},
	} {
		_, err := model.New[ring.Local, ring.Msg](ring.Algorithm{}, model.Config{N: 3}, []model.Property[ring.Local, ring.Msg]{c.p})
		assert.EqualError(t, err, c.want)
	}
	_, err := model.New[ring.Local, ring.Msg](ring.Algorithm{}, model.Config{N: 3}, nil, model.WithSendCounts(65536))
	assert.EqualError(t, err, "sends counted up to 65536 do not fit the state encoding: count up to 65535 at most")
}

// pinger: p1's timer is always armed and justified; firing it flips a bit
// and sends a message to p2, which is down: the schedule comes back to the
// state it was in, with one more message lost each time.
type pinger struct{ flipper }

func (pinger) Timers() []model.Timer[fLocal, fMsg] {
	return []model.Timer[fLocal, fMsg]{{
		Name:      "ping",
		Armed:     func(*fLocal) bool { return true },
		Justified: func(*model.GuardCtx[fMsg], *fLocal) bool { return true },
		Fire: func(c *model.Ctx[fMsg], l *fLocal) {
			l.Bit = !l.Bit
			c.Send(1, fMsg{})
		},
	}}
}

// The synchronous schedule of a kernel that counts the sends is the
// schedule without them: a state it comes back to differs only in what was
// sent, which grows, and is a revisit all the same.
func TestSynchronousIgnoresTheSendsCounted(t *testing.T) {
	cfg := model.Config{N: 2, Down: []int{2}}
	plain, err := model.New[fLocal, fMsg](pinger{}, cfg, nil)
	require.NoError(t, err)
	k, err := model.New[fLocal, fMsg](pinger{}, cfg, nil, model.WithSendCounts(50))
	require.NoError(t, err)
	want, got := plain.Synchronous(), k.Synchronous()
	require.True(t, want.Unbounded)
	assert.True(t, got.Unbounded)
	assert.Equal(t, len(want.Steps), len(got.Steps))
	assert.Equal(t, want.Sent, got.Sent)
	assert.Equal(t, want.Latency, got.Latency)
}
