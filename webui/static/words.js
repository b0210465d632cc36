// Words the page shares with the text report and the charts. cycleWords is
// trace.CycleWords: which steps a lasso's cycle repeats, first to last, and
// where the run goes after the last; the cycle's first step is the one
// after the state (the view's cycle) that the last step returns to.
// (webui's TestPageWordsMatchTheReport runs it in node against the Go.)
// premiseWords is trace.PremiseWords: the mark of the step of a leads-to's
// counterexample where its premise holds. timedWords is trace.TimedWords,
// the explanation of a timed run's notation, and timeWords trace.TimeWords,
// the time after a step (t=3), as the charts' time axis labels it.
// ageMark is trace.AgeMark: a message of age D (the delay) is "due" where
// the bound holds (sync, or after gst; gst is null in sync) and "late"
// before gst.
const premiseWords = "premise holds here; its goal never does from here on";

function cycleWords(first, last) {
  const repeat = first === last ? "step " + first + " repeats forever" : "steps " + first + "-" + last + " repeat forever";
  return { repeat: repeat, back: "back to step " + first };
}

const timedWords = "timed: a tick advances the clock; a message shows its age in ticks after @, marked (due) at the delay D: delivered before the next tick, or (late) at D before gst: it may wait any number of ticks; a timer shows its ticks left";

function timeWords(t) {
  return "t=" + t;
}

function ageMark(age, delay, gst) {
  if (!(delay > 0) || age < delay) return "";
  return gst === false ? "late" : "due";
}
