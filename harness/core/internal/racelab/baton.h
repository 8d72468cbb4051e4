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

}  // namespace racelab::sched

#endif  // RACELAB_SCHED_BATON_H_
