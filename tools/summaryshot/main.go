// Command summaryshot renders a job summary that mcheck wrote (with
// GITHUB_STEP_SUMMARY set) as an HTML page styled like GitHub's, for
// docs/ci.md's screenshot (chromium --headless --screenshot). GitHub
// draws the summary's Mermaid charts itself; offline, the page shows in
// the place of each the SVG chart that mcheck draws of the same trace
// (mcheck replay --msc FILE.svg TRACE), in the summary's order.
//
//	go run . SUMMARY.md CHART.svg... > summary.html
package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: summaryshot SUMMARY.md CHART.svg... > summary.html")
		os.Exit(2)
	}
	md, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "summaryshot: %v\n", err)
		os.Exit(2)
	}
	mermaid := regexp.MustCompile("(?s)```mermaid\n.*?```\n")
	if n := len(mermaid.FindAll(md, -1)); n != len(os.Args)-2 {
		fmt.Fprintf(os.Stderr, "summaryshot: %s has %d charts, and %d SVG files were given\n", os.Args[1], n, len(os.Args)-2)
		os.Exit(2)
	}
	md = mermaid.ReplaceAll(md, []byte("<div class=chart>CHART</div>\n"))
	var body bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := gm.Convert(md, &body); err != nil {
		fmt.Fprintf(os.Stderr, "summaryshot: %v\n", err)
		os.Exit(2)
	}
	page := body.Bytes()
	for _, f := range os.Args[2:] {
		svg, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintf(os.Stderr, "summaryshot: %v\n", err)
			os.Exit(2)
		}
		page = bytes.Replace(page, []byte("<div class=chart>CHART</div>"), append(append([]byte("<div class=chart>"), svg...), "</div>"...), 1)
	}
	fmt.Printf(`<!doctype html><meta charset=utf-8><style>
body{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;font-size:14px;color:#1f2328;margin:0;background:#f6f8fa}
.box{background:#fff;border:1px solid #d0d7de;border-radius:6px;margin:16px;padding:8px 24px 16px}
.head{font-weight:600;border-bottom:1px solid #d0d7de;padding:8px 0;margin-bottom:8px}
h2{font-size:20px;border-bottom:1px solid #d8dee4;padding-bottom:6px}h3{font-size:16px}
table{border-collapse:collapse}th,td{border:1px solid #d0d7de;padding:6px 13px}tr:nth-child(2n){background:#f6f8fa}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}pre{background:#f6f8fa;padding:12px;border-radius:6px;overflow:auto}
.chart svg{max-width:100%%;height:auto}
</style><div class=box><div class=head>a-violation summary (the mcheck action, examples/coursework)</div>
%s</div>
`, page)
}
