package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Value is one datum of a state or a step, typed so that exporters and
// replay read data instead of parsing text: a local field, a message, a
// channel's contents, a counter. Values are immutable; build them with
// None, Int, Bool, Str, ID, Set, Seq and Msg.
//
// In JSON (trace files, and anything that reads them, such as a browser
// view): ⊥ is null, an integer a number, a boolean and a string themselves,
// a sequence an array, a set {"set": [...]}, a message
// {"type": "ELECTION", "args": [9], "text": "ELECTION(9)"}.
type Value struct {
	kind  ValueKind
	num   int     // Int, Bool (0 or 1)
	str   string  // Str; Msg: the message type
	elems []Value // Set, Seq; Msg: the arguments
	text  string  // Msg: how the algorithm writes it (FormatMsg), for people
}

// ValueKind says which form a Value has.
type ValueKind uint8

const (
	KindNone ValueKind = iota // ⊥: no value (an elected field before any election)
	KindInt
	KindBool
	KindStr // a string, or the name of an enumerated value ("idle")
	KindSet // a set, in the order the algorithm lists it
	KindSeq // a sequence (a channel's messages, head first)
	KindMsg // a message: a type and its arguments
)

// None is ⊥.
func None() Value { return Value{} }

// Int is an integer.
func Int(n int) Value { return Value{kind: KindInt, num: n} }

// Bool is a boolean.
func Bool(b bool) Value {
	v := Value{kind: KindBool}
	if b {
		v.num = 1
	}
	return v
}

// Str is a string or the name of an enumerated value.
func Str(s string) Value { return Value{kind: KindStr, str: s} }

// ID is a process ID where 0 means ⊥ (the convention of elected fields).
func ID(id int) Value {
	if id == 0 {
		return None()
	}
	return Int(id)
}

// Set is a set of values, listed in a canonical order chosen by the caller.
func Set(elems ...Value) Value { return Value{kind: KindSet, elems: elems} }

// Seq is a sequence of values.
func Seq(elems ...Value) Value { return Value{kind: KindSeq, elems: elems} }

// Msg is a message of type typ ("ELECTION") with its arguments.
func Msg(typ string, args ...Value) Value { return Value{kind: KindMsg, str: typ, elems: args} }

// WithText gives a message the text the algorithm writes it with
// ("ELECTION(9)"); without it, String renders Type(arg,...).
func (v Value) WithText(text string) Value {
	v.text = text
	return v
}

// Kind is the form of v.
func (v Value) Kind() ValueKind { return v.kind }

// Int is the integer of an Int value.
func (v Value) Int() (int, bool) { return v.num, v.kind == KindInt }

// Bool is the boolean of a Bool value.
func (v Value) Bool() (bool, bool) { return v.num != 0, v.kind == KindBool }

// Str is the string of a Str value.
func (v Value) Str() (string, bool) { return v.str, v.kind == KindStr }

// Elems are the elements of a Set or Seq, or the arguments of a Msg
// (do not modify).
func (v Value) Elems() []Value { return v.elems }

// Type is the type of a Msg value ("ELECTION"), "" for other kinds.
func (v Value) Type() string {
	if v.kind != KindMsg {
		return ""
	}
	return v.str
}

// Text is the algorithm's rendering of a Msg value, "" if it gave none.
func (v Value) Text() string { return v.text }

// IsNone reports whether v is ⊥.
func (v Value) IsNone() bool { return v.kind == KindNone }

// Equal compares values as data (a message's text is a rendering and does
// not count).
func (v Value) Equal(w Value) bool {
	if v.kind != w.kind || v.num != w.num || v.str != w.str || len(v.elems) != len(w.elems) {
		return false
	}
	for i := range v.elems {
		if !v.elems[i].Equal(w.elems[i]) {
			return false
		}
	}
	return true
}

// String renders v as traces show it: ⊥, 9, true, idle, {3,4}, [ELECTION(9)
// ELECTED(3)], and a message as its text or Type(args).
func (v Value) String() string {
	switch v.kind {
	case KindNone:
		return "⊥"
	case KindInt:
		return strconv.Itoa(v.num)
	case KindBool:
		return strconv.FormatBool(v.num != 0)
	case KindStr:
		return v.str
	case KindSet:
		return "{" + v.join(",") + "}"
	case KindSeq:
		return "[" + v.join(" ") + "]"
	case KindMsg:
		if v.text != "" {
			return v.text
		}
		if len(v.elems) == 0 {
			return v.str
		}
		return v.str + "(" + v.join(",") + ")"
	}
	return fmt.Sprintf("?%d", v.kind)
}

func (v Value) join(sep string) string {
	parts := make([]string, len(v.elems))
	for i, e := range v.elems {
		parts[i] = e.String()
	}
	return strings.Join(parts, sep)
}

type jsonMsg struct {
	Type string  `json:"type"`
	Args []Value `json:"args"`
	Text string  `json:"text,omitempty"`
}

type jsonSet struct {
	Set []Value `json:"set"`
}

// MarshalJSON implements json.Marshaler (see Value for the forms).
func (v Value) MarshalJSON() ([]byte, error) {
	switch v.kind {
	case KindNone:
		return []byte("null"), nil
	case KindInt:
		return []byte(strconv.Itoa(v.num)), nil
	case KindBool:
		return []byte(strconv.FormatBool(v.num != 0)), nil
	case KindStr:
		return json.Marshal(v.str)
	case KindSet:
		return json.Marshal(jsonSet{Set: nonNil(v.elems)})
	case KindSeq:
		return json.Marshal(nonNil(v.elems))
	case KindMsg:
		return json.Marshal(jsonMsg{Type: v.str, Args: nonNil(v.elems), Text: v.text})
	}
	return nil, fmt.Errorf("value of unknown kind %d", v.kind)
}

func nonNil(vs []Value) []Value {
	if vs == nil {
		return []Value{}
	}
	return vs
}

// UnmarshalJSON implements json.Unmarshaler.
func (v *Value) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return fmt.Errorf("empty value")
	}
	switch c := data[0]; {
	case bytes.Equal(data, []byte("null")):
		*v = None()
	case c == 't' || c == 'f':
		var b bool
		if err := json.Unmarshal(data, &b); err != nil {
			return err
		}
		*v = Bool(b)
	case c == '"':
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*v = Str(s)
	case c == '[':
		var elems []Value
		if err := json.Unmarshal(data, &elems); err != nil {
			return err
		}
		*v = Seq(elems...)
	case c == '{':
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(data, &probe); err != nil {
			return err
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if _, ok := probe["set"]; ok {
			var s jsonSet
			if err := dec.Decode(&s); err != nil {
				return fmt.Errorf("set: %w", err)
			}
			*v = Set(s.Set...)
			return nil
		}
		var m jsonMsg
		if err := dec.Decode(&m); err != nil {
			return fmt.Errorf("message: %w", err)
		}
		if m.Type == "" {
			return fmt.Errorf("a message needs a type")
		}
		*v = Msg(m.Type, m.Args...).WithText(m.Text)
	default:
		var n json.Number
		if err := json.Unmarshal(data, &n); err != nil {
			return err
		}
		i, err := strconv.Atoi(n.String())
		if err != nil {
			return fmt.Errorf("%s is not an integer", n)
		}
		*v = Int(i)
	}
	return nil
}
