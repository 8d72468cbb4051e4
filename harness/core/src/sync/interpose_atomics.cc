// TSan's atomic entry points under controlled scheduling: with
// -fsanitize=thread every std::atomic operation and fence is a call to
// __tsan_atomic*, and the link option --wrap=<name> (added by the CMake
// targets when RACELAB_INTERPOSE_TSAN_ATOMICS is set) sends it to
// __wrap_<name> here, which makes it a scheduling point and calls
// __real_<name>. Harness code (an unwatched HarnessScope) does its atomics
// natively. The mechanism and the limits: interpose.cc.
//
// This file is compiled without sanitizer instrumentation: it runs inside the
// primitives TSan models and must add no accesses or edges of its own.
#include <type_traits>

#include "interpose_common.h"
#include "racelab/internal/scheduling_hooks.h"

using racelab::PointEffect;
using racelab::SchedulingHooks;

namespace {
using racelab::interpose_internal::controlling;
using racelab::interpose_internal::t_unwatched_depth;
}  // namespace

#ifdef RACELAB_INTERPOSE_TSAN_ATOMICS
// TSan's atomic entry points
// (compiler-rt/include/sanitizer/tsan_interface_atomic.h). Every one is a
// scheduling point before the access; a load, a fence or a signal fence changes
// nothing and counts toward the fairness bound.
namespace {
using a8 = char;
using a16 = short;
using a32 = int;
using a64 = long long;
using a128 = __int128;
using morder = int;

inline void before_atomic(const char* what, PointEffect effect,
                          const volatile void* address, bool read) {
  if (SchedulingHooks* hooks = controlling()) {
    hooks->access_point(
        what, effect,
        {racelab::ObjectKind::kAtomic, const_cast<const void*>(address),
         read ? racelab::AccessKind::kRead : racelab::AccessKind::kWrite},
        racelab::PointKind::kInner);
  }
}
// A compare-and-swap ends a lock-free operation's window between reading a
// value and publishing what it computed from it, as a lock acquisition ends a
// check-then-act's: in stress mode the runner may nudge the thread there.
//
// For the fairness bound a compare-and-swap changes something only when it
// succeeds (a failed one in a retry loop is a spin): the point counts as no
// progress, and after_cas() reports a success.
inline SchedulingHooks* before_cas(const volatile void* address) {
  if (SchedulingHooks* hooks = controlling()) {
    hooks->access_point(
        "atomic compare_exchange", PointEffect::kNoProgress,
        {racelab::ObjectKind::kAtomic, const_cast<const void*>(address),
         racelab::AccessKind::kWrite},
        racelab::PointKind::kInner);
    return hooks;
  }
  racelab::interpose_internal::stress_lock_point("atomic compare_exchange");
  return nullptr;
}
inline void after_cas(SchedulingHooks* hooks, bool succeeded) {
  if (hooks != nullptr && succeeded) hooks->progressed();
}
// Whether atomics are done natively (harness code, see above). Each caller
// asks only for atomics of up to 8 bytes (`if constexpr`): __int128 always
// goes to TSan, natively it would need libatomic.
bool native_in_harness() { return t_unwatched_depth > 0; }

// The memory-model mode (SchedulingHooks::models_memory): the hooks when
// this run's atomics go through the model, else nullptr. Atomics of up to 8
// bytes only; their access is then done relaxed (kRelaxed below), the model
// adding the happens-before of what was actually read.
SchedulingHooks* modelling() {
  SchedulingHooks* hooks = controlling();
  return hooks != nullptr && hooks->models_memory() ? hooks : nullptr;
}
constexpr morder kRelaxed = 0;
template <class T>
unsigned long long bits(T value) {
  return static_cast<unsigned long long>(
      static_cast<std::make_unsigned_t<T>>(value));
}
template <class T>
T from_bits(unsigned long long value) {
  return static_cast<T>(static_cast<std::make_unsigned_t<T>>(value));
}
}  // namespace

#define RACELAB_ATOMIC_SIZE(T, N)                                             \
  extern "C" T __real___tsan_atomic##N##_load(const volatile T*, morder);     \
  extern "C" T __wrap___tsan_atomic##N##_load(const volatile T* a,            \
                                              morder mo) {                    \
    if constexpr (sizeof(T) <= 8) {                                           \
      if (native_in_harness()) return __atomic_load_n(a, __ATOMIC_SEQ_CST);   \
      if (SchedulingHooks* model = modelling()) {                             \
        before_atomic("atomic load", PointEffect::kNoProgress, a, true);      \
        const T latest = __real___tsan_atomic##N##_load(a, kRelaxed);         \
        return from_bits<T>(model->atomic_loaded(a, sizeof(T), bits(latest),  \
                                                 racelab::memory_order(mo))); \
      }                                                                       \
    }                                                                         \
    before_atomic("atomic load", PointEffect::kNoProgress, a, true);          \
    return __real___tsan_atomic##N##_load(a, mo);                             \
  }                                                                           \
  extern "C" void __real___tsan_atomic##N##_store(volatile T*, T, morder);    \
  extern "C" void __wrap___tsan_atomic##N##_store(volatile T* a, T v,         \
                                                  morder mo) {                \
    if constexpr (sizeof(T) <= 8) {                                           \
      if (native_in_harness()) {                                              \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                             \
        return;                                                               \
      }                                                                       \
      if (SchedulingHooks* model = modelling()) {                             \
        before_atomic("atomic store", PointEffect::kProgress, a, false);      \
        const T previous = __atomic_load_n(a, __ATOMIC_RELAXED);              \
        __real___tsan_atomic##N##_store(a, v, kRelaxed);                      \
        model->atomic_stored(a, sizeof(T), bits(previous), bits(v),           \
                             racelab::memory_order(mo));                      \
        return;                                                               \
      }                                                                       \
    }                                                                         \
    before_atomic("atomic store", PointEffect::kProgress, a, false);          \
    __real___tsan_atomic##N##_store(a, v, mo);                                \
  }                                                                           \
  RACELAB_ATOMIC_RMW(T, N, exchange, __atomic_exchange_n)                     \
  RACELAB_ATOMIC_RMW(T, N, fetch_add, __atomic_fetch_add)                     \
  RACELAB_ATOMIC_RMW(T, N, fetch_sub, __atomic_fetch_sub)                     \
  RACELAB_ATOMIC_RMW(T, N, fetch_and, __atomic_fetch_and)                     \
  RACELAB_ATOMIC_RMW(T, N, fetch_or, __atomic_fetch_or)                       \
  RACELAB_ATOMIC_RMW(T, N, fetch_xor, __atomic_fetch_xor)                     \
  RACELAB_ATOMIC_RMW(T, N, fetch_nand, __atomic_fetch_nand)                   \
  RACELAB_ATOMIC_CAS(T, N, compare_exchange_strong, false)                    \
  RACELAB_ATOMIC_CAS(T, N, compare_exchange_weak, true)                       \
  extern "C" T __real___tsan_atomic##N##_compare_exchange_val(                \
      volatile T*, T, T, morder, morder);                                     \
  extern "C" T __wrap___tsan_atomic##N##_compare_exchange_val(                \
      volatile T* a, T c, T v, morder mo, morder fail_mo) {                   \
    if constexpr (sizeof(T) <= 8) {                                           \
      if (native_in_harness()) {                                              \
        __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST,        \
                                    __ATOMIC_SEQ_CST);                        \
        return c;                                                             \
      }                                                                       \
      if (SchedulingHooks* model = modelling()) {                             \
        before_cas(a);                                                        \
        const T seen = __real___tsan_atomic##N##_compare_exchange_val(        \
            a, c, v, kRelaxed, kRelaxed);                                     \
        after_cas(model, seen == c);                                          \
        model->atomic_updated(                                                \
            a, sizeof(T), bits(seen), seen == c, bits(v),                     \
            racelab::memory_order(seen == c ? mo : fail_mo));                 \
        return seen;                                                          \
      }                                                                       \
    }                                                                         \
    SchedulingHooks* hooks = before_cas(a);                                   \
    const T seen =                                                            \
        __real___tsan_atomic##N##_compare_exchange_val(a, c, v, mo, fail_mo); \
    after_cas(hooks, seen == c);                                              \
    return seen;                                                              \
  }

// `native` is the __atomic builtin of the operation.
#define RACELAB_ATOMIC_RMW(T, N, op, native)                                   \
  extern "C" T __real___tsan_atomic##N##_##op(volatile T*, T, morder);         \
  extern "C" T __wrap___tsan_atomic##N##_##op(volatile T* a, T v, morder mo) { \
    if constexpr (sizeof(T) <= 8) {                                            \
      if (native_in_harness()) return native(a, v, __ATOMIC_SEQ_CST);          \
      if (SchedulingHooks* model = modelling()) {                              \
        before_atomic("atomic " #op, PointEffect::kProgress, a, false);        \
        const T old = __real___tsan_atomic##N##_##op(a, v, kRelaxed);          \
        const T now = __atomic_load_n(a, __ATOMIC_RELAXED);                    \
        model->atomic_updated(a, sizeof(T), bits(old), true, bits(now),        \
                              racelab::memory_order(mo));                      \
        return old;                                                            \
      }                                                                        \
    }                                                                          \
    before_atomic("atomic " #op, PointEffect::kProgress, a, false);            \
    return __real___tsan_atomic##N##_##op(a, v, mo);                           \
  }

#define RACELAB_ATOMIC_CAS(T, N, op, weak)                                    \
  extern "C" int __real___tsan_atomic##N##_##op(volatile T*, T*, T, morder,   \
                                                morder);                      \
  extern "C" int __wrap___tsan_atomic##N##_##op(volatile T* a, T* c, T v,     \
                                                morder mo, morder fail_mo) {  \
    if constexpr (sizeof(T) <= 8) {                                           \
      if (native_in_harness()) {                                              \
        return __atomic_compare_exchange_n(a, c, v, weak, __ATOMIC_SEQ_CST,   \
                                           __ATOMIC_SEQ_CST);                 \
      }                                                                       \
      if (SchedulingHooks* model = modelling()) {                             \
        before_cas(a);                                                        \
        const T expected = *c;                                                \
        const int swapped =                                                   \
            __real___tsan_atomic##N##_##op(a, c, v, kRelaxed, kRelaxed);      \
        after_cas(model, swapped != 0);                                       \
        model->atomic_updated(                                                \
            a, sizeof(T), bits(swapped != 0 ? expected : *c), swapped != 0,   \
            bits(v), racelab::memory_order(swapped != 0 ? mo : fail_mo));     \
        return swapped;                                                       \
      }                                                                       \
    }                                                                         \
    SchedulingHooks* hooks = before_cas(a);                                   \
    const int swapped = __real___tsan_atomic##N##_##op(a, c, v, mo, fail_mo); \
    after_cas(hooks, swapped != 0);                                           \
    return swapped;                                                           \
  }

RACELAB_ATOMIC_SIZE(a8, 8)
RACELAB_ATOMIC_SIZE(a16, 16)
RACELAB_ATOMIC_SIZE(a32, 32)
RACELAB_ATOMIC_SIZE(a64, 64)
RACELAB_ATOMIC_SIZE(a128, 128)

extern "C" void __real___tsan_atomic_thread_fence(morder);
extern "C" void __wrap___tsan_atomic_thread_fence(morder mo) {
  if (native_in_harness()) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return;
  }
  if (SchedulingHooks* hooks = controlling()) {
    if (hooks->models_memory()) {
      // Only a seq_cst fence touches what other threads see (the model's
      // seq_cst order); the others change this thread's view alone.
      const racelab::MemoryOrder order = racelab::memory_order(mo);
      hooks->access_point("atomic fence", PointEffect::kNoProgress,
                          order == racelab::MemoryOrder::kSeqCst
                              ? racelab::seq_cst_order_access()
                              : racelab::PointAccess::none(),
                          racelab::PointKind::kInner);
      hooks->atomic_fence(order);
    } else {
      // Interleavings are sequentially consistent and TSan orders nothing
      // by a fence: it touches nothing another thread sees.
      hooks->access_point("atomic fence", PointEffect::kNoProgress,
                          racelab::PointAccess::none(),
                          racelab::PointKind::kInner);
    }
  }
  __real___tsan_atomic_thread_fence(mo);
}
#endif  // RACELAB_INTERPOSE_TSAN_ATOMICS

namespace racelab {
const char kSeqCstOrder = 0;
}  // namespace racelab

// Referenced by the link options of racelab_sync, so this object is always
// part of the executable even where nothing else pulls it from the archive.
extern "C" const char racelab_interpose_atomics_anchor = 0;
