// What every thread of a hung program is doing, for the hang finding of
// `racelab explore` and `racelab replay`: each thread's name, state and the
// system call it waits in, read from /proc, and, where gdb is installed,
// each thread's stack (gdb attaches, prints every backtrace and detaches).
#ifndef RACELAB_SRC_THREAD_STACKS_H_
#define RACELAB_SRC_THREAD_STACKS_H_

#include <sys/types.h>

#include <chrono>
#include <string>

namespace racelab {

// One line per thread of `pid` ("thread 1234 'name': state S, in system call
// 202 (futex), waits in futex_wait_queue"); empty when /proc has none.
std::string describe_threads(pid_t pid);

// Every thread's backtrace as gdb prints it ("Thread N ..." and its "#k"
// frames; gdb's other lines are dropped), or empty when gdb is not installed,
// cannot attach, or takes longer than `limit` (it is then killed). Bounded
// to 64 KiB.
std::string gdb_stacks(pid_t pid, std::chrono::seconds limit);

}  // namespace racelab

#endif  // RACELAB_SRC_THREAD_STACKS_H_
