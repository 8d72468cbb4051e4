// The program's side of `racelab explore`'s fork server
// (program_channel.h): the process stops where main would start and serves
// copies of itself, one per schedule.
#ifndef RACELAB_SRC_RUNTIME_FORK_SERVER_H_
#define RACELAB_SRC_RUNTIME_FORK_SERVER_H_

#include <vector>

namespace racelab::runtime_internal {

// What a copy of the server learns: where its sanitizer reports go.
struct ForkedCopy {
  int report_fd = -1;
};

// The process's open descriptors.
std::vector<int> open_descriptors();

// Serves copies on `socket` until racelab closes it, then ends the process
// (exit status 0). Returns only in a copy, with stdout and stderr already
// the schedule's, in a process group of its own that dies with the server.
// A server that cannot serve says why on the socket and ends the process:
// a copy would share what a fresh process does not, a thread (more than
// one runs) or a descriptor the program opened (one not in `inherited`,
// those open before the program's constructors).
ForkedCopy serve_forks(int socket, const std::vector<int>& inherited);

}  // namespace racelab::runtime_internal

#endif  // RACELAB_SRC_RUNTIME_FORK_SERVER_H_
