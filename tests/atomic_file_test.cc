// write_file_atomically() and check_output_file(): the new content or the
// old one, never a part, never a temporary left behind; a failure names the
// file. The write failures are real ones that also stop root: the target is
// a folder, and the file-size limit (RLIMIT_FSIZE, what `ulimit -f` sets)
// is below the content's size, which fails write() with EFBIG as a full disk
// fails it with ENOSPC.
#include "racelab/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "racelab/interrupt.h"
#include "racelab/runner.h"
#include "scratch_dir.h"

namespace racelab {
namespace {

namespace fs = std::filesystem;

using testing::slurp;

class AtomicFile : public testing::ScratchDirTest {
 protected:
  std::vector<std::string> entries() const { return testing::entries(root_); }
};

TEST_F(AtomicFile, WritesAndReplacesLeavingNoTemporary) {
  const fs::path file = root_ / "results.json";
  write_file_atomically(file, "first");
  EXPECT_EQ(slurp(file), "first");
  write_file_atomically(file, std::string(100000, 'x'));
  EXPECT_EQ(slurp(file), std::string(100000, 'x'));
  EXPECT_EQ(entries(), std::vector<std::string>{"results.json"});
  struct stat st;
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
}

TEST_F(AtomicFile, ALongNameStillGetsATemporary) {
  const fs::path file = root_ / std::string(250, 'n');
  write_file_atomically(file, "long");
  EXPECT_EQ(slurp(file), "long");
  EXPECT_EQ(entries().size(), 1u);
}

TEST_F(AtomicFile, AFolderInTheWayFailsNamingTheFile) {
  const fs::path file = root_ / "index.html";
  fs::create_directories(file / "inside");
  try {
    write_file_atomically(file, "content");
    FAIL() << "wrote over a folder";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(fs::is_directory(file / "inside"));
  EXPECT_EQ(entries(), std::vector<std::string>{"index.html"});
}

TEST_F(AtomicFile, AFailedWriteKeepsTheOldFile) {
  report_write_errors_instead_of_dying();  // SIGXFSZ must not kill the test
  const fs::path file = root_ / "junit.xml";
  write_file_atomically(file, "old content");
  struct rlimit saved;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  struct rlimit small = saved;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string message;
  try {
    write_file_atomically(file, std::string(64 * 1024, 'n'));
  } catch (const OutputError& e) {
    message = e.what();
  }
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &saved), 0);
  EXPECT_NE(message.find("cannot write '" + file.string() + "'"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("too large"), std::string::npos) << message;
  EXPECT_EQ(slurp(file), "old content");
  EXPECT_EQ(entries(), std::vector<std::string>{"junit.xml"});
}

TEST_F(AtomicFile, AMissingFolderFails) {
  EXPECT_THROW(write_file_atomically(root_ / "no" / "file", "x"), OutputError);
}

TEST_F(AtomicFile, CheckRefusesWhatCannotBeWrittenAndCreatesNothing) {
  std::ofstream(root_ / "plain") << "x";
  fs::create_directories(root_ / "folder");
  for (const fs::path& bad :
       {root_ / "folder", root_ / "plain" / "below", root_ / "missing" / "file",
        root_ / std::string(300, 'l'), fs::path("/dev/null"),
        fs::path("/proc/racelab-no-such-folder/file")}) {
    try {
      check_output_file("--json", bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("--json: cannot write '", 0), 0u) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
  EXPECT_NO_THROW(check_output_file("--json", root_ / "new.json"));
  EXPECT_NO_THROW(check_output_file("--json", root_ / "plain"));
  EXPECT_EQ(entries(), (std::vector<std::string>{"folder", "plain"}));
}

}  // namespace
}  // namespace racelab
