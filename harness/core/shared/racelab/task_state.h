// The state of a thread of this process, as /proc/self/task/<tid>/stat
// tells it, read with the kernel's own calls (never through libc's names,
// which racelab interposes and a program may define as its own globals).
// Shared by the scheduler (whether a thread holding the turn is blocked)
// and the runner's stress watchdog (whether any thread is awake).
#ifndef RACELAB_SHARED_TASK_STATE_H_
#define RACELAB_SHARED_TASK_STATE_H_

namespace racelab {

// Reads /proc/self/task/<tid>/<file> into `buffer` (NUL-terminated, at most
// size - 1 bytes); the number of bytes read, or -1.
long read_task_file(long tid, const char* file, char* buffer, long size);

// The state letter of thread `tid` ('R', 'S', 'D', ...), '?' when it
// cannot be read (the thread is gone).
char task_state(long tid);

}  // namespace racelab

#endif  // RACELAB_SHARED_TASK_STATE_H_
