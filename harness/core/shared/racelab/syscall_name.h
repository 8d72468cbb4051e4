// The names of the system calls a blocked or hung thread is most often
// found in (/proc/<pid>/task/<tid>/syscall gives the number): for the
// scheduler's unmodelled-block notes and the runner's hang reports.
#ifndef RACELAB_SYSCALL_NAME_H_
#define RACELAB_SYSCALL_NAME_H_

namespace racelab {

// "read", "futex", ...; nullptr for a number not in the list.
const char* syscall_name(long number);

}  // namespace racelab

#endif  // RACELAB_SYSCALL_NAME_H_
