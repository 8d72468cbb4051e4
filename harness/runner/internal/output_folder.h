// The output folder of a command (`--out DIR`), claimed before any work and
// written as one consistent set: a lock beside it (DIR.lock) keeps a second
// command off the same folder; every file goes into a fresh staging folder
// beside it (DIR.tmp-<pid>-<random>); commit() swaps the staging folder in
// with a rename, so a reader, or a command killed half-way, sees the old set
// or the new one and never a mix, and nothing of an older run (a stale log)
// survives.
#ifndef RACELAB_SRC_OUTPUT_FOLDER_H_
#define RACELAB_SRC_OUTPUT_FOLDER_H_

#include <filesystem>
#include <string>

namespace racelab {

class OutputFolder {
 public:
  // Checks and claims `dir` for `flag`: DIR is a folder or does not exist
  // yet (its parent folders are created), it is not a mount point (it could
  // not be swapped), DIR.lock is not held by another command, and the staging
  // folder can be created beside it. Leftover staging folders of killed
  // commands are removed. Throws InputError (exit status 2) naming `flag` and
  // the path; a path that cannot work creates nothing.
  OutputFolder(std::string flag, const std::filesystem::path& dir);
  // Removes the staging folder unless committed; releases the lock.
  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  // Where to write the files.
  const std::filesystem::path& staging() const { return staging_; }
  // The folder as given and as used (absolute, no trailing separator).
  const std::filesystem::path& path() const { return dir_; }

  // Swaps the staging folder in as DIR (renameat2 RENAME_EXCHANGE where the
  // file system has it, else two renames) and removes the previous set.
  // Throws OutputError (exit status 3); DIR then keeps its previous set.
  void commit();

  // The message of an OutputError thrown while writing into staging() or by
  // commit(), told in terms of DIR: the file's final path, and that DIR
  // keeps its previous set (or was not created).
  std::string explain(const std::string& what) const;

 private:
  std::string flag_;
  std::filesystem::path dir_;
  std::filesystem::path staging_;
  int lock_fd_ = -1;
  bool committed_ = false;
};

}  // namespace racelab

#endif  // RACELAB_SRC_OUTPUT_FOLDER_H_
