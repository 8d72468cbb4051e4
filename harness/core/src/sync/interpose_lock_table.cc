// Stress mode's table of lock waits (scheduling_hooks.h): per OS thread of a
// stress run, the interposed lock or condition variable it is blocked on and
// the locks it holds, with call stacks, for a hung check to name its locks.
//
// Compiled without sanitizer instrumentation, as the interposer is: the
// table's relaxed atomics add no accesses or edges that could hide a race of
// the code under test.
#include <unistd.h>

#include <type_traits>

#include "interpose_common.h"
#include "racelab/internal/scheduling_hooks.h"

namespace racelab::interpose_internal {

StressYieldHook stress_yield_hook();  // sync.cc
bool in_harness_code();               // interpose.cc

namespace {

StressLockRow g_rows[kLockRows];

template <class T>
void put(T& field, T value) {
  if constexpr (std::is_enum_v<T>) {
    using U = std::underlying_type_t<T>;
    __atomic_store_n(reinterpret_cast<U*>(&field), static_cast<U>(value),
                     __ATOMIC_RELAXED);
  } else {
    __atomic_store_n(&field, value, __ATOMIC_RELAXED);
  }
}
template <class T>
T get(const T& field) {
  if constexpr (std::is_enum_v<T>) {
    using U = std::underlying_type_t<T>;
    return static_cast<T>(
        __atomic_load_n(reinterpret_cast<const U*>(&field), __ATOMIC_RELAXED));
  } else {
    return __atomic_load_n(&field, __ATOMIC_RELAXED);
  }
}

// Frees the thread's row when the thread ends.
struct RowOwner {
  int row = -1;
  ~RowOwner() {
    if (row >= 0) put(g_rows[row].tid, 0L);
  }
};
thread_local RowOwner t_row;

// The calling thread's row, claimed on first use; null when the table is
// full (that thread is then not shown) or no stress run is active.
StressLockRow* my_row() {
  if (in_harness_code() || stress_yield_hook() == nullptr) return nullptr;
  if (t_row.row >= 0) return &g_rows[t_row.row];
  const long tid = static_cast<long>(gettid());
  for (int i = 0; i < kLockRows; ++i) {
    long free = 0;
    if (__atomic_compare_exchange_n(&g_rows[i].tid, &free, tid, false,
                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      StressLockRow& row = g_rows[i];
      put(row.waiting, WaitKind::kNone);
      put(row.held_count, 0);
      t_row.row = i;
      return &row;
    }
  }
  return nullptr;
}

// The return addresses above the interposed call, innermost first.
__attribute__((noinline)) void record_stack(LockSite& site,
                                            const void* object) {
  put(site.object, object);
  const void* stack[kSiteDepth];
  const int depth = return_addresses(stack, kSiteDepth, 1);
  for (int i = 0; i < kSiteDepth; ++i) {
    put(site.sites[i], i < depth ? stack[i] : nullptr);
  }
}

void add_held(StressLockRow& row, const LockSite& site) {
  const int count = get(row.held_count);
  if (count >= kRowLocks) return;
  put(row.held[count].object, site.object);
  for (int i = 0; i < kSiteDepth; ++i) {
    put(row.held[count].sites[i], get(site.sites[i]));
  }
  put(row.held_count, count + 1);
}

void remove_held(StressLockRow& row, const void* lock) {
  const int count = get(row.held_count);
  for (int i = count - 1; i >= 0; --i) {
    if (get(row.held[i].object) != lock) continue;
    for (int j = i; j + 1 < count; ++j) {
      put(row.held[j].object, get(row.held[j + 1].object));
      for (int k = 0; k < kSiteDepth; ++k) {
        put(row.held[j].sites[k], get(row.held[j + 1].sites[k]));
      }
    }
    put(row.held_count, count - 1);
    return;
  }
}

}  // namespace

void stress_waits_for_lock(const void* lock) {
  if (StressLockRow* row = my_row()) {
    record_stack(row->wait, lock);
    put(row->waiting, WaitKind::kLock);
  }
}

void stress_after_lock(const void* lock) {
  if (StressLockRow* row = my_row()) {
    put(row->waiting, WaitKind::kNone);
    if (get(row->wait.object) == lock) {
      add_held(*row, row->wait);
    } else {
      LockSite site;
      record_stack(site, lock);
      add_held(*row, site);
    }
  }
}

void stress_lock_released(const void* lock) {
  if (StressLockRow* row = my_row()) remove_held(*row, lock);
}

void stress_cond_wait_begins(const void* cond, const void* mu) {
  if (StressLockRow* row = my_row()) {
    remove_held(*row, mu);
    record_stack(row->wait, cond);
    put(row->waiting, WaitKind::kCondition);
  }
}

void stress_cond_wait_ends(const void* mu) {
  if (StressLockRow* row = my_row()) {
    put(row->waiting, WaitKind::kNone);
    LockSite site;
    record_stack(site, mu);
    add_held(*row, site);
  }
}

int copy_stress_lock_table(StressLockRow* out) {
  int n = 0;
  for (const StressLockRow& row : g_rows) {
    const long tid = get(row.tid);
    if (tid == 0) continue;
    StressLockRow& copy = out[n++];
    copy.tid = tid;
    copy.waiting = get(row.waiting);
    copy.wait.object = get(row.wait.object);
    for (int k = 0; k < kSiteDepth; ++k) {
      copy.wait.sites[k] = get(row.wait.sites[k]);
    }
    copy.held_count = get(row.held_count);
    if (copy.held_count < 0 || copy.held_count > kRowLocks) copy.held_count = 0;
    for (int i = 0; i < copy.held_count; ++i) {
      copy.held[i].object = get(row.held[i].object);
      for (int k = 0; k < kSiteDepth; ++k) {
        copy.held[i].sites[k] = get(row.held[i].sites[k]);
      }
    }
  }
  return n;
}

}  // namespace racelab::interpose_internal
