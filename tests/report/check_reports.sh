#!/usr/bin/env bash
# End-to-end check of the report writers, on a real gate run and on the unit
# tests' hostile fixture:
#   1. `racelab gate --mode all --runs 2 --subject checkpoint/ --out OUT/gate`
#      (exit 0 or 1: a mismatch is a verdict, not a report failure) and the
#      fixture's reports into OUT/fixture (racelab_report_tests);
#   2. the gate's junit.xml, results.sarif, summary.md and index.html agree
#      with its results.json (pugixml and nlohmann, in racelab_report_tests);
#   3. results.json and results.sarif of both validate against
#      reports/results.schema.json and the official SARIF 2.1.0 schema with
#      ajv (ci/validate-reports.sh), and a deliberately broken copy does not;
#   4. index.html of both renders in headless Chromium: a screenshot
#      (OUT/gate.png, OUT/fixture.png; OUT/case.png and OUT/case-open.png show
#      one case of the gate with a swimlane and stacks, closed and with every
#      toggle open) and the DOM after the page's script ran (OUT/*.dom.html)
#      with one case section per case, a drawn histogram per case of repeated
#      runs, for each case with a trace a swimlane with drawn lanes and boxes,
#      the store's frames of every stack laid out, the other frames folded
#      behind closed toggles, and no library name spelled out in full.
#
# Usage: tests/report/check_reports.sh BUILD_DIR OUT_DIR
# Exit: 0 passed, 1 failed (a missing tool too: ci/install-deps.sh installs
# Chromium, node and npm, and ajv is installed with npm into BUILD_DIR/tools,
# where it stays for later runs), 2 usage.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 BUILD_DIR OUT_DIR" >&2
  exit 2
fi
build=$(realpath "$1")
mkdir -p "$2"
out=$(realpath "$2")
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tests_bin=$build/tests/report/racelab_report_tests

say() { echo "check_reports: $*"; }
fail() {
  echo "check_reports: FAIL: $*" >&2
  exit 1
}

# The tools, before any work. ci/install-deps.sh installs them, so a missing
# one fails the check: a skipped check would pass unseen.
chromium=$(command -v chromium || command -v chromium-browser || true)
[[ -n $chromium ]] || fail "chromium is not installed (bash ci/install-deps.sh installs Debian's chromium)"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  fail "node and npm are not installed (bash ci/install-deps.sh installs them)"
fi
# ajv, from the npm registry once, kept in the build folder.
export RACELAB_TOOLS_DIR=$build/tools
[[ -x $build/racelab ]] || fail "$build/racelab not found: build first"
[[ -x $tests_bin ]] || fail "$tests_bin not found: build first"

rm -rf "$out/gate" "$out/fixture" "$out/broken"
mkdir -p "$out/fixture"

# 1. The reports of a real gate run and of the fixture.
say "racelab gate --mode all --runs 2 --subject checkpoint/ --out $out/gate"
set +e
"$build/racelab" gate --mode all --runs 2 --subject checkpoint/ --out "$out/gate" \
  >"$out/gate.log" 2>&1
rc=$?
set -e
if [[ $rc -ne 0 && $rc -ne 1 ]]; then
  tail -n 30 "$out/gate.log" >&2
  fail "racelab gate exited with status $rc (see $out/gate.log)"
fi
say "gate: $(tail -n 2 "$out/gate.log" | head -n 1) (exit $rc)"
for f in results.json junit.xml results.sarif summary.md index.html; do
  [[ -s $out/gate/$f ]] || fail "the gate wrote no $f"
done
RACELAB_REPORT_FIXTURE_DIR=$out/fixture "$tests_bin" \
  --gtest_filter=ReportFixture.WritesEveryReportNextToResultsJson >"$out/fixture.log" 2>&1 ||
  { cat "$out/fixture.log" >&2; fail "writing the fixture's reports failed"; }

# 2. The gate's reports agree with its results.json.
RACELAB_REPORT_CHECK_DIR=$out/gate "$tests_bin" \
  --gtest_filter=ReportFixture.GateOutputIsConsistent >"$out/consistency.log" 2>&1 ||
  { cat "$out/consistency.log" >&2; fail "the gate's reports disagree with results.json"; }
say "junit.xml, results.sarif, summary.md, index.html agree with results.json"

# 3. Schemas, with a real validator.
for d in gate fixture; do
  bash "$src/ci/validate-reports.sh" "$out/$d" || fail "$d: schema validation failed (see above)"
done
# The validator must reject what the schemas forbid, or the check is vacuous.
mkdir -p "$out/broken"
node -e '
  const fs = require("fs");
  const [from, to] = process.argv.slice(1);
  const results = JSON.parse(fs.readFileSync(from + "/results.json"));
  results.cases[0].mode = "sideways";
  fs.writeFileSync(to + "/results.json", JSON.stringify(results));
  const sarif = JSON.parse(fs.readFileSync(from + "/results.sarif"));
  sarif.runs[0].results[0].level = "fatal";
  fs.writeFileSync(to + "/results.sarif", JSON.stringify(sarif));
' "$out/fixture" "$out/broken"
if bash "$src/ci/validate-reports.sh" "$out/broken" >/dev/null 2>&1; then
  fail "the validator accepted a broken results.json and results.sarif"
fi
say "the validator rejects a broken results.json and results.sarif"

# 4. The page in a real browser.
run_chromium() {
  local profile
  profile=$(mktemp -d)
  timeout 180 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" "$@"
  local rc=$?
  rm -rf "$profile"
  return $rc
}

for d in gate fixture; do
  page=file://$out/$d/index.html
  rm -f "$out/$d.png"
  run_chromium --screenshot="$out/$d.png" --window-size=1400,2000 "$page" \
    >"$out/$d.chromium.log" 2>&1 || { tail -n 20 "$out/$d.chromium.log" >&2; fail "chromium --screenshot failed"; }
  [[ -s $out/$d.png ]] || fail "chromium wrote no screenshot of $d/index.html"
  run_chromium --dump-dom "$page" >"$out/$d.dom.html" 2>>"$out/$d.chromium.log" ||
    { tail -n 20 "$out/$d.chromium.log" >&2; fail "chromium --dump-dom failed"; }
  node -e '
    const fs = require("fs");
    const [domFile, resultsFile, name] = process.argv.slice(1);
    const dom = fs.readFileSync(domFile, "utf8");
    const results = JSON.parse(fs.readFileSync(resultsFile, "utf8"));
    const problems = [];
    const count = (re) => (dom.match(re) || []).length;
    if (!/<body[^>]*data-script="ok"/.test(dom)) problems.push("the page script did not run");
    const cases = results.cases.length;
    const repeated = results.cases.filter((c) => c.runs !== 1).length;
    const traced = results.cases.filter((c) => c.trace && c.trace.rows.length > 0);
    if (count(/<section class="case /g) !== cases) problems.push("case sections != " + cases);
    const bars = [...dom.matchAll(/<svg class="histogram"[^>]*data-drawn-bars="(\d+)"/g)];
    if (bars.length !== repeated)
      problems.push("drawn histograms " + bars.length + " != cases of repeated runs " + repeated);
    if (bars.some((m) => Number(m[1]) === 0)) problems.push("a histogram with no drawn bar");
    const lanes = [...dom.matchAll(/<svg class="swimlane"[^>]*>/g)].map((m) => m[0]);
    if (lanes.length !== traced.length)
      problems.push("swimlanes " + lanes.length + " != cases with a trace " + traced.length);
    for (const svg of lanes) {
      const attr = (a) => Number((svg.match(new RegExp(a + "=\"(\\d+)\"")) || [])[1] || 0);
      if (attr("data-drawn-lanes") < 1 || attr("data-drawn-lanes") !== attr("data-threads"))
        problems.push("swimlane lanes drawn " + attr("data-drawn-lanes") + " of " + attr("data-threads"));
      if (attr("data-drawn-boxes") < 1) problems.push("a swimlane with no drawn box");
    }
    if (/<script>alert/.test(dom)) problems.push("data became markup");
    // Stacks: every frame of the store is laid out, every folded stack is a
    // closed toggle; a gate whose findings have stacks shows some of both.
    const body = (a) => Number((dom.match(new RegExp("<body[^>]*" + a + "=\"(\\d+)\"")) || [])[1] || -1);
    const stacks = results.cases.reduce((n, c) => n + c.findings.reduce((m, f) =>
        m + (f.accesses || []).filter((a) => a.stack.length > 0).length, 0), 0);
    const ownLis = (dom.match(/<ol class="stack own">[^]*?<\/ol>/g) || [])
        .reduce((n, ol) => n + (ol.match(/<li /g) || []).length, 0);
    if (body("data-drawn-frames") !== ownLis)
      problems.push("store frames laid out " + body("data-drawn-frames") + " of " + ownLis);
    if (body("data-closed-stacks") !== body("data-folded-stacks"))
      problems.push("folded stacks closed " + body("data-closed-stacks") + " of " + body("data-folded-stacks"));
    if (stacks > 0 && (ownLis < 1 || body("data-folded-stacks") < 1))
      problems.push(stacks + " stacks in results.json but " + ownLis + " store frames and " +
                    body("data-folded-stacks") + " folded stacks on the page");
    if (/basic_string(<|&lt;)char|std::__cxx11::|std::allocator(<|&lt;)char/.test(dom))
      problems.push("a library name is spelled out in full");
    if (problems.length) {
      console.error(name + ": " + problems.join("; "));
      process.exit(1);
    }
    console.log("check_reports: " + name + "/index.html in Chromium: " + cases + " cases, " +
                lanes.length + " swimlane(s), " + bars.length + " histograms, " + ownLis +
                " store frames, " + body("data-folded-stacks") + " folded stacks drawn");
  ' "$out/$d.dom.html" "$out/$d/results.json" "$d" || fail "$d/index.html: the DOM is not as drawn"
  say "screenshot: $out/$d.png"
done
# One case up close, as a reader sees it and with its toggles opened: the
# gate's first case that has a swimlane and a folded stack, alone on a page
# with the same head (OUT/case.png, OUT/case-open.png).
node -e '
  const fs = require("fs");
  const [from, dir] = process.argv.slice(1);
  const page = fs.readFileSync(from, "utf8");
  const head = page.slice(0, page.indexOf("<main>"));
  const tail = page.slice(page.lastIndexOf("<script>"));
  const one = page.split(/(?=<section class="case )/).slice(1).map((s) => s.split("</section>")[0])
      .find((s) => s.includes("data-has-trace") && s.includes("<details class=\"frames\""));
  if (!one) { console.error("no case with a swimlane and a folded stack"); process.exit(1); }
  const body = "<main><section id=\"cases\">" + one + "</section></section></main>";
  fs.writeFileSync(dir + "/case.html", head + body + tail);
  fs.writeFileSync(dir + "/case-open.html", head + body.replace(/<details /g, "<details open ") + tail);
' "$out/gate/index.html" "$out/gate" || fail "the gate has no case with a swimlane and a folded stack"
for v in case case-open; do
  rm -f "$out/$v.png"
  run_chromium --screenshot="$out/$v.png" --window-size=1400,2400 "file://$out/gate/$v.html" \
    >>"$out/gate.chromium.log" 2>&1 || fail "chromium --screenshot of $v.html failed"
  [[ -s $out/$v.png ]] || fail "chromium wrote no screenshot of $v.html"
  say "screenshot: $out/$v.png"
done
# The fixture always has a trace: its swimlane must be there.
grep -q '<svg class="swimlane"' "$out/fixture.dom.html" || fail "the fixture's swimlane is missing"
say "passed"
