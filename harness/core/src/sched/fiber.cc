// Fiber implementation: mmap'ed stacks with a guard page (kept for the next
// fibers), Boost.Context's jump_fcontext, and the hand-offs that keep TSan,
// ASan and the C++ exception runtime consistent across switches.
#include "racelab/internal/sched/fiber.h"

#include <cxxabi.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <system_error>
#include <vector>

#include "boost/context/detail/fcontext.hpp"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RACELAB_FIBER_TSAN 1
#endif
#if __has_feature(address_sanitizer)
#define RACELAB_FIBER_ASAN 1
#endif
#endif
#if !defined(RACELAB_FIBER_TSAN) && defined(__SANITIZE_THREAD__)
#define RACELAB_FIBER_TSAN 1
#endif
#if !defined(RACELAB_FIBER_ASAN) && defined(__SANITIZE_ADDRESS__)
#define RACELAB_FIBER_ASAN 1
#endif
#if defined(RACELAB_TSAN) && RACELAB_TSAN && !defined(RACELAB_FIBER_TSAN)
#error "RACELAB_TSAN=1 but this file is not built with -fsanitize=thread"
#endif
#if defined(RACELAB_ASAN) && RACELAB_ASAN && !defined(RACELAB_FIBER_ASAN)
#error "RACELAB_ASAN=1 but this file is not built with -fsanitize=address"
#endif

#ifdef RACELAB_FIBER_TSAN
#include <sanitizer/tsan_interface.h>
#endif
#ifdef RACELAB_FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

// The switch code runs half in one TSan context and half in another: TSan must
// not instrument its memory accesses.
#define RACELAB_NO_SANITIZE_THREAD __attribute__((no_sanitize("thread")))

namespace racelab::sched {
namespace {

#ifdef RACELAB_FIBER_TSAN
std::atomic<int>& live_contexts() {
  static std::atomic<int> count{0};
  return count;
}
#endif

// Who made the latest switch on this OS thread, and to whom: read by the
// fiber that resumes (a fresh fiber finds itself in t_switch_target).
// Thread-local on purpose: the two ends of the switch in progress on this OS
// thread (fiber plumbing, valid only during one switch).
thread_local Fiber* t_switch_source = nullptr;
thread_local Fiber* t_switch_target = nullptr;

[[noreturn]] void die(const char* message) {
  std::fprintf(stderr, "racelab: fiber: %s\n", message);
  std::abort();
}

std::size_t page_size() {
  static const std::size_t size = [] {
    long value = sysconf(_SC_PAGESIZE);
    return value > 0 ? static_cast<std::size_t>(value) : std::size_t{4096};
  }();
  return size;
}

// The C++ runtime keeps the caught-exception stack and the uncaught count per
// OS thread (__cxa_eh_globals); fibers sharing the thread must each have their
// own, or a switch inside a catch block or during unwinding mixes them up.
// The first two fields have this layout in libstdc++ and libc++abi alike.
struct EhGlobals {
  void* caught_exceptions;
  unsigned int uncaught_exceptions;
};

#if defined(_LIBCPP_VERSION) && !defined(__GLIBCXX__)
// libc++abi exports __cxa_get_globals but its <cxxabi.h> does not declare it.
extern "C" void* __cxa_get_globals() noexcept;
EhGlobals* eh_globals() {
  return reinterpret_cast<EhGlobals*>(__cxa_get_globals());
}
#else
EhGlobals* eh_globals() {
  return reinterpret_cast<EhGlobals*>(abi::__cxa_get_globals());
}
#endif

// A stack and its guard page, mapped afresh.
void* map_stack(std::size_t mapping_size) {
  void* mapping =
      mmap(nullptr, mapping_size, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (mapping == MAP_FAILED) {
    throw std::system_error(errno, std::generic_category(),
                            "racelab: mmap of a fiber stack");
  }
  // The stack grows down: the guard page is the lowest page of the mapping.
  if (mprotect(mapping, page_size(), PROT_NONE) != 0) {
    const int error = errno;
    munmap(mapping, mapping_size);
    throw std::system_error(error, std::generic_category(),
                            "racelab: mprotect of a fiber guard page");
  }
  return mapping;
}

// Stacks of destroyed fibers, kept for the next fibers of the same size. A
// scheduler makes its fibers when it is built, so one built per search or per
// check would otherwise map a stack and unmap it again every time, and under
// ThreadSanitizer each unmap clears the stack's shadow and metadata, page by
// page. Bounded; a stack past the bound is unmapped.
class StackCache {
 public:
  void* take(std::size_t mapping_size) {
    std::lock_guard<std::mutex> lock(mutex_);
    // The stack given back last first: its pages are the likeliest to be
    // still in memory.
    for (std::size_t i = stacks_.size(); i-- > 0;) {
      if (stacks_[i].size != mapping_size) continue;
      void* mapping = stacks_[i].mapping;
      stacks_.erase(stacks_.begin() + static_cast<std::ptrdiff_t>(i));
      return mapping;
    }
    return nullptr;
  }
  // Whether the cache kept it (otherwise the caller unmaps it).
  bool give(void* mapping, std::size_t mapping_size) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stacks_.size() >= kKept) return false;
    stacks_.push_back({mapping, mapping_size});
    return true;
  }

 private:
  static constexpr std::size_t kKept = 32;
  struct Stack {
    void* mapping;
    std::size_t size;
  };
  std::mutex mutex_;
  std::vector<Stack> stacks_;
};

StackCache& stack_cache() {
  static StackCache* const cache = new StackCache;  // used until exit
  return *cache;
}

#ifdef RACELAB_FIBER_TSAN
// The calling context acquires everything `context` did (a join).
RACELAB_NO_SANITIZE_THREAD void join_sanitizer_context(void* context) {
  void* const current = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(context, __tsan_switch_to_fiber_no_sync);
  __tsan_switch_to_fiber(current, 0);
}
#endif

}  // namespace

Fiber::Fiber(Entry entry, void* arg, std::size_t stack_size)
    : entry_(entry), arg_(arg) {
  if (entry == nullptr) die("a fiber needs an entry function");
  const std::size_t page = page_size();
  const std::size_t usable =
      (std::max(stack_size, 4 * page) + page - 1) / page * page;
  mapping_size_ = usable + page;
  void* mapping = stack_cache().take(mapping_size_);
  if (mapping == nullptr) mapping = map_stack(mapping_size_);
  mapping_ = mapping;
  stack_bottom_ = static_cast<char*>(mapping) + page;
  stack_size_ = usable;
#ifdef RACELAB_FIBER_ASAN
  // ASan keeps no shadow in step with mmap/munmap: memory mapped where an old
  // stack was may still carry the poison of that stack's frames.
  __asan_unpoison_memory_region(stack_bottom_, stack_size_);
#endif
#ifdef RACELAB_FIBER_TSAN
  tsan_context_ = __tsan_create_fiber(0);
  owns_tsan_context_ = true;
  live_contexts().fetch_add(1, std::memory_order_relaxed);
#endif
  prepare_context();
}

int Fiber::live_sanitizer_contexts() {
#ifdef RACELAB_FIBER_TSAN
  return live_contexts().load(std::memory_order_relaxed);
#else
  return 0;
#endif
}

Fiber::Fiber(ThreadContextTag) {
  is_thread_context_ = true;
  running_ = true;
  started_ = true;
#ifdef RACELAB_FIBER_TSAN
  tsan_context_ = __tsan_get_current_fiber();
#endif
}

std::unique_ptr<Fiber> Fiber::for_current_thread() {
  return std::unique_ptr<Fiber>(new Fiber(ThreadContextTag{}));
}

Fiber::~Fiber() {
  if (is_thread_context_) return;
  if (running_) die("a running fiber was destroyed");
#ifdef RACELAB_FIBER_TSAN
  if (owns_tsan_context_) {
    // The stack outlives this context: whatever this fiber did on it happens
    // before the destroying context goes on, and through the cache's lock
    // before the next fiber that gets it.
    join_sanitizer_context(tsan_context_);
    __tsan_destroy_fiber(tsan_context_);
    live_contexts().fetch_sub(1, std::memory_order_relaxed);
  }
#endif
#ifdef RACELAB_FIBER_ASAN
  // Frames that never returned leave poison behind; clear it for whatever
  // stack is placed here next.
  __asan_unpoison_memory_region(stack_bottom_, stack_size_);
#endif
  if (!stack_cache().give(mapping_, mapping_size_)) {
    munmap(mapping_, mapping_size_);
  }
}

std::size_t Fiber::guard_size() { return page_size(); }

RACELAB_NO_SANITIZE_THREAD void Fiber::learn_stack(const void* bottom,
                                                   std::size_t size) {
  // Only a thread's own context starts without known bounds; ASan reports
  // them to the first fiber it switches to.
  if (stack_size_ == 0) {
    stack_bottom_ = bottom;
    stack_size_ = size;
  }
}

void Fiber::prepare_context() {
  // The stack grows down from its top; the fiber starts in trampoline with
  // the context it was switched from and that context's fiber.
  char* const top =
      static_cast<char*>(const_cast<void*>(stack_bottom_)) + stack_size_;
  context_ = boost::context::detail::make_fcontext(
      top, stack_size_,
      [](boost::context::detail::transfer_t from) RACELAB_NO_SANITIZE_THREAD {
        Fiber::trampoline(from.fctx, from.data);
      });
}

void Fiber::restart() {
  if (is_thread_context_) die("a thread's own context cannot be restarted");
  if (running_) die("a running fiber cannot be restarted");
#ifdef RACELAB_FIBER_TSAN
  if (started_) {
    // The old context still has the abandoned frames on its shadow stack.
    __tsan_destroy_fiber(tsan_context_);
    tsan_context_ = __tsan_create_fiber(0);
    if (!name_.empty()) __tsan_set_fiber_name(tsan_context_, name_.c_str());
  }
#endif
#ifdef RACELAB_FIBER_ASAN
  // Abandoned frames leave their redzones poisoned.
  __asan_unpoison_memory_region(stack_bottom_, stack_size_);
  asan_fake_stack_ = nullptr;
#endif
  caught_exceptions_ = nullptr;
  uncaught_exceptions_ = 0;
  resumer_ = nullptr;
  started_ = false;
  finished_ = false;
  prepare_context();
}

void Fiber::set_name(const std::string& name) {
  name_ = name;
#ifdef RACELAB_FIBER_TSAN
  if (tsan_context_ != nullptr && !is_thread_context_) {
    __tsan_set_fiber_name(tsan_context_, name_.c_str());
  }
#endif
}

RACELAB_NO_SANITIZE_THREAD void Fiber::switch_to(Fiber& target) {
  switch_impl(target, /*leaving_for_good=*/false);
}

RACELAB_NO_SANITIZE_THREAD void Fiber::switch_impl(Fiber& target,
                                                   bool leaving_for_good) {
  if (&target == this) die("a fiber switched to itself");
  if (!running_) die("switch_to called on a fiber that is not running");
  if (target.running_) die("switch to a fiber that is already running");
  if (target.finished_) die("switch to a finished fiber");
#ifdef RACELAB_FIBER_ASAN
  if (target.stack_size_ == 0) {
    die("switch to a thread's own context before its stack bounds are known");
  }
#endif
  EhGlobals* eh = eh_globals();
  caught_exceptions_ = eh->caught_exceptions;
  uncaught_exceptions_ = eh->uncaught_exceptions;
  eh->caught_exceptions = target.caught_exceptions_;
  eh->uncaught_exceptions = target.uncaught_exceptions_;
  running_ = false;
  target.running_ = true;
  target.started_ = true;
  target.resumer_ = this;
  t_switch_source = this;
  t_switch_target = &target;
#ifdef RACELAB_FIBER_ASAN
  __sanitizer_start_switch_fiber(leaving_for_good ? nullptr : &asan_fake_stack_,
                                 target.stack_bottom_, target.stack_size_);
#else
  (void)leaving_for_good;
#endif
#ifdef RACELAB_FIBER_TSAN
  // Immediately before the stack switch, with nothing instrumented between.
  __tsan_switch_to_fiber(target.tsan_context_, __tsan_switch_to_fiber_no_sync);
#endif
  const boost::context::detail::transfer_t from =
      boost::context::detail::jump_fcontext(target.context_, this);
  // Resumed: some fiber switched back to this one, and stopped where `from`
  // says.
  static_cast<Fiber*>(from.data)->context_ = from.fctx;
#ifdef RACELAB_FIBER_ASAN
  const void* source_bottom = nullptr;
  std::size_t source_size = 0;
  __sanitizer_finish_switch_fiber(asan_fake_stack_, &source_bottom,
                                  &source_size);
  t_switch_source->learn_stack(source_bottom, source_size);
#endif
}

RACELAB_NO_SANITIZE_THREAD void Fiber::trampoline(void* source_context,
                                                  void* source) {
  static_cast<Fiber*>(source)->context_ = source_context;
  Fiber* self = t_switch_target;
#ifdef RACELAB_FIBER_ASAN
  const void* source_bottom = nullptr;
  std::size_t source_size = 0;
  __sanitizer_finish_switch_fiber(nullptr, &source_bottom, &source_size);
  t_switch_source->learn_stack(source_bottom, source_size);
#endif
  self->entry_(self->arg_);
  self->finished_ = true;
  self->switch_impl(*self->resumer_, /*leaving_for_good=*/true);
  die("a finished fiber was resumed");
}

RACELAB_NO_SANITIZE_THREAD void Fiber::release_to(Fiber& other) {
  if (!running_) die("release_to called on a fiber that is not running");
#ifdef RACELAB_FIBER_TSAN
  // A synchronizing switch to the other context and straight back, without
  // running it: `other` acquires everything this fiber released.
  __tsan_switch_to_fiber(other.tsan_context_, 0);
  __tsan_switch_to_fiber(tsan_context_, __tsan_switch_to_fiber_no_sync);
#else
  (void)other;
#endif
}

RACELAB_NO_SANITIZE_THREAD void Fiber::acquire_from(Fiber& other) {
  if (!running_) die("acquire_from called on a fiber that is not running");
#ifdef RACELAB_FIBER_TSAN
  join_sanitizer_context(other.tsan_context_);
#else
  (void)other;
#endif
}

RACELAB_NO_SANITIZE_THREAD void Fiber::run_as(Fiber& other,
                                              void (*action)(void*),
                                              void* arg) {
  if (!running_) die("run_as called on a fiber that is not running");
#ifdef RACELAB_FIBER_TSAN
  __tsan_switch_to_fiber(other.tsan_context_, __tsan_switch_to_fiber_no_sync);
  action(arg);
  __tsan_switch_to_fiber(tsan_context_, __tsan_switch_to_fiber_no_sync);
#else
  (void)other;
  action(arg);
#endif
}

}  // namespace racelab::sched
