// Fibers: execution contexts that share one OS thread and switch only when
// told to, the substrate of the controlled scheduler.
//
// A Fiber owns an mmap'ed stack with a PROT_NONE guard page below it and
// switches with Boost.Context's jump_fcontext (registers and stack pointer
// only; swapcontext also saved the signal mask, a system call per switch).
// Every switch is announced to the sanitizers: to ThreadSanitizer with
// __tsan_switch_to_fiber (each fiber has its own TSan thread context), to
// AddressSanitizer with __sanitizer_start_switch_fiber and
// __sanitizer_finish_switch_fiber. A switch creates no happens-before edge;
// release_to() and acquire_from() add the edges that creating and joining a
// real thread would add. Not thread-safe: a fiber belongs to the OS
// thread that runs it.
#ifndef RACELAB_SCHED_FIBER_H_
#define RACELAB_SCHED_FIBER_H_

#include <cstddef>
#include <memory>
#include <string>

namespace racelab::sched {

class Fiber {
 public:
  // Fibers alive in this process that ThreadSanitizer counts as threads
  // of their own (0 without TSan). A process with any is multi-threaded to
  // TSan: a child forked from it is no longer watched.
  static int live_sanitizer_contexts();

  using Entry = void (*)(void* arg);

  // Pages are committed only when touched, so this is mostly address space.
  static constexpr std::size_t kDefaultStackSize = 512 * 1024;

  // A fiber that runs entry(arg) on its own stack the first time it is
  // switched to. When entry returns, the fiber is finished and switches back to
  // the fiber that last switched to it; a finished fiber is never entered
  // again (switching to it aborts) unless restart() is called. An exception
  // escaping entry terminates the process.
  Fiber(Entry entry, void* arg, std::size_t stack_size = kDefaultStackSize);

  // The context the calling OS thread runs now: the scheduler's side of every
  // switch. It has no stack of its own and cannot be restarted.
  static std::unique_ptr<Fiber> for_current_thread();

  ~Fiber();  // a fiber with a stack must not be running
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // Switches from this fiber, which must be the running one, to `target` and
  // returns when a fiber switches back. Creates no happens-before edge.
  void switch_to(Fiber& target);

  // Happens-before edges, without a switch; this fiber must be the running
  // one. release_to: everything this fiber did so far happens before whatever
  // `other` does from now on (a spawn, as pthread_create). acquire_from:
  // everything `other` did so far happens before whatever this fiber does from
  // now on (a join, as pthread_join). No-ops without TSan.
  void release_to(Fiber& other);
  void acquire_from(Fiber& other);

  // Runs action(arg) here, on this fiber's stack, while TSan attributes what
  // it does to `other` (no happens-before either way). For TSan annotations
  // made on behalf of an abandoned fiber, such as releasing the locks it held.
  // Without TSan it simply calls action(arg).
  void run_as(Fiber& other, void (*action)(void*), void* arg);

  // Makes the fiber start entry(arg) afresh at its next switch-in, abandoning
  // whatever it was doing: its frames are never resumed nor unwound. A fiber
  // that ran gets a fresh TSan context; its stack is unpoisoned for ASan.
  void restart();

  // The fiber's name in sanitizer reports ("Thread T5 'racelab thread 1'").
  void set_name(const std::string& name);

  bool is_running() const { return running_; }
  bool has_started() const { return started_; }
  bool is_finished() const { return finished_; }

  // The usable stack, just above the guard page (nullptr / 0 for a thread's
  // own context until its bounds are learned).
  const void* stack_bottom() const { return stack_bottom_; }
  std::size_t stack_size() const { return stack_size_; }
  static std::size_t guard_size();

 private:
  struct ThreadContextTag {};
  explicit Fiber(ThreadContextTag);

  static void trampoline(void* source_context, void* source);
  void switch_impl(Fiber& target, bool leaving_for_good);
  void prepare_context();
  void learn_stack(const void* bottom, std::size_t size);  // ASan builds

  void* context_ = nullptr;  // where the fiber stopped (Boost's fcontext_t)
  Entry entry_ = nullptr;
  void* arg_ = nullptr;
  void* mapping_ = nullptr;  // stack plus guard page; null for a thread context
  std::size_t mapping_size_ = 0;
  const void* stack_bottom_ = nullptr;
  std::size_t stack_size_ = 0;
  bool is_thread_context_ = false;
  bool running_ = false;
  bool started_ = false;
  bool finished_ = false;
  Fiber* resumer_ = nullptr;  // the fiber that last switched to this one
  // Sanitizer and C++ runtime state; the fields exist in every build so the
  // class has one layout.
  [[maybe_unused]] void* tsan_context_ = nullptr;
  [[maybe_unused]] bool owns_tsan_context_ = false;
  [[maybe_unused]] void* asan_fake_stack_ = nullptr;
  void* caught_exceptions_ = nullptr;  // this fiber's __cxa_eh_globals
  unsigned int uncaught_exceptions_ = 0;
  std::string name_;
};

}  // namespace racelab::sched

#endif  // RACELAB_SCHED_FIBER_H_
