package model

import (
	"fmt"
	"strconv"
)

// StepInfo is one step of the kernel as data: what kind of action, which
// process took it, from which peer, with which message or timer. Labels
// ("deliver p2→p3 ELECTION(9)", "timeout-ok p1") are rendered from it,
// and replay, charts, explanations and exporters read its fields; nothing
// parses a label back.
//
// In JSON: {"kind": "deliver", "action": "deliver", "process": 3, "peer": 2,
// "msg": {"type": "ELECTION", "args": [9], "text": "ELECTION(9)"}}; the
// processes are named by their IDs.
type StepInfo struct {
	Kind Kind `json:"kind"`
	// Action is the action's name as the notes write it: "deliver",
	// "initiate" (Bully: "detect"), "timeout-ok", "early-timeout-ok",
	// "suspect", "crash", "restart", and in a timed mode "tick" and "gst".
	Action string `json:"action"`
	// Process is the ID of the process that takes the step; for a
	// delivery, the receiver; 0 for tick and gst, steps of no process.
	Process int `json:"process"`
	// Peer is the ID of the sender of a delivered message, 0 otherwise.
	Peer int `json:"peer,omitempty"`
	// Alias and PeerAlias name the process and the peer when their ID is
	// not their own (--anonymous: "p1@2"); empty otherwise.
	Alias     string `json:"alias,omitempty"`
	PeerAlias string `json:"peer_alias,omitempty"`
	// Timer names the timer of a timeout or early timeout.
	Timer string `json:"timer,omitempty"`
	// Msg is the delivered message (a Msg value).
	Msg *Value `json:"msg,omitempty"`
}

// Send is a message a step sends, as data: from the process with ID From
// to the one with ID To (aliases as in ChannelSnapshot). Lost: the
// receiver is down, so it never enters the channel.
type Send struct {
	From, To           int
	FromAlias, ToAlias string
	Msg                Value
	Lost               bool
}

// FromName and ToName name the ends: "p9".
func (s Send) FromName() string { return procLabel(s.From, s.FromAlias) }
func (s Send) ToName() string   { return procLabel(s.To, s.ToAlias) }

// Equal compares steps as data.
func (s StepInfo) Equal(o StepInfo) bool {
	if s.Kind != o.Kind || s.Action != o.Action || s.Process != o.Process || s.Peer != o.Peer || s.Timer != o.Timer ||
		s.Alias != o.Alias || s.PeerAlias != o.PeerAlias {
		return false
	}
	if (s.Msg == nil) != (o.Msg == nil) {
		return false
	}
	return s.Msg == nil || s.Msg.Equal(*o.Msg)
}

// ProcName is how people call the process with ID id: "p9", as the course
// notes do.
func ProcName(id int) string { return "p" + strconv.Itoa(id) }

// ProcessName and PeerName name the process that takes the step and the
// sender of a delivered message.
func (s StepInfo) ProcessName() string { return procLabel(s.Process, s.Alias) }
func (s StepInfo) PeerName() string    { return procLabel(s.Peer, s.PeerAlias) }

// procLabel is alias when there is one, else ProcName(id).
func procLabel(id int, alias string) string {
	if alias != "" {
		return alias
	}
	return ProcName(id)
}

// String is the step's label: "deliver p2→p3 ELECTION(9)", "crash p4",
// "tick".
func (s StepInfo) String() string {
	switch s.Kind {
	case KindDeliver:
		msg := "?"
		if s.Msg != nil {
			msg = s.Msg.String()
		}
		return "deliver " + s.PeerName() + "→" + s.ProcessName() + " " + msg
	case KindHeartbeat:
		return "heartbeat " + s.PeerName() + "→" + s.ProcessName()
	case KindTick, KindGST:
		return s.Action
	}
	return s.Action + " " + s.ProcessName()
}

var kindNames = [...]string{
	KindDeliver: "deliver", KindInitiate: "initiate", KindTimeout: "timeout", KindSuspect: "suspect",
	KindEarlyTimeout: "early-timeout", KindCrash: "crash", KindRestart: "restart", KindTick: "tick", KindGST: "gst",
	KindHeartbeat: "heartbeat",
}

// String names the kind: "deliver", "initiate", "timeout", "suspect",
// "early-timeout", "crash", "restart", "tick", "gst".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind%d", uint8(k))
}

// MarshalText implements encoding.TextMarshaler.
func (k Kind) MarshalText() ([]byte, error) {
	if int(k) >= len(kindNames) {
		return nil, fmt.Errorf("unknown step kind %d", uint8(k))
	}
	return []byte(kindNames[k]), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (k *Kind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if n == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown step kind %q", b)
}
