package webui_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

// chartFit is what the page shows of its chart: the chart's box, the
// SVG's width, and the lane names in the sticky heads, with whether each
// lies inside the box.
const chartFit = `(() => {
  const box = document.querySelector("#chart"), svg = box.querySelector(":scope > svg"), b = box.getBoundingClientRect();
  const names = [...box.querySelectorAll(".lane-heads text")].map(t => { const r = t.getBoundingClientRect(); return t.textContent + (r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom ? "" : " (hidden)"); });
  return [String(box.clientWidth), String(svg.getBoundingClientRect().width), names.join(",")];
})()`

// The chart fits its box at 1400 and 1024 pixels: every lane is in view,
// its name too.
func TestBrowserChartFitsItsBox(t *testing.T) {
	ctx, base := browser(t)
	for _, width := range []int64{1400, 1024} {
		in(t, ctx, chromedp.EmulateViewport(width, 900), chromedp.Navigate(base+"/?"+lasso), shown(8))
		got := eval[[]string](t, ctx, chartFit)
		var box, svg float64
		fmt.Sscan(got[0], &box)
		fmt.Sscan(got[1], &svg)
		assert.LessOrEqual(t, svg, box, "at %d px the chart is no wider than its box", width)
		assert.Equal(t, "p1,p2,p3,p4", got[2], "at %d px", width)
	}
}

// With 16 lanes the chart keeps a readable scale and scrolls, and the
// lane names stay at the top of the box when its rows scroll by.
func TestBrowserChartLaneNamesStick(t *testing.T) {
	ctx, base := browser(t)
	path := strings.Repeat("0.", 24) + "0"
	in(t, ctx, chromedp.EmulateViewport(1400, 700), chromedp.Navigate(base+"/?algo=chang-roberts&n=16&path="+path), shown(25))
	eval[bool](t, ctx, `(() => { const c = document.querySelector("#chart"); c.scrollTop = c.scrollHeight; return true; })()`)
	got := eval[[]string](t, ctx, chartFit)
	assert.Greater(t, eval[float64](t, ctx, `document.querySelector("#chart").scrollTop`), 100.0, "the chart scrolled: %v %s", got, eval[string](t, ctx, `document.querySelector("#chart").dataset.scale + " " + document.querySelector("#chart > svg").getAttribute("height") + " " + document.querySelector("#chart").clientHeight`))
	names := strings.Split(got[2], ",")
	assert.Len(t, names, 16)
	for i, n := range names[:4] {
		assert.Equal(t, fmt.Sprintf("p%d", i+1), n, "the first lanes are named in view after scrolling down")
	}
	assert.Equal(t, "0.700", eval[string](t, ctx, `document.querySelector("#chart").dataset.scale`), "no smaller than readable (minChartScale)")
}
