package cli_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// node is a parsed XML element, for checking a JUnit file against the
// common JUnit XML schema (the Ant/Jenkins junit XSD): which elements may
// appear where, and which attributes they need.
type node struct {
	name     string
	attrs    map[string]string
	children []*node
	text     string
}

func parseXML(t *testing.T, data []byte) *node {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var stack []*node
	var root *node
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		switch tk := tok.(type) {
		case xml.StartElement:
			n := &node{name: tk.Name.Local, attrs: map[string]string{}}
			for _, a := range tk.Attr {
				n.attrs[a.Name.Local] = a.Value
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.children = append(p.children, n)
			} else {
				require.Nil(t, root, "one root element")
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(tk)
			}
		}
	}
	require.NotNil(t, root)
	return root
}

// junitSchema: per element, its allowed children and required attributes,
// and which attributes must be counts.
var junitSchema = map[string]struct {
	children []string
	required []string
	counts   []string
}{
	"testsuites": {[]string{"testsuite"}, nil, []string{"tests", "failures", "errors", "skipped"}},
	"testsuite":  {[]string{"properties", "testcase", "system-out", "system-err"}, []string{"name", "tests"}, []string{"tests", "failures", "errors", "skipped"}},
	"properties": {[]string{"property"}, nil, nil},
	"property":   {nil, []string{"name", "value"}, nil},
	"testcase":   {[]string{"failure", "error", "skipped", "system-out", "system-err"}, []string{"name", "classname"}, nil},
	"failure":    {nil, []string{"message", "type"}, nil},
	"error":      {nil, []string{"message", "type"}, nil},
	"skipped":    {nil, nil, nil},
	"system-out": {nil, nil, nil},
	"system-err": {nil, nil, nil},
}

func validateJUnit(t *testing.T, n *node) {
	t.Helper()
	rule, ok := junitSchema[n.name]
	require.True(t, ok, "element <%s> is not in the JUnit schema", n.name)
	for _, a := range rule.required {
		assert.Contains(t, n.attrs, a, "<%s> needs attribute %s", n.name, a)
	}
	for _, a := range rule.counts {
		if v, ok := n.attrs[a]; ok {
			_, err := strconv.ParseUint(v, 10, 32)
			assert.NoError(t, err, "<%s %s=%q> is a count", n.name, a, v)
		}
	}
	if v, ok := n.attrs["time"]; ok {
		_, err := strconv.ParseFloat(v, 64)
		assert.NoError(t, err, "<%s time=%q> is a number", n.name, v)
	}
	outcomes := 0
	for _, c := range n.children {
		assert.Contains(t, rule.children, c.name, "<%s> inside <%s>", c.name, n.name)
		if c.name == "failure" || c.name == "error" || c.name == "skipped" {
			outcomes++
		}
		validateJUnit(t, c)
	}
	assert.LessOrEqual(t, outcomes, 1, "a test case has at most one outcome")
	if n.name == "testsuite" || n.name == "testsuites" {
		// The counts add up.
		count := map[string]int{}
		var walk func(*node)
		walk = func(x *node) {
			if x.name == "testcase" {
				count["tests"]++
			}
			switch x.name {
			case "failure":
				count["failures"]++
			case "error":
				count["errors"]++
			case "skipped":
				count["skipped"]++
			}
			for _, c := range x.children {
				walk(c)
			}
		}
		walk(n)
		for _, k := range []string{"tests", "failures", "errors", "skipped"} {
			assert.Equal(t, strconv.Itoa(count[k]), n.attrs[k], "<%s %s>", n.name, k)
		}
	}
}

func cases(root *node) map[string]*node {
	out := map[string]*node{}
	for _, s := range root.children {
		for _, c := range s.children {
			if c.name == "testcase" {
				out[c.attrs["name"]] = c
			}
		}
	}
	return out
}

func TestJUnitOneCasePerProperty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcheck.xml")
	code, out, stderr := run(append(circulating, "--junit", path)...)
	require.Equal(t, 1, code, stderr)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	root := parseXML(t, data)
	require.Equal(t, "testsuites", root.name)
	validateJUnit(t, root)
	cs := cases(root)
	require.Len(t, cs, 3)
	assert.Empty(t, cs["SingleLeader"].children, "holds: passes")
	assert.Empty(t, cs["Agreement"].children)
	term := cs["Termination"]
	require.Len(t, term.children, 1)
	fail := term.children[0]
	assert.Equal(t, "failure", fail.name)
	// The message is the report's one-line explanation, the body the text traces.
	assert.Equal(t, "ELECTION(4) of crashed p4 circulates forever; Stable (elected=3) is never reached: p1 elected=⊥, p2 elected=⊥, p3 elected=⊥", fail.attrs["message"])
	assert.Contains(t, out, "Termination   VIOLATED  "+fail.attrs["message"])
	assert.Contains(t, fail.text, "   6  deliver p1→p2 ELECTION(4)   ◀ cycle starts here (steps 6-8 repeat forever)\n")
	assert.Contains(t, fail.text, "Termination counterexample (ends in a stuck state), 4 steps:")
}

func TestJUnitSkippedAndUnknown(t *testing.T) {
	dir := t.TempDir()
	// Termination not checked: skipped.
	path := filepath.Join(dir, "safety.xml")
	code, _, stderr := run("--algo", "chang-roberts", "--n", "3", "--check", "safety", "--junit", path)
	require.Equal(t, 0, code, stderr)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	root := parseXML(t, data)
	validateJUnit(t, root)
	cs := cases(root)
	require.Len(t, cs["Termination"].children, 1)
	assert.Equal(t, "skipped", cs["Termination"].children[0].name)
	// An incomplete search: every property is an error with the reason.
	path = filepath.Join(dir, "incomplete.xml")
	code, _, stderr = run("--algo", "ring", "--n", "4", "--max-states", "100", "--junit", path)
	require.Equal(t, 2, code, stderr)
	data, err = os.ReadFile(path)
	require.NoError(t, err)
	root = parseXML(t, data)
	validateJUnit(t, root)
	for name, c := range cases(root) {
		require.Len(t, c.children, 1, name)
		assert.Equal(t, "error", c.children[0].name, name)
		assert.Contains(t, c.children[0].attrs["message"], "--max-states 100 reached", name)
	}
}

func TestJUnitUnwritablePath(t *testing.T) {
	code, _, stderr := run(append(circulating, "--junit", filepath.Join(t.TempDir(), "no", "such", "dir.xml"))...)
	assert.Equal(t, 2, code)
	assert.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
	assert.Contains(t, stderr, "mcheck: --junit: ")
}

func TestGitHubAnnotations(t *testing.T) {
	t.Setenv("GITHUB_ACTIONS", "true")
	code, out, stderr := run(circulating...)
	require.Equal(t, 1, code)
	assert.Equal(t, "::error title=mcheck chang-roberts%3A Termination violated::ELECTION(4) of crashed p4 circulates forever; Stable (elected=3) is never reached: p1 elected=⊥, p2 elected=⊥, p3 elected=⊥\n", stderr)
	assert.NotContains(t, out, "::error")

	t.Setenv("GITHUB_ACTIONS", "")
	_, _, stderr = run(circulating...)
	assert.NotContains(t, stderr, "::error")
	// A clean run annotates nothing.
	t.Setenv("GITHUB_ACTIONS", "true")
	code, _, stderr = run("--algo", "chang-roberts", "--n", "3")
	require.Equal(t, 0, code)
	assert.NotContains(t, stderr, "::error")
}
