// racelab_kit_reports: the kit's listener (kit.h, set_kit_listener) that
// writes the gate's reports for a user's kit tests. With RACELAB_REPORT_DIR=DIR
// in the environment, every finished kit test is recorded in DIR/.racelab-kit/
// (one file per test) and results.json, junit.xml, results.sarif, summary.md
// and index.html are rebuilt from every record, under a lock and each file
// atomically: CTest runs one process per test, all writing to one DIR.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "racelab/atomic_file.h"
#include "racelab/gate.h"
#include "racelab/json.h"
#include "racelab/kind_set.h"
#include "racelab/kit.h"
#include "racelab/report.h"
#include "racelab/runner.h"
#include "racelab/saved_schedule.h"

namespace racelab {
namespace {

namespace fs = std::filesystem;

constexpr const char* kReportDirVariable = "RACELAB_REPORT_DIR";
constexpr const char* kRecordsFolder = ".racelab-kit";

std::string binary_name() {
  char path[4096];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (n <= 0) return "test";
  return fs::path(std::string(path, static_cast<std::size_t>(n)))
      .filename()
      .string();
}

// A kit test as the gate's reports show a case: the store is the subject,
// the scenario (and the oracle, when the test names one) the scenario.
CaseResult case_of(const KitTestRecord& r) {
  CaseResult c;
  c.family = r.family;
  c.subject = r.store;
  c.scenario = r.kit_case.oracle ? absl::StrCat(r.kit_case.scenario_name, "/",
                                                r.kit_case.oracle_name())
                                 : r.kit_case.scenario_name;
  c.source = r.source;
  c.mode = r.kit_case.mode;
  if (r.expect_caught) {
    KindSet any;
    for (FindingKind k : all_finding_kinds()) any.insert(k);
    c.expected_kinds = any;
    c.expected = "a finding";
  } else {
    c.expected_kinds = KindSet{};
    c.expected = "clean";
  }
  add_run(c, *r.result);
  c.schedule_file = r.result->schedule_file;
  if (c.first_failure_log.empty()) c.first_failure_log = r.result->log;
  if (!r.passed) {
    c.mismatch = r.expect_caught
                     ? "expected a finding; the check was clean"
                     : absl::StrCat("expected clean; found ", c.observed());
  }
  return c;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Holds an exclusive flock on a file for its lifetime.
class FolderLock {
 public:
  explicit FolderLock(const fs::path& path)
      : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0) {
      throw OutputError(absl::StrCat("cannot open '", path.string(),
                                     "': ", errno_text(errno)));
    }
    while (::flock(fd_, LOCK_EX) != 0) {
      if (errno != EINTR) {
        throw OutputError(absl::StrCat("cannot lock '", path.string(),
                                       "': ", errno_text(errno)));
      }
    }
  }
  ~FolderLock() {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_;
};

void write_kit_reports(const KitTestRecord& record) {
  const char* dir_text = std::getenv(kReportDirVariable);
  if (dir_text == nullptr || *dir_text == '\0' || record.result == nullptr) {
    return;
  }
  const fs::path dir(dir_text);
  const fs::path records = dir / kRecordsFolder;
  std::error_code ec;
  fs::create_directories(records, ec);
  if (ec) {
    throw OutputError(
        absl::StrCat("cannot create '", records.string(), "': ", ec.message()));
  }
  const CaseResult c = case_of(record);
  nlohmann::json entry = {{"test", record.test},
                          {"binary", binary_name()},
                          {"case", to_json(c)},
                          {"log", c.first_failure_log}};

  FolderLock lock(records / "lock");
  // A test run again replaces its record.
  write_file_atomically(
      records / (file_name_part(binary_name() + "." + record.test) + ".json"),
      entry.dump(1, ' ', false, nlohmann::json::error_handler_t::replace));

  // A record that cannot be read is left where it is and named on stderr:
  // the reports then lack that test, and the user is told which and why.
  auto skipped = [&](const fs::path& file, std::string_view why) {
    std::fprintf(stderr, "racelab: %s: left out of the reports: %.*s\n",
                 file.c_str(), static_cast<int>(why.size()), why.data());
  };
  std::vector<std::pair<std::string, CaseResult>> cases;
  for (const fs::directory_entry& e : fs::directory_iterator(records)) {
    if (e.path().extension() != ".json") continue;
    const nlohmann::json j =
        nlohmann::json::parse(read_text(e.path()), nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("case")) {
      skipped(e.path(), "not a test record (no JSON object with \"case\")");
      continue;
    }
    try {
      CaseResult r = case_result_from_json(j.at("case"));
      r.first_failure_log = j.value("log", std::string());
      cases.emplace_back(absl::StrCat(j.value("binary", std::string()), ".",
                                      j.value("test", std::string())),
                         std::move(r));
    } catch (const nlohmann::json::exception& error) {
      // A record of another racelab version, or a damaged one.
      skipped(e.path(), error.what());
    }
  }
  std::sort(cases.begin(), cases.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });

  GateOptions options;
  options.modes.clear();
  GateResult result;
  for (auto& [name, r] : cases) {
    if (std::find(options.modes.begin(), options.modes.end(), r.mode) ==
        options.modes.end()) {
      options.modes.push_back(r.mode);
    }
    result.mismatches += r.mismatch.empty() ? 0 : 1;
    result.case_index.push_back(result.cases.size());
    result.cases.push_back(std::move(r));
  }
  std::sort(options.modes.begin(), options.modes.end(),
            [](Mode a, Mode b) { return a == Mode::kStress && b != a; });
  result.cases_total = result.cases.size();
  write_results_json(result, options, dir.string());
}

// Installed when the library is linked (racelab_add_store_tests links it,
// with the anchor below kept by the linker).
const bool g_installed = (set_kit_listener(&write_kit_reports), true);

}  // namespace
}  // namespace racelab

// Referenced by the link options of racelab_kit_reports so that this object
// (and its listener) is linked into every test binary.
extern "C" bool racelab_kit_reports_anchor() { return racelab::g_installed; }
