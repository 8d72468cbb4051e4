// Copies of one started program, a schedule each; see program_process.h.
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "absl/strings/str_cat.h"
#include "program_process.h"
#include "program_tree.h"
#include "racelab/program_channel.h"

namespace racelab {

using namespace program_tree;
using Clock = std::chrono::steady_clock;

struct ForkServer::Tree : StartedTree {};

std::unique_ptr<ForkServer> ForkServer::start(const ProgramLaunch& launch,
                                              std::string* why_not) {
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) {
    throw std::runtime_error(
        absl::StrCat("socketpair: ", std::strerror(errno)));
  }
  std::unique_ptr<ForkServer> server(new ForkServer);
  server->socket_ = ends[0];
  server->tree_ = std::make_unique<Tree>();
  ProgramRun prelude;
  const bool started = start_tree(launch, ends[1], *server->tree_, prelude);
  ::close(ends[1]);
  if (!started || prelude.exec_errno != 0) {
    *why_not = prelude.interrupted ? "racelab was stopped"
                                   : "the program could not be started";
    if (started) {
      server->end();
    } else {
      server->tree_.reset();  // no keeper to end
    }
    return nullptr;
  }
  // Until the program stands before main: its constructors' output, then
  // the hello (or the end of the program, which closes the socket).
  Tree& tree = *server->tree_;
  const OutputPipes output = {{&tree.out, &tree.err, &tree.reports}};
  const Clock::time_point deadline =
      Clock::now() + std::chrono::seconds(launch.hang_seconds);
  program_channel::ForkServerHello hello{};
  for (;;) {
    if (poll_run(output, prelude, server->socket_, -1).first) {
      ssize_t n;
      do {
        n = ::recv(server->socket_, &hello, sizeof hello, 0);
      } while (n < 0 && errno == EINTR);
      if (n != static_cast<ssize_t>(sizeof hello) ||
          hello.magic != hello.kMagic) {
        *why_not = "the program ended before main";
      } else if (hello.ready != 1) {
        hello.why[sizeof hello.why - 1] = '\0';
        *why_not = hello.why;
      }
      break;
    }
    if ((launch.stop_requested && launch.stop_requested()) ||
        Clock::now() > deadline) {
      *why_not = absl::StrCat("the program did not reach main within ",
                              launch.hang_seconds, " s");
      break;
    }
  }
  if (!why_not->empty()) {
    server->end();
    return nullptr;
  }
  drain_rest(output, prelude);
  server->prelude_out_ = prelude.out.text();
  server->prelude_err_ = prelude.err.text();
  server->prelude_reports_ = prelude.reports.text();
  return server;
}

ForkServer::~ForkServer() { end(); }

void ForkServer::end() {
  if (tree_ == nullptr) return;
  // The server ends at the end of its socket (or now), the keeper at the
  // end of its life pipe: it kills and reaps the whole tree.
  ::close(socket_);
  socket_ = -1;
  ::kill(-tree_->program, SIGKILL);
  ::kill(tree_->program, SIGKILL);
  tree_->life.close_write();
  end_started_tree(*tree_, nullptr);
  tree_.reset();
}

std::optional<ProgramRun> ForkServer::run(const ProgramLaunch& launch) {
  if (tree_ == nullptr) return std::nullopt;
  ProgramRun run;
  run.out = BoundedText(launch.out_head, 16 << 10);
  run.out.append(prelude_out_.data(), prelude_out_.size());
  run.err.append(prelude_err_.data(), prelude_err_.size());
  run.reports.append(prelude_reports_.data(), prelude_reports_.size());
  Pipe out, err, reports;
  const program_channel::ForkServerGo go{program_channel::ForkServerGo::kMagic};
  iovec io = {const_cast<program_channel::ForkServerGo*>(&go), sizeof go};
  alignas(cmsghdr) char control[CMSG_SPACE(3 * sizeof(int))] = {};
  msghdr message{};
  message.msg_iov = &io;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = sizeof control;
  cmsghdr* header = CMSG_FIRSTHDR(&message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(3 * sizeof(int));
  const int fds[3] = {out.write_end, err.write_end, reports.write_end};
  std::memcpy(CMSG_DATA(header), fds, sizeof fds);
  ssize_t sent;
  do {
    sent = ::sendmsg(socket_, &message, MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  out.close_write();
  err.close_write();
  reports.close_write();
  int copy = 0;
  if (sent != static_cast<ssize_t>(sizeof go) || !read_int(socket_, &copy)) {
    end();  // the server is gone: no copy was made
    return std::nullopt;
  }
  if (copy < 0) {
    throw std::runtime_error(
        absl::StrCat("cannot start the program: fork: ", std::strerror(-copy)));
  }
  for (int fd : {out.read_end, err.read_end, reports.read_end})
    ::fcntl(fd, F_SETFL, O_NONBLOCK);
  const OutputPipes output = {{&out, &err, &reports}};
  // Without a status word the server itself ended (and the copy with it):
  // its keeper tells its status.
  if (!watch_run(launch, copy, output, socket_, tree_->status.read_end, run)) {
    end();
  }
  drain_rest(output, run);
  return run;
}

}  // namespace racelab
