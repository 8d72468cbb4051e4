// The pieces of a program's run as a process tree (program_process.h) that
// both ways of starting one share: a fresh process below a keeper
// (run_program) and a copy of a fork server (ForkServer), whose server is
// itself started as a fresh process. Internal to program_process.cc and
// program_fork_server.cc.
#ifndef RACELAB_SRC_PROGRAM_TREE_H_
#define RACELAB_SRC_PROGRAM_TREE_H_

#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "absl/strings/str_cat.h"
#include "program_process.h"

namespace racelab::program_tree {

// A pipe whose ends close on exec; the caller unsets that where needed.
struct Pipe {
  Pipe() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
      throw std::runtime_error(absl::StrCat("pipe: ", std::strerror(errno)));
    }
    read_end = fds[0];
    write_end = fds[1];
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  void close_read() {
    if (read_end >= 0) ::close(read_end);
    read_end = -1;
  }
  void close_write() {
    if (write_end >= 0) ::close(write_end);
    write_end = -1;
  }
  int read_end = -1;
  int write_end = -1;
};

// Reads what is there; false at end of file (or an error).
bool drain(int fd, BoundedText& into);

// Reads one int, waiting for it; false at end of file.
bool read_int(int fd, int* value);

// A program's process tree as racelab started it: the keeper, the program,
// and racelab's ends of their pipes.
struct StartedTree {
  pid_t keeper = -1;
  pid_t program = -1;
  Pipe out, err, reports, exec_error, life, status;
};

// Starts the program below a keeper (with `server_fd` >= 0, as a fork
// server: the socket's descriptor goes in its environment); false when the
// keeper could not start it, with run.interrupted when racelab was being
// stopped. Throws std::runtime_error when no process can be created.
bool start_tree(const ProgramLaunch& launch, int server_fd, StartedTree& tree,
                ProgramRun& run);

// The program's three output pipes: stdout, stderr, the sanitizer's reports.
struct OutputPipes {
  Pipe* pipes[3];
};

// Waits up to 5 ms for output or for `first_fd` or `second_fd` (-1: none)
// to become readable, drains what came into `run`'s texts, and says which
// of the two is readable.
struct Ready {
  bool first = false;
  bool second = false;
};
Ready poll_run(OutputPipes output, ProgramRun& run, int first_fd,
               int second_fd);

// Drains the run's pipes until `status_fd` gives the program's wait status;
// stops the program (its process group) when racelab is asked to stop, and
// when no decision was made for hang_seconds, after noting what its threads
// were doing. Returns false when `status_fd` ended with no status, or
// `ended_fd` (if >= 0) became readable first: what gives the status ended.
bool watch_run(const ProgramLaunch& launch, pid_t program, OutputPipes output,
               int status_fd, int ended_fd, ProgramRun& run);

// What is left in the pipes once every writer is gone.
void drain_rest(OutputPipes output, ProgramRun& run);

// Waits for the keeper, which ends the tree and exits, and ends whatever it
// could not reach (it was killed); with `run`, counts those.
void end_started_tree(StartedTree& tree, ProgramRun* run);

}  // namespace racelab::program_tree

#endif  // RACELAB_SRC_PROGRAM_TREE_H_
