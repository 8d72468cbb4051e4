// End-to-end tests that racelab's output folders and `racelab merge` are
// safe with what they are given: `--out` never empties or follows a folder
// that is not racelab's own, an empty path is a usage error, and merge reads
// a shard folder as untrusted input (regular files inside it, bounded sizes
// and counts). The binary under test is the build's racelab, or the one
// named by RACELAB_BINARY_UNDER_TEST (to show an older build failing them).
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;

std::string racelab_binary() {
  const char* given = std::getenv("RACELAB_BINARY_UNDER_TEST");
  return given != nullptr && *given != '\0' ? given : RACELAB_BINARY;
}

const std::string kRacelab = racelab_binary();

// One clean stress case, two runs: a gate of well under a second.
const std::string kTinyGate =
    " gate --subject checkpoint/mutex --scenario same_session_first_commit "
    "--runs 2";
// The same as `racelab run`.
const std::string kTinyRun =
    " run --subject checkpoint/mutex --scenario same_session_first_commit "
    "--runs 1";
// One buggy case whose failing run leaves a log in logs/, as one shard.
const std::string kShardWithLog =
    " gate --subject checkpoint/unsynchronized --scenario "
    "same_session_first_commit --runs 2 --shard 1/1";

struct Output {
  int status = -1;
  std::string out;
  std::string err;
  long peak_rss_kb = 0;  // the child's high-water mark of resident memory
};

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// `text` quoted for the shell.
std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The child's VmHWM in KiB, or 0 once it is gone.
long peak_rss_kb(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return 0;
}

// Runs `args` (shell syntax) with the racelab under test, watching its
// memory: a child past 1 GiB or 60 seconds is killed (status 137), so that a
// build without the limits cannot take the machine down.
Output run(const std::string& args) {
  static int counter = 0;
  const fs::path base = fs::temp_directory_path() /
                        ("racelab_safety_" + std::to_string(getpid()) + "_" +
                         std::to_string(counter++));
  const fs::path out_file = base.string() + ".out";
  const fs::path err_file = base.string() + ".err";
  const std::string line = "exec " + shell_quote(kRacelab) + " " + args + " >" +
                           out_file.string() + " 2>" + err_file.string();
  char sh[] = "/bin/sh";
  char dash_c[] = "-c";
  char* argv[] = {sh, dash_c, const_cast<char*>(line.c_str()), nullptr};
  Output result;
  pid_t pid = -1;
  if (posix_spawn(&pid, sh, nullptr, nullptr, argv, environ) != 0)
    return result;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(60);
  int status = 0;
  for (;;) {
    result.peak_rss_kb = std::max(result.peak_rss_kb, peak_rss_kb(pid));
    if (::waitpid(pid, &status, WNOHANG) == pid) break;
    if (result.peak_rss_kb > (1l << 20) ||
        std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  result.status =
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = slurp(out_file);
  result.err = slurp(err_file);
  fs::remove(out_file);
  fs::remove(err_file);
  return result;
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() /
                       ("racelab_safety_" + std::to_string(getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::set<std::string> entries(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir))
    names.insert(e.path().filename().string());
  return names;
}

// Every file and link under `dir` with its content or target.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string name = fs::relative(e.path(), dir).string();
    if (e.is_symlink()) {
      files[name] = "-> " + fs::read_symlink(e.path()).string();
    } else if (e.is_regular_file()) {
      files[name] = slurp(e.path());
    } else {
      files[name] = "folder";
    }
  }
  return files;
}

// The names in a snapshot, for a message that stays short.
std::string names(const std::map<std::string, std::string>& files) {
  std::string text;
  for (const auto& [name, content] : files) text += " " + name;
  return text;
}

int lines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

// A folder of the user's: files and a folder of their own.
void make_user_folder(const fs::path& dir) {
  fs::create_directories(dir / "src");
  std::ofstream(dir / "src" / "main.cc") << "int main() {}\n";
  std::ofstream(dir / "notes.txt") << "my notes\n";
}

// A one-shard gate's --out folder, to merge.
fs::path make_shard(const fs::path& dir, const std::string& gate) {
  Output o = run(gate + " --out " + dir.string());
  EXPECT_TRUE(o.status == 0 || o.status == 1) << o.err;
  return dir;
}

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

void write_json(const fs::path& path, const nlohmann::json& doc) {
  std::ofstream(path, std::ios::trunc) << doc.dump();
}

// `doc` with a "padding" array of `zeros` zeros, written as it goes.
void write_json_with_padding(const fs::path& path, const nlohmann::json& doc,
                             std::size_t zeros) {
  std::string text = doc.dump();
  text.pop_back();  // the closing brace
  std::ofstream out(path, std::ios::trunc);
  out << text << ",\"padding\":[0";
  const std::string chunk = [] {
    std::string c;
    for (int i = 0; i < 4096; ++i) c += ",0";
    return c;
  }();
  for (std::size_t n = 1; n < zeros; n += 4096) out << chunk;
  out << "]}";
}

// --- --out ---

TEST(OutputsSafety, AFolderOfTheUsersIsRefusedAndKeptWhole) {
  const fs::path root = fresh_dir("user_folder");
  const fs::path shard = make_shard(root / "shard", kTinyGate);
  const fs::path mine = root / "mine";
  make_user_folder(mine);
  const auto before = snapshot(mine);
  for (const std::string& command :
       {kTinyGate + " --out " + mine.string(),
        kTinyRun + " --out " + mine.string(),
        " merge " + shard.string() + " --out " + mine.string()}) {
    Output o = run(command);
    EXPECT_EQ(o.status, 2) << command << "\n" << o.err;
    EXPECT_EQ(lines(o.err), 1) << o.err;
    EXPECT_NE(o.err.find("--out: cannot use '" + mine.string() + "'"),
              std::string::npos)
        << o.err;
    EXPECT_NE(o.err.find("holds 2 entries racelab did not write, such as "
                         "'notes.txt'"),
              std::string::npos)
        << o.err;
    const auto after = snapshot(mine);
    EXPECT_TRUE(after == before) << command << ": now holds" << names(after);
    EXPECT_EQ(entries(root),
              (std::set<std::string>{"mine", "shard", "shard.lock"}))
        << command << ": nothing beside it";
  }
}

TEST(OutputsSafety, ASymbolicLinkAsTheFolderIsRefusedAndItsTargetKept) {
  const fs::path root = fresh_dir("link_folder");
  const fs::path target = root / "target";
  make_user_folder(target);
  fs::create_directory_symlink(target, root / "link");
  const auto before = snapshot(target);
  for (const std::string& command :
       {kTinyGate + " --out " + (root / "link").string(),
        kTinyRun + " --out " + (root / "link").string()}) {
    Output o = run(command);
    EXPECT_EQ(o.status, 2) << command << "\n" << o.err;
    EXPECT_EQ(lines(o.err), 1) << o.err;
    EXPECT_NE(o.err.find("is a symbolic link"), std::string::npos) << o.err;
    const auto after = snapshot(target);
    EXPECT_TRUE(after == before) << command << ": now holds" << names(after);
    EXPECT_TRUE(fs::is_symlink(root / "link"));
    EXPECT_EQ(entries(root), (std::set<std::string>{"link", "target"}));
  }
}

TEST(OutputsSafety, APlantedLockLinkIsRefusedAndItsTargetNotCreated) {
  const fs::path root = fresh_dir("lock_link");
  fs::create_symlink(root / "planted", root / "gate.lock");
  Output o = run(kTinyGate + " --out " + (root / "gate").string());
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_EQ(lines(o.err), 1) << o.err;
  EXPECT_NE(o.err.find("gate.lock' is a symbolic link"), std::string::npos)
      << o.err;
  EXPECT_EQ(entries(root), std::set<std::string>{"gate.lock"});
}

TEST(OutputsSafety, EmptyPathsAreUsageErrors) {
  const fs::path root = fresh_dir("empty_paths");
  const std::string controlled_run =
      " run --mode controlled --subject checkpoint/mutex --scenario "
      "same_session_first_commit --budget 5";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {kTinyGate + " --out ''", "--out"},
      {kTinyRun + " --out ''", "--out"},
      {kTinyRun + " --json ''", "--json"},
      {controlled_run + " --save-schedule ''", "--save-schedule"},
      {" merge " + root.string() + " --out ''", "--out"},
  };
  for (const auto& [command, flag] : cases) {
    Output o = run(command);
    EXPECT_EQ(o.status, 2) << command << "\n" << o.out << o.err;
    EXPECT_EQ(lines(o.err), 1) << o.err;
    EXPECT_NE(o.err.find(flag + ": cannot "), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("empty path"), std::string::npos) << o.err;
    EXPECT_TRUE(o.out.empty()) << command << "\n" << o.out;
  }
  EXPECT_TRUE(entries(root).empty());
}

TEST(OutputsSafety, ARerunReplacesItsOwnReports) {
  const fs::path root = fresh_dir("rerun");
  const fs::path out = root / "gate";
  Output first = run(kTinyGate + " --out " + out.string());
  ASSERT_EQ(first.status, 0) << first.err;
  const std::string first_id = read_json(out / "results.json").at("run_id");
  std::ofstream(out / "summary.md", std::ios::app) << "stale\n";
  Output again = run(kTinyGate + " --out " + out.string());
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_NE(read_json(out / "results.json").at("run_id"), first_id);
  EXPECT_EQ(slurp(out / "summary.md").find("stale"), std::string::npos);
  EXPECT_EQ(entries(root), (std::set<std::string>{"gate", "gate.lock"}));
}

// --- merge: a shard folder is untrusted input ---

TEST(MergeSafety, ALogLinkedOutsideTheShardIsRefusedAndNothingCopied) {
  const fs::path root = fresh_dir("log_link");
  const fs::path secret = root / "secret.txt";
  std::ofstream(secret) << "the secret text\n";
  fs::permissions(secret, fs::perms::owner_read | fs::perms::owner_write);
  const fs::path shard = make_shard(root / "shard", kShardWithLog);
  const nlohmann::json results = read_json(shard / "results.json");
  std::string log;
  for (const nlohmann::json& c : results.at("cases"))
    if (c.contains("log")) log = c.at("log");
  ASSERT_FALSE(log.empty()) << "the buggy case left no log";

  // The log itself a link, then logs/ a link to a folder outside.
  fs::remove(shard / log);
  fs::create_symlink(secret, shard / log);
  Output o =
      run(" merge " + shard.string() + " --out " + (root / "merged").string());
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_EQ(lines(o.err), 1) << o.err;
  EXPECT_NE(o.err.find((shard / log).string() + ": a symbolic link"),
            std::string::npos)
      << o.err;
  EXPECT_FALSE(fs::exists(root / "merged"));

  const fs::path outside = root / "outside";
  fs::create_directories(outside);
  fs::copy_file(secret, outside / fs::path(log).filename());
  fs::remove_all(shard / "logs");
  fs::create_directory_symlink(outside, shard / "logs");
  o = run(" merge " + shard.string() + " --out " + (root / "merged").string());
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_EQ(lines(o.err), 1) << o.err;
  EXPECT_NE(o.err.find("'logs' is a symbolic link"), std::string::npos)
      << o.err;
  EXPECT_FALSE(fs::exists(root / "merged"));
}

TEST(MergeSafety, AHugeShardCountIsRefusedAtOnceInLittleMemory) {
  const fs::path root = fresh_dir("shard_count");
  const fs::path shard = make_shard(root / "shard", kTinyGate);
  nlohmann::json results = read_json(shard / "results.json");
  results["shard"]["count"] = 2147483647;
  write_json(shard / "results.json", results);
  Output o =
      run(" merge " + shard.string() + " --out " + (root / "merged").string());
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_EQ(lines(o.err), 1) << o.err;
  EXPECT_NE(o.err.find((shard / "results.json").string() +
                       ": 'shard.count' is 2147483647, past the limit of "
                       "10000"),
            std::string::npos)
      << o.err;
  EXPECT_LT(o.peak_rss_kb, 256 * 1024);
  EXPECT_FALSE(fs::exists(root / "merged"));
}

TEST(MergeSafety, AnOversizedResultsJsonIsRefusedUnread) {
  const fs::path root = fresh_dir("oversized");
  const fs::path shard = make_shard(root / "shard", kTinyGate);
  // 70 MB of entries: well past the limit, valid JSON of the right schema.
  write_json_with_padding(shard / "results.json",
                          read_json(shard / "results.json"), 35 << 20);
  ASSERT_GT(fs::file_size(shard / "results.json"), 64u << 20);
  Output o =
      run(" merge " + shard.string() + " --out " + (root / "merged").string());
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_EQ(lines(o.err), 1) << o.err;
  EXPECT_NE(o.err.find((shard / "results.json").string() +
                       ": larger than the limit of"),
            std::string::npos)
      << o.err;
  EXPECT_LT(o.peak_rss_kb, 256 * 1024);
  EXPECT_FALSE(fs::exists(root / "merged"));
}

TEST(MergeSafety, TooManyValuesOrTooLongAStringAreRefused) {
  const fs::path root = fresh_dir("too_many");
  const fs::path shard = make_shard(root / "shard", kTinyGate);
  const nlohmann::json results = read_json(shard / "results.json");
  struct Bad {
    std::string key;
    nlohmann::json value;
    std::string mentions;
  };
  for (const Bad& bad :
       {Bad{"padding", nullptr, "JSON values"},
        Bad{"padding", std::string(2 << 20, 'x'), "a string longer"},
        Bad{"cases_total", 1'000'000'000, "past the limit"}}) {
    nlohmann::json doc = results;
    if (bad.value.is_null()) {
      // 2,000,000 values in 4 MB: within the size, past the count.
      write_json_with_padding(shard / "results.json", doc, 2'000'000);
    } else {
      doc[bad.key] = bad.value;
      write_json(shard / "results.json", doc);
    }
    Output o = run(" merge " + shard.string() + " --out " +
                   (root / "merged").string());
    EXPECT_EQ(o.status, 2) << bad.mentions << ": " << o.err;
    EXPECT_EQ(lines(o.err), 1) << o.err;
    EXPECT_NE(o.err.find(bad.mentions), std::string::npos) << o.err;
    EXPECT_FALSE(fs::exists(root / "merged"));
  }
}

// --out naming a shard, by any path, or a folder inside or around one, is
// refused before anything is read or written: merge never writes where it
// reads, and the shard stays as it was.
TEST(MergeSafety, AnOutThatIsOrHoldsOrLiesInAShardIsRefused) {
  const fs::path root = fresh_dir("out_is_shard");
  const fs::path shard = make_shard(root / "shard", kShardWithLog);
  fs::create_directory_symlink(shard, root / "link");
  const auto before = snapshot(shard);
  struct Case {
    fs::path out;
    std::string says;
  };
  for (const Case& c :
       {Case{shard, "is the shard folder"},
        Case{root / "link", "is the shard folder"},
        Case{root / "link" / ".." / "shard" / "", "is the shard folder"},
        Case{shard / "logs", "lies inside the shard folder"},
        Case{root / "link" / "new", "lies inside the shard folder"},
        Case{root, "holds the shard folder"}}) {
    Output o = run(" merge " + shard.string() + " --out " + c.out.string());
    EXPECT_EQ(o.status, 2) << c.out << ": " << o.err;
    EXPECT_EQ(lines(o.err), 1) << o.err;
    EXPECT_EQ(o.err.rfind("racelab: merge: --out '", 0), 0u) << o.err;
    EXPECT_NE(o.err.find(c.says), std::string::npos) << c.out << ": " << o.err;
    EXPECT_TRUE(snapshot(shard) == before)
        << c.out << ": the shard now holds" << names(snapshot(shard));
    EXPECT_FALSE(fs::exists(shard / "new"));
  }
  // Beside the shard is fine.
  Output o =
      run(" merge " + shard.string() + " --out " + (root / "merged").string());
  EXPECT_TRUE(o.status == 0 || o.status == 1) << o.err;
  EXPECT_TRUE(snapshot(shard) == before);
}

}  // namespace
