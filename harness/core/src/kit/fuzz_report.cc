// The report of a fuzz input's run (racelab/internal/fuzz_report.h).
#include "racelab/internal/fuzz_report.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "racelab/internal/sched/trace.h"

namespace racelab {
namespace {

constexpr int kTraceWidth = 120;

std::string describe_program_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string label = i == 0 ? std::string("setup")
                        : i + 1 == lines.size()
                            ? std::string("finale")
                            : absl::StrCat("thread ", i - 1);
    absl::StrAppend(&out, "  ", label, ": ", lines[i], "\n");
  }
  return out;
}

std::string indent(const std::string& text, const std::string& prefix) {
  std::string out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) absl::StrAppend(&out, prefix, line, "\n");
  return out;
}

}  // namespace

std::string format_fuzz_report(std::string_view subject,
                               const RunObservation& run) {
  std::string out = absl::StrCat("racelab fuzz: ", run.findings.size(),
                                 " finding(s) on ", std::string(subject), "\n");
  for (const Finding& f : run.findings) {
    absl::StrAppend(&out, "  ", to_string(f.kind), " (", to_string(f.oracle),
                    "): ", f.summary, "\n");
    if (f.subject_frame) {
      absl::StrAppend(&out, "    at ", f.subject_frame->function, " ",
                      f.subject_frame->file, ":", f.subject_frame->line, "\n");
    }
    if (!f.detail.empty()) absl::StrAppend(&out, indent(f.detail, "    | "));
  }
  const RecordedSchedule& s = run.schedule;
  absl::StrAppend(&out, "program:\n", describe_program_lines(s.program));
  absl::StrAppend(&out, "decisions (", s.decisions.size(), ", ", s.preemptions,
                  " preemptions, ", std::string(sched::to_string(s.status)),
                  "): ", absl::StrJoin(s.decisions, " "), "\n");
  absl::StrAppend(&out, "trace:\n", sched::format_trace(s.trace, kTraceWidth));
  return out;
}

int finish_fuzz_input(std::string_view subject, const RunObservation& run,
                      std::string_view replay_hint) {
  if (run.findings.empty()) return 0;
  const std::string text =
      absl::StrCat(format_fuzz_report(subject, run),
                   "racelab fuzz: aborting so that libFuzzer keeps the input",
                   std::string(replay_hint), "\n");
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
  std::abort();
}

}  // namespace racelab
