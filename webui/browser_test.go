package webui_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/internal/chromium"
	"github.com/mcheck/mcheck/internal/golden"
	"github.com/mcheck/mcheck/internal/modelopt"
	"github.com/mcheck/mcheck/internal/needs"
)

// browser starts a headless Chromium on a page of a fresh server and
// returns the context to drive it and the server's URL.
func browser(t *testing.T) (context.Context, string) {
	bin, why := chromium.Find()
	if bin == "" {
		needs.Missing(t, needs.Browser, why)
	}
	srv := newServer(t)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 1000),
		chromedp.Flag("hide-scrollbars", true), chromedp.Flag("force-device-scale-factor", "1"))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// Start the browser on the context that lives as long as the test.
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("about:blank")))
	return ctx, ts.URL
}

// in runs steps with a time limit.
func in(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	require.NoError(t, chromedp.Do(c, steps...))
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, chromedp.Evaluate[T](js))
	require.NoError(t, err, js)
	return v
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	s, err := chromedp.Run(c, chromedp.TextContent(chromedp.CSS(sel)))
	require.NoError(t, err, sel)
	return s
}

// visible waits until an element matching the CSS selector is shown. (A
// script-side poll: the page replaces its elements on every render.)
func visible(sel string) chromedp.Action[chromedp.Void] {
	js := `(() => { const e = document.querySelector(` + strconv.Quote(sel) + `); return !!(e && e.getClientRects().length); })()`
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for {
			// Errors are those of a page still loading: ask again.
			if ok, err := chromedp.Evaluate[bool](js)(ctx, t); err == nil && ok {
				return nil
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("waiting for %s: %w", sel, ctx.Err())
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
}

// click clicks the middle of the element matching the CSS selector with the
// mouse, as a user does.
func click(sel string) chromedp.Action[chromedp.Void] {
	js := `(() => { const e = document.querySelector(` + strconv.Quote(sel) + `); if (!e) return null;
		e.scrollIntoView({block: "center"}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := visible(sel)(ctx, t); err != nil {
			return err
		}
		xy, err := chromedp.Evaluate[[]float64](js)(ctx, t)
		if err != nil {
			return err
		}
		if len(xy) != 2 {
			return fmt.Errorf("no %s to click", sel)
		}
		_, err = chromedp.MouseClickXY(xy[0], xy[1])(ctx, t)
		return err
	})
}

// shown waits for the page to show step at.
func shown(at int) chromedp.Action[chromedp.Void] {
	return visible(`#history li.current[data-step="` + strconv.Itoa(at) + `"]`)
}

// stateText is what the page shows of the current state.
const stateText = `["#heading", "#processes", "#channels", "#counters", "#properties", "#steps", "#history"].map(s => document.querySelector(s).innerText).join("\n")`

// TestBrowserWalksTheLasso clicks through the circulating-ELECTION lasso of
// chang-roberts --n 4 --crashes 1 in a real browser.
func TestBrowserWalksTheLasso(t *testing.T) {
	ctx, base := browser(t)
	in(t, ctx, chromedp.Navigate(base+"/"), shown(0))
	assert.Equal(t, "?"+cfg, eval[string](t, ctx, "location.search"), "the page's URL holds the configuration")
	assert.Equal(t, "Initial state", text(t, ctx, "#heading"))
	assert.Equal(t, 8, eval[int](t, ctx, `document.querySelectorAll("#steps button.step").length`))
	assert.Equal(t, []string{"crash p1", "crash p2", "crash p3", "crash p4"},
		eval[[]string](t, ctx, `[...document.querySelectorAll("#steps button.step.unfair")].map(b => b.dataset.label)`), "crashes are marked unfair")

	assert.Equal(t, []string{"1", "2", "3", "4"},
		eval[[]string](t, ctx, `[...document.querySelectorAll('#steps button.step[data-kind="crash"]')].map(b => b.dataset.process)`), "the buttons carry the step's data")
	for i, label := range lassoLabels {
		in(t, ctx, click(`#steps button.step[data-label="`+label+`"]`), shown(i+1))
		assert.Equal(t, "State after step "+strconv.Itoa(i+1)+": "+label, text(t, ctx, "#heading"))
		// The chart grows with the path: a row per step.
		assert.Equal(t, i+2, eval[int](t, ctx, `document.querySelectorAll("#chart svg #rows > g").length`))
	}
	assert.Equal(t, "?"+cfg+"&path=2.0.0.0.4.0.0.0", eval[string](t, ctx, "location.search"), "the URL holds the path")

	// The state after the lasso's last step.
	assert.Equal(t, "p4 ✝ crashed", text(t, ctx, `.process.crashed[data-name="p4"] .pname`))
	assert.Equal(t, 3, eval[int](t, ctx, `document.querySelectorAll(".process:not(.crashed)").length`))
	assert.Equal(t, "p1 → p2ELECTION(4)", text(t, ctx, `.channel.changed[data-channel="p1→p2"]`))
	assert.Equal(t, "p3 → p1emptied", text(t, ctx, `.channel.changed[data-channel="p3→p1"]`))
	assert.Equal(t, []string{"SingleLeader: true", "Agreement: true", "Stable: false"},
		eval[[]string](t, ctx, `[...document.querySelectorAll("#properties li")].map(l => l.textContent)`))
	// A path walked by hand violates nothing: Stable, Termination's goal,
	// not holding yet is shown neutrally, not as a violation.
	assert.Equal(t, "Stable: false", text(t, ctx, `#properties li.pending`))
	assert.Equal(t, 0, eval[int](t, ctx, `document.querySelectorAll("#properties li.fails").length`))
	assert.Contains(t, eval[string](t, ctx, `document.querySelector("#properties li.pending").title`), "the goal of Termination")
	assert.Equal(t, []string{"deliver p1→p2 ELECTION(4)"},
		eval[[]string](t, ctx, `[...document.querySelectorAll("#steps button.step")].map(b => b.dataset.label)`))
	chart := eval[[]string](t, ctx, `[...document.querySelectorAll("#chart svg #rows > g text")].map(t => t.textContent)`)
	for i, label := range lassoLabels {
		assert.Contains(t, chart, label, "row %d of the chart", i+1)
	}
	assert.Equal(t, "8", text(t, ctx, "#chart svg #rows > g.current text"), "the chart marks the step shown")
	assert.Contains(t, text(t, ctx, "#chart svg"), "crash", "the crash is drawn on p4's lane")

	// A reload shows the same state.
	before := eval[string](t, ctx, stateText)
	in(t, ctx, chromedp.Reload(), shown(8))
	assert.Equal(t, before, eval[string](t, ctx, stateText))

	// Back and forward.
	in(t, ctx, click("#back"), shown(7))
	assert.Equal(t, "State after step 7: deliver p2→p3 ELECTION(4)", text(t, ctx, "#heading"))
	assert.Equal(t, "?"+cfg+"&path=2.0.0.0.4.0.0.0&at=7", eval[string](t, ctx, "location.search"))
	assert.Equal(t, "deliver p3→p1 ELECTION(4)", text(t, ctx, "#steps button.step.next"), "the path's next step is marked")
	in(t, ctx, click("#forward"), shown(8))
	assert.Equal(t, before, eval[string](t, ctx, stateText))

	// The check's counterexample: the same lasso, its cycle marked.
	in(t, ctx, click("#check"),
		visible(`#counterexamples button.load[data-cx="0"]`))
	assert.Contains(t, text(t, ctx, `#verdicts li[data-property="Termination"]`), "Termination: violated — ELECTION(4) of crashed p4 circulates forever")
	assert.Equal(t, "SingleLeader: holds [exhaustive]", text(t, ctx, `#verdicts li[data-property="SingleLeader"]`))
	assert.True(t, strings.HasPrefix(text(t, ctx, "#progress"), "exhaustive: "), text(t, ctx, "#progress"))
	in(t, ctx, click(`#counterexamples button.load[data-cx="0"]`),
		visible(`#history li.cycle-start`))
	assert.Equal(t, "?"+lassoCx, eval[string](t, ctx, "location.search"))
	assert.Equal(t, "5", eval[string](t, ctx, `document.querySelector("#history li.cycle-start").dataset.step`))
	assert.Equal(t, []string{"6", "7", "8"}, eval[[]string](t, ctx, `[...document.querySelectorAll("#history li.cycle")].map(l => l.dataset.step)`))
	assert.Contains(t, text(t, ctx, `#history li[data-step="6"]`), "◀ cycle starts here (steps 6-8 repeat forever)")
	assert.Contains(t, text(t, ctx, `#history li[data-step="8"]`), "↩ back to step 6")
	assert.Contains(t, text(t, ctx, "#position"), "a lasso: steps 6-8 repeat forever")
	assert.Contains(t, text(t, ctx, "#chart svg"), "Termination violated: a lasso")
	assert.Contains(t, text(t, ctx, "#position"), "a counterexample of Termination")
	// On the counterexample's cycle, Stable not holding is the violation.
	assert.Equal(t, "Stable: false", text(t, ctx, `#properties li.fails`))
	assert.Equal(t, 3, eval[int](t, ctx, `[...document.querySelectorAll("#chart svg #rows > g > rect")].filter(r => ["#fff3e0", "#ffe8cc"].includes(r.getAttribute("fill"))).length`), "the chart tints the cycle's rows")
	if out := os.Getenv("WEBUI_SCREENSHOT"); out != "" || *golden.Update {
		if out == "" {
			out = "../docs/explore.png"
		}
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(out, png, 0o644))
	}

	// Reloaded from its URL, the counterexample keeps its title.
	in(t, ctx, chromedp.Reload(), visible(`#history li.cycle-start`))
	assert.Contains(t, text(t, ctx, "#chart svg"), "Termination violated: a lasso")

	// Before the cycle, it is not (yet).
	in(t, ctx, click(`#history li[data-step="2"] a`), shown(2))
	assert.Equal(t, "Stable: false", text(t, ctx, `#properties li.pending`))
	assert.Equal(t, 0, eval[int](t, ctx, `document.querySelectorAll("#properties li.fails").length`))
	in(t, ctx, click(`#history li[data-step="8"] a`), shown(8))

	// Forward from the end goes round the cycle again.
	in(t, ctx, click("#forward"), shown(6))
	assert.Equal(t, "State after step 6: deliver p1→p2 ELECTION(4)", text(t, ctx, "#heading"))
	in(t, ctx, click("#forward"), shown(7), click("#forward"), shown(8),
		click("#forward"), shown(6))
}

func TestBrowserRandomRunAndBadLinks(t *testing.T) {
	ctx, base := browser(t)
	// No crashes: every run elects, so a random run ends quiescent and Stable.
	in(t, ctx, chromedp.Navigate(base+"/?algo=chang-roberts&n=4"), shown(0),
		click("#random"), visible("#properties li.quiescent"))
	assert.Equal(t, "Stable: true", text(t, ctx, `#properties li[data-property="Stable"]`))
	search := eval[string](t, ctx, "location.search")
	assert.True(t, strings.HasPrefix(search, "?algo=chang-roberts&n=4&path="), search)
	// The run is in the URL: opening it again shows the same state.
	before := eval[string](t, ctx, stateText)
	in(t, ctx, chromedp.Navigate(base+"/"+search), visible("#properties li.quiescent"))
	assert.Equal(t, before, eval[string](t, ctx, stateText))

	// A long chart keeps its scale and scrolls, with the step shown in view.
	in(t, ctx, chromedp.Navigate(base+"/?algo=lelann&n=7"), shown(0),
		click("#random"), visible("#properties li.quiescent"))
	steps := eval[int](t, ctx, `document.querySelectorAll("#history li").length`) - 1
	require.Greater(t, steps, 40, "a long run")
	assert.Equal(t, eval[float64](t, ctx, `document.querySelector("#chart svg").width.baseVal.value`),
		eval[float64](t, ctx, `document.querySelector("#chart svg").getBoundingClientRect().width`), "drawn at its own width")
	assert.Greater(t, eval[int](t, ctx, `document.querySelector("#chart").scrollHeight`), eval[int](t, ctx, `document.querySelector("#chart").clientHeight`), "the chart scrolls")
	assert.True(t, eval[bool](t, ctx, `(() => { const r = document.querySelector("#chart svg #rows > g.current").getBoundingClientRect(), c = document.querySelector("#chart").getBoundingClientRect(); return r.top >= c.top && r.bottom <= c.bottom; })()`), "the step shown is in view")

	for link, msg := range map[string]string{
		"/?" + cfg + "&path=99":           "step 1 of the path is index 99, but only 8 steps are enabled there (0..7)",
		"/?algo=chang-roberts&n=40":       "configuration: --n 40 is out of range: use 2 to 16 processes",
		"/?" + cfg + "&path=2.0&cycle=0":  "the path does not return to the state of step 0 at its end, so it has no cycle there",
		"/?" + cfg + "&path=" + "0.zz.1":  `step 2 of the path is "zz", not a step index (the path is step indices separated by dots, like 0.3.1)`,
		"/?" + cfg + "&msc=/tmp/evil.svg": `configuration: unknown parameter "msc": a configuration has ` + strings.Join(append([]string{"algo"}, modelopt.Flags()...), ", "),
	} {
		in(t, ctx, chromedp.Navigate(base+link), visible("#error"), visible("#way-back a"))
		assert.Equal(t, msg, text(t, ctx, "#error"), link)
		// And a way back: the page the explorer opened with, and the
		// initial state of the link's configuration where that is fine.
		ways := eval[[]string](t, ctx, `[...document.querySelectorAll("#way-back a")].map(a => a.dataset.way + " " + a.getAttribute("href"))`)
		want := []string{"home ?" + cfg}
		if !strings.Contains(msg, "configuration") {
			want = []string{"configuration ?" + cfg, "home ?" + cfg}
		}
		assert.Equal(t, want, ways, link)
	}
	// The way back works.
	in(t, ctx, chromedp.Navigate(base+"/?algo=chang-roberts&n=40"), visible("#way-back a"), click(`#way-back a[data-way="home"]`), shown(0))
	assert.Equal(t, "?"+cfg, eval[string](t, ctx, "location.search"))
	assert.True(t, eval[bool](t, ctx, `document.querySelector("#error").hidden && document.querySelector("#way-back").hidden`))
}

// A check of a bounded model never says a bare "complete" or "holds": the
// page shows, next to every verdict, what the search proves and its caveat
// (lelann's SingleLeader holds at max-queue 1 only).
func TestBrowserCheckSaysWhatItsSearchProves(t *testing.T) {
	ctx, base := browser(t)
	in(t, ctx, chromedp.Navigate(base+"/?algo=lelann&n=3&crashes=1&max-queue=1"), shown(0),
		click("#check"), visible(`#verdicts li[data-property="SingleLeader"]`))
	progress := text(t, ctx, "#progress")
	assert.Regexp(t, `^exhaustive up to the channel bound \(the bound discarded [\d,]+ successors\): [\d,]+ states$`, progress)
	assert.NotContains(t, progress, "complete")
	single := text(t, ctx, `#verdicts li[data-property="SingleLeader"]`)
	assert.Regexp(t, `^SingleLeader: holds \[exhaustive up to the channel bound\] \(for the bounded model only: exhaustive up to 1 message per channel; the bound discarded [\d]+ successors\)$`, single)
	assert.Equal(t, "exhaustive up to the channel bound", eval[string](t, ctx, `document.querySelector('#verdicts li[data-property="SingleLeader"]').dataset.proof`))
	assert.Contains(t, text(t, ctx, `#verdicts li[data-property="Termination"]`), "(also without the bound: it cut no step of this run)")
}
