// Reading gate outputs back and joining shards; see merge.h.
#include "racelab/merge.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <deque>
#include <map>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "racelab/atomic_file.h"
#include "racelab/json.h"
#include "racelab/runner.h"

namespace racelab {
namespace {

namespace fs = std::filesystem;

// A shard folder is untrusted input: whoever made it may have put anything
// there. Its files are read only as regular files inside it (no symbolic
// link, no '..', no absolute path), and everything read is bounded, so that
// merge's memory follows the real size of the shards and not what a file
// claims. The limits, generous for real gates (a whole `gate --mode all` of
// 77 cases writes a 3.9 MB results.json of 23,215 JSON values, at most 136
// findings in a case, strings up to 9.7 KB, logs up to 65 KB), are in
// docs/security.md ("Shard folders").
constexpr std::size_t kMaxResultsBytes = 64 << 20;
constexpr std::size_t kMaxJsonValues = 1'000'000;
constexpr int kMaxJsonDepth = 32;
constexpr std::size_t kMaxStringBytes = 1 << 20;
constexpr std::int64_t kMaxShardCount = 10'000;  // as `gate --shard K/N`
constexpr std::int64_t kMaxCases = 100'000;
constexpr std::size_t kMaxFindingsPerCase = 10'000;
// The runner keeps at most 64 KiB of a run's log (run_logs.h).
constexpr std::size_t kMaxLogBytes = 1 << 20;
constexpr std::size_t kMaxLogBytesPerShard = 64 << 20;

// An open file descriptor, closed when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

[[noreturn]] void refuse(const fs::path& file, const std::string& what) {
  throw InputError(absl::StrCat(file.string(), ": ", what));
}

// Reads `relative` (a path like "logs/x.log") inside the open shard folder
// `dir_fd` as a regular file of at most `limit` bytes, opening each folder
// on the way and the file itself with O_NOFOLLOW. `shown` is the file's
// path in messages, `what` what it is.
std::string read_inside(int dir_fd, const std::string& relative,
                        const fs::path& shown, std::size_t limit,
                        const std::string& what) {
  const std::vector<std::string> parts = absl::StrSplit(relative, '/');
  for (const std::string& part : parts) {
    if (part.empty() || part == "." || part == "..") {
      refuse(shown, absl::StrCat("'", relative,
                                 "' is not a plain path inside the shard "
                                 "folder (no '..', '.', empty or absolute "
                                 "parts)"));
    }
  }
  std::vector<std::unique_ptr<Fd>> folders;
  int at = dir_fd;
  std::string walked;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    absl::StrAppend(&walked, walked.empty() ? "" : "/", parts[i]);
    const int fd = ::openat(at, parts[i].c_str(),
                            O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) refuse(shown, what + " is missing");
    if (fd < 0 && (errno == ELOOP || errno == ENOTDIR)) {
      refuse(shown, absl::StrCat("'", walked,
                                 "' is a symbolic link or not a folder (a "
                                 "shard's files are read only inside it)"));
    }
    if (fd < 0) refuse(shown, errno_text(errno));
    folders.push_back(std::make_unique<Fd>(fd));
    at = fd;
  }
  const Fd file(::openat(at, parts.back().c_str(),
                         O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (file.get() < 0 && errno == ENOENT) refuse(shown, what + " is missing");
  if (file.get() < 0 && errno == ELOOP) {
    refuse(shown,
           "a symbolic link (a shard's files are read only as regular files "
           "inside it)");
  }
  if (file.get() < 0) refuse(shown, errno_text(errno));
  struct stat st;
  if (::fstat(file.get(), &st) != 0) refuse(shown, errno_text(errno));
  if (!S_ISREG(st.st_mode)) refuse(shown, "not a regular file");
  auto too_large = [&] {
    refuse(shown, absl::StrCat("larger than the limit of ", limit,
                               " bytes for ", what));
  };
  if (static_cast<std::uintmax_t>(st.st_size) > limit) too_large();
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t size = 0;
  for (;;) {
    if (size == text.size()) {
      if (size > limit) too_large();  // it grew while being read
      text.resize(std::min(limit + 1, size + 65536));
    }
    const ssize_t n =
        ::read(file.get(), text.data() + size, text.size() - size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      refuse(shown, absl::StrCat("cannot be read: ", errno_text(errno)));
    if (n == 0) break;
    size += static_cast<std::size_t>(n);
  }
  if (size > limit) too_large();
  text.resize(size);
  return text;
}

// Builds the document of a shard's results.json as nlohmann's own DOM
// builder does, checking the limits on values, nesting and string lengths
// as it goes: the first one passed stops the parse. (nlohmann's callback
// parser, json::parse with a callback, would do the same checks but scans
// a whole array or object each time one of its objects ends, which made a
// parse quadratic in the length of an array of objects: a trace of 100,000
// rows.)
class BoundedDomBuilder {
 public:
  using json = nlohmann::json;
  BoundedDomBuilder(json& doc, const fs::path& file)
      : dom_(doc, /*allow_exceptions=*/false), file_(file) {}

  bool null() { return value() && dom_.null(); }
  bool boolean(bool b) { return value() && dom_.boolean(b); }
  bool number_integer(json::number_integer_t n) {
    return value() && dom_.number_integer(n);
  }
  bool number_unsigned(json::number_unsigned_t n) {
    return value() && dom_.number_unsigned(n);
  }
  bool number_float(json::number_float_t n, const json::string_t& text) {
    return value() && dom_.number_float(n, text);
  }
  bool string(json::string_t& s) {
    check_length(s);
    return value() && dom_.string(s);
  }
  bool binary(json::binary_t& b) { return value() && dom_.binary(b); }
  bool start_object(std::size_t size) {
    value();
    ++depth_;
    return dom_.start_object(size);
  }
  bool key(json::string_t& k) {
    check_length(k);
    return dom_.key(k);
  }
  bool end_object() {
    --depth_;
    return dom_.end_object();
  }
  bool start_array(std::size_t size) {
    value();
    ++depth_;
    return dom_.start_array(size);
  }
  bool end_array() {
    --depth_;
    return dom_.end_array();
  }
  template <class Exception>
  bool parse_error(std::size_t at, const std::string& token,
                   const Exception& e) {
    return dom_.parse_error(at, token, e);
  }

 private:
  // One more value (a container counts as one) at the current depth.
  bool value() {
    if (depth_ > kMaxJsonDepth) {
      refuse(file_, absl::StrCat("nested deeper than the limit of ",
                                 kMaxJsonDepth, " levels"));
    }
    if (++values_ > kMaxJsonValues) {
      refuse(file_, absl::StrCat("more JSON values than the limit of ",
                                 kMaxJsonValues));
    }
    return true;
  }
  void check_length(const json::string_t& s) const {
    if (s.size() > kMaxStringBytes) {
      refuse(file_, absl::StrCat("a string longer than the limit of ",
                                 kMaxStringBytes, " bytes"));
    }
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  const fs::path& file_;
  int depth_ = 0;
  std::size_t values_ = 0;
};

// Parses a shard's results.json within the limits on values, nesting and
// string lengths, in time linear in its size.
nlohmann::json parse_bounded(const std::string& text, const fs::path& file) {
  nlohmann::json doc;
  BoundedDomBuilder builder(doc, file);
  if (!nlohmann::json::sax_parse(text, &builder))
    refuse(file, "not valid JSON");
  return doc;
}

// The integer at `j`, checked to lie in [low, high]; `name` is its place in
// results.json, `why` what the limit is.
std::int64_t bounded(const nlohmann::json& j, const fs::path& file,
                     const std::string& name, std::int64_t low,
                     std::int64_t high, const std::string& why) {
  if (!j.is_number_integer())
    refuse(file, absl::StrCat("malformed: '", name, "' is not an integer"));
  const bool too_large =
      j.is_number_unsigned()
          ? j.get<std::uint64_t>() > static_cast<std::uint64_t>(high)
          : j.get<std::int64_t>() > high;
  if (too_large) {
    refuse(file, absl::StrCat("'", name, "' is ", j.dump(),
                              ", past the limit of ", high, " (", why, ")"));
  }
  if (j.get<std::int64_t>() < low) {
    refuse(file, absl::StrCat("'", name, "' is ", j.dump(), ", below ", low));
  }
  return j.get<std::int64_t>();
}

Mode mode_from_json(const nlohmann::json& j) {
  const std::string name = j.get<std::string>();
  if (name == "stress") return Mode::kStress;
  if (name == "controlled") return Mode::kControlled;
  throw nlohmann::json::other_error::create(501, "unknown mode " + name, &j);
}

std::string shard_text(const GateOptions& o) {
  return absl::StrCat(o.shard_index, "/", o.shard_count);
}

// A value of results.json as a message shows it: JSON on one line, cut to
// 160 bytes.
std::string shown(const nlohmann::json& j) {
  std::string text =
      j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() > 160) text = text.substr(0, 157) + "...";
  return text;
}

// Checks the run identity a shard records (run_identity in gate.h): its
// fields and their types, and that its fingerprint is the one its fields
// give.
void check_identity(const nlohmann::json& id, const fs::path& file) {
  auto malformed = [&](const std::string& what) {
    refuse(file, absl::StrCat("malformed: 'identity' ", what));
  };
  if (!id.is_object()) malformed("is not an object");
  if (!id.contains("command") || !id.at("command").is_string())
    malformed("has no 'command' string");
  if (!id.contains("options") || !id.at("options").is_object())
    malformed("has no 'options' object");
  for (const auto& [key, value] : id.at("options").items()) {
    if (value.is_structured())
      malformed(absl::StrCat("option '", key, "' is not a single value"));
  }
  if (id.contains("program")) {
    const nlohmann::json& p = id.at("program");
    if (!p.is_object() || !p.contains("path") || !p.at("path").is_string() ||
        !p.contains("digest") || !p.at("digest").is_string()) {
      malformed("'program' is not an object of 'path' and 'digest' strings");
    }
    if (!id.contains("arguments") || !id.at("arguments").is_array())
      malformed("has a program but no 'arguments' list");
    for (const nlohmann::json& a : id.at("arguments")) {
      if (!a.is_string()) malformed("'arguments' holds a non-string");
    }
  } else if (id.contains("arguments")) {
    malformed("has 'arguments' but no program");
  }
  if (!id.contains("fingerprint") || !id.at("fingerprint").is_string() ||
      id.at("fingerprint") != identity_fingerprint(id)) {
    refuse(file,
           "'identity.fingerprint' is not the fingerprint of the identity it "
           "is written with (edited?)");
  }
}

// The shards of one split search (ShardSplit::kSchedules) each hold every
// case, with what their part of the search found. A case's joined result is
// the shard's with the lowest first failing schedule (the one a single
// search meets first), or, when every shard is clean, the first shard's;
// either way with the schedules all shards tried. `cases` is sorted by
// position; each position must come once from every one of the `count`
// shards. The joined cases are kept in `made`.
std::vector<std::pair<std::size_t, CaseResult*>> join_split_searches(
    const std::vector<std::pair<std::size_t, CaseResult*>>& cases, int count,
    std::deque<CaseResult>& made) {
  std::vector<std::pair<std::size_t, CaseResult*>> joined;
  for (std::size_t at = 0; at < cases.size();) {
    std::size_t end = at;
    while (end < cases.size() && cases[end].first == cases[at].first) ++end;
    if (end - at != static_cast<std::size_t>(count)) {
      throw InputError(absl::StrCat(
          "merge: case ", cases[at].first, " is held by ", end - at, " of the ",
          count, " shards of the split search (every shard holds every case)"));
    }
    CaseResult* found = nullptr;
    int schedules = 0;
    for (std::size_t k = at; k < end; ++k) {
      CaseResult* c = cases[k].second;
      schedules += c->schedules;
      if (c->first_failing >= 0 &&
          (found == nullptr || c->first_failing < found->first_failing)) {
        found = c;
      }
    }
    CaseResult& all = made.emplace_back(
        std::move(found != nullptr ? *found : *cases[at].second));
    all.schedules = schedules;
    joined.emplace_back(cases[at].first, &all);
    at = end;
  }
  return joined;
}

}  // namespace

GateOutput read_gate_output(const fs::path& dir) {
  const fs::path file = dir / "results.json";
  const Fd dir_fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir_fd.get() < 0) {
    refuse(dir, errno == ENOTDIR || errno == ENOENT ? "not a folder"
                                                    : errno_text(errno));
  }
  nlohmann::json doc = parse_bounded(
      read_inside(dir_fd.get(), "results.json", file, kMaxResultsBytes,
                  "results.json (a gate's --out folder)"),
      file);
  if (!doc.is_object() || !doc.contains("schema") ||
      doc["schema"] != kResultsSchemaVersion) {
    throw InputError(absl::StrCat(
        file.string(), ": schema ",
        doc.is_object() && doc.contains("schema") ? doc["schema"].dump()
                                                  : std::string("missing"),
        ", but this racelab reads schema ", kResultsSchemaVersion));
  }
  GateOutput out;
  out.dir = dir;
  try {
    GateOptions& o = out.options;
    // The counts first: nothing below is sized by a claim.
    o.shard_count = static_cast<int>(
        bounded(doc.at("shard").at("count"), file, "shard.count", 1,
                kMaxShardCount, "the most shards gate --shard makes"));
    o.shard_index = static_cast<int>(bounded(doc.at("shard").at("index"), file,
                                             "shard.index", 1, o.shard_count,
                                             "the shard count"));
    GateResult& r = out.result;
    r.cases_total = static_cast<std::size_t>(
        bounded(doc.at("cases_total"), file, "cases_total", 0, kMaxCases,
                "the most cases a gate's results.json may hold"));
    const nlohmann::json& cases = doc.at("cases");
    const nlohmann::json& not_run = doc.at("not_run");
    if (!cases.is_array() || !not_run.is_array() ||
        cases.size() + not_run.size() > r.cases_total) {
      refuse(file,
             absl::StrCat("holds ", cases.size(), " cases and ", not_run.size(),
                          " not run, but cases_total is ", r.cases_total));
    }
    o.modes.clear();
    for (const nlohmann::json& m : doc.at("modes"))
      o.modes.push_back(mode_from_json(m));
    o.run.runs = doc.at("runs").get<int>();
    o.run.request.seed = doc.at("seed").get<std::uint64_t>();
    apply_gate_settings(doc.at("settings"), o);
    if (doc.contains("identity")) {
      o.identity = std::move(doc.at("identity"));
      check_identity(o.identity, file);
    }
    r.run_id = doc.at("run_id").get<std::string>();
    r.interrupted = doc.at("interrupted").get<bool>();
    for (const nlohmann::json& p : not_run) {
      r.not_run.push_back(
          {p.at("family").get<std::string>(),
           p.at("subject").get<std::string>(),
           p.at("scenario").get<std::string>(), mode_from_json(p.at("mode")),
           p.at("expected").get<std::string>(),
           p.at("index").get<std::size_t>(), p.value("source", std::string())});
    }
    std::size_t log_bytes = 0;
    for (const nlohmann::json& c : cases) {
      if (c.at("findings").size() > kMaxFindingsPerCase) {
        refuse(file, absl::StrCat("a case with ", c.at("findings").size(),
                                  " findings, past the limit of ",
                                  kMaxFindingsPerCase));
      }
      CaseResult result = case_result_from_json(c);
      if (c.contains("log")) {
        const std::string log = c.at("log").get<std::string>();
        if (!log.starts_with("logs/")) {
          refuse(file,
                 absl::StrCat("log '", log, "' is not a file under logs/"));
        }
        result.first_failure_log =
            read_inside(dir_fd.get(), log, dir / log, kMaxLogBytes,
                        "the log results.json names");
        log_bytes += result.first_failure_log.size();
        if (log_bytes > kMaxLogBytesPerShard) {
          refuse(dir / "logs",
                 absl::StrCat("the logs add up to more than "
                              "the limit of ",
                              kMaxLogBytesPerShard, " bytes for a shard"));
        }
      }
      r.mismatches += result.mismatch.empty() ? 0 : 1;
      r.cases.push_back(std::move(result));
      r.case_index.push_back(c.at("index").get<std::size_t>());
    }
    if (r.mismatches != doc.at("mismatches").get<int>()) {
      throw InputError(absl::StrCat(file.string(), ": 'mismatches' is ",
                                    doc.at("mismatches").dump(), " but ",
                                    r.mismatches, " cases mismatch"));
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(absl::StrCat(file.string(), ": malformed: ", e.what()));
  }
  const GateOptions& o = out.options;
  const auto count = static_cast<std::size_t>(o.shard_count);
  const auto own = static_cast<std::size_t>(o.shard_index - 1);
  const bool split_search = o.shard_split == ShardSplit::kSchedules;
  auto check_position = [&](std::size_t index, const char* what) {
    if (index >= out.result.cases_total) {
      throw InputError(absl::StrCat(file.string(), ": ", what, " index ", index,
                                    " is past the ", out.result.cases_total,
                                    " cases"));
    }
    // Every shard of a split search holds every case; a shard of cases
    // (a gate's, a test binary's tests) those at i % N == K-1.
    if (!split_search && index % count != own) {
      throw InputError(absl::StrCat(file.string(), ": ", what, " index ", index,
                                    " does not belong to shard ", shard_text(o),
                                    " of ", out.result.cases_total, " cases"));
    }
  };
  for (std::size_t index : out.result.case_index) check_position(index, "case");
  for (const PlannedCase& p : out.result.not_run)
    check_position(p.index, "not-run case");
  if (split_search) {
    // Shard K/N of a search of B schedules runs the schedules i < B with
    // i % N == K-1, and reports a finding by its schedule's index in the
    // whole search: a schedule of another shard, or more schedules than
    // its share, are not this shard's.
    const std::int64_t budget = o.run.request.budget;
    const std::int64_t share =
        budget > o.shard_index - 1
            ? (budget - o.shard_index + o.shard_count) / o.shard_count
            : 0;
    for (std::size_t i = 0; i < out.result.cases.size(); ++i) {
      const CaseResult& c = out.result.cases[i];
      const std::size_t index = out.result.case_index[i];
      if (c.first_failing >= 0 &&
          (static_cast<std::size_t>(c.first_failing) % count != own ||
           (budget > 0 && c.first_failing >= budget))) {
        throw InputError(absl::StrCat(
            file.string(), ": case ", index, ": first failing schedule ",
            c.first_failing, " is not one of shard ", shard_text(o),
            "'s (the schedules i < ", budget, " with i % ", o.shard_count,
            " == ", o.shard_index - 1, ")"));
      }
      if (budget > 0 && c.schedules > share) {
        throw InputError(
            absl::StrCat(file.string(), ": case ", index, ": ", c.schedules,
                         " schedules, more than shard ", shard_text(o), "'s ",
                         share, " of a budget of ", budget));
      }
    }
  }
  return out;
}

GateOutput merge_gate_outputs(std::vector<GateOutput> shards) {
  if (shards.empty()) throw InputError("merge: no gate output folders given");
  const GateOutput& first = shards.front();
  const nlohmann::json first_settings = gate_settings(first.options);
  auto differs = [&](const GateOutput& s, const std::string& what,
                     const std::string& a, const std::string& b) {
    throw InputError(absl::StrCat(
        s.dir.string(), ": not a shard of the same run as ", first.dir.string(),
        " (", what, " ", b, " there, ", a, " here)"));
  };
  // The runs' identities (check_identity has checked their fields): what
  // differs first by name, the fingerprint last.
  auto same_identity = [&](const GateOutput& s) {
    const nlohmann::json& a = s.options.identity;
    const nlohmann::json& b = first.options.identity;
    if (a.is_null() || b.is_null()) {
      if (a.is_null() != b.is_null()) {
        differs(s, "run identity",
                a.is_null() ? "none (an older racelab wrote it)" : "recorded",
                b.is_null() ? "none (an older racelab wrote it)" : "recorded");
      }
      return;
    }
    if (a.at("command") != b.at("command"))
      differs(s, "command", shown(a.at("command")), shown(b.at("command")));
    const nlohmann::json none;
    auto program = [&](const nlohmann::json& id) {
      if (!id.contains("program")) return std::string("none");
      return absl::StrCat(shown(id.at("program").at("path")), " (",
                          shown(id.at("program").at("digest")), ")");
    };
    const nlohmann::json& pa = a.contains("program") ? a.at("program") : none;
    const nlohmann::json& pb = b.contains("program") ? b.at("program") : none;
    if (pa.is_null() != pb.is_null() ||
        (!pa.is_null() && pa.at("digest") != pb.at("digest"))) {
      differs(s, "program", program(a), program(b));
    }
    const nlohmann::json& aa =
        a.contains("arguments") ? a.at("arguments") : none;
    const nlohmann::json& ab =
        b.contains("arguments") ? b.at("arguments") : none;
    if (aa != ab) differs(s, "program arguments", shown(aa), shown(ab));
    const nlohmann::json& oa = a.at("options");
    const nlohmann::json& ob = b.at("options");
    for (const auto& [key, value] : ob.items()) {
      const nlohmann::json& mine = oa.contains(key) ? oa.at(key) : none;
      if (mine != value)
        differs(s, absl::StrCat("option '", key, "'"), shown(mine),
                shown(value));
    }
    for (const auto& [key, value] : oa.items()) {
      if (!ob.contains(key))
        differs(s, absl::StrCat("option '", key, "'"), shown(value), "none");
    }
    if (a.at("fingerprint") != b.at("fingerprint")) {
      differs(s, "run fingerprint", shown(a.at("fingerprint")),
              shown(b.at("fingerprint")));
    }
  };
  std::map<int, GateOutput*> by_shard;
  for (GateOutput& s : shards) {
    if (s.result.interrupted) {
      throw InputError(absl::StrCat(
          s.dir.string(), ": that gate was interrupted (",
          s.result.not_run.size(), " cases not run); run its shard again"));
    }
    auto mode_list = [](const GateOptions& o) {
      return absl::StrJoin(o.modes, ",", [](std::string* out, Mode m) {
        absl::StrAppend(out, to_string(m));
      });
    };
    same_identity(s);
    if (mode_list(s.options) != mode_list(first.options))
      differs(s, "modes", mode_list(s.options), mode_list(first.options));
    if (s.options.run.runs != first.options.run.runs) {
      differs(s, "runs", std::to_string(s.options.run.runs),
              std::to_string(first.options.run.runs));
    }
    if (s.options.run.request.seed != first.options.run.request.seed) {
      differs(s, "seed", std::to_string(s.options.run.request.seed),
              std::to_string(first.options.run.request.seed));
    }
    const nlohmann::json settings = gate_settings(s.options);
    for (const auto& [key, value] : first_settings.items()) {
      if (settings.at(key) != value)
        differs(s, key, settings.at(key).dump(), value.dump());
    }
    if (s.options.shard_count != first.options.shard_count) {
      differs(s, "shard count", std::to_string(s.options.shard_count),
              std::to_string(first.options.shard_count));
    }
    if (s.result.cases_total != first.result.cases_total) {
      differs(s, "case count", std::to_string(s.result.cases_total),
              std::to_string(first.result.cases_total));
    }
    if (s.options.shard_split != first.options.shard_split) {
      differs(s, "shard split",
              s.options.shard_split == ShardSplit::kSchedules ? "schedules"
                                                              : "cases",
              first.options.shard_split == ShardSplit::kSchedules ? "schedules"
                                                                  : "cases");
    }
    if (s.options.shard_split == ShardSplit::kSchedules &&
        s.options.identity.is_null()) {
      // Every shard of one search holds the same cases: the same program.
      // (Shards with identities compare the program by its bytes, wherever
      // it was kept.)
      const auto& mine = s.result.cases;
      const auto& theirs = first.result.cases;
      for (std::size_t i = 0; i < mine.size() && i < theirs.size(); ++i) {
        if (mine[i].subject != theirs[i].subject ||
            mine[i].scenario != theirs[i].scenario ||
            mine[i].mode != theirs[i].mode) {
          differs(s, absl::StrCat("case ", i),
                  shown({mine[i].subject, mine[i].scenario}),
                  shown({theirs[i].subject, theirs[i].scenario}));
        }
      }
    }
    auto [at, inserted] = by_shard.emplace(s.options.shard_index, &s);
    if (!inserted) {
      throw InputError(absl::StrCat("shard ", shard_text(s.options),
                                    " given twice: ", at->second->dir.string(),
                                    " and ", s.dir.string()));
    }
  }
  const int count = first.options.shard_count;
  const std::size_t missing_count =
      static_cast<std::size_t>(count) - by_shard.size();
  if (missing_count > 0) {
    // The first few by name: the line stays short whatever the count.
    constexpr std::size_t kNamed = 8;
    std::vector<std::string> missing;
    for (int k = 1; k <= count && missing.size() < kNamed; ++k) {
      if (!by_shard.contains(k)) missing.push_back(absl::StrCat(k, "/", count));
    }
    if (missing_count > missing.size())
      missing.push_back(absl::StrCat("and ", missing_count - kNamed, " more"));
    throw InputError(
        absl::StrCat("merge: shard", missing_count > 1 ? "s " : " ",
                     absl::StrJoin(missing, ", "),
                     " missing (every shard of the gate is needed)"));
  }

  GateOutput merged;
  merged.dir = first.dir;
  merged.options = first.options;
  merged.options.shard_index = 1;
  merged.options.shard_count = 1;
  GateResult& r = merged.result;
  r.run_id = make_run_id();
  r.cases_total = first.result.cases_total;
  std::vector<std::pair<std::size_t, CaseResult*>> cases;
  for (const auto& [k, s] : by_shard) {
    r.merged_from.push_back(s->result.run_id);
    for (std::size_t i = 0; i < s->result.cases.size(); ++i)
      cases.emplace_back(s->result.case_index[i], &s->result.cases[i]);
  }
  // Stable: a split search's shards stay in shard order (a clean case is
  // the first shard's).
  std::stable_sort(
      cases.begin(), cases.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; });
  std::deque<CaseResult> split_cases;
  if (first.options.shard_split == ShardSplit::kSchedules) {
    cases = join_split_searches(cases, count, split_cases);
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (cases[i].first != i) {
      throw InputError(
          absl::StrCat("merge: the shards' cases do not cover the gate's ",
                       r.cases_total, " cases once (position ", i, " is ",
                       i < cases[i].first ? "missing" : "given twice", ")"));
    }
  }
  if (cases.size() != r.cases_total) {
    throw InputError(absl::StrCat("merge: the shards hold ", cases.size(),
                                  " cases, the gate has ", r.cases_total));
  }
  // The shards' cases are moved, not copied: a case may hold a trace of
  // many thousand rows.
  r.cases.reserve(cases.size());
  r.case_index.reserve(cases.size());
  for (const auto& [index, c] : cases) {
    r.mismatches += c->mismatch.empty() ? 0 : 1;
    r.cases.push_back(std::move(*c));
    r.case_index.push_back(index);
  }
  return merged;
}

namespace {

// `path` made absolute, its symbolic links and '..' resolved as far as it
// exists, without a trailing separator.
fs::path resolved(const fs::path& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) p = fs::absolute(path, ec).lexically_normal();
  if (!p.has_filename() && p.has_parent_path()) p = p.parent_path();
  return p;
}

// `inner` is `outer` or lies below it, component by component.
bool within(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

bool same_folder(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// The first of `path` and its parents that is `folder` (by device and
// inode); false when none is.
bool under_by_identity(fs::path path, const struct stat& folder) {
  for (;;) {
    struct stat st;
    if (::stat(path.c_str(), &st) == 0 && same_folder(st, folder)) return true;
    if (!path.has_relative_path()) return false;
    path = path.parent_path();
  }
}

}  // namespace

void check_out_apart(const std::vector<fs::path>& dirs, const fs::path& out) {
  if (out.empty()) return;  // the output folder refuses it itself
  const fs::path out_path = resolved(out);
  struct stat out_st;
  const bool out_exists = ::stat(out_path.c_str(), &out_st) == 0;
  for (const fs::path& dir : dirs) {
    const fs::path dir_path = resolved(dir);
    struct stat dir_st;
    const bool dir_exists = ::stat(dir_path.c_str(), &dir_st) == 0;
    std::string how;
    if (within(out_path, dir_path) ||
        (dir_exists && under_by_identity(out_path, dir_st))) {
      how = out_exists && dir_exists && same_folder(out_st, dir_st)
                ? "is the shard folder"
                : "lies inside the shard folder";
    } else if (within(dir_path, out_path) ||
               (out_exists && under_by_identity(dir_path, out_st))) {
      how = "holds the shard folder";
    }
    if (!how.empty()) {
      throw InputError(absl::StrCat("merge: --out '", out.string(), "' ", how,
                                    " '", dir.string(),
                                    "': merge never writes where it reads; "
                                    "give another --out"));
    }
  }
}

}  // namespace racelab
