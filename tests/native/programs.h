// Small programs on plain std types, each a buggy and a fixed twin, with the
// finding the buggy twin must produce (the fixed twin must be clean). No
// racelab type appears in them: the scheduling points come from
// interposition alone. Shared by the tests (native_programs_test.cc) and the
// table of schedules to the first finding (native_table.cc).
#ifndef RACELAB_TESTS_NATIVE_PROGRAMS_H_
#define RACELAB_TESTS_NATIVE_PROGRAMS_H_

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <thread>
#include <vector>

#include "racelab/finding.h"

namespace racelab::native_programs {

// A failed check: the schedule is a crash finding (abort in the child).
inline void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "check failed: %s\n", what);
  std::abort();
}

// 1. A lost update across two critical sections: read under the lock, write
// under the lock again, the value read in between is stale.
inline void lost_update(bool fixed) {
  std::mutex mu;
  int balance = 0;
  auto deposit = [&] {
    if (fixed) {
      std::lock_guard<std::mutex> lock(mu);
      balance = balance + 1;
      return;
    }
    int seen;
    {
      std::lock_guard<std::mutex> lock(mu);
      seen = balance;
    }
    std::lock_guard<std::mutex> lock(mu);
    balance = seen + 1;
  };
  std::thread a(deposit), b(deposit);
  a.join();
  b.join();
  check(balance == 2, "balance == 2 after two deposits");
}

// 2. A lock-order inversion: a transfer locks from-then-to, the other
// direction to-then-from. Fixed: std::scoped_lock takes both without
// deadlock.
inline void lock_order(bool fixed) {
  std::mutex first, second;
  int a = 10, b = 10;
  auto transfer = [&](std::mutex& from, std::mutex& to, int& debit,
                      int& credit) {
    if (fixed) {
      std::scoped_lock both(from, to);
      --debit;
      ++credit;
      return;
    }
    std::lock_guard<std::mutex> hold_from(from);
    std::lock_guard<std::mutex> hold_to(to);
    --debit;
    ++credit;
  };
  std::thread x([&] { transfer(first, second, a, b); });
  std::thread y([&] { transfer(second, first, b, a); });
  x.join();
  y.join();
  check(a + b == 20, "money is conserved");
}

// 3. Publication through a relaxed flag: the reader may see the flag and
// still race with the write of the data (no happens-before). Fixed:
// release / acquire.
inline void relaxed_publication(bool fixed) {
  int data = 0;
  std::atomic<bool> ready{false};
  const auto store_order =
      fixed ? std::memory_order_release : std::memory_order_relaxed;
  const auto load_order =
      fixed ? std::memory_order_acquire : std::memory_order_relaxed;
  std::thread writer([&] {
    data = 42;
    ready.store(true, store_order);
  });
  std::thread reader([&] {
    if (ready.load(load_order)) check(data == 42, "published data is seen");
  });
  writer.join();
  reader.join();
}

// 4. A lost wake-up: the waiter tests the flag outside the lock, so the
// notify can come between its test and its wait, and it waits forever.
// Fixed: wait with the predicate, under the lock the notifier also takes.
inline void lost_wakeup(bool fixed) {
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<bool> ready{false};
  std::thread waiter([&] {
    std::unique_lock<std::mutex> lock(mu, std::defer_lock);
    if (fixed) {
      lock.lock();
      cv.wait(lock, [&] { return ready.load(); });
      return;
    }
    if (!ready.load()) {
      lock.lock();
      cv.wait(lock);
    }
  });
  std::thread notifier([&] {
    if (fixed) {
      std::lock_guard<std::mutex> lock(mu);
      ready.store(true);
    } else {
      ready.store(true);
    }
    cv.notify_one();
  });
  waiter.join();
  notifier.join();
}

// 5. An upgrade from a shared to an exclusive lock: a reader that misses
// takes the exclusive lock while it still holds the shared one and waits for
// itself. Fixed: release the shared lock, take the exclusive one, look again.
inline void upgrade(bool fixed) {
  std::shared_mutex mu;
  std::set<int> cache;
  int computed = 0;
  auto get = [&](int key) {
    std::shared_lock<std::shared_mutex> read(mu);
    if (cache.contains(key)) return;
    if (fixed) {
      read.unlock();
      std::unique_lock<std::shared_mutex> write(mu);
      if (cache.insert(key).second) ++computed;
      return;
    }
    std::unique_lock<std::shared_mutex> write(mu);  // still holds `read`
    if (cache.insert(key).second) ++computed;
  };
  std::thread a([&] { get(1); }), b([&] { get(1); });
  a.join();
  b.join();
  check(computed == 1, "the value is computed once");
}

// 6. A spin-wait on an atomic flag with no yield: it must terminate (the
// scheduler's fairness bound deschedules the spinner). Buggy: the flag is
// relaxed, so the data it guards races.
inline void spin_wait(bool fixed) {
  int data = 0;
  std::atomic<bool> ready{false};
  std::thread consumer([&] {
    while (!ready.load(fixed ? std::memory_order_acquire
                             : std::memory_order_relaxed)) {
    }
    check(data == 7, "the spin-wait sees the data");
  });
  std::thread producer([&] {
    data = 7;
    ready.store(true,
                fixed ? std::memory_order_release : std::memory_order_relaxed);
  });
  consumer.join();
  producer.join();
}

// 7. Thread identity: a per-thread counter and thread ids. Fixed: the
// counter is thread_local, each thread counts its own calls, and the ids of
// the threads differ. Buggy: the "per-thread" counter is a plain static
// shared by all threads (a race, and the counts mix).
inline int& shared_counter() {
  static int counter = 0;
  return counter;
}
inline int& own_counter() {
  thread_local int counter = 0;
  return counter;
}

inline void thread_identity(bool fixed) {
  std::mutex mu;
  std::set<std::thread::id> ids;
  std::vector<int> counts;
  auto work = [&] {
    int& counter = fixed ? own_counter() : shared_counter();
    counter = 0;
    for (int i = 0; i < 2; ++i) ++counter;
    std::lock_guard<std::mutex> lock(mu);
    ids.insert(std::this_thread::get_id());
    counts.push_back(counter);
  };
  std::thread a(work), b(work);
  a.join();
  b.join();
  check(ids.size() == 2 && !ids.contains(std::this_thread::get_id()),
        "every thread has its own id");
  check(counts == std::vector<int>{2, 2}, "every thread counted its own");
}

// 8. A bounded queue on two condition variables, two consumers. Buggy: a
// consumer waits with `if` instead of `while`, so after a notify_all the
// second consumer pops from an empty queue. Fixed: wait with the predicate.
inline void bounded_queue(bool fixed) {
  constexpr std::size_t kCapacity = 1;
  std::mutex mu;
  std::condition_variable not_full, not_empty;
  std::deque<int> queue;
  int taken = 0;
  auto consume = [&] {
    std::unique_lock<std::mutex> lock(mu);
    if (fixed) {
      not_empty.wait(lock, [&] { return !queue.empty(); });
    } else if (queue.empty()) {
      not_empty.wait(lock);
    }
    check(!queue.empty(), "a woken consumer finds an item");
    taken += queue.front();
    queue.pop_front();
    not_full.notify_one();
  };
  std::thread c1(consume), c2(consume);
  std::thread producer([&] {
    for (int i = 1; i <= 2; ++i) {
      std::unique_lock<std::mutex> lock(mu);
      not_full.wait(lock, [&] { return queue.size() < kCapacity; });
      queue.push_back(i);
      not_empty.notify_all();
    }
  });
  producer.join();
  c1.join();
  c2.join();
  check(taken == 3, "every item is taken once");
}

// 9. A lost wake-up in a library's own protocol: the waiter checks the flag
// under the lock and waits (with the predicate, as it should); the notifier
// sets the flag without the lock and notifies. Between the waiter's check and
// its wait the notifier can set the flag and notify while nobody waits yet;
// the waiter then waits forever. Fixed: the notifier sets the flag under the
// lock the waiter checks it under.
inline void unlocked_notify(bool fixed) {
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<bool> ready{false};
  std::thread waiter([&] {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return ready.load(); });
  });
  std::thread notifier([&] {
    if (fixed) {
      std::lock_guard<std::mutex> lock(mu);
      ready.store(true);
    } else {
      ready.store(true);
    }
    cv.notify_one();
  });
  waiter.join();
  notifier.join();
}

struct Program {
  const char* name;
  void (*run)(bool fixed);
  FindingKind buggy_finding;  // what the buggy twin must produce
  // Both twins need atomics to be scheduling points (TSan builds only): a
  // spin-wait without them never lets the other thread run.
  bool needs_atomic_points = false;
};

// Whether a twin can be judged in this build: data races need TSan, spin
// loops need atomic scheduling points (TSan's entry points).
inline bool runnable(const Program& program, bool fixed, bool tsan) {
  if (program.needs_atomic_points && !tsan) return false;
  return fixed || program.buggy_finding != FindingKind::kDataRace || tsan;
}

inline const std::vector<Program>& programs() {
  static const std::vector<Program> all = {
      {"lost_update", lost_update, FindingKind::kCrash},
      {"lock_order", lock_order, FindingKind::kDeadlock},
      {"relaxed_publication", relaxed_publication, FindingKind::kDataRace},
      {"lost_wakeup", lost_wakeup, FindingKind::kDeadlock},
      {"upgrade", upgrade, FindingKind::kDeadlock},
      {"spin_wait", spin_wait, FindingKind::kDataRace, true},
      {"thread_identity", thread_identity, FindingKind::kDataRace},
      {"bounded_queue", bounded_queue, FindingKind::kCrash},
      {"unlocked_notify", unlocked_notify, FindingKind::kDeadlock},
  };
  return all;
}

}  // namespace racelab::native_programs

#endif  // RACELAB_TESTS_NATIVE_PROGRAMS_H_
