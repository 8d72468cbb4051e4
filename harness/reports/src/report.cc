// write_reports(): writes every report of a gate run, and the helpers the
// writers share (escaping, verdicts, locations, fingerprints).
#include "racelab/report.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "racelab/atomic_file.h"
#include "racelab/fnv1a.h"
#include "racelab/symbol_names.h"
#include "report_internal.h"

namespace racelab {
namespace report {
namespace {

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

constexpr char32_t kReplacement = 0xFFFD;

// Decodes one code point at `text[i]`; advances `i`. Malformed input yields
// U+FFFD and consumes one byte.
char32_t next_code_point(std::string_view text, std::size_t& i) {
  const auto byte = [&](std::size_t k) {
    return static_cast<unsigned char>(text[k]);
  };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) {
    ++i;
    return b0;
  }
  int length = 0;
  char32_t cp = 0;
  char32_t min = 0;
  if ((b0 & 0xE0) == 0xC0) {
    length = 2;
    cp = b0 & 0x1F;
    min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    length = 3;
    cp = b0 & 0x0F;
    min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    length = 4;
    cp = b0 & 0x07;
    min = 0x10000;
  } else {
    ++i;
    return kReplacement;
  }
  if (i + static_cast<std::size_t>(length) > text.size()) {
    ++i;
    return kReplacement;
  }
  for (int k = 1; k < length; ++k) {
    const unsigned char b = byte(i + static_cast<std::size_t>(k));
    if ((b & 0xC0) != 0x80) {
      ++i;
      return kReplacement;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return kReplacement;
  }
  i += static_cast<std::size_t>(length);
  return cp;
}

bool looks_like_url(std::string_view s) {
  if (!(s.starts_with("https://") || s.starts_with("http://"))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') ||
           std::string_view("-._~:/").find(c) != std::string_view::npos;
  });
}

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

bool is_safe_ref(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
  });
}

constexpr const char* kHomepage = "https://github.com/racelab/racelab";

}  // namespace

std::string xml_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char32_t cp = next_code_point(text, i);
    if (cp == '\t' || cp == '\n' || cp == '\r') {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x20) {
      append_utf8(out, 0x2400 + cp);  // U+2401 "SYMBOL FOR START OF HEADING"
    } else if (cp == 0x7F) {
      append_utf8(out, 0x2421);  // "SYMBOL FOR DELETE"
    } else if (cp == 0xFFFE || cp == 0xFFFF) {
      append_utf8(out, kReplacement);
    } else {
      append_utf8(out, cp);
    }
  }
  return out;
}

std::string html_escape(std::string_view text) {
  const std::string clean = xml_safe(text);
  std::string out;
  out.reserve(clean.size() + clean.size() / 8);
  for (char c : clean) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

std::string markdown_cell(std::string_view text) {
  const std::string clean = xml_safe(text);
  std::string out;
  out.reserve(clean.size() + clean.size() / 8);
  for (std::size_t i = 0; i < clean.size(); ++i) {
    const char c = clean[i];
    switch (c) {
      case '|':
      case '`':
      case '\\':
      case '*':
      case '_':
      case '[':
      case ']':
      case '~':
        out.push_back('\\');
        out.push_back(c);
        break;
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '\r':
        if (i + 1 < clean.size() && clean[i + 1] == '\n') ++i;
        out += "<br>";
        break;
      case '\n':
        out += "<br>";
        break;
      case '\t':
        out.push_back(' ');
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

Verdict verdict_of(const CaseResult& c) {
  if (!c.mismatch.empty()) return Verdict::kMismatch;
  return c.kinds.empty() ? Verdict::kCleanOk : Verdict::kCaughtOk;
}

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::kCleanOk:
      return "clean-ok";
    case Verdict::kCaughtOk:
      return "caught-ok";
    case Verdict::kMismatch:
      return "mismatch";
  }
  return "mismatch";
}

std::string rule_id(FindingKind kind) {
  return absl::StrCat("racelab/", racelab::to_string(kind));
}

const char* describe_kind(FindingKind kind) {
  switch (kind) {
    case FindingKind::kDataRace:
      return "Two threads accessed the same memory without synchronization and "
             "at least one access was a write (ThreadSanitizer).";
    case FindingKind::kUseAfterFree:
      return "Memory was used after it was freed, typically a reference or "
             "iterator kept past the lock that protected it.";
    case FindingKind::kNotLinearizable:
      return "The history of operations matches no sequential order of the "
             "family's model: a lost update, a stale or torn read.";
    case FindingKind::kInvariantViolation:
      return "A check the scenario makes over the finished run failed: a "
             "committed result lost, an id returned twice, a key yielded "
             "twice.";
    case FindingKind::kDeadlock:
      return "Every thread waits for a lock another thread (or itself) holds.";
    case FindingKind::kConcurrentMapWrite:
      return "Two threads wrote one map at once; Go's runtime dies with "
             "'concurrent map writes'.";
    case FindingKind::kMapIterationDuringWrite:
      return "A map was written while another thread iterated it; Go's "
             "runtime dies with 'concurrent map iteration and map write'.";
    case FindingKind::kCrash:
      return "The run died (a signal or an abnormal exit) before it finished.";
    case FindingKind::kTimeout:
      return "The run did not finish within its time limit: a hang or a "
             "deadlock the scheduler could not see.";
  }
  return "";
}

std::string log_file_name(const CaseResult& c) {
  std::string name = absl::StrCat(c.subject, "__", c.scenario, ".",
                                  racelab::to_string(c.mode), ".log");
  std::replace(name.begin(), name.end(), '/', '_');
  return name;
}

std::string run_line(const GateResult& result, const GateOptions& options) {
  std::vector<std::string> parts;
  if (!result.run_id.empty())
    parts.push_back(absl::StrCat("run ", result.run_id));
  if (options.shard_count > 1) {
    parts.push_back(absl::StrCat("shard ", options.shard_index, " of ",
                                 options.shard_count));
  }
  if (!result.merged_from.empty()) {
    parts.push_back(
        absl::StrCat("merged from ", result.merged_from.size(),
                     result.merged_from.size() == 1 ? " shard" : " shards"));
  }
  if (result.interrupted) {
    parts.push_back(absl::StrCat(
        "INTERRUPTED: ", result.not_run.size(),
        result.not_run.size() == 1 ? " case" : " cases", " not run"));
  }
  return absl::StrJoin(parts, "; ");
}

std::string finding_fingerprint(std::string_view rule, std::string_view subject,
                                std::string_view scenario,
                                std::string_view file,
                                std::string_view function) {
  // Each field is length-prefixed so that no two field lists hash alike by
  // concatenation.
  std::string data;
  for (std::string_view field : {rule, subject, scenario, file, function}) {
    absl::StrAppend(&data, field.size(), ":", std::string(field), ";");
  }
  const std::uint64_t a = fnv1a(kFnv1aBasis, data);
  const std::uint64_t b = fnv1a(0x84222325cbf29ce4ULL ^ a, data);
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx",
                static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b));
  return buf;
}

std::vector<FindingKind> expected_kinds(const CaseResult& c) {
  return c.expected_kinds ? c.expected_kinds->members()
                          : std::vector<FindingKind>{};
}

bool is_expected_kind(const CaseResult& c, FindingKind kind) {
  const std::vector<FindingKind> kinds = expected_kinds(c);
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

const char* mismatch_type(const CaseResult& c) {
  const std::vector<FindingKind> expected = expected_kinds(c);
  if (expected.empty()) {
    if (!c.expected_kinds) return "no_expectation";
    // Clean where the table asks for verified: the search ran out of budget
    // (or was cut) before it covered every schedule; nothing was found.
    return c.kinds.empty() ? "not_verified" : "unexpected_finding";
  }
  const bool caught =
      std::any_of(c.kinds.begin(), c.kinds.end(), [&](FindingKind k) {
        return std::find(expected.begin(), expected.end(), k) != expected.end();
      });
  return caught ? "stray_finding" : "missed_finding";
}

std::string mismatch_message(const CaseResult& c) {
  return absl::StrCat("expected ", c.expected, ", observed ", c.observed(),
                      ": ", c.mismatch);
}

std::string case_title(const CaseResult& c) {
  return absl::StrCat(c.subject, " x ", c.scenario, " (",
                      racelab::to_string(c.mode), ")");
}

std::vector<Mode> report_modes(const std::vector<CaseResult>& cases,
                               const std::vector<Mode>& option_modes) {
  std::vector<Mode> modes;
  auto add = [&](Mode m) {
    if (std::find(modes.begin(), modes.end(), m) == modes.end())
      modes.push_back(m);
  };
  for (Mode m : option_modes) add(m);
  for (const CaseResult& c : cases) add(c.mode);
  return modes;
}

namespace {

// "20", or "2 to 20" when the cases differ.
std::string span_text(const std::vector<int>& values) {
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return *lo == *hi ? std::to_string(*lo) : absl::StrCat(*lo, " to ", *hi);
}

const char* plural(int n, const char* one, const char* many) {
  return n == 1 ? one : many;
}

}  // namespace

std::string what_ran(const std::vector<CaseResult>& cases,
                     const GateOptions& options) {
  std::vector<std::string> parts;
  for (Mode mode : report_modes(cases, options.modes)) {
    std::vector<int> runs, schedules;
    for (const CaseResult& c : cases) {
      if (c.mode != mode) continue;
      runs.push_back(c.runs);
      schedules.push_back(c.schedules);
    }
    if (runs.empty()) continue;
    const bool one_run = span_text(runs) == "1";
    if (mode == Mode::kStress) {
      parts.push_back(absl::StrCat("stress: ", span_text(runs),
                                   one_run ? " run" : " runs", " per case"));
      continue;
    }
    // The searches the cases made, in the order first met: the gate gives a
    // row that must be verified its own (dfs, a larger budget). A case read
    // from an older results.json says nothing: the options' search.
    std::vector<std::pair<std::pair<std::string, int>, int>> searches;
    for (const CaseResult& c : cases) {
      if (c.mode != mode) continue;
      const std::pair<std::string, int> search =
          c.strategy.empty() ? std::pair(options.run.request.strategy,
                                         options.run.request.budget)
                             : std::pair(c.strategy, c.budget);
      auto it = std::find_if(searches.begin(), searches.end(),
                             [&](const auto& s) { return s.first == search; });
      if (it == searches.end()) {
        searches.push_back({search, 1});
      } else {
        ++it->second;
      }
    }
    std::vector<std::string> described;
    for (const auto& [search, count] : searches) {
      std::string text = absl::StrCat(
          search.first, ", up to ", search.second,
          plural(search.second, " schedule", " schedules"), " per search");
      if (searches.size() > 1) {
        absl::StrAppend(&text, ": ", count, plural(count, " case", " cases"));
      }
      described.push_back(std::move(text));
    }
    parts.push_back(absl::StrCat(
        "controlled (", absl::StrJoin(described, "; "), "): ", span_text(runs),
        one_run ? " search" : " searches", " per case, ", span_text(schedules),
        span_text(schedules) == "1" ? " schedule" : " schedules",
        " tried per case"));
  }
  parts.push_back(absl::StrCat("seed ", options.run.request.seed));
  return absl::StrJoin(parts, "; ");
}

std::string runs_text(const CaseResult& c, int found) {
  if (c.mode == Mode::kControlled) {
    return absl::StrCat(found, "/", c.runs,
                        plural(c.runs, " search", " searches"));
  }
  return absl::StrCat(found, "/", c.runs, plural(c.runs, " run", " runs"));
}

std::string observed_text(const CaseResult& c) {
  if (c.kinds.empty()) return c.verified ? "verified" : "clean";
  return absl::StrJoin(c.kinds, ", ", [](std::string* out, FindingKind k) {
    absl::StrAppend(out, to_string(k));
  });
}

std::string effort_text(const CaseResult& c) {
  if (c.mode != Mode::kControlled) return runs_text(c, c.runs_with_finding);
  if (c.runs > 1) {
    return absl::StrCat(runs_text(c, c.runs_with_finding), ", ", c.schedules,
                        plural(c.schedules, " schedule", " schedules"));
  }
  if (c.first_failing >= 0) {
    return absl::StrCat("schedule ", c.first_failing + 1, " of ", c.schedules);
  }
  return absl::StrCat(c.schedules,
                      plural(c.schedules, " schedule", " schedules"));
}

std::string format_seconds(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", seconds > 0 ? seconds : 0.0);
  return buf;
}

std::string truncate_utf8(std::string_view text, std::size_t max_bytes,
                          std::string_view marker) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
    --cut;
  return absl::StrCat(std::string(text.substr(0, cut)), std::string(marker));
}

std::string percent_encode_path(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                      (c >= '0' && c <= '9') || c == '-' || c == '.' ||
                      c == '_' || c == '~' || c == '/';
    if (keep) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    }
  }
  return out;
}

bool is_project_file(std::string_view file) {
  return !file.empty() && file.front() != '/' && !file.starts_with("<") &&
         !file.starts_with("..");
}

std::string frame_name(const Frame& f, bool parameters) {
  return f.function.empty() ? std::string("?")
                            : readable_symbol(f.function, parameters);
}

StackView stack_view(const std::vector<Frame>& stack) {
  StackView view;
  std::size_t last_own = stack.size();
  for (std::size_t i = 0; i < stack.size(); ++i) {
    if (stack[i].origin != FrameOrigin::kUser) continue;
    if (view.shown.size() < StackView::kMaxShown) view.shown.push_back(i);
    last_own = i;
  }
  if (view.shown.empty()) {
    for (std::size_t i = 0; i < stack.size(); ++i) {
      if (stack[i].origin == FrameOrigin::kLibrary) continue;
      view.shown.push_back(i);
      break;
    }
    if (view.shown.empty() && !stack.empty()) view.shown.push_back(0);
  }
  view.folded_end = last_own < stack.size()
                        ? std::min(last_own + 2, stack.size())
                        : stack.size();
  view.folded_end = std::min(view.folded_end, StackView::kMaxFolded);
  for (std::size_t i = 0; i < view.folded_end; ++i) {
    view.library += stack[i].origin == FrameOrigin::kLibrary;
    view.racelab += stack[i].origin == FrameOrigin::kRacelab;
  }
  return view;
}

std::string finding_group_key(const Finding& f) {
  auto field = [](std::string_view text) {
    return absl::StrCat(text.size(), ":", std::string(text), ";");
  };
  auto place = [&](const Frame& frame) {
    return field(absl::StrCat(frame.file, ":", frame.line));
  };
  // Per access, its store frames; the accesses as a set, since the same
  // race is reported from either side.
  std::vector<std::string> sides;
  for (const Access& a : f.accesses) {
    std::string side;
    for (const Frame& frame : a.stack) {
      if (frame.origin == FrameOrigin::kUser) side += place(frame);
    }
    sides.push_back(field(side));
  }
  std::sort(sides.begin(), sides.end());
  std::string key = absl::StrCat(field(racelab::to_string(f.kind)),
                                 field(racelab::to_string(f.oracle)),
                                 absl::StrJoin(sides, ""));
  if (f.accesses.empty() && f.subject_frame) key += place(*f.subject_frame);
  return key;
}

Frame primary_frame(const CaseResult& c, const Finding& f) {
  if (f.subject_frame && !f.subject_frame->file.empty())
    return *f.subject_frame;
  for (const Access& a : f.accesses) {
    for (const Frame& frame : a.stack) {
      if (is_project_file(frame.file)) return frame;
    }
  }
  Frame frame;
  if (f.subject_frame) frame.function = f.subject_frame->function;
  frame.file = c.source;  // the catalog entry's file, or none
  frame.line = 0;
  return frame;
}

std::string repository_url() {
  if (std::string url = env("RACELAB_REPOSITORY_URL"); looks_like_url(url)) {
    while (!url.empty() && url.back() == '/') url.pop_back();
    return url;
  }
  const std::string server = env("GITHUB_SERVER_URL");
  const std::string repo = env("GITHUB_REPOSITORY");
  if (looks_like_url(server) &&
      looks_like_url(absl::StrCat(server, "/", repo)) && !repo.empty()) {
    return absl::StrCat(server, "/", repo);
  }
  if (std::string url = env("CI_PROJECT_URL"); looks_like_url(url)) return url;
  return kHomepage;
}

std::string docs_url(std::string_view page_and_anchor) {
  std::string base = repository_url();
  std::string ref = "HEAD";
  if (is_safe_ref(env("GITHUB_SHA"))) ref = env("GITHUB_SHA");
  if (is_safe_ref(env("CI_COMMIT_SHA"))) ref = env("CI_COMMIT_SHA");
  const bool gitlab =
      !env("CI_PROJECT_URL").empty() && base == env("CI_PROJECT_URL");
  return absl::StrCat(base, gitlab ? "/-/blob/" : "/blob/", ref, "/docs/",
                      std::string(page_and_anchor));
}

}  // namespace report

void write_reports(const GateResult& result, const GateOptions& options,
                   const std::string& out_dir) {
  const std::filesystem::path dir(out_dir);
  write_file_atomically(dir / "junit.xml", junit_xml(result, options));
  write_file_atomically(
      dir / "results.sarif",
      sarif_log(result, options)
              .dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
          "\n");
  write_file_atomically(dir / "summary.md", summary_markdown(result, options));
  write_file_atomically(dir / "index.html", html_report(result, options));
}

}  // namespace racelab
