// A whole program's run as a process tree racelab owns; see
// program_process.h.
#include "program_process.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "absl/strings/str_cat.h"
#include "exec_signals.h"
#include "program_tree.h"
#include "racelab/child_registry.h"
#include "racelab/process_tree.h"
#include "racelab/program_channel.h"
#include "racelab/raw_syscall.h"
#include "thread_stacks.h"

extern char** environ;

namespace racelab {

void BoundedText::append(const char* data, std::size_t size) {
  total_ += size;
  const std::size_t to_head = std::min(size, head_ - first_.size());
  first_.append(data, to_head);
  data += to_head;
  size -= to_head;
  if (size == 0) return;
  if (tail_ == 0) {
    dropped_ += size;
    return;
  }
  if (size >= tail_) {
    dropped_ += last_.size() + size - tail_;
    last_.assign(data + size - tail_, tail_);
    last_start_ = 0;
    return;
  }
  // Fill the ring, then write over its oldest bytes, a run at a time (a
  // byte at a time read a flood of output at 35 MB/s).
  while (size > 0) {
    std::size_t n;
    if (last_.size() < tail_) {
      n = std::min(size, tail_ - last_.size());
      last_.append(data, n);
    } else {
      n = std::min(size, tail_ - last_start_);
      std::memcpy(last_.data() + last_start_, data, n);
      last_start_ = (last_start_ + n) % tail_;
      dropped_ += n;
    }
    data += n;
    size -= n;
  }
}

std::string BoundedText::text() const {
  std::string text = first_;
  if (dropped_ > 0) {
    absl::StrAppend(&text, text.empty() || text.back() == '\n' ? "" : "\n",
                    "[... ", dropped_, " bytes not kept ...]\n");
  }
  text.append(last_, last_start_, std::string::npos);
  text.append(last_, 0, last_start_);
  return text;
}

namespace {

// How long gdb may take to print the stacks of a hung program.
constexpr int kStackSeconds = 30;
using Clock = std::chrono::steady_clock;

// The environment of the program: ours, with the channel's descriptor (none
// when channel_fd < 0: the program runs as it would without racelab).
// With server_fd >= 0, the fork server's socket too. racelab's own
// variables in the caller's environment (a stray replay descriptor, say)
// are not passed on: they would name descriptors the program does not have.
std::vector<std::string> program_environment(int channel_fd, int server_fd) {
  const std::string key =
      absl::StrCat(program_channel::kEnvironmentVariable, "=");
  const std::string server_key =
      absl::StrCat(program_channel::kForkServerVariable, "=");
  const std::string replay_key =
      absl::StrCat(program_channel::kReplayVariable, "=");
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, key.c_str(), key.size()) != 0 &&
        std::strncmp(*e, server_key.c_str(), server_key.size()) != 0 &&
        std::strncmp(*e, replay_key.c_str(), replay_key.size()) != 0) {
      env.emplace_back(*e);
    }
  }
  if (channel_fd >= 0) env.push_back(absl::StrCat(key, channel_fd));
  if (server_fd >= 0) env.push_back(absl::StrCat(server_key, server_fd));
  return env;
}

// Descriptors the program inherits besides stdin, stdout and stderr: the
// report pipe, the channel, the fork server's socket.
constexpr int kKeptFds = 3;

// The child's side, between fork and exec: a copy of a multi-threaded
// process made by a raw fork, so raw system calls only. The death signal
// comes first, then the check that the parent is still there; the program
// gets a process group of its own (its whole tree can be killed at once),
// stdin from /dev/null (a schedule must not depend on what the terminal
// types) and the signals of a fresh process.
[[noreturn]] __attribute__((no_sanitize("thread", "address"))) void
exec_program(int program_fd, char* const* argv, char* const* envp, pid_t parent,
             int out_fd, int err_fd, const int* keep_fds, int error_fd) {
  raw_syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  if (raw_syscall(SYS_getppid) != parent) raw_syscall(SYS_exit_group, 127);
  raw_syscall(SYS_setpgid, 0, 0);
  restore_default_signals();
  const int in = static_cast<int>(
      raw_syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY | O_CLOEXEC));
  if (in < 0 || raw_syscall(SYS_dup2, in, 0) < 0 ||
      raw_syscall(SYS_dup2, out_fd, 1) < 0 ||
      raw_syscall(SYS_dup2, err_fd, 2) < 0) {
    int e = errno;
    raw_syscall(SYS_write, error_fd, &e, sizeof e);
    raw_syscall(SYS_exit_group, 127);
  }
  for (int i = 0; i < kKeptFds; ++i) {
    if (keep_fds[i] >= 0 &&
        raw_syscall(SYS_fcntl, keep_fds[i], F_SETFD, 0) < 0) {
      int e = errno;
      raw_syscall(SYS_write, error_fd, &e, sizeof e);
      raw_syscall(SYS_exit_group, 127);
    }
  }
  raw_syscall(SYS_execveat, program_fd, "", argv, envp, AT_EMPTY_PATH);
  int e = errno;
  raw_syscall(SYS_write, error_fd, &e, sizeof e);
  raw_syscall(SYS_exit_group, 127);
  __builtin_unreachable();
}

// What the keeper needs, prepared before the fork (it may not allocate).
struct KeeperPlan {
  int program_fd;
  char* const* argv;
  char* const* envp;
  pid_t racelab;
  int out_fd, err_fd;
  int keep_fds[kKeptFds];  // -1 where unused
  int exec_error_fd;       // the program writes its exec errno here
  int life_fd;             // racelab holds the other end: EOF when racelab died
  int status_fd;  // the keeper writes the program's pid, then its status
};

__attribute__((no_sanitize("thread", "address"))) void write_int(int fd,
                                                                 int value) {
  raw_syscall(SYS_write, fd, &value, sizeof value);
}

// Closes every descriptor of racelab's the keeper has no use for: the pipes,
// sockets and life lines of other runs (racelab's other workers) must not
// outlive their runs' ends here, nor racelab's own ends of this run's.
__attribute__((no_sanitize("thread", "address"))) void keep_only_plan_fds(
    const KeeperPlan& plan) {
  constexpr int kCount = 6 + kKeptFds;
  int keep[kCount] = {plan.program_fd,    plan.out_fd,  plan.err_fd,
                      plan.exec_error_fd, plan.life_fd, plan.status_fd};
  for (int i = 0; i < kKeptFds; ++i) keep[6 + i] = plan.keep_fds[i];
  for (int i = 1; i < kCount; ++i) {  // insertion sort: no allocation here
    for (int j = i; j > 0 && keep[j - 1] > keep[j]; --j) {
      const int swap = keep[j];
      keep[j] = keep[j - 1];
      keep[j - 1] = swap;
    }
  }
  int from = 3;
  for (int fd : keep) {
    if (fd < from) continue;
    if (fd > from) raw_syscall(SYS_close_range, from, fd - 1, 0);
    from = fd + 1;
  }
  raw_syscall(SYS_close_range, from, ~0U, 0);
}

// The keeper: a raw fork of racelab that starts the program and stays its
// parent. It is the subreaper of the program's tree and outlives racelab:
// when the program ends, or racelab dies (its life pipe reaches end of
// file), it kills and reaps the whole tree, then exits. So a killed racelab
// leaves nothing behind, not even a daemon the program started.
[[noreturn]] __attribute__((no_sanitize("thread", "address"))) void keeper(
    const KeeperPlan& plan) {
  keep_only_plan_fds(plan);
  raw_syscall(SYS_prctl, PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  raw_syscall(SYS_setpgid, 0, 0);  // not in racelab's group: ^C is racelab's
  if (raw_syscall(SYS_getppid) != plan.racelab) raw_syscall(SYS_exit_group, 0);
  const pid_t self = static_cast<pid_t>(raw_syscall(SYS_getpid));
  const long program = raw_syscall(SYS_fork);
  if (program == 0) {
    exec_program(plan.program_fd, plan.argv, plan.envp, self, plan.out_fd,
                 plan.err_fd, plan.keep_fds, plan.exec_error_fd);
  }
  if (program < 0) {
    write_int(plan.status_fd, -errno);
    raw_syscall(SYS_exit_group, 0);
  }
  raw_syscall(SYS_setpgid, program, program);
  for (int fd : {plan.out_fd, plan.err_fd, plan.keep_fds[0], plan.keep_fds[2],
                 plan.exec_error_fd}) {
    if (fd >= 0) raw_syscall(SYS_close, fd);
  }
  write_int(plan.status_fd, static_cast<int>(program));
  for (;;) {
    int status = 0;
    if (raw_syscall(SYS_wait4, program, &status, WNOHANG, nullptr) == program) {
      write_int(plan.status_fd, status);
      break;
    }
    struct pollfd life = {plan.life_fd, POLLIN, 0};
    struct timespec wait = {0, 5000000};
    if (raw_syscall(SYS_ppoll, &life, 1, &wait, nullptr, 0) > 0) {
      char byte;
      if (raw_syscall(SYS_read, plan.life_fd, &byte, 1) <= 0) break;
    }
  }
  end_process_tree(static_cast<pid_t>(program));
  raw_syscall(SYS_exit_group, 0);
  __builtin_unreachable();
}

// This process's children, from every thread's list.
std::vector<pid_t> own_children() {
  std::vector<pid_t> children;
  DIR* tasks = ::opendir("/proc/self/task");
  if (tasks == nullptr) return children;
  while (dirent* task = ::readdir(tasks)) {
    if (task->d_name[0] == '.') continue;
    std::ifstream list(
        absl::StrCat("/proc/self/task/", task->d_name, "/children"));
    pid_t pid;
    while (list >> pid) children.push_back(pid);
  }
  ::closedir(tasks);
  return children;
}

// True for a child of ours that belongs to a program's tree: in its process
// group, or in a session of its own (a daemon adopted through the
// subreaper). racelab's other children (a symbolizer) share our session.
bool of_the_tree(pid_t pid, pid_t group) {
  const pid_t its_group = ::getpgid(pid);
  if (its_group < 0) return false;
  return its_group == group || ::getsid(pid) != ::getsid(0);
}

// Kills and reaps every process of the tree whose group is `group`; returns
// how many others than the program itself were still there.
int end_tree(pid_t group) {
  int others = 0;
  for (int round = 0; round < 5000; ++round) {
    ::kill(-group, SIGKILL);
    bool left = ::kill(-group, 0) == 0;
    for (pid_t child : own_children()) {
      if (!of_the_tree(child, group)) continue;
      ::kill(child, SIGKILL);
      left = true;
    }
    for (;;) {
      siginfo_t info{};
      if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG) != 0 ||
          info.si_pid == 0) {
        break;
      }
      ++others;
    }
    if (!left) break;
    ::usleep(200);
  }
  return others;
}

}  // namespace

void adopt_orphans() { ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

namespace program_tree {

bool drain(int fd, BoundedText& into) {
  char buffer[16384];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      into.append(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return true;
    return false;
  }
}

bool read_int(int fd, int* value) {
  ssize_t n;
  do {
    n = ::read(fd, value, sizeof *value);
  } while (n < 0 && errno == EINTR);
  return n == static_cast<ssize_t>(sizeof *value);
}

bool start_tree(const ProgramLaunch& launch, int server_fd, StartedTree& tree,
                ProgramRun& run) {
  if (launch.report_fd_slot != nullptr) {
    *launch.report_fd_slot = tree.reports.write_end;
  }
  std::vector<std::string> env_text =
      program_environment(launch.channel_fd, server_fd);
  std::vector<char*> argv, envp;
  for (const std::string& arg : launch.argv)
    argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  for (const std::string& e : env_text)
    envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  const KeeperPlan plan = {
      launch.program_fd,
      argv.data(),
      envp.data(),
      ::getpid(),
      tree.out.write_end,
      tree.err.write_end,
      {tree.reports.write_end, launch.channel_fd, server_fd},
      tree.exec_error.write_end,
      tree.life.read_end,
      tree.status.write_end};
  const long forked = raw_syscall(SYS_fork);
  if (forked == 0) keeper(plan);
  if (forked < 0) {
    throw std::runtime_error(absl::StrCat("fork: ", std::strerror(errno)));
  }
  tree.keeper = static_cast<pid_t>(forked);
  child_registry().add(tree.keeper);
  tree.out.close_write();
  tree.err.close_write();
  tree.reports.close_write();
  tree.exec_error.close_write();
  tree.status.close_write();
  tree.life.close_read();
  int program = 0;
  if (!read_int(tree.status.read_end, &program) || program < 0) {
    child_registry().remove(tree.keeper);
    ::waitpid(tree.keeper, nullptr, 0);
    // A SIGINT or SIGTERM of racelab stops every child, the keeper too,
    // and may do so before the keeper told the program's pid: that is the
    // stop it was asked for, not a failure to start.
    if (launch.stop_requested && launch.stop_requested()) {
      run.interrupted = true;
      return false;
    }
    throw std::runtime_error(absl::StrCat("cannot start the program: fork: ",
                                          std::strerror(-program)));
  }
  tree.program = program;
  if (!read_int(tree.exec_error.read_end, &run.exec_errno)) run.exec_errno = 0;
  for (int fd : {tree.out.read_end, tree.err.read_end, tree.reports.read_end})
    ::fcntl(fd, F_SETFL, O_NONBLOCK);
  return true;
}

Ready poll_run(OutputPipes output, ProgramRun& run, int first_fd,
               int second_fd) {
  pollfd fds[5] = {{output.pipes[0]->read_end, POLLIN, 0},
                   {output.pipes[1]->read_end, POLLIN, 0},
                   {output.pipes[2]->read_end, POLLIN, 0},
                   {first_fd, POLLIN, 0},
                   {second_fd, POLLIN, 0}};
  ::poll(fds, second_fd >= 0 ? 5 : 4, 5);
  BoundedText* into[3] = {&run.out, &run.err, &run.reports};
  for (int i = 0; i < 3; ++i) {
    if (output.pipes[i]->read_end >= 0 && fds[i].revents != 0 &&
        !drain(output.pipes[i]->read_end, *into[i])) {
      output.pipes[i]->close_read();
    }
  }
  return {fds[3].revents != 0, second_fd >= 0 && fds[4].revents != 0};
}

bool watch_run(const ProgramLaunch& launch, pid_t program, OutputPipes output,
               int status_fd, int ended_fd, ProgramRun& run) {
  auto stop = [program] {
    ::kill(-program, SIGKILL);
    ::kill(program, SIGKILL);  // a copy killed before it took its group
  };
  std::uint64_t beat = 0;
  Clock::time_point last_beat = Clock::now();
  for (;;) {
    const Ready ready = poll_run(output, run, status_fd, ended_fd);
    if (ready.first) {
      if (read_int(status_fd, &run.status)) return true;
      run.status = SIGKILL;
      return false;
    }
    if (ready.second) {
      run.status = SIGKILL;
      return false;
    }
    if (!run.interrupted && launch.stop_requested && launch.stop_requested()) {
      run.interrupted = true;
      stop();
    }
    const std::uint64_t now_beat =
        launch.heartbeat == nullptr
            ? 0
            : __atomic_load_n(launch.heartbeat, __ATOMIC_RELAXED);
    if (now_beat != beat) {
      beat = now_beat;
      last_beat = Clock::now();
    } else if (!run.hung && Clock::now() - last_beat >
                                std::chrono::seconds(launch.hang_seconds)) {
      run.hung = true;
      run.hung_threads = describe_threads(program);
      const std::string stacks =
          gdb_stacks(program, std::chrono::seconds(kStackSeconds));
      run.hung_threads +=
          stacks.empty()
              ? "(no stacks: gdb is not installed or could not attach)\n"
              : "\n" + stacks;
      stop();
    }
  }
}

void drain_rest(OutputPipes output, ProgramRun& run) {
  BoundedText* into[3] = {&run.out, &run.err, &run.reports};
  for (int i = 0; i < 3; ++i) {
    if (output.pipes[i]->read_end >= 0)
      drain(output.pipes[i]->read_end, *into[i]);
  }
}

void end_started_tree(StartedTree& tree, ProgramRun* run) {
  child_registry().remove(tree.keeper);
  while (::waitpid(tree.keeper, nullptr, 0) < 0 && errno == EINTR) {
  }
  const int others = end_tree(tree.program);
  if (run != nullptr) run->leftover_processes = others;
}

}  // namespace program_tree

using namespace program_tree;

ProgramRun run_program(const ProgramLaunch& launch) {
  ProgramRun run;
  run.out = BoundedText(launch.out_head, 16 << 10);
  StartedTree tree;
  if (!start_tree(launch, -1, tree, run)) return run;
  const OutputPipes output = {{&tree.out, &tree.err, &tree.reports}};
  watch_run(launch, tree.program, output, tree.status.read_end, -1, run);
  end_started_tree(tree, &run);
  drain_rest(output, run);
  return run;
}

}  // namespace racelab
