// junit.xml: one <testsuite> per mode, one <testcase> per case, a <failure>
// for a case whose verdict does not meet its expectation (for `racelab
// explore`: one <testsuite> "explore", a <testcase> per program or test, a
// <failure> of type racelab.found, its shrunk trace first, per finding).
// Written with pugixml in the shape GitLab's and Jenkins' JUnit readers expect
// (testsuites/testsuite/testcase with name, classname, time, tests, failures,
// errors, skipped; the findings as <system-out>, the sanitizer log of the
// first failing run as <system-err>).
#include <pugixml.hpp>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "racelab/internal/sched/trace.h"
#include "racelab/report.h"
#include "report_internal.h"

namespace racelab {
namespace {

using report::format_seconds;
using report::truncate_utf8;
using report::xml_safe;

constexpr std::size_t kMaxDetailBytes = 16 * 1024;
constexpr std::size_t kMaxLogBytes = 64 * 1024;
constexpr std::size_t kMaxStackFrames = 16;

void set_attr(pugi::xml_node node, const char* name, const std::string& value) {
  node.append_attribute(name).set_value(xml_safe(value).c_str());
}

void set_attr(pugi::xml_node node, const char* name, long long value) {
  node.append_attribute(name).set_value(value);
}

void set_text(pugi::xml_node node, const std::string& text) {
  node.text().set(xml_safe(text).c_str());
}

std::string frame_text(const Frame& f) {
  std::string s = report::frame_name(f);
  if (!f.file.empty()) {
    absl::StrAppend(&s, " (", f.file);
    if (f.line > 0) absl::StrAppend(&s, ":", f.line);
    absl::StrAppend(&s, ")");
  }
  return s;
}

// The findings of a case as plain text, for <system-out>: a gate's case
// against its expectation, an explored one as its search came out.
std::string findings_text(const CaseResult& c, RunKind kind) {
  std::string out =
      kind != RunKind::kGate
          ? absl::StrCat(report::case_name(c, kind), "\n",
                         report::explore_outcome(c), " (")
          : absl::StrCat(report::case_title(c), "\nexpected ", c.expected,
                         ", observed ", c.observed(), " (");
  absl::StrAppend(&out, report::runs_text(c, c.runs_with_finding),
                  " with a finding");
  if (c.mode == Mode::kControlled) {
    absl::StrAppend(&out, "; ", c.schedules, " schedules tried");
    if (c.first_failing >= 0)
      absl::StrAppend(&out, ", schedule ", c.first_failing + 1, " failed");
  }
  out += ")\n";
  if (!c.histogram.empty()) {
    out += "outcomes:";
    for (const auto& [outcome, runs] : c.histogram) {
      absl::StrAppend(&out, " ", to_string(outcome), "=", runs);
    }
    out += "\n";
  }
  for (const AggregatedFinding& a : c.findings) {
    const Finding& f = a.finding;
    absl::StrAppend(&out, "\n", to_string(f.kind), " (", to_string(f.oracle),
                    ", ", report::runs_text(c, a.runs), "): ", f.summary, "\n");
    if (f.subject_frame)
      absl::StrAppend(&out, "  at ", frame_text(*f.subject_frame), "\n");
    for (const Access& access : f.accesses) {
      absl::StrAppend(&out, "  ", access.what.empty() ? "access" : access.what,
                      access.thread >= 0
                          ? absl::StrCat(" by thread ", access.thread)
                          : std::string(),
                      "\n");
      for (std::size_t i = 0; i < access.stack.size() && i < kMaxStackFrames;
           ++i) {
        absl::StrAppend(&out, "    #", i, " ", frame_text(access.stack[i]),
                        "\n");
      }
    }
    if (!f.detail.empty()) {
      absl::StrAppend(
          &out, "  detail:\n",
          truncate_utf8(f.detail, kMaxDetailBytes, "\n[... truncated]"), "\n");
    }
  }
  if (!c.schedule_file.empty())
    absl::StrAppend(&out, "\nschedule: ", c.schedule_file, "\n");
  return out;
}

// One <testcase> of `suite`: a gate's scenario of "subject (mode)", or an
// explored program or test.
pugi::xml_node append_testcase(pugi::xml_node suite, const std::string& name,
                               const std::string& classname,
                               const std::string& source, double seconds) {
  pugi::xml_node tc = suite.append_child("testcase");
  set_attr(tc, "name", name);
  set_attr(tc, "classname", classname);
  set_attr(tc, "time", format_seconds(seconds));
  if (!source.empty()) set_attr(tc, "file", source);
  return tc;
}

}  // namespace

std::string junit_xml(const GateResult& result, const GateOptions& options) {
  pugi::xml_document doc;
  pugi::xml_node decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version").set_value("1.0");
  decl.append_attribute("encoding").set_value("UTF-8");

  pugi::xml_node suites = doc.append_child("testsuites");
  const RunKind kind = options.run_kind;
  const bool explore = report::is_explore(options);
  set_attr(suites, "name", report::report_title(result, options));
  int total_tests = 0;
  int total_failures = 0;
  int total_skipped = 0;
  double total_time = 0;

  for (Mode mode : report::report_modes(result.cases, options.modes)) {
    pugi::xml_node suite = suites.append_child("testsuite");
    set_attr(suite, "name", explore ? "explore" : to_string(mode));
    int tests = 0;
    int failures = 0;
    int skipped = 0;
    double time = 0;
    for (const CaseResult& c : result.cases) {
      if (c.mode != mode) continue;
      ++tests;
      time += c.seconds;
    }
    for (const CaseResult& c : result.cases)
      failures += c.mode == mode && !c.mismatch.empty();
    for (const PlannedCase& p : result.not_run) skipped += p.mode == mode;
    tests += skipped;
    set_attr(suite, "tests", tests);
    set_attr(suite, "failures", failures);
    set_attr(suite, "errors", 0);
    set_attr(suite, "skipped", skipped);
    set_attr(suite, "time", format_seconds(time));

    pugi::xml_node props = suite.append_child("properties");
    auto property = [&](const char* name, const std::string& value) {
      pugi::xml_node p = props.append_child("property");
      set_attr(p, "name", name);
      set_attr(p, "value", value);
    };
    // What ran in this mode: runs per stress case; searches per controlled
    // case and the schedules they tried.
    property("mode", to_string(mode));
    std::vector<CaseResult> of_mode;
    for (const CaseResult& c : result.cases) {
      if (c.mode == mode) of_mode.push_back(c);
    }
    GateOptions mode_options = options;
    mode_options.modes = {mode};
    property("ran", report::what_ran(of_mode, mode_options));
    if (mode == Mode::kControlled) {
      const RunRequest& r = options.run.request;
      property("strategy", r.strategy);
      property("budget", std::to_string(r.budget));
    } else {
      property("runs", std::to_string(options.run.runs));
    }
    property("seed", std::to_string(options.run.request.seed));
    if (!result.run_id.empty()) property("run_id", result.run_id);
    if (options.shard_count > 1) {
      property("shard",
               absl::StrCat(options.shard_index, "/", options.shard_count));
    }
    if (!result.merged_from.empty())
      property("merged_from", absl::StrJoin(result.merged_from, " "));
    if (result.interrupted) property("interrupted", "true");

    for (const CaseResult& c : result.cases) {
      if (c.mode != mode) continue;
      pugi::xml_node tc =
          explore ? append_testcase(suite, report::case_name(c, kind),
                                    kind == RunKind::kExploreTests
                                        ? c.subject
                                        : std::string("racelab explore"),
                                    c.source, c.seconds)
                  : append_testcase(
                        suite, c.scenario,
                        absl::StrCat(c.subject, " (", to_string(c.mode), ")"),
                        c.source, c.seconds);
      if (!c.mismatch.empty() && explore) {
        // A finding of a search: its shrunk schedule first, then what it
        // found.
        pugi::xml_node failure = tc.append_child("failure");
        set_attr(failure, "message", report::explore_outcome(c));
        set_attr(failure, "type", "racelab.found");
        std::string body = report::explore_outcome(c);
        if (!c.schedule.trace.rows.empty()) {
          absl::StrAppend(&body, "\n\n", sched::format_trace(c.schedule.trace));
        }
        for (const AggregatedFinding& a : c.findings) {
          absl::StrAppend(&body, "\n", to_string(a.finding.kind), ": ",
                          a.finding.summary);
        }
        if (!c.schedule_file.empty())
          absl::StrAppend(&body, "\nreplay: racelab replay ", c.schedule_file);
        set_text(failure, body);
      } else if (!c.mismatch.empty()) {
        pugi::xml_node failure = tc.append_child("failure");
        set_attr(failure, "message", report::mismatch_message(c));
        set_attr(failure, "type",
                 absl::StrCat("racelab.", report::mismatch_type(c)));
        std::string body = report::mismatch_message(c);
        for (const AggregatedFinding& a : c.findings) {
          absl::StrAppend(&body, "\n", to_string(a.finding.kind), " (",
                          report::runs_text(c, a.runs),
                          "): ", a.finding.summary);
        }
        if (!c.schedule_file.empty())
          absl::StrAppend(&body, "\nschedule: ", c.schedule_file);
        set_text(failure, body);
      }
      set_text(tc.append_child("system-out"), findings_text(c, kind));
      if (!c.first_failure_log.empty()) {
        set_text(tc.append_child("system-err"),
                 truncate_utf8(c.first_failure_log, kMaxLogBytes,
                               "\n[... truncated]"));
      }
    }
    for (const PlannedCase& p : result.not_run) {
      if (p.mode != mode) continue;
      pugi::xml_node tc = append_testcase(
          suite, p.scenario,
          absl::StrCat(p.subject, " (", to_string(p.mode), ")"), p.source, 0);
      set_attr(tc.append_child("skipped"), "message",
               "not run: the gate was interrupted");
    }
    total_tests += tests;
    total_failures += failures;
    total_skipped += skipped;
    total_time += time;
  }
  set_attr(suites, "tests", total_tests);
  set_attr(suites, "failures", total_failures);
  set_attr(suites, "errors", 0);
  set_attr(suites, "skipped", total_skipped);
  set_attr(suites, "time", format_seconds(total_time));

  std::ostringstream out;
  doc.save(out, "  ", pugi::format_indent, pugi::encoding_utf8);
  return out.str();
}

}  // namespace racelab
