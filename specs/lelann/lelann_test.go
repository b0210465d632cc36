package lelann_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/internal/spectest"
	"github.com/mcheck/mcheck/specs/lelann"
)

// The handler tests run on spectest.IDs(): positions 0..3 carry IDs 3, 9,
// 4, 8.

type (
	sent = model.Sent[lelann.Msg]
	step = spectest.Case[lelann.Local, lelann.Msg]
)

func elect(j int) lelann.Msg { return lelann.Msg{J: j} }

var snd = spectest.Snd[lelann.Msg]

// known is the set of the given IDs as Local.Known stores it: a bitmask over
// the positions of those IDs.
func known(set ...int) uint64 {
	var k uint64
	for _, id := range set {
		p := slices.Index(spectest.IDs(), id)
		if p < 0 {
			panic("not an ID")
		}
		k |= 1 << p
	}
	return k
}

func TestInitialStates(t *testing.T) {
	alg := lelann.Algorithm{}
	assert.Equal(t, lelann.Local{Status: lelann.Idle}, alg.Init())
	// --initial-leader: decided, known = {}, elected = the leader.
	assert.Equal(t, lelann.Local{Status: lelann.Decided, Known: 0, Elected: 9}, alg.InitLeader(9))
	l := lelann.Local{Status: lelann.Running, Elected: 8}
	assert.Equal(t, 8, alg.Elected(&l))
}

func TestCanInitiate(t *testing.T) {
	alg := lelann.Algorithm{}
	spectest.CanInitiate(t, alg.Elected, alg.CanInitiate, []spectest.Guard[lelann.Local]{
		{Name: "idle, suspects", Local: lelann.Local{}, Suspects: true, Want: true},
		{Name: "idle, does not suspect", Local: lelann.Local{Elected: 9}, Suspects: false, Want: false},
		{Name: "running, suspects", Local: lelann.Local{Status: lelann.Running, Known: known(4)}, Suspects: true, Want: false},
		{Name: "running, does not suspect", Local: lelann.Local{Status: lelann.Running, Known: known(4), Elected: 9}, Suspects: false, Want: false},
		{Name: "decided, suspects", Local: lelann.Local{Status: lelann.Decided, Elected: 8}, Suspects: true, Want: true},
		{Name: "decided, does not suspect", Local: lelann.Local{Status: lelann.Decided, Elected: 9}, Suspects: false, Want: false},
	})
}

func TestInitiate(t *testing.T) {
	cases := []step{
		{Name: "idle", Self: 2, Before: lelann.Local{}, Want: lelann.Local{Status: lelann.Running, Known: known(4)}, Sent: []sent{snd(2, 3, elect(4))}},
		{Name: "decided with a crashed leader forgets what it knew", Self: 2, Dead: []int{3},
			Before: lelann.Local{Status: lelann.Decided, Known: known(3, 4, 8, 9), Elected: 8},
			Want:   lelann.Local{Status: lelann.Running, Known: known(4)}, Sent: []sent{snd(2, 0, elect(4))}},
		{Name: "wraps around the ring", Self: 3, Before: lelann.Local{}, Want: lelann.Local{Status: lelann.Running, Known: known(8)}, Sent: []sent{snd(3, 0, elect(8))}},
	}
	for _, alg := range []lelann.Algorithm{{}, {ForwardFirst: true}} {
		t.Run(fmt.Sprintf("ForwardFirst=%v", alg.ForwardFirst), func(t *testing.T) {
			spectest.Run(t, alg.Elected, spectest.Call(alg.Initiate), cases)
		})
	}
}

// The rules that do not depend on the order of the joiner's sends.
func commonCases() []step {
	running := lelann.Status(lelann.Running)
	return []step{
		// ELECT(j), j = id.
		{Name: "own ELECT while running decides max(known)", Self: 2,
			Before: lelann.Local{Status: running, Known: known(4, 3, 9)}, Msg: elect(4),
			Want: lelann.Local{Status: lelann.Decided, Known: known(4, 3, 9), Elected: 9}},
		{Name: "own ELECT while running, own ID largest", Self: 1,
			Before: lelann.Local{Status: running, Known: known(9, 3, 8)}, Msg: elect(9),
			Want: lelann.Local{Status: lelann.Decided, Known: known(9, 3, 8), Elected: 9}},
		{Name: "own ELECT while running, only own ID known", Self: 3,
			Before: lelann.Local{Status: running, Known: known(8)}, Msg: elect(8),
			Want: lelann.Local{Status: lelann.Decided, Known: known(8), Elected: 8}},
		{Name: "own ELECT while idle is dropped", Self: 2,
			Before: lelann.Local{}, Msg: elect(4), Want: lelann.Local{}},
		{Name: "own ELECT while decided is dropped", Self: 2,
			Before: lelann.Local{Status: lelann.Decided, Known: known(4, 9), Elected: 9}, Msg: elect(4),
			Want: lelann.Local{Status: lelann.Decided, Known: known(4, 9), Elected: 9}},
		// ELECT(j), j ≠ id, running: known ∪ {j}; forward.
		{Name: "running adds j and forwards", Self: 2,
			Before: lelann.Local{Status: running, Known: known(4)}, Msg: elect(9),
			Want: lelann.Local{Status: running, Known: known(4, 9)}, Sent: []sent{snd(2, 3, elect(9))}},
		{Name: "running adds a smaller j and forwards", Self: 3,
			Before: lelann.Local{Status: running, Known: known(8, 9)}, Msg: elect(3),
			Want: lelann.Local{Status: running, Known: known(8, 9, 3)}, Sent: []sent{snd(3, 0, elect(3))}},
		{Name: "running, j already known", Self: 2,
			Before: lelann.Local{Status: running, Known: known(4, 9)}, Msg: elect(9),
			Want: lelann.Local{Status: running, Known: known(4, 9)}, Sent: []sent{snd(2, 3, elect(9))}},
		{Name: "running forwards past a crashed successor", Self: 2, Dead: []int{3},
			Before: lelann.Local{Status: running, Known: known(4)}, Msg: elect(8),
			Want: lelann.Local{Status: running, Known: known(4, 8)}, Sent: []sent{snd(2, 0, elect(8))}},
		// ELECT(j), j ≠ id, decided and the leader is live: relay only.
		{Name: "decided, leader live: relay only", Self: 2,
			Before: lelann.Local{Status: lelann.Decided, Known: known(4, 9), Elected: 9}, Msg: elect(3),
			Want: lelann.Local{Status: lelann.Decided, Known: known(4, 9), Elected: 9}, Sent: []sent{snd(2, 3, elect(3))}},
		{Name: "decided by --initial-leader, leader live: relay only", Self: 0,
			Before: lelann.Local{Status: lelann.Decided, Elected: 9}, Msg: elect(8),
			Want: lelann.Local{Status: lelann.Decided, Elected: 9}, Sent: []sent{snd(0, 1, elect(8))}},
		{Name: "decided, leader is itself: relay only", Self: 1,
			Before: lelann.Local{Status: lelann.Decided, Known: known(9, 3), Elected: 9}, Msg: elect(3),
			Want: lelann.Local{Status: lelann.Decided, Known: known(9, 3), Elected: 9}, Sent: []sent{snd(1, 2, elect(3))}},
	}
}

// joinCases are the joins, with the sends in mcheck's order (not the
// notes'): own ID first, then the forwarded one.
func joinCases() []step {
	running := lelann.Status(lelann.Running)
	return []step{
		{Name: "idle joins: own ELECT first, then forward", Self: 2,
			Before: lelann.Local{}, Msg: elect(9),
			Want: lelann.Local{Status: running, Known: known(4, 9)}, Sent: []sent{snd(2, 3, elect(4)), snd(2, 3, elect(9))}},
		{Name: "idle joins with a smaller j", Self: 3,
			Before: lelann.Local{}, Msg: elect(4),
			Want: lelann.Local{Status: running, Known: known(8, 4)}, Sent: []sent{snd(3, 0, elect(8)), snd(3, 0, elect(4))}},
		{Name: "decided and suspects (leader crashed) joins", Self: 2, Dead: []int{3},
			Before: lelann.Local{Status: lelann.Decided, Known: known(3, 4, 8, 9), Elected: 8}, Msg: elect(3),
			Want: lelann.Local{Status: running, Known: known(4, 3)}, Sent: []sent{snd(2, 0, elect(4)), snd(2, 0, elect(3))}},
		{Name: "decided with elected ⊥ suspects and joins", Self: 0,
			Before: lelann.Local{Status: lelann.Decided}, Msg: elect(4),
			Want: lelann.Local{Status: running, Known: known(3, 4)}, Sent: []sent{snd(0, 1, elect(3)), snd(0, 1, elect(4))}},
	}
}

func TestReceive(t *testing.T) {
	alg := lelann.Algorithm{}
	spectest.Run(t, alg.Elected, spectest.FromPredecessor(alg.Receive), append(commonCases(), joinCases()...))
}

// ForwardFirst swaps the joiner's two sends and changes nothing else.
func TestReceiveForwardFirst(t *testing.T) {
	joins := joinCases()
	for i := range joins {
		joins[i].Name += " (forward first)"
		s := joins[i].Sent
		require.Len(t, s, 2)
		joins[i].Sent = []sent{s[1], s[0]}
	}
	alg := lelann.Algorithm{ForwardFirst: true}
	spectest.Run(t, alg.Elected, spectest.FromPredecessor(alg.Receive), append(commonCases(), joins...))
}

func TestFormat(t *testing.T) {
	alg := lelann.Algorithm{}
	assert.Equal(t, "ELECT(9)", alg.FormatMsg(elect(9)))
	env := model.NewTestEnv[lelann.Msg](spectest.IDs()...)
	// known is listed by ascending ID, whatever the positions.
	assert.Equal(t, []model.Field{{Name: "status", Value: model.Str("running")}, {Name: "known", Value: model.Set(model.Int(3), model.Int(4), model.Int(8), model.Int(9))}, {Name: "elected", Value: model.None()}},
		alg.FormatLocal(env.Ctx(0), &lelann.Local{Status: lelann.Running, Known: known(9, 8, 4, 3)}))
	assert.Equal(t, []model.Field{{Name: "status", Value: model.Str("decided")}, {Name: "known", Value: model.Set(model.Int(4), model.Int(9))}, {Name: "elected", Value: model.Int(9)}},
		alg.FormatLocal(env.Ctx(2), &lelann.Local{Status: lelann.Decided, Known: known(9, 4), Elected: 9}))
	assert.Equal(t, []model.Field{{Name: "status", Value: model.Str("idle")}, {Name: "known", Value: model.Set()}, {Name: "elected", Value: model.None()}},
		alg.FormatLocal(env.Ctx(2), &lelann.Local{}))
}

func TestCodecLocal(t *testing.T) {
	alg := lelann.Algorithm{}
	spectest.RoundTrip(t, alg.AppendLocal, alg.DecodeLocal, []lelann.Local{
		{},
		{Status: lelann.Running, Known: known(4)},
		{Status: lelann.Decided, Known: known(3, 4, 8, 9), Elected: 9},
		{Status: lelann.Decided, Elected: 1 << 20},
		{Status: lelann.Running, Known: 0xffff},
	}...)
	a, b := lelann.Local{Status: lelann.Running, Known: known(4)}, lelann.Local{Status: lelann.Running, Known: known(9)}
	assert.NotEqual(t, alg.AppendLocal(nil, &a), alg.AppendLocal(nil, &b))
}

func TestCodecMsg(t *testing.T) {
	alg := lelann.Algorithm{}
	spectest.RoundTrip(t, alg.AppendMsg, alg.DecodeMsg, []lelann.Msg{elect(3), elect(9), elect(300), elect(1 << 20)}...)
}
