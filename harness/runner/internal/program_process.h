// One run of a whole program under `racelab explore` or `racelab replay`, as
// a process tree racelab owns from start to end: a keeper (a raw fork of
// racelab) starts the program in a process group of its own, with a death
// signal that follows the keeper, and is the subreaper of everything below
// it (a daemon that calls setsid comes back to it). When the program ends,
// when racelab stops it, or when racelab dies (the keeper sees its life pipe
// close), the keeper kills and reaps the whole tree. Its
// stdout and stderr are captured bounded (the tail is kept, the rest
// counted), and the sanitizer's reports arrive on a pipe of their own.
#ifndef RACELAB_SRC_PROGRAM_PROCESS_H_
#define RACELAB_SRC_PROGRAM_PROCESS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace racelab {

// Text kept within a bound: the first `head` bytes and the last `tail`
// bytes; what lies between is counted, not kept.
class BoundedText {
 public:
  BoundedText(std::size_t head, std::size_t tail) : head_(head), tail_(tail) {}
  void append(const char* data, std::size_t size);
  // What was kept, with "[... N bytes not kept ...]" where bytes were dropped.
  std::string text() const;
  std::uint64_t dropped() const { return dropped_; }
  std::uint64_t total() const { return total_; }

 private:
  std::size_t head_, tail_;
  std::string first_;
  std::string last_;  // a ring of tail_ bytes once full
  std::size_t last_start_ = 0;
  std::uint64_t dropped_ = 0, total_ = 0;
};

// How the program is started. `program_fd` is the program's file, opened and
// checked (runtime_mark.h); it is what runs, so the file checked is the file
// executed. `argv` is passed as it is (argv[0] included).
struct ProgramLaunch {
  int program_fd = -1;
  std::vector<std::string> argv;
  int channel_fd = -1;  // the channel's memfd; its number goes in the
                        // environment. -1: no channel, a plain run
  // How much of the start of stdout to keep (the tail is always kept).
  std::size_t out_head = 0;
  // Where the program learns the descriptor of the report pipe (the
  // channel's report_fd), written before the program starts.
  std::int32_t* report_fd_slot = nullptr;
  // A decision counter in the channel: no change for `hang_seconds` is a hang.
  const std::uint64_t* heartbeat = nullptr;
  int hang_seconds = 60;
  // Asked often; true ends the run at once (SIGINT or SIGTERM of racelab).
  std::function<bool()> stop_requested;
};

struct ProgramRun {
  int status = 0;            // waitpid status of the program
  bool hung = false;         // killed after hang_seconds without a decision
  bool interrupted = false;  // killed because stop_requested said so
  int exec_errno = 0;        // the program could not be started
  BoundedText out{0, 16 << 10};
  BoundedText err{0, 64 << 10};
  BoundedText reports{1 << 20, 64 << 10};  // the sanitizer's report stream
  int leftover_processes = 0;  // others of the tree killed at its end
  // For a hung run, what each of the program's threads was doing when it
  // was stopped (thread_stacks.h): /proc's view, then gdb's stacks.
  std::string hung_threads;
};

// Makes this process the subreaper of its descendants (once per process).
void adopt_orphans();

// Runs the program once and ends its whole tree. Throws std::runtime_error
// when no process can be created (a harness failure).
ProgramRun run_program(const ProgramLaunch& launch);

// The program started once, below a keeper as run_program starts it, and
// stopped where main would start (program_channel.h's fork server); each
// run is a copy of it, forked there. A copy dies with the server, leads a
// process group of its own and writes to pipes of its own; the server ends
// the copy's whole tree before it reports the copy's status. What the
// program wrote before main (its static constructors) begins every run's
// output, as it would in a fresh process.
class ForkServer {
 public:
  // Starts the server and waits until it stands before main, at most
  // launch.hang_seconds. Null, with `why_not` saying why, when it cannot
  // serve: threads or open descriptors before main, or the program ended,
  // hung or failed before it. Throws std::runtime_error as run_program.
  static std::unique_ptr<ForkServer> start(const ProgramLaunch& launch,
                                           std::string* why_not);
  ~ForkServer();  // ends the server and its whole tree
  ForkServer(const ForkServer&) = delete;
  ForkServer& operator=(const ForkServer&) = delete;

  // One run in a fresh copy, as run_program's; nullopt when the server is
  // gone (killed) before a copy could start: it serves no more.
  std::optional<ProgramRun> run(const ProgramLaunch& launch);

 private:
  struct Tree;
  ForkServer() = default;
  void end();

  int socket_ = -1;  // racelab's end
  std::unique_ptr<Tree> tree_;
  std::string prelude_out_, prelude_err_, prelude_reports_;
};

}  // namespace racelab

#endif  // RACELAB_SRC_PROGRAM_PROCESS_H_
