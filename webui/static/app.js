// mcheck explore: the page. Plain JavaScript, no library. Everything the
// page shows comes from /api/view; the URL's query is the whole state of
// the page (configuration, path, step shown, cycle, and the property the
// path is a counterexample of). Steps and values come as data with their
// text rendered by the server; the page shows the text and reads no label.
"use strict";

const pageParams = ["path", "at", "cycle", "property", "kind", "premise", "seed"];
let view = null; // the View shown
let job = null; // the check's id, while polling

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("data-")) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) e.append(c);
  return e;
}

function showError(msg) {
  const box = $("error");
  box.textContent = msg;
  box.hidden = !msg;
  if (!msg) $("way-back").hidden = true;
}

// offerWayBack, under the error of a link that shows nothing (bad
// parameters), links to what can be shown: the initial state of the
// link's configuration, when the server takes it, and the page the
// explorer opened with.
async function offerWayBack(query) {
  const links = [];
  const cfg = configQuery(query);
  if (cfg !== "" && cfg !== query) {
    try {
      await api("/api/view?" + cfg);
      links.push(el("a", { href: "?" + cfg, "data-way": "configuration" }, "the initial state of this configuration"));
    } catch (e) {
      // The configuration is what is wrong: only the explorer's own page.
    }
  }
  if (home && home.query !== query) links.push(el("a", { href: "?" + home.query, "data-way": "home" }, "the page the explorer opened with (" + home.query + ")"));
  const box = $("way-back");
  box.replaceChildren();
  if (links.length === 0) return;
  box.append("Open ");
  links.forEach((a, i) => box.append(...(i > 0 ? [" or ", a] : [a])));
  box.append(", or fix the URL above.");
  box.hidden = false;
}

async function api(url, options) {
  let resp;
  try {
    resp = await fetch(url, options);
  } catch (e) {
    throw new Error("the explorer's server does not answer (" + e.message + "): is mcheck explore still running?");
  }
  const body = await resp.json().catch(() => ({ error: resp.status + " " + resp.statusText }));
  if (!resp.ok) throw new Error(body.error || resp.statusText);
  return body;
}

// configQuery is the query without the page's own parameters.
function configQuery(query) {
  const q = new URLSearchParams(query);
  for (const p of pageParams) q.delete(p);
  return q.toString();
}

// go shows the view of query and records it in the browser's history.
async function go(query, url) {
  try {
    const v = await api(url || "/api/view?" + query);
    if ("?" + v.query !== location.search) history.pushState(null, "", "?" + v.query);
    render(v);
  } catch (e) {
    showError(e.message);
  }
}

let home = null; // the page the server opened with, and what it says about it

async function loadFromURL() {
  let query = location.search.slice(1);
  try {
    if (home === null) home = await api("/api/home");
    if (query === "") {
      query = home.query;
      history.replaceState(null, "", "?" + query);
    }
    render(await api("/api/view?" + query));
  } catch (e) {
    showError(e.message);
    view = null;
    document.body.classList.add("failed");
    await offerWayBack(query);
  }
}

// queryWith is the query of the path, the step at and the cycle; cx, when
// given, is the view whose property the path is a counterexample of.
function queryWith(path, at, cycle, cx) {
  const q = new URLSearchParams(configQuery(view.query));
  if (path.length > 0) {
    q.set("path", path.join("."));
    if (at !== path.length) q.set("at", String(at));
  }
  if (cycle !== null && cycle !== undefined) q.set("cycle", String(cycle));
  if (cx && cx.property) {
    q.set("property", cx.property);
    q.set("kind", cx.kind);
    if (cx.premise !== null && cx.premise !== undefined) q.set("premise", String(cx.premise));
  }
  return q.toString().replaceAll("%2C", ",");
}

function choose(index) {
  const { path, at } = view;
  if (at < path.length && path[at] === index) return move(at + 1); // the step of the path
  go(queryWith(path.slice(0, at).concat([index]), at + 1, null));
}

function move(at) {
  go(queryWith(view.path, at, view.cycle, view));
}

function forward() {
  const { path, at, cycle } = view;
  if (at < path.length) move(at + 1);
  else if (cycle !== null) move(cycle + 1); // round the lasso's cycle again
}

function randomRun() {
  const seed = crypto.getRandomValues(new Uint32Array(1))[0];
  go(null, "/api/random?" + queryWith(view.path, view.at, null) + "&seed=" + seed);
}

// A resized window refits the chart to its box.
window.addEventListener("resize", () => {
  const svg = $("chart").querySelector(":scope > svg");
  if (svg) fitChart($("chart"), svg);
});

function render(v) {
  view = v;
  showError("");
  document.body.classList.remove("failed");
  renderConfig(v.config);
  $("note").textContent = home && home.note ? home.note : "";
  $("note").hidden = !(home && home.note && configQuery(home.query) === configQuery(v.query));

  const n = v.path.length;
  $("position").textContent = "step " + v.at + " of " + n + (v.cycle !== null ? " (a lasso: " + cycleWords(v.cycle + 1, n).repeat + ")" : "");
  if (v.property) $("position").textContent += (v.kind === "example" ? ", an example of " : ", a counterexample of ") + v.property;
  if (v.note) $("position").textContent += " — " + v.note;
  $("first").disabled = v.at === 0;
  $("back").disabled = v.at === 0;
  $("forward").disabled = v.at === n && v.cycle === null;
  $("heading").textContent = v.at === 0 ? "Initial state" : "State after step " + v.at + ": " + v.history[v.at - 1].label;

  const procs = $("processes");
  procs.replaceChildren();
  for (const p of v.processes) {
    const box = el("div", { class: "process" + (p.alive ? "" : " crashed") + (p.alive_changed ? " changed" : ""), "data-name": p.name });
    box.append(el("div", { class: "pname" }, p.name + (p.alive ? "" : " ✝ crashed")));
    const t = el("table");
    for (const f of p.fields) {
      t.append(el("tr", { class: f.changed ? "changed" : "", "data-field": f.name }, el("th", {}, f.name), el("td", {}, f.text)));
    }
    // A timed run: the timer, its ticks left or off.
    if (p.timer) t.append(el("tr", { class: "timer" + (p.timer.changed ? " changed" : ""), "data-field": "timer" }, el("th", {}, "timer"), el("td", {}, p.timer.text)));
    box.append(t);
    procs.append(box);
  }

  const chans = $("channels");
  chans.replaceChildren();
  if (v.channels.length === 0) chans.append(el("p", { class: "hint" }, "every channel is empty"));
  for (const c of v.channels) {
    const msgs = el("span", { class: "messages" });
    if (c.messages.length === 0) msgs.append(el("span", { class: "empty" }, "emptied"));
    // A timed message of age D is marked due, or late before gst, as the
    // text trace and the chart mark it.
    const gstCounter = v.counters.find((k) => k.name === "gst");
    const gst = gstCounter ? gstCounter.value === true : null;
    c.text.forEach((m, i) => {
      const mark = c.ages && i < c.ages.length ? ageMark(c.ages[i], v.config.delay, gst) : "";
      msgs.append(el("span", { class: "msg" + (mark ? " " + mark : ""), title: mark ? markTitle(mark) : "" }, mark ? m + "(" + mark + ")" : m));
    });
    chans.append(el("div", { class: "channel" + (c.changed ? " changed" : ""), "data-channel": c.from_name + "→" + c.to_name }, el("span", { class: "cname" }, c.from_name + " → " + c.to_name), msgs));
  }

  const counters = $("counters");
  counters.replaceChildren();
  for (const c of v.counters) counters.append(el("span", { class: "counter" + (c.changed ? " changed" : ""), "data-counter": c.name }, c.name + " " + c.text));
  $("timed").textContent = v.config.timing ? "(" + timedWords + ")" : "";
  $("timed").hidden = !v.config.timing;

  const props = $("properties");
  props.replaceChildren();
  for (const p of v.properties) {
    // Only a violation is shown as one: a goal not reached (yet) is neutral.
    const cls = p.holds ? "holds" : p.violated ? "fails" : "pending";
    const li = el("li", { class: cls, "data-property": p.name }, p.name + ": " + (p.holds ? "true" : "false"));
    if (p.of && p.of.length) li.title = goalWords(p.kind, p.of);
    props.append(li);
  }
  if (v.quiescent) props.append(el("li", { class: "quiescent" }, "quiescent: no fair step is enabled"));
  else if (!v.steps.some((s) => s.fair) && v.discarded > 0) props.append(el("li", { class: "bounded" }, "no fair step, but the channel bound cut some off: not quiescent"));

  const steps = $("steps");
  steps.replaceChildren();
  for (const s of v.steps) {
    const b = el("button", { class: "step" + (s.fair ? "" : " unfair") + (isTimeStep(s) ? " time-step" : ""), "data-label": s.label, "data-index": String(s.index), "data-kind": s.kind, "data-process": String(s.process) }, s.label);
    if (!s.fair) b.append(el("span", { class: "unfair-tag" }, "unfair"));
    if (s.violates) b.append(el("span", { class: "violates-tag", "data-violates": s.violates.join(",") }, "breaks " + s.violates.join(", ")));
    if (v.at < v.path.length && v.path[v.at] === s.index) b.classList.add("next");
    b.addEventListener("click", () => choose(s.index));
    steps.append(b);
  }
  if (v.steps.length === 0) steps.append(el("p", { class: "hint" }, "no step is enabled"));
  if (v.discarded > 0) steps.append(el("p", { class: "hint" }, v.discarded + " more would overfill a channel (over the channel bound)"));

  const hist = $("history");
  hist.replaceChildren();
  const entries = [{ label: "initial state", fair: true }].concat(v.history);
  entries.forEach((s, i) => {
    let cls = i === v.at ? "current" : i > v.at ? "ahead" : "";
    if (v.cycle !== null && i > v.cycle) cls += " cycle";
    if (v.cycle !== null && i === v.cycle) cls += " cycle-start";
    const a = el("a", { href: "?" + queryWith(v.path, i, v.cycle, v) }, s.label);
    a.addEventListener("click", (e) => { e.preventDefault(); move(i); });
    if (isTimeStep(s)) cls += " time-step";
    const li = el("li", { class: cls.trim(), "data-step": String(i) }, a);
    // A timed run's time axis, as the chart's: the time after each tick.
    if (s.kind === "tick") li.append(el("span", { class: "time-mark" }, " " + timeWords(s.time)));
    if (i === 0 && v.config.timing) li.append(el("span", { class: "time-mark" }, " " + timeWords(0)));
    // As in the text trace: the marks name the cycle's first step, the one
    // after the state (v.cycle) that the last step returns to.
    if (v.cycle !== null) {
      const first = v.cycle + 1, last = v.path.length, words = cycleWords(first, last);
      if (i === first && i === last) li.append(el("span", { class: "cycle-mark" }, " ◀ cycle: this step repeats forever"));
      else if (i === first) li.append(el("span", { class: "cycle-mark" }, " ◀ cycle starts here (" + words.repeat + ")"));
      else if (i === last) li.append(el("span", { class: "cycle-mark" }, " ↩ " + words.back));
    }
    if (v.premise !== null && v.premise !== undefined && i === v.premise) li.append(el("span", { class: "premise-mark" }, " ◀ " + premiseWords));
    hist.append(li);
  });

  for (const li of document.querySelectorAll("#counterexamples li")) {
    li.classList.toggle("loaded", configQuery(li.dataset.query) === configQuery(v.query) && new URLSearchParams(li.dataset.query).get("path") === new URLSearchParams(v.query).get("path"));
  }

  const chart = $("chart");
  chart.replaceChildren();
  $("chart-note").textContent = v.chart_note || "";
  if (v.chart) {
    const doc = new DOMParser().parseFromString(v.chart, "image/svg+xml");
    const svg = document.importNode(doc.documentElement, true);
    const rows = svg.querySelectorAll("#rows > g");
    if (rows[v.at]) rows[v.at].classList.add("current");
    chart.append(svg);
    fitChart(chart, svg);
    // The chart keeps its own scale and scrolls (a long one would shrink
    // until unreadable): bring the step shown into view.
    if (rows[v.at]) {
      const r = rows[v.at].getBoundingClientRect(), c = chart.getBoundingClientRect();
      if (r.top < c.top || r.bottom > c.bottom) chart.scrollTop += r.top - c.top - (c.height - r.height) / 2;
    }
  }
}

// minChartScale: below it a chart's text is too small to read, so a wide
// chart (many lanes) keeps this scale and scrolls sideways instead.
const minChartScale = 0.7;

// fitChart scales the chart to its box's width (never up, never below
// minChartScale) and keeps a copy of the lane heads at the top of the box
// (sticky), so the lanes stay named while the rows scroll by.
function fitChart(box, svg) {
  const vb = svg.viewBox.baseVal;
  if (!vb || !vb.width) return;
  const avail = box.clientWidth;
  const scale = Math.max(minChartScale, Math.min(1, avail / vb.width));
  svg.setAttribute("width", String(Math.floor(vb.width * scale)));
  svg.setAttribute("height", String(Math.floor(vb.height * scale)));
  box.dataset.scale = scale.toFixed(3);
  const old = box.querySelector(".lane-heads");
  if (old) old.remove();
  const head = svg.querySelector("#lanes rect");
  if (!head) return;
  const top = Number(head.getAttribute("y")) - 3, h = Number(head.getAttribute("height")) + 6;
  const heads = svg.cloneNode(false);
  for (const lane of svg.querySelectorAll("#lanes rect, #lanes text")) {
    if (Math.abs(Number(lane.getAttribute("y")) - Number(head.getAttribute("y"))) < 1 || (lane.tagName === "text" && Number(lane.getAttribute("y")) > top && Number(lane.getAttribute("y")) < top + h)) heads.append(lane.cloneNode(true));
  }
  heads.removeAttribute("id");
  heads.setAttribute("viewBox", vb.x + " " + top + " " + vb.width + " " + h);
  heads.setAttribute("width", String(Math.floor(vb.width * scale)));
  heads.setAttribute("height", String(Math.ceil(h * scale)));
  const bar = el("div", { class: "lane-heads", "aria-hidden": "true" });
  bar.append(heads);
  box.append(bar); // after the chart (whose first svg it is), shown above it: CSS order
}

// goalWords says what a predicate that is no invariant is for: false in
// a state, it is no violation there.
function goalWords(kind, of) {
  const names = of.join(", ");
  if (kind === "premise") return "the premise of " + names + ": from where it holds, the goal must be reached";
  if (kind === "sometimes") return names + ": some reachable state must satisfy it, not every one";
  return "the goal of " + names + ": it must hold from some step on, not in every state";
}

// markTitle says what a message's age mark means.
function markTitle(mark) {
  return mark === "due" ? "due: D ticks old, delivered before the next tick" : "late: D ticks old or more before gst, it may wait any number of ticks";
}

// isTimeStep: a tick or gst, the steps of no process in a timed run.
function isTimeStep(s) {
  return s.kind === "tick" || s.kind === "gst";
}

function renderConfig(c) {
  const dl = $("config");
  dl.replaceChildren();
  const add = (k, val) => dl.append(el("div", {}, el("dt", {}, k), el("dd", {}, val)));
  add("algorithm", c.algo);
  add("N", String(c.n));
  add("IDs", c.ids.join(","));
  add("crashes", "≤ " + c.crashes);
  add("restarts", "≤ " + c.restarts);
  add("detector", c.detector);
  if (c.initiators && c.initiators.length) add("initiators", c.initiators.join(","));
  if (c.down && c.down.length) add("down", c.down.join(","));
  add("initial leader", c.initial_leader ? "yes" : "no");
  if (c.timing) {
    add("timing", c.timing);
    add("delay", String(c.delay));
    if (c.timeout) {
      add("timeout", String(c.timeout));
      add("timeout-coord", String(c.timeout_coord));
    }
  }
  add("max-queue", String(c.max_queue));
}

// The Check button.

async function startCheck() {
  if (!view) return;
  $("verdicts").replaceChildren();
  $("counterexamples").replaceChildren();
  try {
    const j = await api("/api/check?" + configQuery(view.query), { method: "POST", headers: { "X-Mcheck": "1" } });
    poll(j);
  } catch (e) {
    showError(e.message);
  }
}

async function poll(j) {
  job = j.id;
  $("check").disabled = j.running;
  $("stop").hidden = !j.running;
  const p = j.progress;
  $("progress").textContent = j.running ? "checking: " + p.states.toLocaleString("en") + " states, depth " + p.depth + ", " + p.seconds.toFixed(1) + " s" : "";
  if (!j.running) {
    showResult(j);
    return;
  }
  setTimeout(async () => {
    try {
      poll(await api("/api/check/" + j.id));
    } catch (e) {
      showError(e.message);
      $("check").disabled = false;
    }
  }, 300);
}

async function stopCheck() {
  if (job === null) return;
  try {
    await api("/api/check/" + job + "/stop", { method: "POST", headers: { "X-Mcheck": "1" } });
  } catch (e) {
    showError(e.message);
  }
}

function showResult(j) {
  const verdicts = $("verdicts");
  const cxs = $("counterexamples");
  verdicts.replaceChildren();
  cxs.replaceChildren();
  if (j.error) {
    $("progress").textContent = "the check failed: " + j.error;
    return;
  }
  const r = j.result;
  // What the search proves, never a bare "complete": a bounded search is
  // exhaustive up to the channel bound only.
  let proof = r.proof === "incomplete" ? "incomplete (" + r.stopped + ")" : r.proof;
  if (r.discarded > 0) proof += " (the bound discarded " + r.discarded.toLocaleString("en") + (r.discarded === 1 ? " successor)" : " successors)");
  $("progress").textContent = proof + ": " + r.states.toLocaleString("en") + " states";
  for (const v of r.verdicts) {
    verdicts.append(el("li", { class: "verdict " + v.status, "data-property": v.name, "data-proof": v.proof }, v.name + ": " + v.status + (v.summary ? " — " + v.summary : ""), ...verdictProof(v)));
  }
  r.counterexamples.forEach((cx, i) => {
    const b = el("button", { class: "load", "data-cx": String(i) }, "load");
    b.addEventListener("click", () => go(cx.query));
    const what = cx.property + " (" + cx.kind + ", " + cx.path.length + " steps" + (cx.cycle !== null ? ", " + cycleWords(cx.cycle + 1, cx.path.length).repeat : "") + (cx.bounded ? ", may be due to the channel bound" : "") + ")";
    cxs.append(el("li", { class: "counterexample", "data-query": cx.query }, b, " " + what + ": " + cx.summary));
  });
}

// verdictProof is what the search behind verdict v proves and what limits
// it, shown next to it: the proof where the verdict rests on what the
// search did not find (a violation is a replayed run), and the caveat.
function verdictProof(v) {
  const out = [];
  if (v.proof && v.status !== "violated" && v.status !== "reachable") out.push(" ", el("span", { class: "proof" }, "[" + v.proof + "]"));
  if (v.caveat) out.push(" ", el("span", { class: "caveat" }, "(" + v.caveat + ")"));
  return out;
}

window.addEventListener("popstate", loadFromURL);
document.addEventListener("DOMContentLoaded", () => {
  $("first").addEventListener("click", () => move(0));
  $("back").addEventListener("click", () => move(view.at - 1));
  $("forward").addEventListener("click", forward);
  $("random").addEventListener("click", randomRun);
  $("check").addEventListener("click", startCheck);
  $("stop").addEventListener("click", stopCheck);
  document.addEventListener("keydown", (e) => {
    if (!view || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft" && view.at > 0) move(view.at - 1);
    if (e.key === "ArrowRight") forward();
  });
  loadFromURL();
});
