package model

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValueJSONRoundTrip(t *testing.T) {
	for _, c := range []struct {
		v    Value
		json string
		text string
	}{
		{None(), `null`, "⊥"},
		{ID(0), `null`, "⊥"},
		{ID(9), `9`, "9"},
		{Int(-3), `-3`, "-3"},
		{Bool(true), `true`, "true"},
		{Str("idle"), `"idle"`, "idle"},
		{Set(Int(3), Int(4)), `{"set":[3,4]}`, "{3,4}"},
		{Set(), `{"set":[]}`, "{}"},
		{Seq(Msg("ELECTION", Int(9)), Msg("OK")), `[{"type":"ELECTION","args":[9]},{"type":"OK","args":[]}]`, "[ELECTION(9) OK]"},
		{Msg("PROBE", Int(1), Int(0), Int(1), Str("cw")).WithText("PROBE(1,0,1,cw)"), `{"type":"PROBE","args":[1,0,1,"cw"],"text":"PROBE(1,0,1,cw)"}`, "PROBE(1,0,1,cw)"},
	} {
		b, err := json.Marshal(c.v)
		require.NoError(t, err)
		assert.JSONEq(t, c.json, string(b))
		assert.Equal(t, c.text, c.v.String())
		var back Value
		require.NoError(t, json.Unmarshal(b, &back))
		assert.True(t, back.Equal(c.v), "%s reads back as %s", b, back)
	}
	var v Value
	for _, bad := range []string{`{"colour":1}`, `1.5`, `{"type":""}`, `{"set":[1],"x":2}`} {
		assert.Error(t, json.Unmarshal([]byte(bad), &v), bad)
	}
}

func TestValueEqualIsData(t *testing.T) {
	assert.True(t, Msg("ELECTION", Int(9)).WithText("E9").Equal(Msg("ELECTION", Int(9))), "the text is a rendering")
	assert.False(t, Msg("ELECTION", Int(9)).Equal(Msg("ELECTION", Int(8))))
	assert.False(t, Msg("ELECTION", Int(9)).Equal(Msg("ELECTED", Int(9))))
	assert.False(t, Int(1).Equal(Bool(true)))
	assert.False(t, Str("9").Equal(Int(9)))
	assert.False(t, Set(Int(1)).Equal(Seq(Int(1))))
	assert.False(t, None().Equal(Int(0)))
}

type kindStr string

type studentMsg struct {
	Kind string
	ID   int
	Up   bool
}

type namedKind uint8

func (k namedKind) String() string { return [...]string{"", "ELECTION", "ELECTED"}[k] }

type stringerMsg struct {
	K namedKind
	J int
}

type plainMsg struct{ J, H int }

func TestReflectMsg(t *testing.T) {
	assert.Equal(t, "ELECTION(3,true)", reflectMsg(studentMsg{"ELECTION", 3, true}).String())
	assert.True(t, reflectMsg(stringerMsg{1, 4}).Equal(Msg("ELECTION", Int(4))))
	assert.True(t, reflectMsg(plainMsg{2, 5}).Equal(Msg("plainMsg", Int(2), Int(5))))
	assert.True(t, reflectMsg(kindStr("PING")).Equal(Msg("kindStr", Str("PING"))))
}

func TestStepInfoLabelAndJSON(t *testing.T) {
	m := Msg("ELECTION", Int(9))
	s := StepInfo{Kind: KindDeliver, Action: "deliver", Process: 3, Peer: 2, Msg: &m}
	assert.Equal(t, "deliver p2→p3 ELECTION(9)", s.String())
	b, err := json.Marshal(s)
	require.NoError(t, err)
	assert.JSONEq(t, `{"kind":"deliver","action":"deliver","process":3,"peer":2,"msg":{"type":"ELECTION","args":[9]}}`, string(b))
	var back StepInfo
	require.NoError(t, json.Unmarshal(b, &back))
	assert.True(t, back.Equal(s))
	other := Msg("ELECTION", Int(8))
	assert.False(t, back.Equal(StepInfo{Kind: KindDeliver, Action: "deliver", Process: 3, Peer: 2, Msg: &other}))
	assert.Equal(t, "early-timeout-ok p1", StepInfo{Kind: KindEarlyTimeout, Action: "early-timeout-ok", Process: 1, Timer: "timeout-ok"}.String())
	assert.Error(t, json.Unmarshal([]byte(`{"kind":"teleport"}`), &back))
}

type studentState uint8

func (s studentState) String() string { return [...]string{"idle", "electing"}[s] }

type studentLocal struct {
	Elected  int
	Phase    studentState
	MaxID    int
	IDs      []int
	Done     bool
	HTTPPort string
	hops     int
	mode     studentState // unexported: no String method to call
	Last     plainMsg
}

// A local state without FormatLocal is shown field by field, in
// declaration order, with the algorithms' names ("elected").
func TestReflectLocal(t *testing.T) {
	fields := reflectLocal(studentLocal{Elected: 3, Phase: 1, MaxID: 4, IDs: []int{2, 1}, Done: true, HTTPPort: "x", hops: 5, mode: 1, Last: plainMsg{J: 1, H: 2}})
	want := []Field{
		{"elected", Int(3)}, {"phase", Str("electing")}, {"maxID", Int(4)}, {"ids", Seq(Int(2), Int(1))}, {"done", Bool(true)},
		{"httpPort", Str("x")}, {"hops", Int(5)}, {"mode", Int(1)}, {"last", Str("{J:1 H:2}")},
	}
	require.Len(t, fields, len(want))
	for i := range want {
		assert.Equal(t, want[i].Name, fields[i].Name)
		assert.True(t, want[i].Value.Equal(fields[i].Value), "%s: %s", want[i].Name, fields[i].Value)
	}
	// A local state that is no struct is one field.
	assert.Equal(t, []Field{{"state", Int(7)}}, reflectLocal(7))
	assert.Equal(t, "id", lowerFirst("ID"))
}
