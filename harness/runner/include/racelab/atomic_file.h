// Writing an output file so that nothing is ever half-written: the content
// goes to a unique temporary file beside the target, every write, the flush
// to disk and the close are checked, and only then is the temporary renamed
// over the target. Also the check, before any work, that an output file can
// be written at all.
#ifndef RACELAB_SRC_ATOMIC_FILE_H_
#define RACELAB_SRC_ATOMIC_FILE_H_

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace racelab {

// An output file or folder could not be written (a full disk, an I/O error):
// a harness failure, exit status 3. The message names the file.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes `content` to `path` (mode 0644) through a temporary file in the same
// folder, fsync()ed and renamed over `path`; the folder is fsync()ed too. On
// any failure the temporary is removed, `path` keeps its previous content and
// OutputError says "cannot write 'path': reason".
void write_file_atomically(const std::filesystem::path& path,
                           std::string_view content);

// Checks, before any work, that write_file_atomically(path) can succeed as
// far as can be known without writing: `path` is a regular file or does not
// exist, and its folder exists and accepts a new file (a temporary is created
// and removed). Throws InputError (exit status 2): "<flag>: cannot write
// 'path': reason".
void check_output_file(std::string_view flag,
                       const std::filesystem::path& path);

// "reason" for an errno value, as the messages above use it.
std::string errno_text(int error);

}  // namespace racelab

#endif  // RACELAB_SRC_ATOMIC_FILE_H_
