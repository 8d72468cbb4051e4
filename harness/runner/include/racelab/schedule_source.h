// Reading a schedule file's bytes, once and safely: `racelab replay` takes a
// path that may be a regular file, /dev/stdin or a process substitution
// (<(...)), and must neither hang on a FIFO nobody writes to nor read a device
// such as /dev/zero without end. The parent reads and checks the file; the
// child gets the same bytes through an in-memory file, never the path.
#ifndef RACELAB_HARNESS_SRC_SCHEDULE_SOURCE_H_
#define RACELAB_HARNESS_SRC_SCHEDULE_SOURCE_H_

#include <string>
#include <string_view>

namespace racelab {

// How long a pipe may stay silent before the read gives up (its writer is
// alive but sends nothing).
inline constexpr int kScheduleSourceIdleMs = 10000;

// The bytes of the schedule file at `path`: a regular file, or a pipe or FIFO
// that already has a writer (it is read to its end). Refuses directories,
// devices, sockets, a FIFO with no writer and anything longer than
// sched::ScheduleFile::kMaxBytes (it reads at most one byte more). Throws
// InputError with one line naming `path` and what is wrong.
std::string read_schedule_source(const std::string& path);

// The same for an open descriptor (read from its start when it is a regular
// file); `name` names it in messages. Does not close `fd`.
std::string read_schedule_fd(int fd, const std::string& name);

// A sealed in-memory file holding `text`, close-on-exec, on a descriptor
// above 4: how a schedule the parent has read and checked reaches the child
// (read from its start, see read_schedule_fd). Throws
// std::runtime_error when the system refuses (a harness failure).
int schedule_memfd(std::string_view text);

}  // namespace racelab

#endif  // RACELAB_HARNESS_SRC_SCHEDULE_SOURCE_H_
