package model

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tokenAlg passes tokens around the ring; its Codec writes nothing for a
// token, so a channel's bytes are empty however many tokens it holds.
type tokenAlg struct{}

type token struct{}

func (tokenAlg) Init() int                                      { return 0 }
func (tokenAlg) Elected(*int) int                               { return 0 }
func (tokenAlg) CanInitiate(_ *Ctx[token], l *int, _ bool) bool { return *l == 0 }
func (tokenAlg) Initiate(c *Ctx[token], l *int) {
	*l = 1
	c.SendNext(CW, token{})
	c.SendNext(CW, token{})
}
func (tokenAlg) Receive(c *Ctx[token], l *int, _ int, _ token) {
	if *l < 3 {
		*l++
		c.SendNext(CW, token{})
	}
}
func (tokenAlg) FormatMsg(token) string { return "TOKEN" }

type tokenCodec struct{ tokenAlg }

func (tokenCodec) AppendLocal(b []byte, l *int) []byte { return append(b, byte(*l)) }
func (tokenCodec) DecodeLocal(b []byte, l *int) ([]byte, error) {
	if len(b) < 1 {
		return nil, errShort
	}
	*l = int(b[0])
	return b[1:], nil
}
func (tokenCodec) AppendMsg(b []byte, _ *token) []byte          { return b }
func (tokenCodec) DecodeMsg(b []byte, _ *token) ([]byte, error) { return b, nil }

// Messages that encode to no bytes are still messages: a property sees as
// many in a channel (View.Chan) as the state holds, a snapshot shows them,
// a delivery names its message, and the state space is the generic
// path's, whose messages are numbers of a byte or more. (Channels were
// decoded until their bytes ended: such a channel looked empty.)
func TestMessagesThatEncodeToNoBytes(t *testing.T) {
	cfg := Config{N: 3, MaxQueue: 4}
	counts := map[bool]int{}
	for _, generic := range []bool{false, true} {
		var opts []Option
		if generic {
			opts = append(opts, WithGenericHashing())
		}
		k, err := New[int, token](tokenCodec{}, cfg, nil, opts...)
		require.NoError(t, err)
		e := k.newExpander()
		seen := map[string]bool{}
		var todo [][]byte
		var b Batch
		add := func() {
			for i := range b.Succs {
				if s := string(b.State(i)); !seen[s] {
					seen[s] = true
					todo = append(todo, []byte(s))
				}
			}
		}
		e.Initial(&b)
		add()
		most := 0
		for len(todo) > 0 {
			s := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			snap := e.Snapshot(s)
			w := e.load(s)
			shown := map[[2]int]int{}
			for _, c := range snap.Channels {
				shown[[2]int{c.From, c.To}] = len(c.Messages)
			}
			for ch := range w.busy.all() {
				require.Len(t, k.chanMsgs(w, ch), w.count[ch])
				assert.Equal(t, w.count[ch], shown[[2]int{k.layouts[w.lay].ids[ch/k.n], k.layouts[w.lay].ids[ch%k.n]}])
				most = max(most, w.count[ch])
			}
			e.Expand(slices.Clone(s), &b)
			for _, succ := range b.Succs {
				if Action(succ.Action).Kind() == KindDeliver {
					assert.Contains(t, e.Label(s, succ.Action), "TOKEN")
				}
			}
			add()
		}
		assert.Greater(t, most, 1, "some channel holds tokens of more than one step")
		counts[generic] = len(seen)
	}
	assert.Equal(t, counts[true], counts[false], "states of the Codec path and the generic path")
}
