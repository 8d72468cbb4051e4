// OutputFolder: a bad --out is refused before anything is created; a second
// claim of the same folder is refused while the first holds it; the new set
// replaces the old one as a whole (nothing stale survives) and only on
// commit(); leftovers of a killed command are removed; a folder of the
// user's, a symbolic link as the folder or as its lock, is refused and left
// as it was.
#include "racelab/output_folder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "racelab/atomic_file.h"
#include "racelab/runner.h"
#include "report_set.h"
#include "scratch_dir.h"

namespace racelab {
namespace {

namespace fs = std::filesystem;

using testing::slurp;

class OutputFolderTest : public testing::ScratchDirTest {
 protected:
  std::vector<std::string> entries(const fs::path& dir) const {
    return testing::entries(dir);
  }
  // A set of reports as racelab leaves it in `dir`.
  void make_report_set(const fs::path& dir) const {
    fs::create_directories(dir / "logs");
    std::ofstream(dir / kReportSetMarker) << report_set_marker_text();
    std::ofstream(dir / "results.json") << "old";
    std::ofstream(dir / "logs" / "a__b.stress.log") << "old log";
  }
  // The message of the InputError that claiming `dir` throws.
  std::string refusal(const fs::path& dir) const {
    try {
      OutputFolder out("--out", dir);
    } catch (const InputError& e) {
      return e.what();
    }
    return "accepted";
  }
};

TEST_F(OutputFolderTest, NewFolderAppearsOnlyOnCommit) {
  const fs::path dir = root_ / "a" / "gate";
  {
    OutputFolder out("--out", dir);
    EXPECT_TRUE(fs::is_directory(out.staging()));
    const std::vector<std::string> beside = entries(root_ / "a");
    ASSERT_EQ(beside.size(), 2u);
    EXPECT_EQ(beside[0], "gate.lock");
    EXPECT_EQ(beside[1].rfind("gate.tmp-", 0), 0u) << beside[1];
    EXPECT_FALSE(fs::exists(dir));
    write_file_atomically(out.staging() / "results.json", "{}");
    out.commit();
  }
  EXPECT_EQ(slurp(dir / "results.json"), "{}");
  EXPECT_EQ(slurp(dir / kReportSetMarker), report_set_marker_text());
  EXPECT_EQ(entries(root_ / "a"),
            (std::vector<std::string>{"gate", "gate.lock"}));
}

TEST_F(OutputFolderTest, TheNewSetReplacesTheOldOneAsAWhole) {
  const fs::path dir = root_ / "gate";
  make_report_set(dir);
  {
    OutputFolder out("--out", dir);
    write_file_atomically(out.staging() / "results.json", "new");
    EXPECT_EQ(slurp(dir / "results.json"), "old");
    out.commit();
  }
  EXPECT_EQ(slurp(dir / "results.json"), "new");
  EXPECT_FALSE(fs::exists(dir / "logs"));
  EXPECT_EQ(entries(root_), (std::vector<std::string>{"gate", "gate.lock"}));
}

TEST_F(OutputFolderTest, WithoutCommitTheOldSetStays) {
  const fs::path dir = root_ / "gate";
  make_report_set(dir);
  {
    OutputFolder out("--out", dir);
    write_file_atomically(out.staging() / "results.json", "half");
  }
  EXPECT_EQ(slurp(dir / "results.json"), "old");
  EXPECT_EQ(entries(root_), (std::vector<std::string>{"gate", "gate.lock"}));
}

TEST_F(OutputFolderTest, ASecondClaimIsRefusedWhileTheFirstHoldsIt) {
  const fs::path dir = root_ / "gate";
  {
    OutputFolder first("--out", dir);
    try {
      OutputFolder second("--out", dir);
      FAIL() << "claimed twice";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("gate.lock"), std::string::npos)
          << e.what();
    }
    // The same folder spelled differently is the same folder.
    EXPECT_THROW(OutputFolder("--out", root_ / "." / "gate/"), InputError);
  }
  EXPECT_NO_THROW(OutputFolder("--out", dir));
}

TEST_F(OutputFolderTest, LeftoversOfAKilledCommandAreRemoved) {
  fs::create_directories(root_ / "gate.tmp-12345-AbCdEf" / "logs");
  fs::create_directories(root_ / "gate.old-9-zzzzzz");
  fs::create_directories(root_ / "gate.tmp-notmine");
  { OutputFolder out("--out", root_ / "gate"); }
  EXPECT_EQ(entries(root_),
            (std::vector<std::string>{"gate.lock", "gate.tmp-notmine"}));
}

TEST_F(OutputFolderTest, BadPathsAreRefusedAndCreateNothing) {
  std::ofstream(root_ / "plain") << "x";
  for (const fs::path& bad :
       {root_ / "plain", root_ / "plain" / "below",
        root_ / std::string(240, 'n'), root_ / std::string(300, 'n'),
        fs::path("/proc/racelab-no-such"), fs::path("/"),
        fs::path("/dev/shm")}) {
    try {
      OutputFolder out("--out", bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("--out: cannot use '", 0), 0u) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
  EXPECT_EQ(entries(root_), std::vector<std::string>{"plain"});
}

TEST_F(OutputFolderTest, AFolderOfTheUsersIsRefusedAndLeftAsItWas) {
  const fs::path dir = root_ / "mine";
  fs::create_directories(dir / "src");
  std::ofstream(dir / "notes.txt") << "mine";
  std::ofstream(dir / "results.json") << "mine too";
  EXPECT_EQ(refusal(dir),
            "--out: cannot use '" + dir.string() +
                "' as the output folder: holds 2 entries racelab did not "
                "write, such as 'notes.txt' (racelab replaces only an empty "
                "folder or its own reports)");
  // Report names alone are not racelab's mark.
  fs::remove_all(dir / "src");
  fs::remove(dir / "notes.txt");
  EXPECT_NE(refusal(dir).find("without racelab's marker"), std::string::npos);
  // Nor is the marker, beside a file of the user's in logs/.
  make_report_set(dir);
  std::ofstream(dir / "logs" / "keep.txt") << "mine";
  EXPECT_NE(refusal(dir).find("such as 'logs/keep.txt'"), std::string::npos);
  EXPECT_EQ(slurp(dir / "results.json"), "old");
  EXPECT_EQ(slurp(dir / "logs" / "keep.txt"), "mine");
  EXPECT_EQ(entries(root_), std::vector<std::string>{"mine"});
  // An empty folder is the user's wish for reports.
  const fs::path empty = root_ / "empty";
  fs::create_directories(empty);
  {
    OutputFolder out("--out", empty);
    out.commit();
  }
  EXPECT_EQ(entries(empty), std::vector<std::string>{kReportSetMarker});
}

TEST_F(OutputFolderTest, SymbolicLinksAreNeverFollowed) {
  const fs::path target = root_ / "target";
  make_report_set(target);
  fs::create_directory_symlink(target, root_ / "link");
  EXPECT_NE(refusal(root_ / "link").find("is a symbolic link"),
            std::string::npos);
  fs::create_symlink(root_ / "planted", root_ / "gate.lock");
  EXPECT_NE(refusal(root_ / "gate").find("gate.lock' is a symbolic link"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(root_ / "planted"));
  // A leftover's name on a link: the link stays, its target too.
  fs::create_directory_symlink(target, root_ / "set.tmp-12-AbCdEf");
  { OutputFolder out("--out", root_ / "set"); }
  EXPECT_TRUE(fs::is_symlink(root_ / "set.tmp-12-AbCdEf"));
  EXPECT_EQ(slurp(target / "results.json"), "old");
  EXPECT_EQ(entries(root_),
            (std::vector<std::string>{"gate.lock", "link", "set.lock",
                                      "set.tmp-12-AbCdEf", "target"}));
}

TEST_F(OutputFolderTest, ALeftoverHoldingOtherFilesIsKept) {
  fs::create_directories(root_ / "gate.tmp-12345-AbCdEf");
  std::ofstream(root_ / "gate.tmp-12345-AbCdEf" / "mine.txt") << "mine";
  { OutputFolder out("--out", root_ / "gate"); }
  EXPECT_EQ(slurp(root_ / "gate.tmp-12345-AbCdEf" / "mine.txt"), "mine");
}

TEST_F(OutputFolderTest, AFolderThatChangedMeanwhileIsNotReplaced) {
  const fs::path dir = root_ / "gate";
  make_report_set(dir);
  OutputFolder out("--out", dir);
  write_file_atomically(out.staging() / "results.json", "new");
  std::ofstream(dir / "added.txt") << "mine";
  EXPECT_THROW(out.commit(), InputError);
  EXPECT_EQ(slurp(dir / "results.json"), "old");
  EXPECT_EQ(slurp(dir / "added.txt"), "mine");
}

TEST_F(OutputFolderTest, ExplainNamesTheFinalFile) {
  const fs::path dir = root_ / "gate";
  fs::create_directories(dir);
  OutputFolder out("--out", dir);
  const std::string what =
      out.explain("cannot write '" + (out.staging() / "index.html").string() +
                  "': No space left on device");
  EXPECT_EQ(what, "cannot write '" + (dir / "index.html").string() +
                      "': No space left on device; the folder keeps its "
                      "previous reports");
}

}  // namespace
}  // namespace racelab
