package main

import (
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Markdown links and images: [text](target) and ![alt](target).
var linkRE = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)\)`)

// anchor is GitHub's anchor of a heading: lower case, spaces as -, most
// punctuation dropped.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Every relative link of the README and of the docs points at a file that
// a clone has (git tracks it), and an #anchor at one of its headings.
func TestReadmeLinksResolveInAClone(t *testing.T) {
	root := "../.."
	out, err := exec.Command("git", "-C", root, "ls-files").Output()
	require.NoError(t, err)
	tracked := map[string]bool{}
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		tracked[f] = true
		for d := filepath.Dir(f); d != "."; d = filepath.Dir(d) {
			tracked[d] = true
		}
	}
	pages := []string{"README.md", "examples/coursework/README.md", "BENCHMARKS.md", "bench/history.md"}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, d := range docs {
		rel, _ := filepath.Rel(root, d)
		pages = append(pages, filepath.ToSlash(rel))
	}
	checked := 0
	for _, page := range pages {
		text, err := os.ReadFile(filepath.Join(root, page))
		require.NoError(t, err)
		for _, m := range linkRE.FindAllStringSubmatch(string(text), -1) {
			u, err := url.Parse(m[1])
			if !assert.NoError(t, err, "%s: %s", page, m[1]) || u.Scheme != "" {
				continue // links to the web are not a clone's business
			}
			target := page
			if u.Path != "" {
				target = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(page), u.Path)))
				if !assert.True(t, tracked[target], "%s links to %s, which a clone does not have (%s)", page, m[1], target) {
					continue
				}
			}
			if u.Fragment != "" {
				body, err := os.ReadFile(filepath.Join(root, target))
				require.NoError(t, err)
				var anchors []string
				for _, l := range strings.Split(string(body), "\n") {
					if h, ok := strings.CutPrefix(strings.TrimLeft(l, "#"), " "); ok && strings.HasPrefix(l, "#") {
						anchors = append(anchors, anchor(h))
					}
				}
				assert.Contains(t, anchors, u.Fragment, "%s links to %s: no such heading", page, m[1])
			}
			checked++
		}
	}
	assert.Greater(t, checked, 3)
}
