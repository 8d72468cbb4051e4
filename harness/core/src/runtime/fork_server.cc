// The program's side of the fork server; see fork_server.h and
// program_channel.h for the protocol.
#include "fork_server.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "racelab/process_tree.h"
#include "racelab/program_channel.h"
#include "racelab/raw_syscall.h"

namespace racelab::runtime_internal {
namespace {

using program_channel::ForkServerGo;
using program_channel::ForkServerHello;
using program_channel::ForkServerWord;

// The kernel's calls, not libc's names, which the program may define as its
// own globals (a variable `send`) in place of racelab's interposed ones.
void send_all(int socket, const void* data, std::size_t size) {
  while (raw_syscall(SYS_sendto, socket, data, size, MSG_NOSIGNAL, nullptr, 0) <
             0 &&
         errno == EINTR) {
  }
}

void send_word(int socket, ForkServerWord word) {
  send_all(socket, &word, sizeof word);
}

// The numbered entries of a /proc folder: its threads, or (`descriptors`)
// its open descriptors but the one that lists them.
std::vector<int> numbered_entries(const char* folder, bool descriptors) {
  std::vector<int> numbers;
  DIR* list = opendir(folder);
  if (list == nullptr) return numbers;
  while (dirent* entry = readdir(list)) {
    const int number = std::atoi(entry->d_name);
    if (entry->d_name[0] != '.' && !(descriptors && number == dirfd(list))) {
      numbers.push_back(number);
    }
  }
  closedir(list);
  return numbers;
}

// Why this process cannot be copied for every schedule, or "" when it can:
// a copy shares every thread's absence (only the calling thread survives a
// fork) and every open descriptor's offset, locks and peer with the server
// and with every other copy; a fresh process shares none of them.
std::string why_not_copyable(const std::vector<int>& inherited) {
  const std::size_t threads = numbered_entries("/proc/self/task", false).size();
  if (threads != 1) {
    return std::to_string(threads) +
           " threads run before main (a static constructor started them)";
  }
  // A child of the process (only the one thread can have made it): in a
  // copy it is no child, and a wait for it fails.
  const std::string children =
      "/proc/self/task/" + std::to_string(getpid()) + "/children";
  if (FILE* list = std::fopen(children.c_str(), "re")) {
    long child = 0;
    const bool any = std::fscanf(list, "%ld", &child) == 1;
    std::fclose(list);
    if (any) {
      return "process " + std::to_string(child) +
             " was started before main (a child of the process, not of a "
             "copy)";
    }
  }
  for (int fd : open_descriptors()) {
    if (std::find(inherited.begin(), inherited.end(), fd) != inherited.end()) {
      continue;
    }
    char target[256] = {};
    const std::string link = "/proc/self/fd/" + std::to_string(fd);
    if (readlink(link.c_str(), target, sizeof target - 1) < 0) {
      std::strcpy(target, "?");
    }
    return "descriptor " + std::to_string(fd) + " (" + target +
           ") was opened before main";
  }
  return "";
}

// Receives one ForkServerGo and its three descriptors; false when racelab
// closed the socket or sent something else.
bool receive_go(int socket, int fds[3]) {
  ForkServerGo go{};
  iovec io = {&go, sizeof go};
  alignas(cmsghdr) char control[CMSG_SPACE(3 * sizeof(int))];
  msghdr message{};
  message.msg_iov = &io;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = sizeof control;
  ssize_t n;
  do {
    n = raw_syscall(SYS_recvmsg, socket, &message, MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR);
  const cmsghdr* header = CMSG_FIRSTHDR(&message);
  const bool has_fds = header != nullptr && header->cmsg_level == SOL_SOCKET &&
                       header->cmsg_type == SCM_RIGHTS &&
                       header->cmsg_len == CMSG_LEN(3 * sizeof(int));
  if (has_fds) std::memcpy(fds, CMSG_DATA(header), 3 * sizeof(int));
  if (n != static_cast<ssize_t>(sizeof go) || go.magic != go.kMagic ||
      !has_fds) {
    if (has_fds) {
      for (int i = 0; i < 3; ++i) close(fds[i]);
    }
    return false;
  }
  return true;
}

// The copy's side, right after the fork: it dies with the server, leads a
// process group racelab can kill whole, and writes to the schedule's pipes.
ForkedCopy become_copy(int socket, pid_t server, const int fds[3],
                       const struct sigaction& program_sigchld) {
  prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  if (getppid() != server) _exit(127);
  sigaction(SIGCHLD, &program_sigchld, nullptr);
  setpgid(0, 0);
  close(socket);
  if (dup2(fds[0], 1) < 0 || dup2(fds[1], 2) < 0 ||
      fcntl(fds[2], F_SETFD, 0) < 0) {
    _exit(127);
  }
  close(fds[0]);
  close(fds[1]);
  return {fds[2]};
}

}  // namespace

std::vector<int> open_descriptors() {
  return numbered_entries("/proc/self/fd", true);
}

ForkedCopy serve_forks(int socket, const std::vector<int>& inherited) {
  ForkServerHello hello{};
  hello.magic = ForkServerHello::kMagic;
  const std::string why = why_not_copyable(inherited);
  hello.ready = why.empty() ? 1 : 0;
  std::snprintf(hello.why, sizeof hello.why, "%s", why.c_str());
  send_all(socket, &hello, sizeof hello);
  if (!why.empty()) _exit(0);
  // ThreadSanitizer's lock-order graph is cleared (megabytes written) when
  // the first lock of a process is made: done once here, not in every copy.
  {
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    pthread_mutex_unlock(&lock);
    pthread_mutex_destroy(&lock);
  }
  // Orphans of a schedule's tree (a daemon) come back here, to be ended
  // with it.
  prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  // The server waits for each copy: a SIGCHLD the program ignores (before
  // main, or inherited) would have the kernel reap the copy unasked and its
  // status lost. The server's disposition is its own; each copy gets the
  // program's back.
  struct sigaction program_sigchld {};
  struct sigaction wait_for_copies {};
  wait_for_copies.sa_handler = SIG_DFL;
  sigemptyset(&wait_for_copies.sa_mask);
  sigaction(SIGCHLD, &wait_for_copies, &program_sigchld);
  const pid_t server = getpid();
  for (;;) {
    int fds[3];
    if (!receive_go(socket, fds)) _exit(0);
    const pid_t copy = fork();
    if (copy == 0) return become_copy(socket, server, fds, program_sigchld);
    const int fork_errno = errno;
    for (int fd : fds) close(fd);
    send_word(socket, copy > 0 ? copy : -fork_errno);
    if (copy < 0) continue;
    int status = 0;
    while (raw_syscall(SYS_wait4, copy, &status, 0, nullptr) < 0 &&
           errno == EINTR) {
    }
    end_process_tree(copy);
    send_word(socket, status);
  }
}

}  // namespace racelab::runtime_internal
