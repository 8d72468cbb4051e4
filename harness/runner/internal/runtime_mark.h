// Checking a program before racelab runs it: `racelab explore` and `racelab
// replay` run only a regular, executable ELF file that carries the mark
// racelab::runtime puts in it (program_channel::kRuntimeSection), read from
// the file and never by running it. The file is opened once and what runs
// is that open file, so the file checked is the file executed.
#ifndef RACELAB_SRC_RUNTIME_MARK_H_
#define RACELAB_SRC_RUNTIME_MARK_H_

#include <string>

namespace racelab {

// An opened, checked program.
class CheckedProgram {
 public:
  CheckedProgram() = default;
  ~CheckedProgram();
  CheckedProgram(CheckedProgram&& other) noexcept;
  CheckedProgram& operator=(CheckedProgram&& other) noexcept;

  int fd() const { return fd_; }
  // The absolute path it was opened by.
  const std::string& path() const { return path_; }

 private:
  friend CheckedProgram open_runtime_program(const std::string&,
                                             const std::string&);
  int fd_ = -1;
  std::string path_;
};

// `name` as execvp would find it (through PATH when it has no '/'), made
// absolute. Throws InputError "<where>: <name>: <reason>".
std::string resolve_program(const std::string& where, const std::string& name);

// Opens the program at `path` (absolute) and checks it: a regular file,
// executable by us, a 64-bit ELF file of this machine with racelab's
// runtime mark. Throws InputError "<where>: <path>: <what is wrong>".
CheckedProgram open_runtime_program(const std::string& where,
                                    const std::string& path);

}  // namespace racelab

#endif  // RACELAB_SRC_RUNTIME_MARK_H_
