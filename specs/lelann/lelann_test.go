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

// Positions 0..3 carry IDs 3, 9, 4, 8.
var ids = []int{3, 9, 4, 8}

type sent = model.Sent[lelann.Msg]

func elect(j int) lelann.Msg { return lelann.Msg{J: j} }

// snd is a send from position from to position to.
func snd(from, to int, m lelann.Msg) sent { return sent{From: from, To: to, Msg: m} }

// known is the set of the given IDs as Local.Known stores it: a bitmask over
// the positions of those IDs.
func known(set ...int) uint64 {
	var k uint64
	for _, id := range set {
		p := slices.Index(ids, id)
		if p < 0 {
			panic("not an ID")
		}
		k |= 1 << p
	}
	return k
}

func newEnv(self int, l lelann.Local, dead ...int) *model.TestEnv[lelann.Msg] {
	env := model.NewTestEnv[lelann.Msg](ids...)
	for _, p := range dead {
		env.Alive[p] = false
	}
	env.Elected[self] = l.Elected
	return env
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
	tests := []struct {
		name     string
		local    lelann.Local
		suspects bool
		want     bool
	}{
		{"idle, suspects", lelann.Local{}, true, true},
		{"idle, does not suspect", lelann.Local{Elected: 9}, false, false},
		{"running, suspects", lelann.Local{Status: lelann.Running, Known: known(4)}, true, false},
		{"running, does not suspect", lelann.Local{Status: lelann.Running, Known: known(4), Elected: 9}, false, false},
		{"decided, suspects", lelann.Local{Status: lelann.Decided, Elected: 8}, true, true},
		{"decided, does not suspect", lelann.Local{Status: lelann.Decided, Elected: 9}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(2, tt.local)
			l := tt.local
			assert.Equal(t, tt.want, lelann.Algorithm{}.CanInitiate(env.Ctx(2), &l, tt.suspects))
			assert.Equal(t, tt.local, l)
			assert.Empty(t, env.Sent)
		})
	}
}

func TestInitiate(t *testing.T) {
	tests := []struct {
		name   string
		self   int
		dead   []int
		before lelann.Local
		want   lelann.Local
		sent   []sent
	}{
		{"idle", 2, nil, lelann.Local{}, lelann.Local{Status: lelann.Running, Known: known(4)}, []sent{snd(2, 3, elect(4))}},
		{"decided with a crashed leader forgets what it knew", 2, []int{3},
			lelann.Local{Status: lelann.Decided, Known: known(3, 4, 8, 9), Elected: 8},
			lelann.Local{Status: lelann.Running, Known: known(4)}, []sent{snd(2, 0, elect(4))}},
		{"wraps around the ring", 3, nil, lelann.Local{}, lelann.Local{Status: lelann.Running, Known: known(8)}, []sent{snd(3, 0, elect(8))}},
	}
	for _, alg := range []lelann.Algorithm{{}, {ForwardFirst: true}} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("ForwardFirst=%v/%s", alg.ForwardFirst, tt.name), func(t *testing.T) {
				env := newEnv(tt.self, tt.before, tt.dead...)
				l := tt.before
				alg.Initiate(env.Ctx(tt.self), &l)
				assert.Equal(t, tt.want, l)
				assert.Equal(t, tt.sent, env.Sent)
				assert.Empty(t, env.Lost)
			})
		}
	}
}

type receiveCase struct {
	name   string
	self   int
	dead   []int
	before lelann.Local
	msg    lelann.Msg
	want   lelann.Local
	sent   []sent
}

func runReceive(t *testing.T, alg lelann.Algorithm, tests []receiveCase) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(tt.self, tt.before, tt.dead...)
			l := tt.before
			from := (tt.self + len(ids) - 1) % len(ids)
			alg.Receive(env.Ctx(tt.self), &l, from, tt.msg)
			assert.Equal(t, tt.want, l)
			assert.Equal(t, tt.sent, env.Sent)
			assert.Empty(t, env.Lost)
		})
	}
}

// The rules that do not depend on the order of the joiner's sends.
func commonCases() []receiveCase {
	running := lelann.Status(lelann.Running)
	return []receiveCase{
		// ELECT(j), j = id.
		{"own ELECT while running decides max(known)", 2, nil,
			lelann.Local{Status: running, Known: known(4, 3, 9)}, elect(4),
			lelann.Local{Status: lelann.Decided, Known: known(4, 3, 9), Elected: 9}, nil},
		{"own ELECT while running, own ID largest", 1, nil,
			lelann.Local{Status: running, Known: known(9, 3, 8)}, elect(9),
			lelann.Local{Status: lelann.Decided, Known: known(9, 3, 8), Elected: 9}, nil},
		{"own ELECT while running, only own ID known", 3, nil,
			lelann.Local{Status: running, Known: known(8)}, elect(8),
			lelann.Local{Status: lelann.Decided, Known: known(8), Elected: 8}, nil},
		{"own ELECT while idle is dropped", 2, nil,
			lelann.Local{}, elect(4), lelann.Local{}, nil},
		{"own ELECT while decided is dropped", 2, nil,
			lelann.Local{Status: lelann.Decided, Known: known(4, 9), Elected: 9}, elect(4),
			lelann.Local{Status: lelann.Decided, Known: known(4, 9), Elected: 9}, nil},
		// ELECT(j), j ≠ id, running: known ∪ {j}; forward.
		{"running adds j and forwards", 2, nil,
			lelann.Local{Status: running, Known: known(4)}, elect(9),
			lelann.Local{Status: running, Known: known(4, 9)}, []sent{snd(2, 3, elect(9))}},
		{"running adds a smaller j and forwards", 3, nil,
			lelann.Local{Status: running, Known: known(8, 9)}, elect(3),
			lelann.Local{Status: running, Known: known(8, 9, 3)}, []sent{snd(3, 0, elect(3))}},
		{"running, j already known", 2, nil,
			lelann.Local{Status: running, Known: known(4, 9)}, elect(9),
			lelann.Local{Status: running, Known: known(4, 9)}, []sent{snd(2, 3, elect(9))}},
		{"running forwards past a crashed successor", 2, []int{3},
			lelann.Local{Status: running, Known: known(4)}, elect(8),
			lelann.Local{Status: running, Known: known(4, 8)}, []sent{snd(2, 0, elect(8))}},
		// ELECT(j), j ≠ id, decided and the leader is live: relay only.
		{"decided, leader live: relay only", 2, nil,
			lelann.Local{Status: lelann.Decided, Known: known(4, 9), Elected: 9}, elect(3),
			lelann.Local{Status: lelann.Decided, Known: known(4, 9), Elected: 9}, []sent{snd(2, 3, elect(3))}},
		{"decided by --initial-leader, leader live: relay only", 0, nil,
			lelann.Local{Status: lelann.Decided, Elected: 9}, elect(8),
			lelann.Local{Status: lelann.Decided, Elected: 9}, []sent{snd(0, 1, elect(8))}},
		{"decided, leader is itself: relay only", 1, nil,
			lelann.Local{Status: lelann.Decided, Known: known(9, 3), Elected: 9}, elect(3),
			lelann.Local{Status: lelann.Decided, Known: known(9, 3), Elected: 9}, []sent{snd(1, 2, elect(3))}},
	}
}

// joinCases are the joins, with the sends in mcheck's order (not the
// notes'): own ID first, then the forwarded one.
func joinCases() []receiveCase {
	running := lelann.Status(lelann.Running)
	return []receiveCase{
		{"idle joins: own ELECT first, then forward", 2, nil,
			lelann.Local{}, elect(9),
			lelann.Local{Status: running, Known: known(4, 9)}, []sent{snd(2, 3, elect(4)), snd(2, 3, elect(9))}},
		{"idle joins with a smaller j", 3, nil,
			lelann.Local{}, elect(4),
			lelann.Local{Status: running, Known: known(8, 4)}, []sent{snd(3, 0, elect(8)), snd(3, 0, elect(4))}},
		{"decided and suspects (leader crashed) joins", 2, []int{3},
			lelann.Local{Status: lelann.Decided, Known: known(3, 4, 8, 9), Elected: 8}, elect(3),
			lelann.Local{Status: running, Known: known(4, 3)}, []sent{snd(2, 0, elect(4)), snd(2, 0, elect(3))}},
		{"decided with elected ⊥ suspects and joins", 0, nil,
			lelann.Local{Status: lelann.Decided}, elect(4),
			lelann.Local{Status: running, Known: known(3, 4)}, []sent{snd(0, 1, elect(3)), snd(0, 1, elect(4))}},
	}
}

func TestReceive(t *testing.T) {
	runReceive(t, lelann.Algorithm{}, append(commonCases(), joinCases()...))
}

// ForwardFirst swaps the joiner's two sends and changes nothing else.
func TestReceiveForwardFirst(t *testing.T) {
	joins := joinCases()
	for i := range joins {
		joins[i].name += " (forward first)"
		s := joins[i].sent
		require.Len(t, s, 2)
		joins[i].sent = []sent{s[1], s[0]}
	}
	runReceive(t, lelann.Algorithm{ForwardFirst: true}, append(commonCases(), joins...))
}

func TestFormat(t *testing.T) {
	alg := lelann.Algorithm{}
	assert.Equal(t, "ELECT(9)", alg.FormatMsg(elect(9)))
	env := newEnv(0, lelann.Local{})
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
