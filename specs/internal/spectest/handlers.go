package spectest

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcheck/mcheck/model"
)

// IDs are the IDs at positions 0..3 in the handler tests: 3, 9, 4, 8, so
// that ascending ID order (p0, p2, p3, p1) differs from position order and a
// handler mixing up positions and IDs sends to the wrong place or the wrong
// ID. A fresh slice each call: a test may change its own.
func IDs() []int { return []int{3, 9, 4, 8} }

// Snd is a send from position from to position to.
func Snd[M any](from, to int, m M) model.Sent[M] { return model.Sent[M]{From: from, To: to, Msg: m} }

// Env is the environment of a handler at position self: processes with ids
// (nil: IDs()), those at the positions in dead crashed, and self having
// elected elected, from which the environment derives Suspects as the kernel
// does.
func Env[M any](ids []int, self, elected int, dead ...int) *model.TestEnv[M] {
	if ids == nil {
		ids = IDs()
	}
	env := model.NewTestEnv[M](ids...)
	for _, p := range dead {
		env.Alive[p] = false
	}
	env.Elected[self] = elected
	return env
}

// Guard is one call of CanInitiate at position 2 of IDs(): with local state
// Local and the detector's suspicion Suspects, the guard answers Want.
type Guard[L any] struct {
	Name     string
	Local    L
	Suspects bool
	Want     bool
}

// CanInitiate runs each case as a subtest and asserts the answer, and that
// the guard neither changes the local state nor sends. elected reads what a
// local state has elected (for Env).
func CanInitiate[L, M any](t *testing.T, elected func(*L) int, can func(*model.Ctx[M], *L, bool) bool, cases []Guard[L]) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			env := Env[M](nil, 2, elected(&tc.Local))
			l := tc.Local
			assert.Equal(t, tc.Want, can(env.Ctx(2), &l, tc.Suspects))
			assert.Equal(t, tc.Local, l, "the guard must not change the local state")
			assert.Empty(t, env.Sent)
		})
	}
}

// Case is one call of a handler (Initiate, Receive, a timer's Fire): at
// position Self among IDs (nil: IDs()) with the positions in Dead crashed,
// and local state Before, the handler leaves Want and sends Sent to live
// processes and Lost to crashed ones, each in order.
type Case[L, M any] struct {
	Name string
	IDs  []int
	Dead []int
	Self int
	// From and Msg are the sender's position and the message delivered,
	// for Receive.
	From   int
	Msg    M
	Before L
	Want   L
	Sent   []model.Sent[M]
	Lost   []model.Sent[M]
}

// Handler is what a case calls: handler(c, l, tc) runs the handler under
// test at c on l, with what else it needs from tc (Msg, From).
type Handler[L, M any] func(c *model.Ctx[M], l *L, tc Case[L, M])

// Run runs each case as a subtest: it calls handler on a copy of Before and
// asserts the local state it leaves and what it sends. elected reads what a
// local state has elected (for Env).
func Run[L, M any](t *testing.T, elected func(*L) int, handler Handler[L, M], cases []Case[L, M]) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			env := Env[M](tc.IDs, tc.Self, elected(&tc.Before), tc.Dead...)
			l := tc.Before
			handler(env.Ctx(tc.Self), &l, tc)
			assert.Equal(t, tc.Want, l)
			assert.Equal(t, tc.Sent, env.Sent)
			assert.Equal(t, tc.Lost, env.Lost)
		})
	}
}

// Call is a Handler that calls h alone: Initiate, OnRestart, a timer's
// Fire.
func Call[L, M any](h func(c *model.Ctx[M], l *L)) Handler[L, M] {
	return func(c *model.Ctx[M], l *L, _ Case[L, M]) { h(c, l) }
}

// Receive is a Handler that delivers Msg from From.
func Receive[L, M any](receive func(c *model.Ctx[M], l *L, from int, m M)) Handler[L, M] {
	return func(c *model.Ctx[M], l *L, tc Case[L, M]) { receive(c, l, tc.From, tc.Msg) }
}

// FromPredecessor is a Handler that delivers Msg from the position before
// Self in ring order, whence a message sent clockwise comes.
func FromPredecessor[L, M any](receive func(c *model.Ctx[M], l *L, from int, m M)) Handler[L, M] {
	return func(c *model.Ctx[M], l *L, tc Case[L, M]) { receive(c, l, (tc.Self+c.N()-1)%c.N(), tc.Msg) }
}
