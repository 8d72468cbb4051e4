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
#      (OUT/gate.png, OUT/fixture.png) and the DOM after the page's script ran
#      (OUT/*.dom.html) with one case section and one drawn histogram per case
#      and, for each case with a trace, a swimlane with drawn lanes and boxes.
#
# Usage: tests/report/check_reports.sh BUILD_DIR OUT_DIR
# Exit: 0 passed, 1 failed, 2 usage, 77 skipped because Chromium, node/npm or
# the npm registry is not available (the reason is printed).
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
skip() {
  echo "check_reports: SKIP: $*" >&2
  exit 77
}
fail() {
  echo "check_reports: FAIL: $*" >&2
  exit 1
}

# The tools, before any work: a missing one is a skip, never a failure.
chromium=$(command -v chromium || command -v chromium-browser || true)
[[ -n $chromium ]] || skip "chromium is not installed (bash ci/install-deps.sh installs Debian's chromium)"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  skip "node and npm are not installed (bash ci/install-deps.sh)"
fi
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
  set +e
  bash "$src/ci/validate-reports.sh" "$out/$d"
  rc=$?
  set -e
  [[ $rc -eq 77 ]] && skip "the JSON Schema validator is not available (see above)"
  [[ $rc -eq 0 ]] || fail "$d: schema validation failed"
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
    const traced = results.cases.filter((c) => c.trace && c.trace.rows.length > 0);
    if (count(/<section class="case /g) !== cases) problems.push("case sections != " + cases);
    const bars = [...dom.matchAll(/<svg class="histogram"[^>]*data-drawn-bars="(\d+)"/g)];
    if (bars.length !== cases) problems.push("drawn histograms " + bars.length + " != " + cases);
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
    if (problems.length) {
      console.error(name + ": " + problems.join("; "));
      process.exit(1);
    }
    console.log("check_reports: " + name + "/index.html in Chromium: " + cases + " cases, " +
                lanes.length + " swimlane(s), " + bars.length + " histograms drawn");
  ' "$out/$d.dom.html" "$out/$d/results.json" "$d" || fail "$d/index.html: the DOM is not as drawn"
  say "screenshot: $out/$d.png"
done
# The fixture always has a trace: its swimlane must be there.
grep -q '<svg class="swimlane"' "$out/fixture.dom.html" || fail "the fixture's swimlane is missing"
say "passed"
