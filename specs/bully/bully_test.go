package bully_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs/bully"
	"github.com/mcheck/mcheck/specs/internal/spectest"
)

// The handler tests run on spectest.IDs(): positions 0..3 carry IDs 3, 9,
// 4, 8, so ascending ID order (p0, p2, p3, p1) differs from position order.
// ids2 (8, 3, 9, 4) puts the lower processes of ID 9 out of position order
// too: p1, p3, p0.
var ids2 = []int{8, 3, 9, 4}

type (
	sent = model.Sent[bully.Msg]
	step = spectest.Case[bully.Local, bully.Msg]
)

func election(j int) bully.Msg    { return bully.Msg{Kind: bully.Election, J: j} }
func ok(j int) bully.Msg          { return bully.Msg{Kind: bully.OK, J: j} }
func coordinator(j int) bully.Msg { return bully.Msg{Kind: bully.Coordinator, J: j} }

var snd = spectest.Snd[bully.Msg]

func local(s bully.Status, el int) bully.Local { return bully.Local{Status: s, Elected: el} }

// setup is the environment of a timer guard: the IDs (nil: spectest.IDs()),
// the crashed positions, and the messages queued to each process (by To).
type setup struct {
	ids    []int
	dead   []int
	queued []sent
}

func (s setup) env(self int, l bully.Local) *model.TestEnv[bully.Msg] {
	env := spectest.Env[bully.Msg](s.ids, self, l.Elected, s.dead...)
	for _, m := range s.queued {
		env.Queued[m.To] = append(env.Queued[m.To], m)
	}
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
	alg := bully.Algorithm{}
	spectest.CanInitiate(t, alg.Elected, alg.CanInitiate, []spectest.Guard[bully.Local]{
		{Name: "idle, suspects", Local: local(bully.Idle, 0), Suspects: true, Want: true},
		{Name: "idle, does not suspect", Local: local(bully.Idle, 9), Suspects: false, Want: false},
		{Name: "electing, suspects", Local: local(bully.Electing, 0), Suspects: true, Want: false},
		{Name: "electing, does not suspect", Local: local(bully.Electing, 9), Suspects: false, Want: false},
		{Name: "waiting, suspects", Local: local(bully.Waiting, 0), Suspects: true, Want: false},
		{Name: "waiting, does not suspect", Local: local(bully.Waiting, 9), Suspects: false, Want: false},
	})
}

// StartElection as detect(p) and on restart run it: the same cases.
func startElectionCases() []step {
	crashed9 := []int{1}
	return []step{
		{Name: "has higher: ELECTION to every higher in ascending ID order", Self: 0,
			Before: local(bully.Idle, 0), Want: local(bully.Electing, 0), Sent: []sent{snd(0, 2, election(3)), snd(0, 3, election(3)), snd(0, 1, election(3))}},
		{Name: "has higher, ids2: ascending ID order", IDs: ids2, Self: 1,
			Before: local(bully.Idle, 0), Want: local(bully.Electing, 0), Sent: []sent{snd(1, 3, election(3)), snd(1, 0, election(3)), snd(1, 2, election(3))}},
		{Name: "higher includes crashed processes: messages to them are lost", Dead: crashed9, Self: 0,
			Before: local(bully.Idle, 9), Want: local(bully.Electing, 0), Sent: []sent{snd(0, 2, election(3)), snd(0, 3, election(3))}, Lost: []sent{snd(0, 1, election(3))}},
		{Name: "only higher is crashed: still electing", Dead: crashed9, Self: 3,
			Before: local(bully.Idle, 9), Want: local(bully.Electing, 0), Lost: []sent{snd(3, 1, election(8))}},
		{Name: "highest: coordinator, COORDINATOR to every lower in ascending ID order", Self: 1,
			Before: local(bully.Idle, 0), Want: local(bully.Idle, 9), Sent: []sent{snd(1, 0, coordinator(9)), snd(1, 2, coordinator(9)), snd(1, 3, coordinator(9))}},
		{Name: "highest, ids2: ascending ID order", IDs: ids2, Self: 2,
			Before: local(bully.Idle, 0), Want: local(bully.Idle, 9), Sent: []sent{snd(2, 1, coordinator(9)), snd(2, 3, coordinator(9)), snd(2, 0, coordinator(9))}},
		{Name: "highest with a crashed lower: lost", Dead: []int{2}, Self: 1,
			Before: local(bully.Idle, 0), Want: local(bully.Idle, 9), Sent: []sent{snd(1, 0, coordinator(9)), snd(1, 3, coordinator(9))}, Lost: []sent{snd(1, 2, coordinator(9))}},
	}
}

func TestDetect(t *testing.T) {
	alg := bully.Algorithm{}
	spectest.Run(t, alg.Elected, spectest.Call(alg.Initiate), startElectionCases())
}

func TestOnRestart(t *testing.T) {
	// A restarted process has the initial local state and calls an election.
	alg := bully.Algorithm{}
	cases := startElectionCases()
	for i := range cases {
		cases[i].Before = alg.Init()
	}
	cases = append(cases, step{Name: "restarted p4 challenges 8 then 9", Self: 2,
		Before: local(bully.Idle, 0), Want: local(bully.Electing, 0), Sent: []sent{snd(2, 3, election(4)), snd(2, 1, election(4))}})
	spectest.Run(t, alg.Elected, spectest.Call(alg.OnRestart), cases)
}

func TestReceive(t *testing.T) {
	alg := bully.Algorithm{}
	spectest.Run(t, alg.Elected, spectest.Receive(alg.Receive), []step{
		// ELECTION(j) from q: OK(id) to q; then StartElection if idle.
		{Name: "ELECTION, idle: OK to sender, then ELECTION to higher", Self: 2, From: 0, Msg: election(3),
			Before: local(bully.Idle, 9), Want: local(bully.Electing, 0), Sent: []sent{snd(2, 0, ok(4)), snd(2, 3, election(4)), snd(2, 1, election(4))}},
		{Name: "ELECTION, idle highest: OK, then COORDINATOR to all lower", Self: 1, From: 3, Msg: election(8),
			Before: local(bully.Idle, 9), Want: local(bully.Idle, 9), Sent: []sent{snd(1, 3, ok(9)), snd(1, 0, coordinator(9)), snd(1, 2, coordinator(9)), snd(1, 3, coordinator(9))}},
		{Name: "ELECTION: the OK goes to the channel it came from, not by the ID it carries", Self: 3, From: 2, Msg: election(3),
			Before: local(bully.Electing, 0), Want: local(bully.Electing, 0), Sent: []sent{snd(3, 2, ok(8))}},
		{Name: "ELECTION, electing: OK only", Self: 2, From: 0, Msg: election(3),
			Before: local(bully.Electing, 0), Want: local(bully.Electing, 0), Sent: []sent{snd(2, 0, ok(4))}},
		{Name: "ELECTION, waiting: OK only", Self: 3, From: 2, Msg: election(4),
			Before: local(bully.Waiting, 0), Want: local(bully.Waiting, 0), Sent: []sent{snd(3, 2, ok(8))}},
		{Name: "ELECTION from a crashed sender: OK lost, election still called", Dead: []int{0}, Self: 3, From: 0, Msg: election(3),
			Before: local(bully.Idle, 9), Want: local(bully.Electing, 0), Sent: []sent{snd(3, 1, election(8))}, Lost: []sent{snd(3, 0, ok(8))}},

		// OK(j): electing → waiting; otherwise dropped.
		{Name: "OK, electing: waiting", Self: 0, From: 3, Msg: ok(8),
			Before: local(bully.Electing, 0), Want: local(bully.Waiting, 0)},
		{Name: "OK, waiting: dropped", Self: 0, From: 1, Msg: ok(9),
			Before: local(bully.Waiting, 0), Want: local(bully.Waiting, 0)},
		{Name: "OK, idle: dropped", Self: 0, From: 2, Msg: ok(4),
			Before: local(bully.Idle, 9), Want: local(bully.Idle, 9)},

		// COORDINATOR(j), j > id: elected := j; idle.
		{Name: "COORDINATOR j>id, electing", Self: 2, From: 1, Msg: coordinator(9),
			Before: local(bully.Electing, 0), Want: local(bully.Idle, 9)},
		{Name: "COORDINATOR j>id, waiting", Self: 2, From: 3, Msg: coordinator(8),
			Before: local(bully.Waiting, 0), Want: local(bully.Idle, 8)},
		{Name: "COORDINATOR j>id, idle with another leader", Self: 0, From: 1, Msg: coordinator(9),
			Before: local(bully.Idle, 8), Want: local(bully.Idle, 9)},
		// COORDINATOR(j), j < id, idle: StartElection (bully the smaller one).
		{Name: "COORDINATOR j<id, idle: election", Self: 3, From: 2, Msg: coordinator(4),
			Before: local(bully.Idle, 9), Want: local(bully.Electing, 0), Sent: []sent{snd(3, 1, election(8))}},
		{Name: "COORDINATOR j<id, idle highest: coordinator", Self: 1, From: 3, Msg: coordinator(8),
			Before: local(bully.Idle, 0), Want: local(bully.Idle, 9), Sent: []sent{snd(1, 0, coordinator(9)), snd(1, 2, coordinator(9)), snd(1, 3, coordinator(9))}},
		// COORDINATOR(j), j < id, otherwise: dropped.
		{Name: "COORDINATOR j<id, electing: dropped", Self: 3, From: 2, Msg: coordinator(4),
			Before: local(bully.Electing, 0), Want: local(bully.Electing, 0)},
		{Name: "COORDINATOR j<id, waiting: dropped", Self: 3, From: 0, Msg: coordinator(3),
			Before: local(bully.Waiting, 0), Want: local(bully.Waiting, 0)},
	})
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
	spectest.Run(t, bully.Algorithm{}.Elected, spectest.Call(timer(t, "timeout-ok").Fire), []step{
		{Name: "coordinator: COORDINATOR to every lower", Dead: []int{1}, Self: 3,
			Before: local(bully.Electing, 0), Want: local(bully.Idle, 8), Sent: []sent{snd(3, 0, coordinator(8)), snd(3, 2, coordinator(8))}},
		{Name: "ascending ID order, ids2", IDs: ids2, Self: 2,
			Before: local(bully.Electing, 0), Want: local(bully.Idle, 9), Sent: []sent{snd(2, 1, coordinator(9)), snd(2, 3, coordinator(9)), snd(2, 0, coordinator(9))}},
		{Name: "crashed lower: lost", Dead: []int{1, 0}, Self: 3,
			Before: local(bully.Electing, 0), Want: local(bully.Idle, 8), Sent: []sent{snd(3, 2, coordinator(8))}, Lost: []sent{snd(3, 0, coordinator(8))}},
		{Name: "lowest: no one to tell", Dead: []int{1, 2, 3}, Self: 0,
			Before: local(bully.Electing, 0), Want: local(bully.Idle, 3)},
	})
}

func TestTimeoutCoordFire(t *testing.T) {
	spectest.Run(t, bully.Algorithm{}.Elected, spectest.Call(timer(t, "timeout-coord").Fire), []step{
		{Name: "calls a new election (to crashed higher: lost)", Dead: []int{1}, Self: 3,
			Before: local(bully.Waiting, 0), Want: local(bully.Electing, 0), Lost: []sent{snd(3, 1, election(8))}},
		{Name: "new election, all higher crashed, ascending ID order", Dead: []int{1, 2, 3}, Self: 0,
			Before: local(bully.Waiting, 0), Want: local(bully.Electing, 0), Lost: []sent{snd(0, 2, election(3)), snd(0, 3, election(3)), snd(0, 1, election(3))}},
		{Name: "highest: becomes coordinator", Self: 1,
			Before: local(bully.Waiting, 0), Want: local(bully.Idle, 9), Sent: []sent{snd(1, 0, coordinator(9)), snd(1, 2, coordinator(9)), snd(1, 3, coordinator(9))}},
	})
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
