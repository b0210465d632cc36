// Package valuemsgtype is a trap that compiles: model.CheckMethods must refuse it.
package valuemsgtype

import "example.com/traps/ring"

// Algorithm is the ring algorithm with a MsgType that takes a Msg where
// model.MsgTyper takes a *Msg.
type Algorithm struct{ ring.Algorithm }

func (Algorithm) MsgTypes() []string { return []string{"ELECTION", "ELECTED"} }

func (Algorithm) MsgType(m ring.Msg) int {
	if m.Kind == "ELECTED" {
		return 1
	}
	return 0
}
