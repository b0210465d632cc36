package msc_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/msc"
	"github.com/mcheck/mcheck/trace"
)

// A trace whose text holds control characters (a message's text, the
// summary, a process alias: what a file or an algorithm may say) is drawn
// with them escaped: no raw control character in the SVG (where most are
// not even valid XML), the Mermaid chart or the Markdown.
func TestChartsEscapeControlCharacters(t *testing.T) {
	data, err := os.ReadFile("../testdata/golden/circulating-election.Termination-fair-cycle.trace.json")
	require.NoError(t, err)
	text := strings.ReplaceAll(string(data), `"text": "ELECTION(4)"`, `"text": "E\u001b[31m\u0007\u202e(4)\nX"`)
	text = strings.Replace(text, `"summary": "`, `"summary": "\u001b[2J`, 1)
	f, err := trace.Read(strings.NewReader(text))
	require.NoError(t, err)

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
