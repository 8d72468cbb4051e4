// index.html's inline assets: the style sheet and the script (the filters of
// the case list, and the attributes tests/report/check_reports.sh reads back
// from what the browser drew). The page's Content Security Policy allows only
// these.
#include "html_internal.h"

namespace racelab::html_internal {

const char* const kStyle = R"css(
:root { --ok:#1e7e34; --ok-bg:#e6f4ea; --caught:#0b5394; --caught-bg:#e3eefb;
  --bad:#b00020; --bad-bg:#fde7e9; --muted:#5f6368; --line:#d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  margin: 0; color: #1f2328; background: #fff; }
header { padding: 16px 24px; border-bottom: 1px solid var(--line); background: #f6f8fa; }
header h1 { margin: 0 0 4px; font-size: 22px; }
.headline { font-size: 18px; font-weight: 600; margin: 4px 0; }
.headline.failed { color: var(--bad); } .headline.passed { color: var(--ok); }
.meta, .note, .histogram-empty { color: var(--muted); }
main { padding: 8px 24px 40px; }
h2 { border-bottom: 1px solid var(--line); padding-bottom: 4px; margin-top: 28px; }
.legend span { display: inline-block; padding: 1px 8px; margin-right: 8px; border-radius: 3px; }
table.matrix { border-collapse: collapse; margin: 8px 0 18px; }
table.matrix th, table.matrix td { border: 1px solid var(--line); padding: 4px 8px;
  text-align: center; font-size: 12px; }
table.matrix thead th { background: #f6f8fa; min-width: 110px; max-width: 170px;
  overflow-wrap: break-word; }
table.matrix tbody th { text-align: left; font-family: ui-monospace, monospace; }
td.cell a { color: inherit; text-decoration: none; display: block; }
td.cell small { display: block; color: var(--muted); }
.clean-ok { background: var(--ok-bg); color: var(--ok); }
.caught-ok { background: var(--caught-bg); color: var(--caught); }
.mismatch { background: var(--bad-bg); color: var(--bad); font-weight: 600; }
td.na { background: repeating-linear-gradient(45deg,#fafafa,#fafafa 4px,#f0f0f0 4px,#f0f0f0 8px); }
section.case { border: 1px solid var(--line); border-left: 6px solid var(--ok);
  border-radius: 4px; padding: 8px 14px; margin: 12px 0; }
section.case.caught-ok { border-left-color: var(--caught); background: #fff; color: inherit; }
section.case.clean-ok { background: #fff; color: inherit; }
section.case.mismatch { border-left-color: var(--bad); background: #fff; color: inherit;
  font-weight: normal; }
.found { background: var(--bad-bg); color: var(--bad); font-weight: 600; }
.clean, .verified { background: var(--ok-bg); color: var(--ok); }
section.case.found { border-left-color: var(--bad); background: #fff; color: inherit;
  font-weight: normal; }
section.case.clean, section.case.verified { background: #fff; color: inherit; }
table.cases { border-collapse: collapse; margin: 8px 0 18px; }
table.cases th, table.cases td { border: 1px solid var(--line); padding: 4px 8px;
  text-align: left; font-size: 12px; }
table.cases td.name { font-family: ui-monospace, monospace; }
table.cases td a { color: inherit; }
section.case h3 { margin: 4px 0; font-size: 15px; font-family: ui-monospace, monospace; }
.badge { font: 600 11px system-ui, sans-serif; padding: 1px 6px; border-radius: 3px;
  vertical-align: middle; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; margin: 6px 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; }
.reason { color: var(--bad); font-weight: 600; }
ul.findings { padding-left: 18px; } li.finding { margin: 6px 0; }
li.finding .kind { font-weight: 600; font-family: ui-monospace, monospace; }
li.finding.unexpected .kind { color: var(--bad); }
.oracle, .runs, .file { color: var(--muted); }
ol.stack { margin: 2px 0 4px; font: 12px ui-monospace, monospace; }
ol.stack li.more { font-family: system-ui, sans-serif; list-style: none; }
ol.stack li.library, ol.stack li.racelab, ol.stack li.more { color: var(--muted); }
ol.stack li.user code { font-weight: 600; }
details.frames, details.similar, details.detail { margin: 0 0 4px 18px; font-size: 12px; }
details > summary { cursor: pointer; color: var(--muted); }
p.same-stack { margin: 0 0 4px 18px; font-size: 12px; color: var(--muted); }
pre { background: #f6f8fa; padding: 8px; overflow: auto; max-height: 320px; font-size: 12px; }
.swimlane-wrap { overflow-x: auto; margin: 8px 0; }
svg text { font: 11px "DejaVu Sans Mono", ui-monospace, monospace; fill: #1f2328; }
svg.swimlane .lane-bg { fill: #f6f8fa; stroke: var(--line); }
svg.swimlane .lane-title { font-weight: bold; }
svg.swimlane g.axis text { fill: var(--muted); text-anchor: end; }
svg.swimlane .step-rule { stroke: #eaeef2; }
svg.swimlane rect.op { fill: #dbe9fb; stroke: #6b9bd8; }
svg.swimlane rect.result { fill: #e6f4ea; stroke: #5aa36a; }
svg.swimlane rect.lock { fill: #fff4d6; stroke: #c9a227; }
svg.swimlane rect.wait { fill: #ffe3c2; stroke: #d9822b; stroke-dasharray: 3 2; }
svg.swimlane rect.other { fill: #eeeeee; stroke: #999; }
svg.swimlane rect.finding { fill: #f8d7da; stroke: var(--bad); stroke-width: 2; }
svg.swimlane .event.finding text { fill: var(--bad); font-weight: bold; }
svg.swimlane rect.finding-band { fill: rgba(176,0,32,0.08); }
svg.swimlane rect.lock-hold { fill: #c9a227; }
svg.swimlane rect.lock-hold.unreleased { fill: var(--bad); }
svg.swimlane line.switch { stroke: #8c959f; stroke-dasharray: 4 3; }
svg.swimlane .event.switch text { fill: var(--muted); font-size: 10px; }
svg.swimlane g.event rect { rx: 3px; }
svg.histogram g.bar rect { fill: #8c959f; rx: 2px; }
svg.histogram text.outcome { text-anchor: end; }
svg.histogram g.bar.acceptable rect { fill: #2da44e; }
svg.histogram g.bar.missed rect { fill: #afb8c1; }
svg.histogram g.bar.allowed rect { fill: #d4a72c; }
svg.histogram g.bar.forbidden rect { fill: var(--bad); }
.filters label { margin-right: 14px; }
[hidden] { display: none !important; }
)css";

const char* const kScript = R"js(
(function () {
  var mismatches = document.getElementById('only-mismatches');
  var traces = document.getElementById('only-traces');
  function apply() {
    var cases = document.querySelectorAll('section.case');
    for (var i = 0; i < cases.length; i++) {
      var c = cases[i];
      var verdict = c.getAttribute('data-verdict');
      var show = (!mismatches.checked || verdict === 'mismatch' || verdict === 'found') &&
                 (!traces.checked || c.hasAttribute('data-has-trace'));
      c.hidden = !show;
    }
  }
  mismatches.addEventListener('change', apply);
  traces.addEventListener('change', apply);
  // What the browser actually drew, for tests that read the DOM back
  // (tests/report/check_reports.sh): boxes and bars with a non-empty box.
  function drawn(root, selector) {
    var n = 0, items = root.querySelectorAll(selector);
    for (var i = 0; i < items.length; i++) {
      var b = items[i].getBBox();
      if (b.width > 0 && b.height > 0) n++;
    }
    return n;
  }
  var lanes = document.querySelectorAll('svg.swimlane');
  for (var i = 0; i < lanes.length; i++) {
    lanes[i].setAttribute('data-drawn-lanes', drawn(lanes[i], 'g.lane'));
    lanes[i].setAttribute('data-drawn-boxes',
        drawn(lanes[i], 'rect.op, rect.result, rect.lock, rect.wait, rect.finding'));
    lanes[i].setAttribute('data-drawn-holds', drawn(lanes[i], 'rect.lock-hold'));
  }
  var charts = document.querySelectorAll('svg.histogram');
  for (var j = 0; j < charts.length; j++) {
    charts[j].setAttribute('data-drawn-bars', drawn(charts[j], 'g.bar rect'));
  }
  // Stacks: the store's frames laid out on the page, the folded stacks
  // closed (their frames take no room until opened).
  function shown(el) { return el.getClientRects().length > 0; }
  var own = document.querySelectorAll('ol.stack.own li'), seen = 0;
  for (var k = 0; k < own.length; k++) if (shown(own[k])) seen++;
  var folded = document.querySelectorAll('details.frames'), closed = 0;
  for (var m = 0; m < folded.length; m++) {
    var d = folded[m], summary = d.querySelector('summary');
    var height = d.getBoundingClientRect().height;
    if (shown(d) && !d.open && summary &&
        height <= summary.getBoundingClientRect().height + 1) closed++;
  }
  document.body.setAttribute('data-drawn-frames', seen);
  document.body.setAttribute('data-folded-stacks', folded.length);
  document.body.setAttribute('data-closed-stacks', closed);
  document.body.setAttribute('data-script', 'ok');
})();
)js";

}  // namespace racelab::html_internal
