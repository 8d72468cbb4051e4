// The hand-off between the OS threads of a controlled run: a futex word that
// one thread posts and one thread waits on.
//
// Only the thread holding the baton runs; it passes it on with post() and
// parks with wait(). The implementation (baton.cc) is compiled without
// sanitizer instrumentation and waits with the raw futex system call, so a
// hand-off adds no happens-before edge: ThreadSanitizer still sees two
// threads' unsynchronized accesses as a race although they never overlap, as
// it does for fibers.
#ifndef RACELAB_SCHED_BATON_H_
#define RACELAB_SCHED_BATON_H_

#include "racelab/task_state.h"

namespace racelab::sched {

class Baton {
 public:
  // Lets the waiting thread (or the next one to wait) run.
  void post();
  // Returns once the baton was posted, and consumes the post.
  void wait();

 private:
  int word_ = 0;  // 1: posted
};

// Parks the calling OS thread for good (an abandoned logical thread).
[[noreturn]] void park_forever();

// A word every thread reads without TSan seeing it (the running logical
// thread): relaxed atomic accesses compiled without instrumentation, so they
// are neither races nor interposed atomics.
int load_unseen(const int* word);
void store_unseen(int* word, int value);

// A lock word taken and freed the same way (acquire and release order, which
// TSan does not see): try_lock_unseen succeeds when it turned 0 into 1.
bool try_lock_unseen(int* word);
void unlock_unseen(int* word);
// Gives the CPU away (the raw system call: never a scheduling point).
void yield_cpu();
// Sleeps at most `ms` milliseconds while `*word` is 0; wake_unseen(word)
// (after it stored a nonzero value) ends the sleep at once.
void sleep_while_zero(int* word, int ms);
void wake_unseen(int* word);
// The calling thread's kernel thread id.
long own_tid();

// Whether a thread of this process other than `a` and `b` is runnable ('R')
// or busy in the kernel ('D': a disk, paging): one the holder may wait for.
bool other_task_running(long a, long b);
// The system call a thread is in (/proc/self/task/<tid>/syscall): its
// number, arguments, stack pointer and the address it will return to.
struct TaskSyscall {
  long number = -1;
  unsigned long args[6] = {};
  unsigned long sp = 0;
  unsigned long pc = 0;
};
// False when thread `tid` is not in a system call.
bool task_syscall(long tid, TaskSyscall* call);

// Whether a thread blocked in `call` can be woken only by a thread of this
// process: a futex wait with no time limit, or a read (write) of a pipe
// whose write (read) end this process also holds open. A wait for another
// process (a child, the sanitizer's symbolizer, racelab's report pipe) or
// for time (a sleep, a timed wait) ends by itself, and is not one.
bool only_this_process_can_end(const TaskSyscall& call);

}  // namespace racelab::sched

#endif  // RACELAB_SCHED_BATON_H_
