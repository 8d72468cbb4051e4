// The teaching demo (racelab/demo.h): one walk-through per anti-pattern the
// registry holds, built from real runs of the catalog's own cases. The texts
// and the subjects they name come from the catalog.
#include "racelab/demo.h"

#include <stdio.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "racelab/internal/op_text.h"
#include "racelab/internal/sched/trace.h"
#include "racelab/oracle.h"
#include "racelab/runner.h"
#include "racelab/saved_schedule.h"
#include "racelab/schedule_source.h"

#ifndef RACELAB_SOURCE_DIR
#define RACELAB_SOURCE_DIR "."
#endif
#ifndef RACELAB_INSTALL_DATA_FROM_BIN
#define RACELAB_INSTALL_DATA_FROM_BIN "../share/racelab"
#endif

namespace racelab {
namespace {

constexpr int kWidth = 78;
constexpr int kBudget = 300;  // schedules per controlled search
constexpr int kMaxDiffLines = 60;
constexpr int kStressRuns = 3;

// Word-wraps `text` to kWidth columns, each line starting with `indent`.
std::string wrap(const std::string& text, const std::string& indent = "  ") {
  std::istringstream words(text);
  std::string word, line, out;
  while (words >> word) {
    if (!line.empty() && static_cast<int>(indent.size() + line.size() + 1 +
                                          word.size()) > kWidth) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

std::string heading(int number, const std::string& title) {
  return absl::StrCat("\n", number, ". ", title, "\n");
}

// A subject's source file: for an installed racelab (the Debian package),
// in its data folder beside bin/ (share/racelab/subjects/...), which holds
// the sources it was built from; else in the source folder of the build.
std::string source_path(const Registry& registry, const std::string& subject) {
  const CatalogEntry* entry = registry.find_subject(subject);
  if (entry == nullptr || entry->source.empty()) return "";
  std::error_code error;
  const std::filesystem::path self =
      std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const std::filesystem::path installed =
        (self.parent_path() / RACELAB_INSTALL_DATA_FROM_BIN / entry->source)
            .lexically_normal();
    if (std::filesystem::exists(installed, error)) return installed.string();
  }
  return absl::StrCat(RACELAB_SOURCE_DIR, "/", entry->source);
}

std::string repo_path(const Registry& registry, const std::string& subject) {
  const CatalogEntry* entry = registry.find_subject(subject);
  return entry == nullptr ? subject : entry->source;
}

// The lines around the first line containing `marker` (else "BUG"), with
// line numbers; the marked line starts with '>'.
std::string excerpt(const std::string& path, const std::string& marker) {
  std::ifstream in(path);
  if (!in) return absl::StrCat("  (cannot read ", path, ")\n");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  int at = -1;
  for (const std::string& m : {marker, std::string("BUG")}) {
    for (int i = 0; i < static_cast<int>(lines.size()) && at < 0; ++i) {
      if (lines[i].find(m) != std::string::npos) at = i;
    }
  }
  if (at < 0) at = 0;
  const int from = std::max(0, at - 9);
  const int to = std::min(static_cast<int>(lines.size()), at + 7);
  std::string out;
  for (int i = from; i < to; ++i) {
    out +=
        absl::StrFormat("%s%4d | %s\n", i == at ? ">" : " ", i + 1, lines[i]);
  }
  return out;
}

RunOptions controlled_options(OracleSet oracles) {
  RunOptions options;
  options.request.mode = Mode::kControlled;
  options.runs = 1;
  options.request.seed = 1;
  options.request.oracles = oracles;
  options.run_timeout_ms = 20000;
  options.request.strategy = "pct";
  options.request.budget = kBudget;
  return options;
}

// The findings of a case, one wrapped line each (at most `cap`).
std::string findings_text(const CaseResult& result, size_t cap) {
  std::string out;
  for (size_t i = 0; i < result.findings.size() && i < cap; ++i) {
    const Finding& f = result.findings[i].finding;
    out += wrap(absl::StrCat("[", to_string(f.kind), ", ", to_string(f.oracle),
                             "] ", f.summary),
                "    ");
  }
  if (result.findings.size() > cap) {
    out +=
        absl::StrCat("    ... and ", result.findings.size() - cap, " more\n");
  }
  return out;
}

// Saves the case's failing schedule as `path`; returns the path, or "" with
// the reason in *why.
std::string write_schedule_file(const CaseResult& c, const std::string& subject,
                                const std::string& path, std::string* why) {
  if (path.empty()) return "";  // *why says why there is no folder
  if (c.schedule.program.size() < 3) {
    *why = "the failing program's lines were not recorded";
    return "";
  }
  try {
    save_schedule(
        path, schedule_file_for(c.schedule, {subject, c.scenario, "pct", 1}));
  } catch (const std::exception& e) {
    *why = e.what();
    return "";
  }
  return path;
}

// `diff -u` of two files, relabelled with their repo paths, capped.
std::string unified_diff(const std::string& a, const std::string& b,
                         const std::string& label_a,
                         const std::string& label_b) {
  const std::string command =
      absl::StrCat("diff -u --label 'a/", label_a, "' --label 'b/", label_b,
                   "' '", a, "' '", b, "' 2>&1");
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "  (cannot run diff)\n";
  std::string out;
  int lines = 0, dropped = 0;
  char buffer[512];
  std::string line;
  while (fgets(buffer, sizeof buffer, pipe) != nullptr) {
    line += buffer;
    if (line.empty() || line.back() != '\n') continue;
    if (lines < kMaxDiffLines) {
      out += line;
      ++lines;
    } else {
      ++dropped;
    }
    line.clear();
  }
  pclose(pipe);
  if (dropped > 0) {
    out += absl::StrCat("... ", dropped, " more lines: diff -u ", label_a, " ",
                        label_b, "\n");
  }
  return out;
}

void list(const std::vector<AntiPattern>& anti_patterns, std::ostream& out) {
  out << "racelab demo: anti-patterns of the catalog\n\n";
  for (const AntiPattern& p : anti_patterns) {
    out << "  " << p.name << "\n"
        << wrap(p.summary, "      ")
        << wrap(absl::StrCat(p.buggy, " -> ", p.fixed, " (", p.scenario, ")"),
                "      ");
  }
  out << "\nracelab demo <name> walks one: the buggy code, the failing "
         "interleaving,\nwhat each oracle said, the fix, and the fixed store "
         "on the same schedule.\n";
}

int walk(const Registry& registry, const AntiPattern& p, std::ostream& out) {
  const CaseSpec* buggy = registry.find_case(p.buggy, p.scenario);
  const CaseSpec* fixed = registry.find_case(p.fixed, p.scenario);
  if (buggy == nullptr || fixed == nullptr) {
    std::cerr << "racelab: demo " << p.name << ": the catalog has no case "
              << p.buggy << " / " << p.fixed << " x " << p.scenario << "\n";
    return 2;
  }
  out << "== " << p.name << " ==\n"
      << wrap(p.story)
      << wrap(absl::StrCat("buggy subject ", p.buggy, ", fixed subject ",
                           p.fixed, ", scenario ", p.scenario, "."));

  out << heading(
      1, absl::StrCat("The buggy code (", repo_path(registry, p.buggy), ")"));
  out << excerpt(source_path(registry, p.buggy), p.marker);

  // The search, with every oracle.
  out << heading(2, "The minimal failing interleaving");
  CaseResult result = run_case(
      *buggy, registry.find_expectation(p.buggy, p.scenario, Mode::kControlled),
      controlled_options(OracleSet::selectable()));
  std::string schedule_path;
  if (result.findings.empty()) {
    out << wrap(absl::StrCat("No schedule failed within ", result.schedules,
                             " schedules (pct, seed 1)."));
  } else {
    const std::vector<std::string>& lines = result.schedule.program;
    const std::size_t threads = lines.size() >= 2 ? lines.size() - 2 : 0;
    std::size_t operations = 0;
    for (std::size_t i = 1; i <= threads; ++i) {
      operations += split_program_line(lines[i]).size();
    }
    out << wrap(absl::StrCat(
        "Controlled mode, pct strategy, seed 1: schedule ",
        result.first_failing + 1, " of ", result.schedules,
        " failed; shrunk to ", result.schedule.preemptions, " preemption(s), ",
        result.schedule.decisions.size(), " scheduling decisions, and ",
        threads, " thread(s) running ", operations,
        " operation(s) in all (what the failure does not need is dropped). "
        "One column per logical thread:"));
    if (!result.schedule.trace.rows.empty())
      out << sched::format_trace(result.schedule.trace);
    out << "  findings:\n" << findings_text(result, 5);
    // In racelab's private folder: a shared temporary folder could hold
    // another user's file of the same name.
    std::string why;
    const std::string dir = private_schedule_folder(&why);
    schedule_path = write_schedule_file(
        result, p.buggy,
        dir.empty() ? ""
                    : absl::StrCat(dir, "/racelab-demo-", p.name, ".schedule"),
        &why);
    if (!schedule_path.empty()) {
      out << "  schedule saved: racelab replay " << schedule_path << "\n";
    } else {
      out << "  (the schedule could not be saved: " << why << ")\n";
    }
  }

  out << heading(3, "What each oracle said (one oracle at a time)");
  out << absl::StrFormat(
      "  %-16s %-30s %s\n", "oracle",
      absl::StrCat("controlled (", kBudget, " schedules)"),
      absl::StrCat("stress (", kStressRuns, " runs, full size)"));
  for (Oracle oracle : OracleSet::selectable()) {
    if (oracle == Oracle::kTsan && !built_with_tsan()) {
      out << absl::StrFormat(
          "  %-16s not in this build (use build/tsan/racelab)\n",
          to_string(oracle));
      continue;
    }
    CaseResult c =
        run_case(*buggy, nullptr, controlled_options(OracleSet{oracle}));
    std::string controlled =
        c.findings.empty()
            ? std::string("silent")
            : absl::StrCat(c.observed(), " @", c.first_failing + 1);
    std::string stress = "-";
    if (buggy->runs_in(Mode::kStress)) {
      RunOptions options;
      options.request.mode = Mode::kStress;
      options.runs = kStressRuns;
      options.request.oracles = OracleSet{oracle};
      options.run_timeout_ms = 5000;
      CaseResult r = run_case(*buggy, nullptr, options);
      stress = r.findings.empty()
                   ? std::string("silent")
                   : absl::StrCat(r.observed(), " ", r.runs_with_finding, "/",
                                  r.runs);
    }
    out << absl::StrFormat("  %-16s %-30s %s\n", to_string(oracle), controlled,
                           stress);
  }
  out << "  (@N: first failing schedule; k/n: runs with a finding)\n";
  out << wrap(p.oracles);

  out << heading(4, "The fix");
  out << unified_diff(
      source_path(registry, p.buggy), source_path(registry, p.fixed),
      repo_path(registry, p.buggy), repo_path(registry, p.fixed));

  out << heading(
      5, absl::StrCat("The fixed store (", p.fixed, ") on the same schedule"));
  bool replayed = false;
  if (!schedule_path.empty()) {
    const std::string fixed_path =
        schedule_path.substr(0, schedule_path.size() - 9) + ".fixed.schedule";
    std::string why;
    if (!write_schedule_file(result, p.fixed, fixed_path, &why).empty()) {
      RunOptions options = controlled_options(OracleSet::selectable());
      options.replay_schedule = read_schedule_source(fixed_path);
      try {
        CaseResult r = run_case(*fixed, nullptr, options);
        replayed = true;
        out << wrap(absl::StrCat(
            "Replaying the same program and decisions against ", p.fixed, ": ",
            r.findings.empty() ? "clean."
                               : absl::StrCat("FAILED: ", r.observed(), ".")));
      } catch (const std::exception& e) {
        out << wrap(absl::StrCat(
            "The recorded decisions cannot be replayed exactly against ",
            p.fixed,
            ": its scheduling points differ (it takes other locks at other "
            "moments), so the schedule diverges (",
            e.what(), ")."));
      }
    } else {
      out << "  (the fixed store's schedule could not be saved: " << why
          << ")\n";
    }
  }
  CaseResult clean = run_case(
      *fixed, registry.find_expectation(p.fixed, p.scenario, Mode::kControlled),
      controlled_options(OracleSet::selectable()));
  out << wrap(absl::StrCat(
      replayed ? "And beyond that one schedule: " : "Instead: ",
      "the fixed store under the same program and the same strategy seed (pct, "
      "seed 1) is ",
      clean.findings.empty()
          ? "clean"
          : absl::StrCat("NOT clean (", clean.observed(), ")"),
      " over ", clean.schedules, " schedules, with every oracle on."));
  return 0;
}

}  // namespace

std::vector<std::string> check_anti_patterns(
    const Registry& registry, const std::vector<AntiPattern>& anti_patterns) {
  std::vector<std::string> problems;
  for (const AntiPattern& p : anti_patterns) {
    for (const std::string* subject : {&p.buggy, &p.fixed}) {
      if (registry.find_case(*subject, p.scenario) == nullptr) {
        problems.push_back(absl::StrCat("anti-pattern ", p.name, " names ",
                                        *subject, " x ", p.scenario,
                                        ", which is no registered case"));
      }
    }
  }
  return problems;
}

int run_demo(const Registry& registry,
             const std::vector<AntiPattern>& anti_patterns,
             const std::vector<std::string>& args, std::ostream& out) {
  if (args.empty()) {
    list(anti_patterns, out);
    return 0;
  }
  for (const AntiPattern& p : anti_patterns) {
    if (args.front() == p.name) return walk(registry, p, out);
  }
  std::cerr << "racelab: demo: unknown anti-pattern '" << args.front()
            << "' (racelab demo lists them)\n";
  return 2;
}

}  // namespace racelab
