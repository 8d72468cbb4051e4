#!/usr/bin/env python3
"""Checks that the reports `racelab explore --out DIR` wrote read as explore.

check_explore_reports.py DIR KIND NAME FOUND CLEAN VERIFIED [PROGRAM [ARG...]]

KIND is the run kind results.json records (explore, explore_tests); NAME the
program as the reports name it (its base name and arguments); FOUND, CLEAN
and VERIFIED the expected counts of cases. PROGRAM and ARGs, when given, are
the program's full path and arguments the cases must keep apart. Every
report must say explore (title, headline, each case found, clean or
verified, never a gate's mismatch against an expectation), give each
search's wall time, name the cases by NAME or their test, and show a
finding's shrunk schedule before its findings. Prints one line per problem
and exits 1 when there is any.
"""
import html
import json
import re
import sys
import xml.etree.ElementTree as ET


def main():
    out, kind, name = sys.argv[1:4]
    found, clean, verified = (int(n) for n in sys.argv[4:7])
    program = sys.argv[7] if len(sys.argv) > 7 else None
    arguments = sys.argv[8:]
    problems = []

    def check(ok, what):
        if not ok:
            problems.append(what)

    results = json.load(open(f"{out}/results.json"))
    cases = results["cases"]
    total = len(cases)
    check(found + clean + verified == total,
          f"results.json: {total} cases, want {found + clean + verified}")
    check(results["settings"].get("run_kind") == kind,
          f"results.json: settings.run_kind {results['settings'].get('run_kind')!r}, want {kind!r}")
    unit = ("test" if total == 1 else "tests") if kind == "explore_tests" else (
        "search" if total == 1 else "searches")
    headline = f"{total} {unit}: {found} found, {clean} clean, {verified} verified"
    title = f"racelab explore: {name}"
    names = []
    for c in cases:
        check(c["seconds"] > 0, f"results.json: case {c['scenario']} took {c['seconds']} s")
        check(c["subject"] == name, f"results.json: subject {c['subject']!r}, want {name!r}")
        check("program" in c and c["program"].startswith("/"),
              f"results.json: no full program path in {c.get('program')!r}")
        if program is not None:
            check(c.get("program") == program, f"results.json: program {c.get('program')!r}, want {program!r}")
            check(c.get("arguments") == arguments,
                  f"results.json: arguments {c.get('arguments')!r}, want {arguments!r}")
        names.append(c["scenario"] if kind == "explore_tests" else c["subject"])

    page = open(f"{out}/index.html", encoding="utf-8").read()
    m = re.search(r"<title>(.*?)</title>", page, re.S)
    page_title = html.unescape(m.group(1)) if m else ""
    check(page_title == f"{title}: {headline}", f"index.html: title {page_title!r}")
    m = re.search(r"<h1>(.*?)</h1>", page, re.S)
    check(m and html.unescape(m.group(1)) == title, f"index.html: h1 {m and m.group(1)!r}")
    check("racelab gate" not in page, "index.html: says 'racelab gate'")
    m = re.search(r'id="headline">(.*?)</p>', page, re.S)
    check(m and html.unescape(m.group(1)) == headline,
          f"index.html: headline {m and m.group(1)!r}, want {headline!r}")
    # What the page says (not its style sheet, script or the filter's id).
    text = re.sub(r"<script>.*?</script>|<style>.*?</style>|id=\"only-mismatches\"", "",
                  page, flags=re.S)
    check(not re.search(r"mismatch|expected clean", text, re.I),
          "index.html: speaks of a mismatch or an expectation")
    check("time</dt><dd>0.000 s" not in page, "index.html: a case took 0.000 s")
    sections = re.findall(r'<section class="case [^"]*"[^>]*data-verdict="([^"]*)"[^>]*>(.*?)</section>\n',
                          page, re.S)
    verdicts = [v for v, _ in sections]
    check(sorted(verdicts) == sorted(["found"] * found + ["clean"] * clean + ["verified"] * verified),
          f"index.html: case verdicts {verdicts}")
    for (verdict, body), case_name, c in zip(sections, names, cases):
        h3 = html.unescape(re.search(r"<h3>(.*?) <span", body, re.S).group(1))
        check(h3 == case_name, f"index.html: case named {h3!r}, want {case_name!r}")
        if c["observed"] not in ("clean", "verified"):
            trace = body.find("Shrunk failing schedule")
            finding = body.find('<li class="finding')
            check(0 <= trace < finding,
                  f"index.html: {case_name}: the shrunk schedule is not shown before the findings")
            check("found " in body and " at schedule " in body,
                  f"index.html: {case_name}: does not say at which schedule it was found")

    # summary.md as read: without the backslashes that escape Markdown.
    summary = re.sub(r"\\([\\`*_\[\]~|])", r"\1",
                     open(f"{out}/summary.md", encoding="utf-8").read())
    check(summary.startswith(f"# {title}\n"), f"summary.md: first line {summary.splitlines()[0]!r}")
    check(f"**{headline}**" in summary, f"summary.md: no headline {headline!r}")
    check(not re.search(r"mismatch|expected clean", summary, re.I),
          "summary.md: speaks of a mismatch or an expectation")
    if found:
        check("Shrunk failing schedule:" in summary, "summary.md: no shrunk schedule of a finding")

    junit = ET.parse(f"{out}/junit.xml").getroot()
    check(junit.get("name") == title, f"junit.xml: testsuites name {junit.get('name')!r}")
    testcases = junit.findall(".//testcase")
    check([t.get("name") for t in testcases] == names,
          f"junit.xml: testcase names {[t.get('name') for t in testcases]}")
    failures = junit.findall(".//failure")
    check(len(failures) == found, f"junit.xml: {len(failures)} failures, want {found}")
    for f in failures:
        check(f.get("type") == "racelab.found" and f.get("message", "").startswith("found "),
              f"junit.xml: failure {f.get('type')!r} {f.get('message')!r}")
    check("expected clean" not in open(f"{out}/junit.xml", encoding="utf-8").read(),
          "junit.xml: speaks of an expectation")
    check(float(junit.get("time")) > 0, f"junit.xml: time {junit.get('time')}")

    for p in problems:
        print(f"check_explore_reports: {out}: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
