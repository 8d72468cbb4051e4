// The controlled scheduler: runs logical threads as fibers or baton-passing OS
// threads, asks the strategy at every scheduling point, models blocking on
// locks, condition variables and joins, detects deadlocks, and records the
// decisions and the trace.
//
// TSan discipline. The bookkeeping below (thread states, lock owners, trace,
// decisions, the strategy) is touched by every fiber, and no happens-before
// orders those fibers, so every access to it happens inside a HarnessScope,
// where TSan ignores the fiber's memory accesses; `current_` is an atomic
// because user code reads it through current_thread(). A scope never spans a
// switch: a hook decides inside its scope and switches after it, so a fiber is
// never suspended (or abandoned) with TSan ignores enabled. No std::string or
// other owner of heap memory is alive on a fiber's stack across a switch, so
// abandoning or parking a fiber leaks nothing of the harness's.
//
// Unmodelled blocks (OS threads). The run's state is touched by the thread
// that holds the baton and, when that thread blocks in the kernel outside
// every scheduling point, by the watching thread that ends its turn for it.
// Every touch of the state by a logical thread or the watcher is made with
// the turn word (`turn_`, a lock the baton holder takes at each hook and
// frees before it passes the baton on) held: the watcher takes a turn only
// when the holder is outside every hook, so the blocked thread, back from
// the kernel at its next hook, finds at the turn word that it runs free and
// waits to be readmitted. Decisions readmit the threads that came back.
#include "racelab/internal/sched/scheduler.h"

#include <cxxabi.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "racelab/baton.h"
#include "racelab/internal/progress.h"
#include "racelab/syscall_name.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RACELAB_SCHED_TSAN 1
#endif
#if __has_feature(address_sanitizer)
#define RACELAB_SCHED_ASAN 1
#endif
#endif
#if !defined(RACELAB_SCHED_TSAN) && defined(__SANITIZE_THREAD__)
#define RACELAB_SCHED_TSAN 1
#endif
#if !defined(RACELAB_SCHED_ASAN) && defined(__SANITIZE_ADDRESS__)
#define RACELAB_SCHED_ASAN 1
#endif

#ifdef RACELAB_SCHED_TSAN
#include <sanitizer/tsan_interface.h>
// Exported by the TSan runtime (not declared in its public header in LLVM 14).
extern "C" void __tsan_ignore_thread_begin();
extern "C" void __tsan_ignore_thread_end();
extern "C" void AnnotateThreadName(const char* file, int line,
                                   const char* name);
#endif
// The sanitizer runtimes' symbolizer (weak: absent without a sanitizer).
extern "C" void __sanitizer_symbolize_pc(void* pc, const char* format,
                                         char* out, std::size_t size)
    __attribute__((weak));

namespace racelab::interpose_internal {
int real_pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                        void* (*start)(void*), void* arg);
int real_pthread_join(pthread_t thread, void** result);
}  // namespace racelab::interpose_internal
#ifdef RACELAB_SCHED_ASAN
#include <sanitizer/lsan_interface.h>
#endif

#define RACELAB_NO_SANITIZE_THREAD __attribute__((no_sanitize("thread")))

namespace racelab::sched {

HarnessScope::HarnessScope() {
  interpose_internal::enter_unwatched_harness();
#ifdef RACELAB_SCHED_TSAN
  __tsan_ignore_thread_begin();
#endif
}

HarnessScope::~HarnessScope() {
#ifdef RACELAB_SCHED_TSAN
  __tsan_ignore_thread_end();
#endif
  interpose_internal::leave_unwatched_harness();
}

std::string_view to_string(Substrate substrate) {
  return substrate == Substrate::kOsThreads ? "threads" : "fibers";
}

std::optional<Substrate> parse_substrate(std::string_view name) {
  if (name == "fibers") return Substrate::kFibers;
  if (name == "threads") return Substrate::kOsThreads;
  return std::nullopt;
}

std::string_view to_string(RunResult::Status status) {
  switch (status) {
    case RunResult::Status::kCompleted:
      return "completed";
    case RunResult::Status::kDeadlock:
      return "deadlock";
    case RunResult::Status::kStepLimit:
      return "step limit";
    case RunResult::Status::kLengthLimit:
      return "length limit";
  }
  return "unknown";
}

std::string limit_summary(RunResult::Status status, std::int64_t limit) {
  if (status == RunResult::Status::kLengthLimit) {
    return "the schedule did not finish within " + std::to_string(limit) +
           " scheduling decisions, still making progress: too long a run for "
           "racelab's length limit (not a livelock)";
  }
  return "no progress in " + std::to_string(limit) +
         " scheduling decisions in a row (no store, lock, unlock, notify, "
         "post, join or thread end): probable livelock";
}

namespace internal {

class SchedulerCore {
 public:
  SchedulerCore(ControlledScheduler* hooks, SchedulerOptions options)
      : hooks_(hooks), options_(options) {}

  RunResult run(const std::vector<std::function<void()>>& threads,
                const std::function<void()>* program, Strategy& strategy);

  bool owns_calling_thread() const;
  void yield_point(const char* what, PointEffect effect, PointAccess access,
                   PointKind kind);
  void touched(PointAccess access);
  void progressed();
  bool block_on(const void* lock, const char* lock_name, LockMode mode,
                bool timed);
  void acquired(const void* lock, const char* lock_name, LockMode mode);
  bool holds_exclusively(const void* lock) const;
  void released(const void* lock, LockMode mode);
  bool cond_wait(const void* cond, bool timed);
  void cond_notify(const void* cond, bool all);
  bool spawn(pthread_t* thread, const pthread_attr_t* attr,
             void* (*start)(void*), void* arg, int* result);
  bool object_wait(PointAccess object, bool timed);
  int wake_object(const void* object, int at_most);
  int object_waiters(const void* object) const;
  bool join(pthread_t thread, JoinWait wait, bool* finished);
  void detach(pthread_t thread);
  void cancel(pthread_t thread);
  bool another_thread_can_run() const;
  void note(std::string&& text);
  void begin_operation(int index);
  void set_switch_observer(SwitchObserver observer, void* context) {
    observer_ = observer;
    observer_context_ = context;
  }
  void set_block_observer(BlockObserver observer, void* context) {
    block_observer_ = observer;
    block_observer_context_ = context;
  }
  bool os_threads() const {
    return options_.substrate == Substrate::kOsThreads;
  }
  bool tracing() const { return tracing_; }
  // ControlledScheduler::last_store_step for logical thread `me`.
  std::uint64_t last_store_step(int me) const {
    return threads_[static_cast<std::size_t>(me)].last_store_step;
  }

  // The fiber entry: runs whichever logical thread it is given, once per run.
  static void fiber_main(void* core);
  // The OS thread entry, and the end of an OS thread (a thread-specific
  // value's destructor, so that its thread_local destructors ran before).
  static void* os_thread_main(void* os_thread);
  static void os_thread_finished(void* os_thread);
  // The watching thread of a run on OS threads (unmodelled blocks).
  static void* watch_main(void* core);

  // Read by the interposed primitives on every call: never an instrumented
  // (and so interposed) atomic.
  int current() const { return load_unseen(&current_); }

 private:
  // kFree: it blocked in the kernel outside every scheduling point and its
  // turn was ended for it; it runs free until its next hook.
  enum class Status { kRunnable, kBlocked, kFinished, kFree };
  enum class Wait { kNone, kLock, kCond, kJoin, kObject };
  struct LogicalThread {
    const std::function<void()>* body = nullptr;
    void* (*start)(void*) = nullptr;  // a thread the run created
    void* arg = nullptr;
    Status status = Status::kRunnable;
    bool started = false;
    Wait wait = Wait::kNone;
    // The lock, condition variable, barrier or semaphore.
    const void* waiting_for = nullptr;
    ObjectKind waiting_kind = ObjectKind::kNone;  // of an object wait
    LockMode waiting_mode = LockMode::kExclusive;
    int join_target = -1;
    bool timed = false;    // a timed wait: still schedulable (its timeout)
    long wait_order = 0;   // condition variables wake in this order
    int spin = 0;          // consecutive no-progress points
    bool yielded = false;  // its last point was a yield or a sleep
    const char* site = "start";  // the scheduling point it stopped at last
    int operation = -1;          // from begin_operation()
    // What its step touches: the access of the point it stopped at, then
    // what it touched while it ran (Strategy::step_finished).
    sched::Footprint step{PointAccess::none()};
    // The last step in which it touched a lock or an atomic (0: none yet).
    std::uint64_t last_store_step = 0;
    bool returned = false;  // kFree, and back at a hook: to be readmitted
  };
  // The OS thread of a logical thread (Substrate::kOsThreads).
  struct OsThread {
    SchedulerCore* core = nullptr;
    int id = 0;
    pthread_t handle{};
    long tid = 0;  // its kernel thread id, once it runs
    Baton baton;
    bool created = false;
    bool abandoned = false;  // the run ended without it: park, never resume
    bool detached = false;
    bool joined = false;
  };
  struct Holder {
    int thread;
    LockMode mode;
  };
  struct LockState {
    std::string name = "lock";
    std::vector<Holder> holders;
    // Where the run first took it: return addresses, innermost first.
    std::vector<const void*> first_taken_at;
    int last_owner = -1;  // the thread that took it last
  };

  static constexpr int kMaxThreads = 1024;
  static constexpr int kToCaller = -1;  // "thread" -1: the caller of run()
  // No thread holds the baton: every thread that could run runs free; the
  // first to come back to a hook decides.
  static constexpr int kNobody = -2;

  // Holds the turn word (see the top of this file) while it lives; a
  // thread that finds it runs free waits to be readmitted first.
  class Turn {
   public:
    Turn(SchedulerCore* core, int me) : core_(core) { core_->claim(me); }
    ~Turn() { release(); }
    Turn(const Turn&) = delete;
    Turn& operator=(const Turn&) = delete;
    void release() {
      if (core_ != nullptr) core_->unclaim();
      core_ = nullptr;
    }

   private:
    SchedulerCore* core_;
  };
  void claim(int me);
  void unclaim() {
    if (load_unseen(&watching_) != 0) unlock_unseen(&turn_);
  }
  // Watcher: ends the blocked holder's turn (turn word held).
  int take_turn_of(int holder, long tid);
  void watch();
  void start_watch();
  void stop_watch();

  int enter_hook(const char* hook) const;
  void run_thread();
  void run_body(int me);
  int decide(int me, const char* what, PointKind kind = PointKind::kInner,
             PointAccess at = PointAccess::unknown());
  // A lock or an atomic touched by the running `thread`: its step is the one
  // the last decision began (decisions are counted from 1).
  void note_store_access(LogicalThread& thread, PointAccess access) const {
    if (access.object_kind == ObjectKind::kLock ||
        access.object_kind == ObjectKind::kAtomic) {
      thread.last_store_step = decisions_.size();
    }
  }
  int end_run();
  // Something another thread can see changed: every thread's spin count
  // starts again, and so does the step limit's count.
  void note_run_progress() {
    for (LogicalThread& thread : threads_) thread.spin = 0;
    progress_at_ = decisions_.size();
  }
  Fiber* fiber_of(int thread) const;
  Baton& baton_of(int thread);
  // Ends `me`'s turn and starts `to`'s; returns when `me` runs again.
  // `to` may be kNobody: `me` only waits. Frees `turn` (held by `me`)
  // right before it passes the baton on.
  void switch_away(int me, int to, Turn* turn = nullptr);
  void start_os_thread(int id, const pthread_attr_t* attr);
  void finish_os_thread(int me);
  [[noreturn]] void abandon_self(int me);
  // run_program's main returned: a scheduling point where the other threads
  // may still run, then the end of the run (the others are abandoned, as a
  // process exit ends them).
  void exit_program(int me);
  void end_os_threads();
  void add_row(int thread, TraceKind kind, std::string text);
  // A lock row: its text ("<verb> 'name'", " (shared)") and its lock fields.
  void add_lock_row(int thread, TraceKind kind, const char* verb,
                    const std::string& lock_name, LockMode mode);
  LockState& lock_state(const void* lock, const char* lock_name);
  void wake_waiters_of(const void* lock);
  bool retakes_own_lock(int me, PointAccess access) const;
  // The logical thread of this run whose OS thread is `thread`, or -1. The
  // newest wins: a handle may be reused once its thread has ended.
  int thread_of(pthread_t thread) const {
    for (auto os = os_.rbegin(); os != os_.rend(); ++os) {
      if ((*os)->created && pthread_equal((*os)->handle, thread)) {
        return (*os)->id;
      }
    }
    return -1;
  }
  // Ends `thread`'s wait: it can run again (a waker's side of a wait).
  static void wake(LogicalThread& thread) {
    thread.status = Status::kRunnable;
    thread.wait = Wait::kNone;
    thread.waiting_for = nullptr;
  }
  bool runnable_besides(int me) const;
  bool end_wait(int me, Wait kind);
  void finished(int me);
  const std::string& object_name(PointAccess object);
  // The name object_name() gave `object`, or "?".
  std::string known_object_name(const void* object) const {
    auto name = objects_.find(object);
    return name != objects_.end() ? name->second : "?";
  }
  std::string describe_wait(int thread) const;
  std::string describe_lock(const void* lock) const;
  std::string describe_deadlock() const;
  // Each lock and condition variable a blocked thread waits for: its
  // address and where it was first taken (not deterministic: addresses).
  std::string describe_deadlock_locks() const;
  void forget_abandoned_locks();
  void recycle_abandoned_fibers();

  ControlledScheduler* const hooks_;
  const SchedulerOptions options_;
  SwitchObserver observer_ = nullptr;
  void* observer_context_ = nullptr;
  BlockObserver block_observer_ = nullptr;
  void* block_observer_context_ = nullptr;

  // Kept from run to run.
  std::vector<std::unique_ptr<Fiber>> fibers_;

  // State of the current run.
  std::unique_ptr<Fiber> caller_;  // the context that called run()
  Baton caller_baton_;             // OS threads: the caller's turn
  int run_cpu_ = -1;               // OS threads: the CPU they all run on
  Baton abandon_done_;             // OS threads: an abandoned one parked
  std::vector<std::unique_ptr<OsThread>> os_;
  const std::function<void()>* program_ = nullptr;  // run_program's main
  Strategy* strategy_ = nullptr;
  std::vector<LogicalThread> threads_;
  // What each thread's next step touches first, for the strategy.
  std::vector<PointAccess> next_accesses_;
  std::unordered_map<const void*, LockState> locks_;
  std::unordered_map<const void*, std::string> conds_;  // names
  // Barriers' and semaphores' names ("barrier 1"), and how many of each.
  std::unordered_map<const void*, std::string> objects_;
  int barriers_ = 0;
  int semaphores_ = 0;
  int futexes_ = 0;
  int guards_ = 0;
  int unnamed_locks_ = 0;
  long wait_clock_ = 0;
  std::vector<int> enabled_;
  std::vector<int> decisions_;
  std::size_t progress_at_ = 0;  // decisions_.size() at the last progress
  std::int64_t limit_ = 0;       // RunResult::limit
  std::vector<int> decision_operations_;  // parallel to decisions_
  int preemptions_ = 0;
  int inner_points_ = 0;
  // Fairness took a choice away in this run (RunResult::fairness_cut).
  bool fairness_cut_ = false;
  RunResult::Status status_ = RunResult::Status::kCompleted;
  std::string deadlock_report_;
  std::string deadlock_locks_;
  Trace trace_;
  bool tracing_ = true;  // the run's strategy records its trace
  std::vector<std::string> thread_errors_;
  std::exception_ptr error_;
  int current_ = -1;  // atomic through current() and set_current()
  // Unmodelled blocks (OS threads): whether this run is watched, the turn
  // word, the decisions so far (read by the watcher), the run's number (a
  // thread of an earlier run that comes back from the kernel parks), the
  // watcher and its stop word, and the blocks seen.
  int watching_ = 0;
  bool watcher_started_ = false;
  mutable int turn_ = 0;
  int free_[kMaxThreads] = {};  // 1: the thread runs free (kFree)
  int decision_count_ = 0;
  int generation_ = 0;
  pthread_t watcher_{};
  int stop_watch_ = 0;
  std::vector<UnmodelledBlock> blocks_;
  // Sizes of the last run's decision list and trace: the next run reserves
  // them up front instead of growing both vectors step by step.
  std::size_t last_decisions_ = 0;
  std::size_t last_rows_ = 0;

  void set_current(int t) { store_unseen(&current_, t); }
};

namespace {

// Thread-local on purpose: the scheduler driving this OS thread's logical
// threads (the fibers of the caller's thread, or this OS thread of a run),
// set for the length of one run (plumbing, not state a run leaves).
thread_local SchedulerCore* t_active = nullptr;

// Sets t_active and tells the interposer whether this OS thread takes part in
// a run (it never asks other threads' questions of a scheduler that may be
// going away).
void set_active(SchedulerCore* core) {
  t_active = core;
  interpose_internal::set_thread_in_run(core != nullptr);
}
// The logical thread this OS thread runs (Substrate::kOsThreads), else -1.
thread_local int t_me = -1;
// The run (SchedulerCore::generation_) this OS thread belongs to.
thread_local int t_generation = 0;

[[noreturn]] void die(const char* message) {
  std::fprintf(stderr, "racelab: controlled scheduler: %s\n", message);
  std::abort();
}

// Waits until the OS thread `tid` of this process, whose logical thread
// finished, is gone (its last steps: thread-specific destructors and
// ThreadSanitizer's end of the thread), at most 5 seconds.
void wait_until_gone(long tid) {
  const long pid = getpid();
  for (int i = 0; i < 50000 && syscall(SYS_tgkill, pid, tid, 0) == 0; ++i) {
    const timespec pause{0, 100000};
    syscall(SYS_nanosleep, &pause, nullptr);
  }
}

// The access of taking or releasing `lock` in `mode`: shared ones commute.
PointAccess lock_access(const void* lock, LockMode mode) {
  return {ObjectKind::kLock, lock,
          mode == LockMode::kShared ? AccessKind::kRead : AccessKind::kWrite};
}

// A logical thread as an object (its end, a join of it).
const void* thread_object(int thread) {
  return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(thread) + 1);
}

const char* mode_name(LockMode mode) {
  return mode == LockMode::kShared ? "shared" : "exclusive";
}

std::string quoted(const std::string& name) { return "'" + name + "'"; }

// "<verb> '<name>'" plus " (shared)" for a shared lock: the text of a lock row,
// built in one allocation (a row per lock operation is the scheduler's most
// frequent string).
std::string lock_row(const char* verb, const std::string& name, LockMode mode) {
  const char* suffix = mode == LockMode::kShared ? " (shared)" : "";
  std::string text;
  text.reserve(std::strlen(verb) + name.size() + std::strlen(suffix) + 3);
  text.append(verb).append(" '").append(name).append("'").append(suffix);
  return text;
}

// "at 0x7b0c00001234, first taken in Store::put(int) store.cc:31": the
// first frame of `stack` outside the standard library, the pthread layer and
// racelab, as the sanitizer's symbolizer names it.
std::string where(const void* address, const std::vector<const void*>& stack) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, "at %p", address);
  std::string text = buffer;
  if (&__sanitizer_symbolize_pc == nullptr) return text;
  for (const void* pc : stack) {
    buffer[0] = '\0';
    __sanitizer_symbolize_pc(
        const_cast<char*>(static_cast<const char*>(pc)) - 1, "%f %L", buffer,
        sizeof buffer);
    const std::string_view frame = buffer;
    if (frame.empty() || frame.starts_with("std::") ||
        frame.starts_with("__gthread") || frame.starts_with("racelab::") ||
        frame.starts_with("pthread_") || frame.starts_with("__interceptor")) {
      continue;
    }
    return text + ", first taken in " + std::string(frame);
  }
  return text;
}

// The key whose destructor ends an OS thread's logical thread.
pthread_key_t finish_key() {
  NotSchedulingPoints harness;  // the guard of the static is an atomic
  static const pthread_key_t key = [] {
    pthread_key_t made;
    if (pthread_key_create(&made, &SchedulerCore::os_thread_finished) != 0) {
      die("pthread_key_create failed");
    }
    return made;
  }();
  return key;
}

#ifdef RACELAB_SCHED_ASAN
// LeakSanitizer does not scan fiber stacks. The frames of an abandoned
// (deadlocked) thread still reference the heap it owned, as a deadlocked real
// thread's stack would, so instead of reusing its stack we keep it mapped and
// register it as a root region until exit. Bounded; past the bound the fiber
// is simply destroyed.
void retire_abandoned_fiber(std::unique_ptr<Fiber> fiber) {
  // Process-wide on purpose (not per Session): a retired stack stays a root
  // region until the process exits, whichever run abandoned it.
  constexpr std::size_t kMaxRetired = 4096;
  static std::mutex* const mu = new std::mutex;
  static std::vector<Fiber*>* const retired = new std::vector<Fiber*>;
  std::lock_guard<std::mutex> lock(*mu);
  if (retired->size() >= kMaxRetired) return;
  __lsan_register_root_region(fiber->stack_bottom(), fiber->stack_size());
  retired->push_back(fiber.release());
}
#endif

#ifdef RACELAB_SCHED_TSAN
struct HeldLock {
  const void* lock;
  LockMode mode;
};
// Tells TSan that the calling context no longer holds the lock.
RACELAB_NO_SANITIZE_THREAD void release_in_tsan(void* arg) {
  const auto* held = static_cast<const HeldLock*>(arg);
  void* address = const_cast<void*>(held->lock);
  const unsigned flags =
      held->mode == LockMode::kShared ? __tsan_mutex_read_lock : 0;
  __tsan_mutex_pre_unlock(address, flags);
  __tsan_mutex_post_unlock(address, flags);
}
#endif

}  // namespace

RACELAB_NO_SANITIZE_THREAD void SchedulerCore::fiber_main(void* core) {
  auto* self = static_cast<SchedulerCore*>(core);
  for (;;) self->run_thread();
}

Fiber* SchedulerCore::fiber_of(int thread) const {
  return thread >= 0 ? fibers_[static_cast<std::size_t>(thread)].get()
                     : caller_.get();
}

Baton& SchedulerCore::baton_of(int thread) {
  return thread >= 0 ? os_[static_cast<std::size_t>(thread)]->baton
                     : caller_baton_;
}

void SchedulerCore::switch_away(int me, int to, Turn* turn) {
  if (!os_threads()) {
    if (turn != nullptr) turn->release();
    Fiber* from = fiber_of(me);
    Fiber* next = fiber_of(to);
    if (from != next) from->switch_to(*next);
    return;
  }
  if (to == me) {
    if (turn != nullptr) turn->release();
    return;
  }
  Baton* next;
  Baton* mine;
  {
    // os_ grows when a thread spawns another: read it as bookkeeping.
    HarnessScope harness;
    next = to == kNobody ? nullptr : &baton_of(to);
    mine = &baton_of(me);
  }
  if (turn != nullptr) turn->release();
  if (next != nullptr) next->post();
  mine->wait();
  bool abandoned;
  {
    HarnessScope harness;
    abandoned = me >= 0 && os_[static_cast<std::size_t>(me)]->abandoned;
  }
  if (abandoned) abandon_self(me);
}

bool SchedulerCore::owns_calling_thread() const {
  if (t_active != this) return false;
  return os_threads() ? t_me >= 0 : current() >= 0;
}

int SchedulerCore::enter_hook(const char* hook) const {
  if (t_active != this) {
    std::fprintf(stderr,
                 "racelab: controlled scheduler: %s was called on an OS thread "
                 "the scheduler does not run\n",
                 hook);
    std::abort();
  }
  const int me = os_threads() ? t_me : current();
  if (me < 0) die("a scheduling hook was called outside a logical thread");
  return me;
}

void SchedulerCore::add_row(int thread, TraceKind kind, std::string text) {
  if (!tracing_) return;
  const int step =
      decisions_.empty() ? 0 : static_cast<int>(decisions_.size()) - 1;
  trace_.rows.push_back(TraceRow(step, thread, kind, std::move(text)));
}

void SchedulerCore::add_lock_row(int thread, TraceKind kind, const char* verb,
                                 const std::string& lock_name, LockMode mode) {
  if (!tracing_) return;
  add_row(thread, kind, lock_row(verb, lock_name, mode));
  TraceRow& row = trace_.rows.back();
  row.lock = lock_name;
  row.shared = mode == LockMode::kShared;
}

// Harness scope held. A lock seen for the first time in this run gets its
// name: the one racelab::Mutex gave it, the caller's, or, for the interposed
// primitives' generic names, the next number ("mutex 1").
SchedulerCore::LockState& SchedulerCore::lock_state(const void* lock,
                                                    const char* lock_name) {
  auto [it, inserted] = locks_.try_emplace(lock);
  if (inserted) {
    if (const char* given = racelab::lock_name(lock)) {
      it->second.name = given;
    } else if (lock_name == kUnnamedMutex || lock_name == kUnnamedSharedMutex) {
      it->second.name =
          std::string(lock_name) + " " + std::to_string(++unnamed_locks_);
    } else if (lock_name != nullptr) {
      it->second.name = lock_name;
    }
  }
  return it->second;
}

// Harness scope held. Returns the thread to run next (possibly `me`), or
// kToCaller when the run is over.
int SchedulerCore::decide(int me, const char* what, PointKind kind,
                          PointAccess at) {
  if (me >= 0) {
    LogicalThread& running = threads_[static_cast<std::size_t>(me)];
    strategy_->step_finished(me, running.step);
    running.step.assign(1, at);
  }
  enabled_.clear();
  bool all_finished = true;
  bool any_fresh = false;  // an enabled thread under the fairness bound
  bool any_free = false;
  for (int t = 0; t < static_cast<int>(threads_.size()); ++t) {
    LogicalThread& thread = threads_[static_cast<std::size_t>(t)];
    if (thread.status == Status::kFree && thread.returned) {
      // Back from a block the scheduler does not model: readmitted.
      thread.status = Status::kRunnable;
      thread.returned = false;
      store_unseen(&free_[t], 0);
      thread.spin = 0;
      thread.step.assign(1, PointAccess::unknown());
      add_row(t, TraceKind::kSwitch, "back at a scheduling point");
    }
    if (thread.status == Status::kFree) any_free = true;
    if (thread.status == Status::kRunnable) {
      enabled_.push_back(t);
      if (options_.spin_bound <= 0 || thread.spin < options_.spin_bound) {
        any_fresh = true;
      }
    }
    if (thread.status != Status::kFinished) all_finished = false;
  }
  if (enabled_.empty() && any_free) {
    // Wait for a thread that runs free to come back (the first one to
    // reach a hook decides).
    if (me >= 0) threads_[static_cast<std::size_t>(me)].site = what;
    set_current(kNobody);
    return kNobody;
  }
  if (enabled_.empty()) {
    if (all_finished) {
      status_ = RunResult::Status::kCompleted;
    } else {
      status_ = RunResult::Status::kDeadlock;
      deadlock_report_ = describe_deadlock();
      deadlock_locks_ = describe_deadlock_locks();
    }
    return end_run();
  }
  if (any_fresh && options_.spin_bound > 0) {
    // Fairness: spinning threads wait while another thread can run.
    const std::size_t before = enabled_.size();
    std::erase_if(enabled_, [&](int t) {
      return threads_[static_cast<std::size_t>(t)].spin >= options_.spin_bound;
    });
    if (enabled_.size() != before) fairness_cut_ = true;
  }
  if (me >= 0 &&
      std::exchange(threads_[static_cast<std::size_t>(me)].yielded, false)) {
    // A yield or a sleep gives way to any other thread that can run, even
    // one that is spinning too: a poll that sleeps never starves the thread
    // it waits for.
    if (enabled_.size() > 1 && std::erase(enabled_, me) > 0) {
      fairness_cut_ = true;
    }
  }
  const bool stalled = decisions_.size() - progress_at_ >=
                       static_cast<std::size_t>(options_.max_steps);
  const std::int64_t length_limit =
      std::max<std::int64_t>(options_.max_total_steps, options_.max_steps);
  if (stalled || static_cast<std::int64_t>(decisions_.size()) >= length_limit) {
    status_ = stalled ? RunResult::Status::kStepLimit
                      : RunResult::Status::kLengthLimit;
    limit_ = stalled ? options_.max_steps : length_limit;
    if (me >= 0) {
      add_row(me, TraceKind::kSwitch,
              stalled ? "stopped: step limit (" +
                            std::to_string(options_.max_steps) +
                            " steps without progress)"
                      : "stopped: length limit (" +
                            std::to_string(length_limit) + " steps)");
    }
    return end_run();
  }
  note_progress();
  int next;
  try {
    if (strategy_->wants_next_accesses()) {
      next_accesses_.resize(threads_.size());
      for (std::size_t t = 0; t < threads_.size(); ++t) {
        const sched::Footprint& step = threads_[t].step;
        next_accesses_[t] = step.empty() ? PointAccess::none() : step.front();
      }
      strategy_->next_accesses(next_accesses_);
    }
    next = strategy_->pick(enabled_, me);
  } catch (...) {
    error_ = std::current_exception();
    return end_run();
  }
  if (std::find(enabled_.begin(), enabled_.end(), next) == enabled_.end()) {
    error_ = std::make_exception_ptr(ScheduleError(
        "strategy '" + std::string(strategy_->name()) + "' picked thread " +
        std::to_string(next) + ", which is not enabled, at step " +
        std::to_string(decisions_.size())));
    return end_run();
  }
  const bool me_enabled = me >= 0 && std::find(enabled_.begin(), enabled_.end(),
                                               me) != enabled_.end();
  if (me_enabled && next != me) {
    ++preemptions_;
    if (tracing_) {
      add_row(me, TraceKind::kSwitch,
              std::string("preempted at '") + what + "'");
    }
  }
  if (me >= 0) threads_[static_cast<std::size_t>(me)].site = what;
  if (me >= 0 && kind == PointKind::kInner) ++inner_points_;
  if (observer_ != nullptr) {
    const SwitchEvent event{me,
                            what,
                            next,
                            threads_[static_cast<std::size_t>(next)].site,
                            me_enabled && next != me,
                            me >= 0 && kind == PointKind::kOperationStart,
                            tracing_ ? &trace_ : nullptr};
    observer_(event, observer_context_);
  }
  decisions_.push_back(next);
  store_unseen(&decision_count_, static_cast<int>(decisions_.size()));
  LogicalThread& chosen = threads_[static_cast<std::size_t>(next)];
  decision_operations_.push_back(chosen.operation);
  chosen.started = true;
  note_store_access(chosen, chosen.step.front());
  set_current(next);
  return next;
}

int SchedulerCore::end_run() {
  set_current(-1);
  return kToCaller;
}

namespace {

// The OS threads of a controlled run take turns: only the one that holds the
// baton runs. On one CPU a hand-off is a switch on that CPU's run queue;
// across CPUs it is a wake-up sent to another CPU (an interprocessor
// interrupt, on a virtual machine an exit to the hypervisor), which then has
// to be scheduled there. So a run's threads all run on the CPU its caller was
// on when the run began; the caller gets its own affinity back at the end.
// Nothing of the run's semantics changes: one thread runs at a time anyway.
// A caller already bound to one CPU (a case's child process binds itself
// once, at its start: pin_process_to_one_cpu) is left as it is, and its
// threads inherit its CPU: a run then changes no affinity at all, and a
// process killed in the middle of its runs is never inside that system call.
class PinnedToOneCpu {
 public:
  explicit PinnedToOneCpu(bool enabled) {
    if (!enabled) return;
    if (sched_getaffinity(0, sizeof saved_, &saved_) != 0) return;
    if (CPU_COUNT(&saved_) == 1) return;  // bound already: nothing to do
    cpu_ = sched_getcpu();
    if (cpu_ < 0 || !pin_calling_thread(cpu_)) cpu_ = -1;
  }
  ~PinnedToOneCpu() {
    if (cpu_ >= 0) sched_setaffinity(0, sizeof saved_, &saved_);
  }
  PinnedToOneCpu(const PinnedToOneCpu&) = delete;
  PinnedToOneCpu& operator=(const PinnedToOneCpu&) = delete;
  // The CPU the run's threads must bind themselves to; -1 when they need not
  // (their creator was bound to one CPU before the run, or binding failed).
  int cpu() const { return cpu_; }

  static bool pin_calling_thread(int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) return false;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(0, sizeof one, &one) == 0;
  }

 private:
  int cpu_ = -1;
  cpu_set_t saved_{};
};

}  // namespace

RunResult SchedulerCore::run(const std::vector<std::function<void()>>& threads,
                             const std::function<void()>* program,
                             Strategy& strategy) {
  if (t_active != nullptr) {
    throw std::logic_error(
        "ControlledScheduler::run called inside a controlled run");
  }
  if (active_scheduling_hooks() != nullptr) {
    throw std::logic_error(
        "ControlledScheduler::run: scheduling hooks are already installed "
        "(one controlled run per process at a time)");
  }
  if (threads.size() > static_cast<std::size_t>(kMaxThreads)) {
    throw std::invalid_argument("ControlledScheduler::run: more than " +
                                std::to_string(kMaxThreads) + " threads");
  }
  program_ = program;
  const std::size_t count = program != nullptr ? 1 : threads.size();

  threads_.assign(count, LogicalThread{});
  for (std::size_t i = 0; i < threads.size(); ++i) {
    threads_[i].body = &threads[i];
  }
  if (program != nullptr) threads_[0].body = program;
  locks_.clear();
  conds_.clear();
  objects_.clear();
  barriers_ = 0;
  semaphores_ = 0;
  futexes_ = 0;
  guards_ = 0;
  unnamed_locks_ = 0;
  wait_clock_ = 0;
  decisions_.clear();
  progress_at_ = 0;
  decisions_.reserve(last_decisions_);
  decision_operations_.clear();
  decision_operations_.reserve(last_decisions_);
  preemptions_ = 0;
  inner_points_ = 0;
  fairness_cut_ = false;
  status_ = RunResult::Status::kCompleted;
  limit_ = 0;
  deadlock_report_.clear();
  deadlock_locks_.clear();
  trace_ = Trace{static_cast<int>(count), {}};
  tracing_ = strategy.records_trace();
  if (tracing_) trace_.rows.reserve(last_rows_);
  thread_errors_.clear();
  error_ = nullptr;
  blocks_.clear();
  for (int& word : free_) store_unseen(&word, 0);
  store_unseen(&watching_, os_threads() && options_.block_polls > 0 &&
                                   options_.block_poll_ms > 0
                               ? 1
                               : 0);

  strategy.begin_schedule(program != nullptr ? kMaxProgramThreads
                                             : static_cast<int>(count));
  strategy_ = &strategy;
  set_active(this);
  int first;
  const PinnedToOneCpu pinned(os_threads());
  run_cpu_ = pinned.cpu();
  if (os_threads()) {
    os_.clear();
    // Spawn: pthread_create makes the caller's past happen before each thread.
    for (std::size_t i = 0; i < count; ++i) {
      start_os_thread(static_cast<int>(i), nullptr);
    }
    set_active_scheduling_hooks(hooks_);
    {
      HarnessScope harness;
      first = decide(kToCaller, "start");
    }
    start_watch();
    switch_away(kToCaller, first);
    stop_watch();
    set_active_scheduling_hooks(nullptr);
    end_os_threads();
  } else {
    if (fibers_.size() < count) fibers_.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      if (fibers_[i] != nullptr) continue;
      fibers_[i] = std::make_unique<Fiber>(&SchedulerCore::fiber_main, this,
                                           options_.stack_size);
      fibers_[i]->set_name("racelab thread " + std::to_string(i));
    }
    caller_ = Fiber::for_current_thread();
    set_active_scheduling_hooks(hooks_);
    // Spawn: the caller's past happens before every thread, all edges made up
    // front so that no thread inherits another's history through the caller.
    for (std::size_t i = 0; i < count; ++i) caller_->release_to(*fibers_[i]);
    {
      HarnessScope harness;
      first = decide(kToCaller, "start");
    }
    switch_away(kToCaller, first);
    // The run is over. Join: every thread's past, finished or abandoned,
    // happens before what the caller does next.
    forget_abandoned_locks();
    for (std::size_t i = 0; i < count; ++i) caller_->acquire_from(*fibers_[i]);
    set_active_scheduling_hooks(nullptr);
    recycle_abandoned_fibers();
    caller_.reset();
  }
  set_active(nullptr);
  strategy_ = nullptr;
  program_ = nullptr;

  if (error_ != nullptr) {
    std::exception_ptr error = std::exchange(error_, nullptr);
    std::rethrow_exception(error);
  }
  last_decisions_ = decisions_.size();
  if (tracing_) last_rows_ = trace_.rows.size();
  RunResult result;
  result.status = status_;
  result.limit = limit_;
  result.deadlock_report = std::move(deadlock_report_);
  result.deadlock_locks = std::move(deadlock_locks_);
  result.decisions = std::move(decisions_);
  result.decision_operations = std::move(decision_operations_);
  result.preemptions = preemptions_;
  result.inner_points = inner_points_;
  result.fairness_cut = fairness_cut_;
  result.trace = std::move(trace_);
  result.thread_errors = std::move(thread_errors_);
  result.unmodelled_blocks = std::move(blocks_);
  blocks_.clear();
  decisions_.clear();
  progress_at_ = 0;
  decision_operations_.clear();
  trace_ = Trace{};
  result.more_schedules = strategy.end_schedule();
  return result;
}

void SchedulerCore::start_os_thread(int id, const pthread_attr_t* attr) {
  auto os = std::make_unique<OsThread>();
  os->core = this;
  os->id = id;
  OsThread* raw = os.get();
  {
    HarnessScope harness;
    os_.push_back(std::move(os));
  }
  const int result = interpose_internal::real_pthread_create(
      &raw->handle, attr, &SchedulerCore::os_thread_main, raw);
  if (result != 0) {
    throw std::runtime_error(
        "racelab: pthread_create failed for logical "
        "thread " +
        std::to_string(id) + ": " + std::strerror(result));
  }
  int state = PTHREAD_CREATE_JOINABLE;
  if (attr != nullptr) pthread_attr_getdetachstate(attr, &state);
  HarnessScope harness;
  raw->created = true;
  raw->detached = state == PTHREAD_CREATE_DETACHED;
}

void* SchedulerCore::os_thread_main(void* os_thread) {
  auto* os = static_cast<OsThread*>(os_thread);
  SchedulerCore* core = os->core;
  set_active(core);
  t_me = os->id;
  t_generation = load_unseen(&core->generation_);
#ifdef RACELAB_SCHED_TSAN
  const std::string name = "racelab thread " + std::to_string(os->id);
  AnnotateThreadName(__FILE__, __LINE__, name.c_str());
#endif
  if (core->run_cpu_ >= 0) PinnedToOneCpu::pin_calling_thread(core->run_cpu_);
  {
    HarnessScope harness;
    os->tid = syscall(SYS_gettid);
  }
  os->baton.wait();
  bool abandoned;
  {
    HarnessScope harness;
    abandoned = os->abandoned;
  }
  if (abandoned) {  // the run ended before its first turn
    set_active(nullptr);
    t_me = -1;
    return nullptr;
  }
  pthread_setspecific(finish_key(), os);
  void* (*start)(void*);
  void* arg;
  {
    Turn turn(core, os->id);
    HarnessScope harness;
    const LogicalThread& me = core->threads_[static_cast<std::size_t>(os->id)];
    start = me.start;
    arg = me.arg;
  }
  if (start != nullptr) return start(arg);
  core->run_body(os->id);
  if (os->id == 0 && core->program_ != nullptr) core->exit_program(0);
  return nullptr;
}

void SchedulerCore::os_thread_finished(void* os_thread) {
  auto* os = static_cast<OsThread*>(os_thread);
  os->core->finish_os_thread(os->id);
}

void SchedulerCore::finished(int me) {
  threads_[static_cast<std::size_t>(me)].status = Status::kFinished;
  threads_[static_cast<std::size_t>(me)].step.push_back(
      {ObjectKind::kThread, thread_object(me), AccessKind::kWrite});
  add_row(me, TraceKind::kSwitch, "finished");
  note_run_progress();
  for (LogicalThread& thread : threads_) {
    if (thread.status != Status::kFinished && thread.wait == Wait::kJoin &&
        thread.join_target == me) {
      thread.status = Status::kRunnable;
      thread.wait = Wait::kNone;
    }
  }
}

void SchedulerCore::finish_os_thread(int me) {
  Turn turn(this, me);
  int to;
  Baton* next;
  {
    HarnessScope harness;
    finished(me);
    to = decide(me, "finish", PointKind::kThreadEnd, PointAccess::none());
    // A finished thread is not enabled: `to` is another thread, the caller
    // or kNobody (the threads that could run run free).
    next = to == kNobody ? nullptr : &baton_of(to);
  }
  set_active(nullptr);
  t_me = -1;
  turn.release();
  if (next != nullptr) next->post();
}

void SchedulerCore::exit_program(int me) {
  Turn turn(this, me);
  int to;
  {
    HarnessScope harness;
    note_run_progress();
    to = decide(me, "exit", PointKind::kThreadEnd);
  }
  switch_away(me, to, &turn);
  {
    Turn again(this, me);
    HarnessScope harness;
    threads_[static_cast<std::size_t>(me)].status = Status::kFinished;
    add_row(me, TraceKind::kSwitch, "exited");
    end_run();
  }
  pthread_setspecific(finish_key(), nullptr);
  set_active(nullptr);
  t_me = -1;
  caller_baton_.post();
}

void SchedulerCore::abandon_self([[maybe_unused]] int me) {
  {
    HarnessScope harness;
#ifdef RACELAB_SCHED_TSAN
    // TSan must not keep the locks it holds locked by a thread that never
    // runs again (a mutex built later at the same address would be reported
    // as a double lock).
    for (const auto& [lock, state] : locks_) {
      for (const Holder& holder : state.holders) {
        if (holder.thread != me) continue;
        HeldLock held{lock, holder.mode};
        release_in_tsan(&held);
      }
    }
    // Join: what it did happens before what the caller does next.
    __tsan_release(os_[static_cast<std::size_t>(me)].get());
#endif
  }
  pthread_setspecific(finish_key(), nullptr);
  set_active(nullptr);
  t_me = -1;
  abandon_done_.post();
  park_forever();
}

// The caller, once the run is over: join the threads that finished, release
// the ones that never started, park the ones stopped mid-way (their frames
// are never resumed nor unwound, as with fibers). When a whole program ran to
// its end, a thread it created and neither joined nor detached is not
// joined: it ends as it does without racelab, finished and unjoined, and
// ThreadSanitizer reports it as a thread leak when the program exits.
void SchedulerCore::end_os_threads() {
  enum class End { kNone, kJoin, kRelease, kPark, kLeave };
  struct Plan {
    OsThread* os;
    End end;
    bool join;
  };
  std::vector<Plan> plans;
  {
    // Written by the logical threads with no edge to the caller. A thread
    // that runs free and comes back from the kernel after this parks (the
    // run's number changes here).
    const bool watching = load_unseen(&watching_) != 0;
    if (watching) {
      while (!try_lock_unseen(&turn_)) yield_cpu();
    }
    store_unseen(&generation_, load_unseen(&generation_) + 1);
    HarnessScope harness;
    for (auto& os : os_) {
      if (!os->created) continue;
      const LogicalThread& thread = threads_[static_cast<std::size_t>(os->id)];
      const bool joinable = !os->joined && !os->detached;
      if (thread.status == Status::kFree && !thread.returned) {
        // Still in the kernel: neither waited for nor woken; it parks if
        // it ever comes back (a process exit ends it).
        os->abandoned = true;
        continue;
      }
      if (thread.status == Status::kFinished) {
        // Only when the program ran to its end: a deadlock or a step limit
        // ends a run that would go on (or hang) without racelab.
        const bool leaked = program_ != nullptr && thread.start != nullptr &&
                            joinable &&
                            status_ == RunResult::Status::kCompleted;
        plans.push_back(
            {os.get(), leaked ? End::kLeave : End::kJoin, joinable && !leaked});
      } else if (!thread.started) {
        plans.push_back({os.get(), End::kRelease, joinable});
      } else {
        plans.push_back({os.get(), End::kPark, !os->detached});
      }
      if (thread.status != Status::kFinished) os->abandoned = true;
    }
    if (watching) unlock_unseen(&turn_);
  }
  for (const Plan& plan : plans) {
    if (plan.end == End::kLeave) {
      long tid;
      {
        HarnessScope harness;
        tid = plan.os->tid;
      }
      wait_until_gone(tid);
      continue;
    }
    if (plan.end != End::kJoin) plan.os->baton.post();
    if (plan.end == End::kPark) {
      abandon_done_.wait();
#ifdef RACELAB_SCHED_TSAN
      __tsan_acquire(plan.os);
#endif
      if (plan.join) pthread_detach(plan.os->handle);
    } else if (plan.join) {
      interpose_internal::real_pthread_join(plan.os->handle, nullptr);
    }
  }
}

// An abandoned fiber never releases its locks. The real primitives stay
// locked (the store is in whatever state the deadlock left), but TSan must not
// keep them locked by a context that is about to be recycled: a new mutex built
// later at the same stack address would be reported as a "double lock", a
// locked rwlock's destruction as "destroy of a locked mutex". The hooks pass
// the primitive itself, so the lock's address is the address TSan knows.
void SchedulerCore::forget_abandoned_locks() {
#ifdef RACELAB_SCHED_TSAN
  for (const auto& [lock, state] : locks_) {
    for (const Holder& holder : state.holders) {
      const LogicalThread& thread =
          threads_[static_cast<std::size_t>(holder.thread)];
      if (thread.status == Status::kFinished) continue;
      HeldLock held{lock, holder.mode};
      caller_->run_as(*fibers_[static_cast<std::size_t>(holder.thread)],
                      &release_in_tsan, &held);
    }
  }
#endif
}

void SchedulerCore::recycle_abandoned_fibers() {
  for (std::size_t i = 0; i < threads_.size(); ++i) {
    const LogicalThread& thread = threads_[i];
    if (!thread.started || thread.status == Status::kFinished) continue;
      // Stopped in the middle of its function: never resume it.
#ifdef RACELAB_SCHED_ASAN
    retire_abandoned_fiber(std::move(fibers_[i]));
    fibers_[i].reset();
#else
    fibers_[i]->restart();
#endif
  }
}

void SchedulerCore::claim(int me) {
  if (load_unseen(&watching_) == 0) return;
  for (;;) {
    while (!try_lock_unseen(&turn_)) yield_cpu();
    if (load_unseen(&generation_) != t_generation) {
      // A thread of a run that is over, back from the kernel: never runs
      // again (its run's state is gone).
      unlock_unseen(&turn_);
      set_active(nullptr);
      t_me = -1;
      park_forever();
    }
    if (me < 0 || load_unseen(&free_[me]) == 0) return;  // holds the turn
    int to;
    Baton* next;
    Baton* mine;
    OsThread* os;
    {
      HarnessScope harness;
      LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
      if (thread.status != Status::kFree) return;  // holds the turn
      if (current() == kNobody) {
        // Nobody holds the baton: this thread decides, as the first one.
        thread.returned = true;
        to = decide(kToCaller, "return");
      } else {
        thread.returned = true;  // readmitted by the next decision
        to = kNobody;
      }
      next = to == kNobody || to == me ? nullptr : &baton_of(to);
      mine = &baton_of(me);
      os = os_[static_cast<std::size_t>(me)].get();
    }
    unlock_unseen(&turn_);
    if (to == me) continue;
    if (next != nullptr) next->post();
    mine->wait();
    bool abandoned;
    {
      HarnessScope harness;
      abandoned = os->abandoned;
    }
    if (abandoned) abandon_self(me);
  }
}

void* SchedulerCore::watch_main(void* core) {
  static_cast<SchedulerCore*>(core)->watch();
  return nullptr;
}

void SchedulerCore::start_watch() {
  store_unseen(&stop_watch_, 0);
  watcher_started_ =
      load_unseen(&watching_) != 0 &&
      interpose_internal::real_pthread_create(
          &watcher_, nullptr, &SchedulerCore::watch_main, this) == 0;
}

void SchedulerCore::stop_watch() {
  if (!watcher_started_) return;
  watcher_started_ = false;
  store_unseen(&stop_watch_, 1);
  wake_unseen(&stop_watch_);
  interpose_internal::real_pthread_join(watcher_, nullptr);
}

// The watching thread: see the top of this file. A holder is blocked when,
// at `block_polls` looks in a row, it made no decision, is outside every
// hook (the turn word is free), sleeps in the kernel ('S': a thread that is
// only slow is 'R', so load alone never counts) in a wait only a thread of
// this process can end (a futex with no time limit, a pipe whose other end
// the process holds: never the sanitizer's symbolizer, a child process or a
// timer, which end by themselves), and no other thread of the process is
// runnable (the holder may wait for it: a join of a thread that is ending,
// a thread outside the run), while another thread of the run could take its
// place. Such a wait never ends by itself, so however slowly the looks
// come, it is seen: the notes and the verdicts do not depend on load.
void SchedulerCore::watch() {
#ifdef RACELAB_SCHED_TSAN
  AnnotateThreadName(__FILE__, __LINE__, "racelab watcher");
#endif
  const long self = own_tid();
  int seen_holder = kToCaller;
  int seen_count = -1;
  int looks = 0;
  long seen_call = -1;  // the system call and its return address, unchanged
  unsigned long seen_pc = 0;
  while (load_unseen(&stop_watch_) == 0) {
    sleep_while_zero(&stop_watch_, options_.block_poll_ms);
    if (load_unseen(&stop_watch_) != 0) break;
    const int holder = current();
    const int count = load_unseen(&decision_count_);
    if (holder < 0 || holder != seen_holder || count != seen_count) {
      seen_holder = holder;
      seen_count = count;
      looks = 0;
      continue;
    }
    if (!try_lock_unseen(&turn_)) {  // the holder is in a hook
      looks = 0;
      continue;
    }
    // Only a thread another one could run in place of: a block no other
    // thread of the run can end (a wait for a child process, the network,
    // or a real hang) is left to the kernel, without a note.
    long tid = 0;
    if (current() == holder && load_unseen(&decision_count_) == count) {
      HarnessScope harness;
      if (runnable_besides(holder)) {
        tid = os_[static_cast<std::size_t>(holder)]->tid;
      }
    }
    TaskSyscall call;
    if (tid == 0 || task_state(tid) != 'S' || other_task_running(self, tid) ||
        !task_syscall(tid, &call) || !only_this_process_can_end(call) ||
        (looks > 0 && (call.number != seen_call || call.pc != seen_pc))) {
      unlock_unseen(&turn_);
      looks = 0;
      continue;
    }
    seen_call = call.number;
    seen_pc = call.pc;
    if (++looks < options_.block_polls) {
      unlock_unseen(&turn_);
      continue;
    }
    looks = 0;
    Baton* next = nullptr;
    {
      HarnessScope harness;
      const int to = take_turn_of(holder, tid);
      if (to != kNobody) next = &baton_of(to);
    }
    unlock_unseen(&turn_);
    if (next != nullptr) next->post();
  }
}

namespace {

// The symbolizer's "function file:line" for a return address (or the
// address of the instruction after a system call), "" without one.
std::string symbolize(unsigned long pc) {
  if (&__sanitizer_symbolize_pc == nullptr) return "";
  char buffer[512];
  buffer[0] = '\0';
  __sanitizer_symbolize_pc(reinterpret_cast<void*>(pc - 1), "%f %L", buffer,
                           sizeof buffer);
  return buffer;
}

bool harness_frame(std::string_view frame) {
  return frame.empty() || frame.starts_with("racelab::") ||
         frame.starts_with("__interceptor") || frame.starts_with("__tsan") ||
         frame.starts_with("__sanitizer") || frame.starts_with("__asan") ||
         frame.starts_with("__ubsan") || frame.starts_with("__lsan") ||
         frame.starts_with("???") || frame.starts_with("<null>") ||
         frame.starts_with("std::") || frame.starts_with("__gnu_cxx") ||
         frame.starts_with("__libc") || frame.starts_with("__GI_") ||
         frame.find(" in ") == 0;
}

}  // namespace

// Extern: the bounds of the executable's code (the linker defines them).
extern "C" char __executable_start;  // NOLINT
extern "C" char etext;               // NOLINT

// Where the blocked thread `tid` sits: its system call, the function the
// call returns to and the first return address on its stack that lies in
// the executable's own code, outside racelab and the sanitizer (a stack
// scan: the kernel gives no frame pointer), and its last scheduling point.
std::string describe_blocked_thread(int thread, long tid, const char* site) {
  std::string text =
      "thread " + std::to_string(thread) + " blocked in the kernel";
  TaskSyscall call;
  if (task_syscall(tid, &call)) {
    const unsigned long pc = call.pc;
    const unsigned long sp = call.sp;
    const char* name = racelab::syscall_name(call.number);
    text += " (system call " +
            (name != nullptr ? std::string(name)
                             : "number " + std::to_string(call.number)) +
            ")";
    std::string at = symbolize(pc);
    if (!at.empty()) text += " in " + at;
    const auto begin = reinterpret_cast<unsigned long>(&__executable_start);
    const auto end = reinterpret_cast<unsigned long>(&etext);
    bool outside = pc < begin || pc >= end || harness_frame(at);
    if (sp != 0 && outside) {
      unsigned long words[1024];
      iovec local{words, sizeof words};
      iovec remote{reinterpret_cast<void*>(sp), sizeof words};
      const long got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
      for (long i = 0; got > 0 && i < got / static_cast<long>(sizeof(long));
           ++i) {
        if (words[i] < begin || words[i] >= end) continue;
        const std::string frame = symbolize(words[i]);
        if (harness_frame(frame)) continue;
        text += ", called from " + frame;
        break;
      }
    }
  }
  return text + ", after its scheduling point '" + site + "'";
}

// Turn word and harness scope held.
int SchedulerCore::take_turn_of(int holder, long tid) {
  LogicalThread& thread = threads_[static_cast<std::size_t>(holder)];
  thread.status = Status::kFree;
  thread.returned = false;
  store_unseen(&free_[holder], 1);
  UnmodelledBlock block;
  block.thread = holder;
  block.step = static_cast<int>(decisions_.size());
  block.where = describe_blocked_thread(holder, tid, thread.site);
  add_row(holder, TraceKind::kSwitch,
          "blocked outside racelab's view: runs free");
  if (block_observer_ != nullptr)
    block_observer_(block, block_observer_context_);
  blocks_.push_back(std::move(block));
  return decide(holder, "unmodelled block", PointKind::kInner,
                PointAccess::unknown());
}

void SchedulerCore::run_thread() {
  const int me = current();
  run_body(me);
  int to;
  {
    HarnessScope harness;
    finished(me);
    to = decide(me, "finish", PointKind::kThreadEnd, PointAccess::none());
  }
  // A finished thread is not enabled, so `to` is another fiber or the caller.
  // This fiber is resumed only when a later run gives it a new thread.
  fiber_of(me)->switch_to(*fiber_of(to));
}

void SchedulerCore::run_body(int me) {
  const std::function<void()>* body;
  {
    HarnessScope harness;
    body = threads_[static_cast<std::size_t>(me)].body;
  }
  std::string error;
  try {
    (*body)();
    return;
#ifdef __GLIBCXX__
  } catch (const abi::__forced_unwind&) {
    throw;  // pthread_exit or a cancellation: the thread ends
#endif
  } catch (const std::exception& e) {
    error = std::string("threw: ") + e.what();
  } catch (...) {
    error = "threw an exception that is not a std::exception";
  }
  Turn turn(this, me);
  HarnessScope harness;
  thread_errors_.push_back("thread " + std::to_string(me) + " " + error);
  add_row(me, TraceKind::kException, error);
}

void SchedulerCore::yield_point(const char* what, PointEffect effect,
                                PointAccess access, PointKind kind) {
  const int me = enter_hook("yield_point");
  Turn turn(this, me);
  int to;
  {
    HarnessScope harness;
    int& spin = threads_[static_cast<std::size_t>(me)].spin;
    if (effect == PointEffect::kYield) {
      spin = std::max(spin + 1, options_.spin_bound);
      threads_[static_cast<std::size_t>(me)].yielded = true;
    } else if (effect == PointEffect::kNoProgress ||
               retakes_own_lock(me, access)) {
      ++spin;
    } else {
      note_run_progress();
    }
    to = decide(me, what, kind, access);
  }
  switch_away(me, to, &turn);
}

void SchedulerCore::touched(PointAccess access) {
  const int me = os_threads() ? t_me : current();
  if (me < 0) return;
  Turn turn(this, me);
  LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
  note_store_access(thread, access);
  std::vector<PointAccess>& step = thread.step;
  // Without an allocation this code does nothing TSan sees (its accesses are
  // not instrumented), so only a growing step pays for a HarnessScope.
  if (step.size() < step.capacity()) {
    step.push_back(access);
    return;
  }
  HarnessScope harness;
  step.push_back(access);
}

void SchedulerCore::progressed() {
  const int me = enter_hook("progressed");
  Turn turn(this, me);
  HarnessScope harness;
  note_run_progress();
}

bool SchedulerCore::block_on(const void* lock, const char* lock_name,
                             LockMode mode, bool timed) {
  const int me = enter_hook("block_on");
  Turn turn(this, me);
  int to;
  {
    HarnessScope harness;
    LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
    thread.status = timed ? Status::kRunnable : Status::kBlocked;
    thread.wait = Wait::kLock;
    thread.timed = timed;
    thread.waiting_for = lock;
    thread.waiting_mode = mode;
    LockState& state = lock_state(lock, lock_name);
    add_lock_row(me, TraceKind::kLockWaited, "blocked on", state.name, mode);
    to = decide(me, "block", PointKind::kInner, lock_access(lock, mode));
  }
  // Resumed once a release made this thread runnable again and the strategy
  // picked it (the caller retries its try-lock), or, timed, picked while the
  // lock was still busy: the wait timed out.
  switch_away(me, to, &turn);
  return end_wait(me, Wait::kLock);
}

void SchedulerCore::acquired(const void* lock, const char* lock_name,
                             LockMode mode) {
  const int me = enter_hook("acquired");
  Turn turn(this, me);
  HarnessScope harness;
  LockState& state = lock_state(lock, lock_name);
  if (state.first_taken_at.empty()) {
    for (const void* const* site = interpose_internal::call_sites();
         *site != nullptr; ++site) {
      state.first_taken_at.push_back(*site);
    }
  }
  state.holders.push_back(Holder{me, mode});
  if (state.last_owner != me) note_run_progress();  // it changed hands
  state.last_owner = me;
  add_lock_row(me, TraceKind::kLockAcquired, "acquired", state.name, mode);
}

bool SchedulerCore::holds_exclusively(const void* lock) const {
  const int me = enter_hook("holds_exclusively");
  Turn turn(const_cast<SchedulerCore*>(this), me);
  HarnessScope harness;
  const auto found = locks_.find(lock);
  if (found == locks_.end()) return false;
  return std::any_of(found->second.holders.begin(), found->second.holders.end(),
                     [&](const Holder& h) {
                       return h.thread == me && h.mode == LockMode::kExclusive;
                     });
}

// Back from a wait of `kind`: a waker cleared the wait, or, for a timed
// wait picked while still waiting, the wait timed out (returns true; no
// progress for the fairness bound).
bool SchedulerCore::end_wait(int me, Wait kind) {
  Turn turn(this, me);
  HarnessScope harness;
  LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
  const bool timed_out = thread.wait == kind;
  thread.wait = Wait::kNone;
  thread.timed = false;
  thread.waiting_for = nullptr;
  if (timed_out) {
    ++thread.spin;
    add_row(me, TraceKind::kSwitch, "timed out");
  }
  return timed_out;
}

void SchedulerCore::wake_waiters_of(const void* lock) {
  bool woke = false;
  for (LogicalThread& thread : threads_) {
    if (thread.wait == Wait::kLock && thread.waiting_for == lock &&
        thread.status != Status::kFinished) {
      wake(thread);
      woke = true;
    }
  }
  if (woke) note_run_progress();
}

// A lock's point is no progress when the thread takes again the lock it
// held last while another thread could have taken it in between: a poll
// under a lock (lock, look, unlock) is a spin. A lock changing hands, a
// thread alone taking its locks, and a condition-variable wait's point (its
// thread holds the lock it is about to release) are progress.
bool SchedulerCore::retakes_own_lock(int me, PointAccess access) const {
  if (access.object_kind != ObjectKind::kLock) return false;
  const auto found = locks_.find(access.object);
  if (found == locks_.end() || found->second.last_owner != me) return false;
  for (const Holder& holder : found->second.holders) {
    if (holder.thread == me) return false;  // it holds it: a wait's release
  }
  return runnable_besides(me);
}

bool SchedulerCore::runnable_besides(int me) const {
  for (int t = 0; t < static_cast<int>(threads_.size()); ++t) {
    if (t != me &&
        threads_[static_cast<std::size_t>(t)].status == Status::kRunnable) {
      return true;
    }
  }
  return false;
}

bool SchedulerCore::another_thread_can_run() const {
  const int me = enter_hook("another_thread_can_run");
  Turn turn(const_cast<SchedulerCore*>(this), me);
  HarnessScope harness;
  return runnable_besides(me);
}

void SchedulerCore::released(const void* lock, LockMode mode) {
  const int me = enter_hook("released");
  Turn turn(this, me);
  HarnessScope harness;
  auto found = locks_.find(lock);
  if (found == locks_.end()) return;  // taken before the run: not tracked
  LockState& state = found->second;
  auto holder = std::find_if(
      state.holders.begin(), state.holders.end(),
      [&](const Holder& h) { return h.thread == me && h.mode == mode; });
  if (holder == state.holders.end()) {
    holder = std::find_if(state.holders.begin(), state.holders.end(),
                          [&](const Holder& h) { return h.thread == me; });
  }
  if (holder != state.holders.end()) {
    mode = holder->mode;
    state.holders.erase(holder);
  }
  add_lock_row(me, TraceKind::kLockReleased, "released", state.name, mode);
  LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
  thread.step.push_back(lock_access(lock, mode));
  note_store_access(thread, thread.step.back());
  // Waiters retry; those that still find the lock busy block again.
  wake_waiters_of(lock);
}

bool SchedulerCore::cond_wait(const void* cond, bool timed) {
  const int me = enter_hook("cond_wait");
  Turn turn(this, me);
  int to;
  {
    HarnessScope harness;
    LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
    thread.status = timed ? Status::kRunnable : Status::kBlocked;
    thread.wait = Wait::kCond;
    thread.timed = timed;
    thread.waiting_for = cond;
    thread.wait_order = ++wait_clock_;
    auto [it, inserted] = conds_.try_emplace(cond);
    if (inserted) it->second = "cond " + std::to_string(conds_.size());
    add_row(me, TraceKind::kLockWaited,
            std::string(timed ? "waits (timed) on '" : "waits on '") +
                it->second + "'");
    const PointAccess access{ObjectKind::kCondition, cond, AccessKind::kWrite};
    thread.step.push_back(access);
    to = decide(me, "wait", PointKind::kInner, access);
  }
  switch_away(me, to, &turn);
  return end_wait(me, Wait::kCond);
}

void SchedulerCore::cond_notify(const void* cond, bool all) {
  const int me = enter_hook("cond_notify");
  Turn turn(this, me);
  HarnessScope harness;
  threads_[static_cast<std::size_t>(me)].step.push_back(
      {ObjectKind::kCondition, cond, AccessKind::kWrite});
  std::vector<int> woken;
  for (;;) {
    int oldest = -1;
    for (int t = 0; t < static_cast<int>(threads_.size()); ++t) {
      const LogicalThread& thread = threads_[static_cast<std::size_t>(t)];
      if (thread.wait != Wait::kCond || thread.waiting_for != cond) continue;
      if (oldest < 0 ||
          thread.wait_order <
              threads_[static_cast<std::size_t>(oldest)].wait_order) {
        oldest = t;
      }
    }
    if (oldest < 0) break;
    LogicalThread& thread = threads_[static_cast<std::size_t>(oldest)];
    wake(thread);
    woken.push_back(oldest);
    if (!all) break;
  }
  if (!tracing_) return;
  std::string text = all ? "notify_all" : "notify_one";
  auto name = conds_.find(cond);
  if (name != conds_.end()) text += " '" + name->second + "'";
  if (woken.empty()) {
    text += ": no thread waits";
  } else {
    text += ": wakes thread";
    if (woken.size() > 1) text += "s";
    for (std::size_t i = 0; i < woken.size(); ++i) {
      text += (i == 0 ? " " : ", ") + std::to_string(woken[i]);
    }
  }
  add_row(me, TraceKind::kOperation, std::move(text));
}

bool SchedulerCore::spawn(pthread_t* thread, const pthread_attr_t* attr,
                          void* (*start)(void*), void* arg, int* result) {
  if (!os_threads()) return false;
  const int me = enter_hook("spawn");
  Turn turn(this, me);
  int id;
  {
    HarnessScope harness;
    const auto live = std::count_if(
        threads_.begin(), threads_.end(),
        [](const LogicalThread& t) { return t.status != Status::kFinished; });
    const bool too_many_live = live >= kMaxLiveProgramThreads;
    if (too_many_live ||
        threads_.size() >= static_cast<std::size_t>(kMaxProgramThreads)) {
      const std::string limit = too_many_live
                                    ? std::to_string(kMaxLiveProgramThreads) +
                                          " threads alive at once"
                                    : std::to_string(kMaxProgramThreads) +
                                          " threads created in one run";
      add_row(me, TraceKind::kOperation,
              "pthread_create: EAGAIN (racelab's limit: " + limit + ")");
      const std::string line =
          "racelab: pthread_create fails with EAGAIN: racelab's limit of " +
          limit +
          " under controlled scheduling (a plain run has no such "
          "limit)\n";
      [[maybe_unused]] const ssize_t written =
          ::write(STDERR_FILENO, line.data(), line.size());
      *result = EAGAIN;
      return true;
    }
    id = static_cast<int>(threads_.size());
    LogicalThread created;
    created.start = start;
    created.arg = arg;
    threads_.push_back(created);
    trace_.thread_count = id + 1;
    add_row(me, TraceKind::kOperation, "creates thread " + std::to_string(id));
  }
  try {
    start_os_thread(id, attr);
  } catch (const std::exception&) {
    HarnessScope harness;
    threads_[static_cast<std::size_t>(id)].status = Status::kFinished;
    *result = EAGAIN;
    return true;
  }
  {
    HarnessScope harness;
    *thread = os_[static_cast<std::size_t>(id)]->handle;
  }
  *result = 0;
  turn.release();
  yield_point("spawn", PointEffect::kProgress, PointAccess::unknown(),
              PointKind::kInner);
  return true;
}

bool SchedulerCore::object_wait(PointAccess object, bool timed) {
  const int me = enter_hook("object_wait");
  Turn turn(this, me);
  int to;
  {
    HarnessScope harness;
    LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
    thread.status = timed ? Status::kRunnable : Status::kBlocked;
    thread.wait = Wait::kObject;
    thread.timed = timed;
    thread.waiting_for = object.object;
    thread.waiting_kind = object.object_kind;
    add_row(me, TraceKind::kLockWaited,
            std::string(timed ? "waits (timed) on '" : "waits on '") +
                object_name(object) + "'");
    to = decide(me, "wait", PointKind::kInner, object);
  }
  switch_away(me, to, &turn);
  return end_wait(me, Wait::kObject);
}

int SchedulerCore::wake_object(const void* object, int at_most) {
  const int me = enter_hook("wake_object");
  Turn turn(this, me);
  HarnessScope harness;
  std::string woken;
  int count = 0;
  for (int t = 0; t < static_cast<int>(threads_.size()) && count < at_most;
       ++t) {
    LogicalThread& thread = threads_[static_cast<std::size_t>(t)];
    if (thread.wait != Wait::kObject || thread.waiting_for != object ||
        thread.status == Status::kFinished) {
      continue;
    }
    wake(thread);
    ++count;
    woken += (woken.empty() ? "" : ", ") + std::to_string(t);
  }
  if (!tracing_ || woken.empty()) return count;
  add_row(me, TraceKind::kOperation,
          "wakes '" + known_object_name(object) + "': thread " + woken);
  return count;
}

int SchedulerCore::object_waiters(const void* object) const {
  const int me = enter_hook("object_waiters");
  Turn turn(const_cast<SchedulerCore*>(this), me);
  HarnessScope harness;
  return static_cast<int>(
      std::count_if(threads_.begin(), threads_.end(), [&](const auto& thread) {
        return thread.wait == Wait::kObject && thread.waiting_for == object &&
               thread.status != Status::kFinished;
      }));
}

const std::string& SchedulerCore::object_name(PointAccess object) {
  auto [it, inserted] = objects_.try_emplace(object.object);
  if (inserted) {
    switch (object.object_kind) {
      case ObjectKind::kBarrier:
        it->second = "barrier " + std::to_string(++barriers_);
        break;
      case ObjectKind::kSemaphore:
        it->second = "semaphore " + std::to_string(++semaphores_);
        break;
      case ObjectKind::kFutex:
        it->second = "futex " + std::to_string(++futexes_);
        break;
      default:
        it->second = "static guard " + std::to_string(++guards_);
        break;
    }
  }
  return it->second;
}

// A try decides first: the point is before the look at the thread.
bool SchedulerCore::join(pthread_t thread, JoinWait wait, bool* joined) {
  if (!os_threads()) return false;
  const int me = enter_hook("join");
  Turn turn(this, me);
  int target = -1;
  int to;
  bool waits = false;
  {
    HarnessScope harness;
    target = thread_of(thread);
    if (target < 0) return false;
    LogicalThread& self = threads_[static_cast<std::size_t>(me)];
    if (wait != JoinWait::kTry &&
        threads_[static_cast<std::size_t>(target)].status !=
            Status::kFinished) {
      waits = true;
      self.status =
          wait == JoinWait::kTimed ? Status::kRunnable : Status::kBlocked;
      self.wait = Wait::kJoin;
      self.timed = wait == JoinWait::kTimed;
      self.join_target = target;
      add_row(
          me, TraceKind::kLockWaited,
          std::string(self.timed ? "joins (timed) thread " : "joins thread ") +
              std::to_string(target));
    } else if (wait != JoinWait::kTry) {
      note_run_progress();
    }
    to =
        decide(me, "join", PointKind::kInner,
               {ObjectKind::kThread, thread_object(target), AccessKind::kRead});
  }
  switch_away(me, to, &turn);
  const bool timed_out = waits && end_wait(me, Wait::kJoin);
  Turn again(this, me);
  HarnessScope harness;
  const bool done =
      !timed_out &&
      threads_[static_cast<std::size_t>(target)].status == Status::kFinished;
  if (wait == JoinWait::kTry && !done) {
    ++threads_[static_cast<std::size_t>(me)].spin;  // a poll: no progress
  }
  if (done) os_[static_cast<std::size_t>(target)]->joined = true;
  if (joined != nullptr) *joined = done;
  return true;
}

void SchedulerCore::detach(pthread_t thread) {
  if (!os_threads()) return;
  const int me = enter_hook("detach");
  Turn turn(this, me);
  HarnessScope harness;
  for (const auto& os : os_) {
    if (os->created && pthread_equal(os->handle, thread)) os->detached = true;
  }
}

// A cancellation request is the caller's point (the target can observe it);
// a target waiting at a cancellation point wakes as from a spurious wake-up,
// and the interposed wait acts on the request (pthread_testcancel).
void SchedulerCore::cancel(pthread_t thread) {
  if (!os_threads()) return;
  const int me = enter_hook("cancel");
  Turn turn(this, me);
  int to;
  {
    HarnessScope harness;
    const int target = thread_of(thread);
    if (target < 0) return;
    LogicalThread& victim = threads_[static_cast<std::size_t>(target)];
    const bool at_cancellation_point =
        victim.status != Status::kFinished &&
        (victim.wait == Wait::kCond || victim.wait == Wait::kJoin ||
         (victim.wait == Wait::kObject &&
          victim.waiting_kind == ObjectKind::kSemaphore));
    if (at_cancellation_point) {
      wake(victim);
    }
    add_row(me, TraceKind::kSwitch,
            "cancels thread " + std::to_string(target) +
                (at_cancellation_point ? ": wakes it" : ""));
    note_run_progress();
    to = decide(
        me, "cancel", PointKind::kInner,
        {ObjectKind::kThread, thread_object(target), AccessKind::kWrite});
  }
  switch_away(me, to, &turn);
}

void SchedulerCore::note(std::string&& text) {
  const int me = os_threads() ? t_me : current();
  if (me < 0) return;
  Turn turn(this, me);
  HarnessScope harness;
  add_row(me, TraceKind::kOperation, std::move(text));
}

void SchedulerCore::begin_operation(int index) {
  const int me = os_threads() ? t_me : current();
  if (me < 0) return;
  Turn turn(this, me);
  HarnessScope harness;
  threads_[static_cast<std::size_t>(me)].operation = index;
}

std::string SchedulerCore::describe_lock(const void* lock) const {
  auto found = locks_.find(lock);
  return quoted(found != locks_.end() ? found->second.name : "?");
}

std::string SchedulerCore::describe_deadlock_locks() const {
  std::string text;
  std::vector<const void*> seen;
  for (const LogicalThread& thread : threads_) {
    if (thread.status != Status::kBlocked || thread.waiting_for == nullptr ||
        std::find(seen.begin(), seen.end(), thread.waiting_for) != seen.end()) {
      continue;
    }
    seen.push_back(thread.waiting_for);
    if (!text.empty()) text += '\n';
    if (thread.wait == Wait::kObject) {
      text += quoted(known_object_name(thread.waiting_for)) + " " +
              where(thread.waiting_for, {});
      continue;
    }
    if (thread.wait == Wait::kCond) {
      auto name = conds_.find(thread.waiting_for);
      text += quoted(name != conds_.end() ? name->second : "?") + " " +
              where(thread.waiting_for, {});
      continue;
    }
    auto found = locks_.find(thread.waiting_for);
    if (found == locks_.end()) continue;
    text += quoted(found->second.name) + " " +
            where(thread.waiting_for, found->second.first_taken_at);
  }
  return text;
}

std::string SchedulerCore::describe_wait(int thread) const {
  const LogicalThread& waiter = threads_[static_cast<std::size_t>(thread)];
  const std::string who = "thread " + std::to_string(thread);
  if (waiter.wait == Wait::kJoin) {
    return who + " joins thread " + std::to_string(waiter.join_target) +
           ", which does not finish";
  }
  if (waiter.wait == Wait::kObject) {
    return who + " waits on " + quoted(known_object_name(waiter.waiting_for)) +
           ", and no thread that could release it can run";
  }
  if (waiter.wait == Wait::kCond) {
    auto name = conds_.find(waiter.waiting_for);
    return who + " waits on condition variable " +
           quoted(name != conds_.end() ? name->second : "?") +
           ", and no thread that could notify it can run";
  }
  auto found = locks_.find(waiter.waiting_for);
  std::string line = who + " waits for " + describe_lock(waiter.waiting_for) +
                     " (" + mode_name(waiter.waiting_mode) + "), held by ";
  if (found == locks_.end() || found->second.holders.empty()) {
    return line + "no thread of this run";
  }
  bool first = true;
  for (const Holder& holder : found->second.holders) {
    if (!first) line += ", ";
    first = false;
    line += "thread " + std::to_string(holder.thread) + " (" +
            mode_name(holder.mode);
    if (threads_[static_cast<std::size_t>(holder.thread)].status ==
        Status::kFinished) {
      line += ", finished";
    }
    line += ")";
  }
  return line;
}

std::string SchedulerCore::describe_deadlock() const {
  const int count = static_cast<int>(threads_.size());
  // Wait-for graph: a blocked thread points at the blocked holders of the
  // lock it waits for, or at the blocked thread it joins. Find a cycle by
  // depth-first search.
  auto successors = [&](int thread) {
    std::vector<int> out;
    const LogicalThread& waiter = threads_[static_cast<std::size_t>(thread)];
    auto blocked = [&](int t) {
      return threads_[static_cast<std::size_t>(t)].status == Status::kBlocked;
    };
    if (waiter.wait == Wait::kJoin) {
      if (blocked(waiter.join_target)) out.push_back(waiter.join_target);
      return out;
    }
    if (waiter.wait != Wait::kLock) return out;
    auto found = locks_.find(waiter.waiting_for);
    if (found == locks_.end()) return out;
    for (const Holder& holder : found->second.holders) {
      if (blocked(holder.thread) &&
          std::find(out.begin(), out.end(), holder.thread) == out.end()) {
        out.push_back(holder.thread);
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  std::vector<int> color(static_cast<std::size_t>(count), 0);  // 1 on path
  std::vector<int> path;
  std::vector<int> cycle;
  std::function<bool(int)> visit = [&](int thread) {
    color[static_cast<std::size_t>(thread)] = 1;
    path.push_back(thread);
    for (int next : successors(thread)) {
      if (color[static_cast<std::size_t>(next)] == 1) {
        cycle.assign(std::find(path.begin(), path.end(), next), path.end());
        return true;
      }
      if (color[static_cast<std::size_t>(next)] == 0 && visit(next)) {
        return true;
      }
    }
    color[static_cast<std::size_t>(thread)] = 2;
    path.pop_back();
    return false;
  };
  for (int t = 0; t < count && cycle.empty(); ++t) {
    if (threads_[static_cast<std::size_t>(t)].status == Status::kBlocked &&
        color[static_cast<std::size_t>(t)] == 0) {
      visit(t);
    }
  }
  if (!cycle.empty()) {
    std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()),
                cycle.end());
  }
  std::string report;
  for (int thread : cycle) {
    if (!report.empty()) report += '\n';
    report += describe_wait(thread);
  }
  for (int t = 0; t < count; ++t) {
    if (threads_[static_cast<std::size_t>(t)].status != Status::kBlocked ||
        std::find(cycle.begin(), cycle.end(), t) != cycle.end()) {
      continue;
    }
    if (!report.empty()) report += '\n';
    if (!cycle.empty()) report += "also blocked: ";
    report += describe_wait(t);
  }
  return report;
}

}  // namespace internal

bool pin_process_to_one_cpu() {
  cpu_set_t mask;
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) return false;
  if (CPU_COUNT(&mask) == 1) return true;
  return internal::PinnedToOneCpu::pin_calling_thread(sched_getcpu());
}

ControlledScheduler::ControlledScheduler(SchedulerOptions options) {
  if (options.max_steps < 1) {
    throw std::invalid_argument("SchedulerOptions::max_steps must be >= 1");
  }

  if (options.stack_size < 16 * 1024) {
    throw std::invalid_argument(
        "SchedulerOptions::stack_size must be at least 16 KiB");
  }
  core_ = std::make_unique<internal::SchedulerCore>(this, options);
}

ControlledScheduler::~ControlledScheduler() = default;

RunResult ControlledScheduler::run(
    const std::vector<std::function<void()>>& threads, Strategy& strategy) {
  return core_->run(threads, nullptr, strategy);
}

RunResult ControlledScheduler::run_program(const std::function<void()>& main,
                                           Strategy& strategy) {
  if (!core_->os_threads()) {
    throw std::logic_error(
        "ControlledScheduler::run_program needs Substrate::kOsThreads");
  }
  return core_->run({}, &main, strategy);
}

void ControlledScheduler::set_switch_observer(SwitchObserver observer,
                                              void* context) {
  if (internal::t_active == core_.get()) {
    throw std::logic_error(
        "ControlledScheduler::set_switch_observer called during a run");
  }
  core_->set_switch_observer(observer, context);
}

void ControlledScheduler::set_block_observer(BlockObserver observer,
                                             void* context) {
  if (internal::t_active == core_.get()) {
    throw std::logic_error(
        "ControlledScheduler::set_block_observer called during a run");
  }
  core_->set_block_observer(observer, context);
}

void ControlledScheduler::note(std::string text) {
  if (internal::SchedulerCore* core = internal::t_active) {
    core->note(std::move(text));
  }
}

void ControlledScheduler::begin_operation(int index) {
  if (internal::SchedulerCore* core = internal::t_active) {
    core->begin_operation(index);
  }
}

bool ControlledScheduler::tracing() {
  internal::SchedulerCore* core = internal::t_active;
  return core != nullptr && core->tracing();
}

std::uint64_t ControlledScheduler::last_store_step() {
  const int me = current_thread();
  return me < 0 ? 0 : internal::t_active->last_store_step(me);
}

int ControlledScheduler::current_thread() {
  internal::SchedulerCore* core = internal::t_active;
  if (core == nullptr) return -1;
  return core->os_threads() ? internal::t_me : core->current();
}

// Called by the interposer on every OS thread, also while this scheduler is
// being destroyed on another: a thread reads no more than its own t_active
// until it is known to be one of this run's threads.
bool ControlledScheduler::owns_calling_thread() const {
  internal::SchedulerCore* core = internal::t_active;
  return core != nullptr && core->owns_calling_thread() && core == core_.get();
}

void ControlledScheduler::yield_point(const char* what, PointEffect effect) {
  core_->yield_point(what, effect, PointAccess::unknown(), PointKind::kInner);
}

void ControlledScheduler::access_point(const char* what, PointEffect effect,
                                       PointAccess access, PointKind kind) {
  core_->yield_point(what, effect, access, kind);
}

void ControlledScheduler::touched(PointAccess access) {
  core_->touched(access);
}

void ControlledScheduler::touch(PointAccess access) {
  if (internal::SchedulerCore* core = internal::t_active) {
    core->touched(access);
  }
}

void ControlledScheduler::progressed() { core_->progressed(); }

bool ControlledScheduler::block_on(const void* lock, const char* lock_name,
                                   LockMode mode, bool timed) {
  return core_->block_on(lock, lock_name, mode, timed);
}

bool ControlledScheduler::cond_wait(const void* cond, bool timed) {
  return core_->cond_wait(cond, timed);
}

void ControlledScheduler::cond_notify(const void* cond, bool all) {
  core_->cond_notify(cond, all);
}

bool ControlledScheduler::spawn(pthread_t* thread, const pthread_attr_t* attr,
                                void* (*start)(void*), void* arg, int* result) {
  return core_->spawn(thread, attr, start, arg, result);
}

bool ControlledScheduler::object_wait(PointAccess object, bool timed) {
  return core_->object_wait(object, timed);
}

int ControlledScheduler::wake_object(const void* object, int at_most) {
  return core_->wake_object(object, at_most);
}

int ControlledScheduler::object_waiters(const void* object) const {
  return core_->object_waiters(object);
}

bool ControlledScheduler::join(pthread_t thread, JoinWait wait,
                               bool* finished) {
  return core_->join(thread, wait, finished);
}

void ControlledScheduler::detach(pthread_t thread) { core_->detach(thread); }

void ControlledScheduler::cancel(pthread_t thread) { core_->cancel(thread); }

bool ControlledScheduler::another_thread_can_run() const {
  return core_->another_thread_can_run();
}

void ControlledScheduler::acquired(const void* lock, const char* lock_name,
                                   LockMode mode) {
  core_->acquired(lock, lock_name, mode);
}

bool ControlledScheduler::holds_exclusively(const void* lock) const {
  return core_->holds_exclusively(lock);
}

void ControlledScheduler::released(const void* lock, LockMode mode) {
  core_->released(lock, mode);
}

}  // namespace racelab::sched
