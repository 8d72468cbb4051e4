// OutputFolder: a bad --out is refused before anything is created; a second
// claim of the same folder is refused while the first holds it; the new set
// replaces the old one as a whole (nothing stale survives) and only on
// commit(); leftovers of a killed command are removed.
#include "output_folder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "atomic_file.h"
#include "racelab/runner.h"
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
};

TEST_F(OutputFolderTest, NewFolderAppearsOnlyOnCommit) {
  const fs::path dir = root_ / "a" / "gate";
  {
    OutputFolder out("--out", dir);
    EXPECT_TRUE(fs::is_directory(out.staging()));
    EXPECT_EQ(out.staging().parent_path(), dir.parent_path());
    EXPECT_FALSE(fs::exists(dir));
    write_file_atomically(out.staging() / "results.json", "{}");
    out.commit();
  }
  EXPECT_EQ(slurp(dir / "results.json"), "{}");
  EXPECT_EQ(entries(root_ / "a"),
            (std::vector<std::string>{"gate", "gate.lock"}));
}

TEST_F(OutputFolderTest, TheNewSetReplacesTheOldOneAsAWhole) {
  const fs::path dir = root_ / "gate";
  fs::create_directories(dir / "logs");
  std::ofstream(dir / "results.json") << "old";
  std::ofstream(dir / "logs" / "stale.log") << "stale";
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
  fs::create_directories(dir);
  std::ofstream(dir / "results.json") << "old";
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
