package bully_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/bully"
	"github.com/mcheck/mcheck/specs/internal/spectest"
)

// ids: positions 0..3 carry IDs 3, 9, 4, 8, so ascending ID order (p0, p2,
// p3, p1) differs from position order. ids2 (8, 3, 9, 4) puts the lower
// processes of ID 9 out of position order too: p1, p3, p0.
var (
	ids  = []int{3, 9, 4, 8}
	ids2 = []int{8, 3, 9, 4}
)

type sent = model.Sent[bully.Msg]

func election(j int) bully.Msg    { return bully.Msg{Kind: bully.Election, J: j} }
func ok(j int) bully.Msg          { return bully.Msg{Kind: bully.OK, J: j} }
func coordinator(j int) bully.Msg { return bully.Msg{Kind: bully.Coordinator, J: j} }

// snd is a send from position from to position to.
func snd(from, to int, m bully.Msg) sent { return sent{From: from, To: to, Msg: m} }

func local(s bully.Status, el int) bully.Local { return bully.Local{Status: s, Elected: el} }

// setup is the environment of one case: the IDs (nil: ids), the crashed
// positions, and the messages queued to each process (by To).
type setup struct {
	ids    []int
	dead   []int
	queued []sent
}

func (s setup) env(self int, l bully.Local) *model.TestEnv[bully.Msg] {
	ps := s.ids
	if ps == nil {
		ps = ids
	}
	env := model.NewTestEnv[bully.Msg](ps...)
	for _, p := range s.dead {
		env.Alive[p] = false
	}
	for _, m := range s.queued {
		env.Queued[m.To] = append(env.Queued[m.To], m)
	}
	env.Elected[self] = l.Elected
	return env
}

func TestInitialStates(t *testing.T) {
	alg := bully.Algorithm{}
	assert.Equal(t, local(bully.Idle, 0), alg.Init())
	assert.Equal(t, local(bully.Idle, 9), alg.InitLeader(9))
	l := local(bully.Waiting, 8)
	assert.Equal(t, 8, alg.Elected(&l))
	assert.Equal(t, "detect", alg.InitiateName())
}

func TestCanDetect(t *testing.T) {
	tests := []struct {
		name     string
		local    bully.Local
		suspects bool
		want     bool
	}{
		{"idle, suspects", local(bully.Idle, 0), true, true},
		{"idle, does not suspect", local(bully.Idle, 9), false, false},
		{"electing, suspects", local(bully.Electing, 0), true, false},
		{"electing, does not suspect", local(bully.Electing, 9), false, false},
		{"waiting, suspects", local(bully.Waiting, 0), true, false},
		{"waiting, does not suspect", local(bully.Waiting, 9), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := setup{}.env(2, tt.local)
			l := tt.local
			assert.Equal(t, tt.want, bully.Algorithm{}.CanInitiate(env.Ctx(2), &l, tt.suspects))
			assert.Equal(t, tt.local, l)
			assert.Empty(t, env.Sent)
		})
	}
}

// stepCase is one call of a handler that may change the local state and send.
type stepCase struct {
	name   string
	setup  setup
	self   int
	before bully.Local
	want   bully.Local
	sent   []sent // to live processes, in order
	lost   []sent // to crashed processes, in order
}

func (tt stepCase) run(t *testing.T, step func(c *model.Ctx[bully.Msg], l *bully.Local)) {
	t.Helper()
	t.Run(tt.name, func(t *testing.T) {
		env := tt.setup.env(tt.self, tt.before)
		l := tt.before
		step(env.Ctx(tt.self), &l)
		assert.Equal(t, tt.want, l)
		assert.Equal(t, tt.sent, env.Sent)
		assert.Equal(t, tt.lost, env.Lost)
	})
}

// StartElection as detect(p) and on restart run it: the same cases.
func startElectionCases() []stepCase {
	crashed9 := setup{dead: []int{1}}
	return []stepCase{
		{"has higher: ELECTION to every higher in ascending ID order", setup{}, 0, local(bully.Idle, 0),
			local(bully.Electing, 0), []sent{snd(0, 2, election(3)), snd(0, 3, election(3)), snd(0, 1, election(3))}, nil},
		{"has higher, ids2: ascending ID order", setup{ids: ids2}, 1, local(bully.Idle, 0),
			local(bully.Electing, 0), []sent{snd(1, 3, election(3)), snd(1, 0, election(3)), snd(1, 2, election(3))}, nil},
		{"higher includes crashed processes: messages to them are lost", crashed9, 0, local(bully.Idle, 9),
			local(bully.Electing, 0), []sent{snd(0, 2, election(3)), snd(0, 3, election(3))}, []sent{snd(0, 1, election(3))}},
		{"only higher is crashed: still electing", crashed9, 3, local(bully.Idle, 9),
			local(bully.Electing, 0), nil, []sent{snd(3, 1, election(8))}},
		{"highest: coordinator, COORDINATOR to every lower in ascending ID order", setup{}, 1, local(bully.Idle, 0),
			local(bully.Idle, 9), []sent{snd(1, 0, coordinator(9)), snd(1, 2, coordinator(9)), snd(1, 3, coordinator(9))}, nil},
		{"highest, ids2: ascending ID order", setup{ids: ids2}, 2, local(bully.Idle, 0),
			local(bully.Idle, 9), []sent{snd(2, 1, coordinator(9)), snd(2, 3, coordinator(9)), snd(2, 0, coordinator(9))}, nil},
		{"highest with a crashed lower: lost", setup{dead: []int{2}}, 1, local(bully.Idle, 0),
			local(bully.Idle, 9), []sent{snd(1, 0, coordinator(9)), snd(1, 3, coordinator(9))}, []sent{snd(1, 2, coordinator(9))}},
	}
}

func TestDetect(t *testing.T) {
	for _, tt := range startElectionCases() {
		tt.run(t, bully.Algorithm{}.Initiate)
	}
}

func TestOnRestart(t *testing.T) {
	// A restarted process has the initial local state and calls an election.
	for _, tt := range startElectionCases() {
		tt.before = bully.Algorithm{}.Init()
		tt.run(t, bully.Algorithm{}.OnRestart)
	}
	stepCase{"restarted p4 challenges 8 then 9", setup{}, 2, local(bully.Idle, 0),
		local(bully.Electing, 0), []sent{snd(2, 3, election(4)), snd(2, 1, election(4))}, nil,
	}.run(t, bully.Algorithm{}.OnRestart)
}

func TestReceive(t *testing.T) {
	tests := []struct {
		stepCase
		from int
		msg  bully.Msg
	}{
		// ELECTION(j) from q: OK(id) to q; then StartElection if idle.
		{stepCase{"ELECTION, idle: OK to sender, then ELECTION to higher", setup{}, 2, local(bully.Idle, 9),
			local(bully.Electing, 0), []sent{snd(2, 0, ok(4)), snd(2, 3, election(4)), snd(2, 1, election(4))}, nil}, 0, election(3)},
		{stepCase{"ELECTION, idle highest: OK, then COORDINATOR to all lower", setup{}, 1, local(bully.Idle, 9),
			local(bully.Idle, 9), []sent{snd(1, 3, ok(9)), snd(1, 0, coordinator(9)), snd(1, 2, coordinator(9)), snd(1, 3, coordinator(9))}, nil}, 3, election(8)},
		{stepCase{"ELECTION: the OK goes to the channel it came from, not by the ID it carries", setup{}, 3, local(bully.Electing, 0),
			local(bully.Electing, 0), []sent{snd(3, 2, ok(8))}, nil}, 2, election(3)},
		{stepCase{"ELECTION, electing: OK only", setup{}, 2, local(bully.Electing, 0),
			local(bully.Electing, 0), []sent{snd(2, 0, ok(4))}, nil}, 0, election(3)},
		{stepCase{"ELECTION, waiting: OK only", setup{}, 3, local(bully.Waiting, 0),
			local(bully.Waiting, 0), []sent{snd(3, 2, ok(8))}, nil}, 2, election(4)},
		{stepCase{"ELECTION from a crashed sender: OK lost, election still called", setup{dead: []int{0}}, 3, local(bully.Idle, 9),
			local(bully.Electing, 0), []sent{snd(3, 1, election(8))}, []sent{snd(3, 0, ok(8))}}, 0, election(3)},

		// OK(j): electing → waiting; otherwise dropped.
		{stepCase{"OK, electing: waiting", setup{}, 0, local(bully.Electing, 0),
			local(bully.Waiting, 0), nil, nil}, 3, ok(8)},
		{stepCase{"OK, waiting: dropped", setup{}, 0, local(bully.Waiting, 0),
			local(bully.Waiting, 0), nil, nil}, 1, ok(9)},
		{stepCase{"OK, idle: dropped", setup{}, 0, local(bully.Idle, 9),
			local(bully.Idle, 9), nil, nil}, 2, ok(4)},

		// COORDINATOR(j), j > id: elected := j; idle.
		{stepCase{"COORDINATOR j>id, electing", setup{}, 2, local(bully.Electing, 0),
			local(bully.Idle, 9), nil, nil}, 1, coordinator(9)},
		{stepCase{"COORDINATOR j>id, waiting", setup{}, 2, local(bully.Waiting, 0),
			local(bully.Idle, 8), nil, nil}, 3, coordinator(8)},
		{stepCase{"COORDINATOR j>id, idle with another leader", setup{}, 0, local(bully.Idle, 8),
			local(bully.Idle, 9), nil, nil}, 1, coordinator(9)},
		// COORDINATOR(j), j < id, idle: StartElection (bully the smaller one).
		{stepCase{"COORDINATOR j<id, idle: election", setup{}, 3, local(bully.Idle, 9),
			local(bully.Electing, 0), []sent{snd(3, 1, election(8))}, nil}, 2, coordinator(4)},
		{stepCase{"COORDINATOR j<id, idle highest: coordinator", setup{}, 1, local(bully.Idle, 0),
			local(bully.Idle, 9), []sent{snd(1, 0, coordinator(9)), snd(1, 2, coordinator(9)), snd(1, 3, coordinator(9))}, nil}, 3, coordinator(8)},
		// COORDINATOR(j), j < id, otherwise: dropped.
		{stepCase{"COORDINATOR j<id, electing: dropped", setup{}, 3, local(bully.Electing, 0),
			local(bully.Electing, 0), nil, nil}, 2, coordinator(4)},
		{stepCase{"COORDINATOR j<id, waiting: dropped", setup{}, 3, local(bully.Waiting, 0),
			local(bully.Waiting, 0), nil, nil}, 0, coordinator(3)},
	}
	for _, tt := range tests {
		tt.run(t, func(c *model.Ctx[bully.Msg], l *bully.Local) { bully.Algorithm{}.Receive(c, l, tt.from, tt.msg) })
	}
}

func timer(t *testing.T, name string) model.Timer[bully.Local, bully.Msg] {
	t.Helper()
	for _, tm := range (bully.Algorithm{}).Timers() {
		if tm.Name == name {
			return tm
		}
	}
	require.FailNow(t, "no timer "+name)
	return model.Timer[bully.Local, bully.Msg]{}
}

func TestTimerNames(t *testing.T) {
	var names []string
	for _, tm := range (bully.Algorithm{}).Timers() {
		names = append(names, tm.Name)
	}
	assert.Equal(t, []string{"timeout-ok", "timeout-coord"}, names)
}

func TestTimersArmed(t *testing.T) {
	for _, tt := range []struct {
		status              bully.Status
		okArmed, coordArmed bool
	}{
		{bully.Idle, false, false},
		{bully.Electing, true, false},
		{bully.Waiting, false, true},
	} {
		l := local(tt.status, 0)
		assert.Equal(t, tt.okArmed, timer(t, "timeout-ok").Armed(&l), "timeout-ok armed in status %d", tt.status)
		assert.Equal(t, tt.coordArmed, timer(t, "timeout-coord").Armed(&l), "timeout-coord armed in status %d", tt.status)
	}
}

func TestTimersJustified(t *testing.T) {
	// self is p3 (ID 8), whose only higher process is p1 (ID 9), unless noted.
	crashed9 := []int{1}
	tests := []struct {
		name  string
		timer string
		self  int
		setup setup
		want  bool
	}{
		{"ok: higher live", "timeout-ok", 3, setup{}, false},
		{"ok: higher crashed, nothing queued", "timeout-ok", 3, setup{dead: crashed9}, true},
		{"ok: higher crashed, its OK still queued", "timeout-ok", 3, setup{dead: crashed9, queued: []sent{snd(1, 3, ok(9))}}, false},
		{"ok: an OK from anyone queued", "timeout-ok", 3, setup{dead: crashed9, queued: []sent{snd(2, 3, ok(4))}}, false},
		{"ok: only ELECTION and COORDINATOR queued", "timeout-ok", 3, setup{dead: crashed9, queued: []sent{snd(0, 3, election(3)), snd(1, 3, coordinator(9))}}, true},
		{"ok: an OK queued to another process", "timeout-ok", 3, setup{dead: crashed9, queued: []sent{snd(1, 0, ok(9))}}, true},
		{"ok: one of several higher live", "timeout-ok", 0, setup{dead: []int{1, 3}}, false},
		{"ok: all of several higher crashed", "timeout-ok", 0, setup{dead: []int{1, 2, 3}}, true},
		{"ok: highest process", "timeout-ok", 1, setup{}, true},

		{"coord: higher live", "timeout-coord", 3, setup{}, false},
		{"coord: higher crashed, nothing queued", "timeout-coord", 3, setup{dead: crashed9}, true},
		{"coord: higher crashed, its COORDINATOR still queued", "timeout-coord", 3, setup{dead: crashed9, queued: []sent{snd(1, 3, coordinator(9))}}, false},
		{"coord: a COORDINATOR from a lower process queued", "timeout-coord", 3, setup{dead: crashed9, queued: []sent{snd(2, 3, coordinator(4))}}, true},
		{"coord: only an OK from the higher queued", "timeout-coord", 3, setup{dead: crashed9, queued: []sent{snd(1, 3, ok(9))}}, true},
		{"coord: a COORDINATOR queued to another process", "timeout-coord", 3, setup{dead: crashed9, queued: []sent{snd(1, 2, coordinator(9))}}, true},
		{"coord: one of several higher live", "timeout-coord", 0, setup{dead: []int{1, 2}}, false},
		{"coord: several higher crashed, COORDINATOR of a middle one queued", "timeout-coord", 0, setup{dead: []int{1, 2, 3}, queued: []sent{snd(2, 0, coordinator(4))}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := local(bully.Electing, 0)
			if tt.timer == "timeout-coord" {
				before = local(bully.Waiting, 0)
			}
			env := tt.setup.env(tt.self, before)
			l := before
			assert.Equal(t, tt.want, timer(t, tt.timer).Justified(env.GuardCtx(tt.self), &l))
			assert.Equal(t, before, l)
			assert.Empty(t, env.Sent)
			assert.Empty(t, env.Lost)
		})
	}
}

func TestTimeoutOKFire(t *testing.T) {
	fire := timer(t, "timeout-ok").Fire
	for _, tt := range []stepCase{
		{"coordinator: COORDINATOR to every lower", setup{dead: []int{1}}, 3, local(bully.Electing, 0),
			local(bully.Idle, 8), []sent{snd(3, 0, coordinator(8)), snd(3, 2, coordinator(8))}, nil},
		{"ascending ID order, ids2", setup{ids: ids2}, 2, local(bully.Electing, 0),
			local(bully.Idle, 9), []sent{snd(2, 1, coordinator(9)), snd(2, 3, coordinator(9)), snd(2, 0, coordinator(9))}, nil},
		{"crashed lower: lost", setup{dead: []int{1, 0}}, 3, local(bully.Electing, 0),
			local(bully.Idle, 8), []sent{snd(3, 2, coordinator(8))}, []sent{snd(3, 0, coordinator(8))}},
		{"lowest: no one to tell", setup{dead: []int{1, 2, 3}}, 0, local(bully.Electing, 0),
			local(bully.Idle, 3), nil, nil},
	} {
		tt.run(t, fire)
	}
}

func TestTimeoutCoordFire(t *testing.T) {
	fire := timer(t, "timeout-coord").Fire
	for _, tt := range []stepCase{
		{"calls a new election (to crashed higher: lost)", setup{dead: []int{1}}, 3, local(bully.Waiting, 0),
			local(bully.Electing, 0), nil, []sent{snd(3, 1, election(8))}},
		{"new election, all higher crashed, ascending ID order", setup{dead: []int{1, 2, 3}}, 0, local(bully.Waiting, 0),
			local(bully.Electing, 0), nil, []sent{snd(0, 2, election(3)), snd(0, 3, election(3)), snd(0, 1, election(3))}},
		{"highest: becomes coordinator", setup{}, 1, local(bully.Waiting, 0),
			local(bully.Idle, 9), []sent{snd(1, 0, coordinator(9)), snd(1, 2, coordinator(9)), snd(1, 3, coordinator(9))}, nil},
	} {
		tt.run(t, fire)
	}
}

func TestFormat(t *testing.T) {
	alg := bully.Algorithm{}
	assert.Equal(t, "ELECTION(9)", alg.FormatMsg(election(9)))
	assert.Equal(t, "OK(9)", alg.FormatMsg(ok(9)))
	assert.Equal(t, "COORDINATOR(9)", alg.FormatMsg(coordinator(9)))
	env := setup{}.env(0, bully.Local{})
	for _, tt := range []struct {
		l    bully.Local
		want []model.Field
	}{
		{local(bully.Idle, 9), []model.Field{{Name: "status", Value: model.Str("idle")}, {Name: "elected", Value: model.Int(9)}}},
		{local(bully.Electing, 0), []model.Field{{Name: "status", Value: model.Str("electing")}, {Name: "elected", Value: model.None()}}},
		{local(bully.Waiting, 0), []model.Field{{Name: "status", Value: model.Str("waiting")}, {Name: "elected", Value: model.None()}}},
	} {
		assert.Equal(t, tt.want, alg.FormatLocal(env.Ctx(0), &tt.l))
	}
}

func TestCodecLocal(t *testing.T) {
	alg := bully.Algorithm{}
	spectest.RoundTrip(t, alg.AppendLocal, alg.DecodeLocal, []bully.Local{local(bully.Idle, 0), local(bully.Idle, 9), local(bully.Electing, 0), local(bully.Waiting, 0), local(bully.Idle, 1<<20)}...)
	a, b := local(bully.Electing, 0), local(bully.Waiting, 0)
	assert.NotEqual(t, alg.AppendLocal(nil, &a), alg.AppendLocal(nil, &b))
}

func TestCodecMsg(t *testing.T) {
	alg := bully.Algorithm{}
	spectest.RoundTrip(t, alg.AppendMsg, alg.DecodeMsg, []bully.Msg{election(3), ok(9), coordinator(8), coordinator(1 << 20), ok(300)}...)
	a, b := ok(9), coordinator(9)
	assert.NotEqual(t, alg.AppendMsg(nil, &a), alg.AppendMsg(nil, &b))
}
