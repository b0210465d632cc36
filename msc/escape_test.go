package msc_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/msc"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

// A trace whose text holds control characters (a message's text, the
// summary, a process alias: what a file or an algorithm may say) is drawn
// with them escaped: no raw control character in the SVG (where most are
// not even valid XML), the Mermaid chart or the Markdown.
func TestChartsEscapeControlCharacters(t *testing.T) {
	fh, err := os.Open("../testdata/golden/circulating-election.Termination-fair-cycle.trace.json")
	require.NoError(t, err)
	defer fh.Close()
	f, err := trace.Read(fh)
	require.NoError(t, err)
	// The run as the model renders it, with its texts made odd where
	// they are drawn from: the summary, and ELECTION(4) in the channels
	// and in what the steps send.
	summary := f.Summary
	f, err = trace.Replayed(f, specs.Builtin())
	require.NoError(t, err)
	f.Summary = "\u001b[2J" + summary
	oddly := func(v *model.Value) {
		if v.String() == "ELECTION(4)" {
			*v = v.WithText("E\u001b[31m\u0007\u202e(4)\nX")
		}
	}
	for i := range f.Steps {
		for j := range f.Steps[i].Sends {
			oddly(&f.Steps[i].Sends[j].Msg)
		}
		for _, ch := range f.Steps[i].State.Channels {
			for k := range ch.Messages {
				oddly(&ch.Messages[k])
			}
		}
	}

	var svg, md bytes.Buffer
	require.NoError(t, msc.SVG(&svg, f))
	require.NoError(t, msc.Markdown(&md, f, 2))
	dec := xml.NewDecoder(bytes.NewReader(svg.Bytes()))
	for {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "the SVG is well-formed XML")
	}
	for name, out := range map[string]string{"SVG": svg.String(), "Markdown": md.String()} {
		for _, c := range out {
			assert.False(t, c != '\n' && (c < ' ' || c == 0x7f || c == '\u202e' || c == '\uFFFD'), "%s holds %q", name, c)
		}
	}
	assert.Contains(t, svg.String(), `E\x1b[31m\a\u202e(4)`)
	assert.Contains(t, md.String(), `p4->>p1: 4: E\x1b[31m\a\u202e(4) X`, "Mermaid: the line break a space")
	assert.Contains(t, md.String(), "\n\\\\x1b\\[2JELECTION(4) of crashed p4", "Markdown escapes the backslash of the escape")
}
