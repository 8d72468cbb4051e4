// The output folder of a command (`--out DIR`), claimed before any work and
// written as one consistent set: a lock beside it (DIR.lock) keeps a second
// command off the same folder; every file goes into a fresh staging folder
// beside it (DIR.tmp-<pid>-<random>); commit() swaps the staging folder in
// with a rename, so a reader, or a command killed half-way, sees the old set
// or the new one and never a mix, and nothing of an older run (a stale log)
// survives. DIR is replaced only when it is empty or holds racelab's own
// report set (report_set.h): a folder of the user's is refused, never
// emptied. DIR, DIR.lock and the staging folder are reached only relative to
// the open parent folder, never through a symbolic link.
#ifndef RACELAB_SRC_OUTPUT_FOLDER_H_
#define RACELAB_SRC_OUTPUT_FOLDER_H_

#include <filesystem>
#include <string>

namespace racelab {

class OutputFolder {
 public:
  // Checks and claims `dir` for `flag`: DIR does not exist yet (its parent
  // folders are created) or is a real folder (not a symbolic link) that is
  // empty or holds only racelab's marked report set; it is not a mount point
  // (it could not be swapped); DIR.lock is a regular file (not a symbolic
  // link) that no other command holds; the staging folder can be created
  // beside it. Leftover staging folders of killed commands are removed when
  // they are real folders holding only racelab's files. Throws InputError
  // (exit status 2) naming `flag` and the path; a path that cannot work
  // creates nothing (a folder of the user's is looked at before DIR.lock is
  // created).
  OutputFolder(std::string flag, const std::filesystem::path& dir);
  // Removes the staging folder unless committed; releases the lock.
  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  // Where to write the files: the staging folder as the open folder it is
  // (/proc/self/fd/N where /proc is mounted), so that no name swapped in
  // meanwhile redirects a write.
  const std::filesystem::path& staging() const { return staging_; }
  // The folder as given and as used (absolute, no trailing separator).
  const std::filesystem::path& path() const { return dir_; }

  // Checks DIR again, swaps the staging folder in as DIR (renameat2
  // RENAME_EXCHANGE where the file system has it, else two renames) and
  // removes the previous set, entry by entry, only what racelab wrote.
  // Throws OutputError (exit status 3), or InputError if DIR meanwhile became
  // something racelab may not replace; DIR then keeps its previous content.
  void commit();

  // The message of an OutputError thrown while writing into staging() or by
  // commit(), told in terms of DIR: the file's final path, and that DIR
  // keeps its previous set (or was not created).
  std::string explain(const std::string& what) const;

 private:
  // Why DIR (`name_` in `parent_fd_`) may not be replaced; empty if it may.
  std::string target_problem() const;

  std::string flag_;
  std::filesystem::path dir_;
  std::string name_;  // DIR's name in its parent folder
  std::filesystem::path staging_;
  std::string staging_name_;
  int parent_fd_ = -1;
  int staging_fd_ = -1;
  int lock_fd_ = -1;
  bool committed_ = false;
};

}  // namespace racelab

#endif  // RACELAB_SRC_OUTPUT_FOLDER_H_
