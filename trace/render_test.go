package trace_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// readGolden reads a golden trace from its text, for a test to alter.
func readGolden(t *testing.T, name string, edit func(string) string) *trace.File {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "golden", name))
	require.NoError(t, err)
	f, err := trace.Read(strings.NewReader(edit(string(data))))
	require.NoError(t, err)
	return f
}

// The run Replayed returns is the file itself, rebuilt from the model, for
// every golden trace: the rendering loses nothing but the summary, which
// replay cannot check.
func TestReplayedRebuildsTheFile(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("..", "testdata", "golden", "*.trace.json"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(names), 6)
	for _, n := range names {
		f := goldenFile(t, filepath.Base(n))
		got, err := trace.Replayed(f, specs.Builtin())
		require.NoError(t, err, n)
		want := *f
		want.Summary = ""
		var a, b bytes.Buffer
		require.NoError(t, want.Write(&a))
		require.NoError(t, got.Write(&b))
		assert.Equal(t, a.String(), b.String(), n)
	}
}

// A message's text is how the algorithm writes it, for people; replay
// compares messages as data (type and arguments), so a file may say
// anything there and still replay. What Replayed gives is the model's
// text, never the file's: here a terminal escape sequence that would clear
// the screen.
func TestReplayedShowsTheModelsTextNotTheFiles(t *testing.T) {
	const evil = "\x1b[2J\x1b[31mYOU ARE HACKED"
	f := readGolden(t, "circulating-election.Termination-stuck.trace.json", func(s string) string {
		s = strings.ReplaceAll(s, `"text": "ELECTION(1)"`, `"text": "\u001b[2J\u001b[31mYOU ARE HACKED"`)
		return strings.Replace(s, `"summary": "`, `"summary": "\u001b[2J`, 1)
	})
	require.Contains(t, f.Summary, "\x1b")
	var raw bytes.Buffer
	trace.WriteText(&raw, f, true)
	require.NotContains(t, raw.String(), "\x1b", "WriteText escapes what it is given")
	require.Contains(t, raw.String(), `\x1b[2J\x1b[31mYOU ARE HACKED`, "the file's text, escaped")

	require.NoError(t, trace.Replay(f, specs.Builtin()), "the text is not compared")
	got, err := trace.Replayed(f, specs.Builtin())
	require.NoError(t, err)
	assert.Empty(t, got.Summary)
	var b bytes.Buffer
	trace.WriteText(&b, got, true)
	assert.NotContains(t, b.String(), "HACKED")
	assert.NotContains(t, b.String(), evil[:4])
	assert.Contains(t, b.String(), "   2  deliver p1→p2 ELECTION(1)\n")
}

// Control characters in a state (an algorithm may put them in a string
// field) are escaped in the text of a trace; other text is left alone.
func TestWriteTextEscapesControlCharacters(t *testing.T) {
	f := goldenFile(t, "circulating-election.Termination-stuck.trace.json")
	last := f.Steps[len(f.Steps)-1].State
	last.Processes[0].Fields = append(last.Processes[0].Fields, model.Field{Name: "note", Value: model.Str("a\x1b]0;title\x07\u202eb\n")})
	f.Steps[len(f.Steps)-1].State = last
	var b bytes.Buffer
	trace.WriteText(&b, f, false)
	out := b.String()
	assert.Contains(t, out, `: [] → a\x1b]0;title\a\u202eb\n`)
	for _, c := range out {
		if c != '\n' {
			assert.True(t, c >= ' ' && c != 0x7f && c != '\u202e', "raw %q in the text", c)
		}
	}
	assert.Equal(t, "p3.elected: ⊥ → 9", trace.Printable("p3.elected: ⊥ → 9"))
	assert.Equal(t, `\xff\x00\t`, trace.Printable("\xff\x00\t"))
}
