// The memory-model mode's state of one controlled run: which stores each
// atomic load may read under the C++ memory model, beyond the latest one.
//
// The fragment (docs/controlled-mode.md, "The memory-model mode"): every
// atomic location keeps its stores in modification order, which is the order
// they ran in (as in tsan11); every logical thread keeps a view, per location
// the oldest store it may still read. A load reads any store from its view on
// (the choice is a decision of the schedule); a seq_cst load, a
// read-modify-write and a failed compare-and-swap read the latest. Views
// grow by coherence (a thread's own stores and reads), by synchronization
// (an acquire that reads a release store or a store of its release sequence
// takes the releasing thread's view as it was; acquire and release fences do
// the same for the relaxed accesses around them; a lock, a condition
// variable, a semaphore, a barrier, a futex word, a thread's start and its
// join carry views as they carry happens-before), and by seq_cst (a seq_cst
// store raises a global view its location; a seq_cst fence joins the global
// view both ways). Left out: load buffering (a load reads only stores that
// already ran) and modification orders other than the order stores ran in
// (2+2W's weak outcome), as in tsan11; a failed compare-and-swap's stale
// read.
//
// ThreadSanitizer follows what was read: the interposed atomics do their
// access with memory_order_relaxed, and the model adds the happens-before
// edges itself, an acquire from the release heads of the store actually read
// (__tsan_acquire on each head's own address), never from the latest.
//
// Not thread-safe: the scheduler calls it inside its hooks (one logical
// thread at a time, in a HarnessScope).
#ifndef RACELAB_SCHED_MEMORY_MODEL_H_
#define RACELAB_SCHED_MEMORY_MODEL_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "racelab/internal/scheduling_hooks.h"

namespace racelab::sched {

class MemoryModel {
 public:
  // The stores a location keeps: a load may read one of the newest
  // kKeptStores (older ones are forgotten; reading them is never needed for
  // a behaviour the newer ones cannot show within a schedule's bounds).
  static constexpr std::size_t kKeptStores = 8;

  struct Location;

  // The location at `address` (`size` bytes) whose memory holds `memory`
  // (what the latest store wrote). A location met for the first time, or
  // whose memory was written outside the model (a plain store, an
  // initialization, memory reused), starts over: its one store is `memory`,
  // visible to every thread.
  Location& location(const volatile void* address, int size,
                     std::uint64_t memory);

  // How many stores a load of `location` by `thread` with `order` may read
  // (at least 1), oldest first: index count-1 is the latest. A thread that
  // loads one location over and over with nothing else in between (a poll)
  // may read an older store in its first kStalePolls loads only, then the
  // latest: a poll's tree stays finite, and a poll that must see a store
  // sees it.
  static constexpr int kStalePolls = 2;
  int candidates(int thread, const Location& location, MemoryOrder order);
  // The load reads candidate `index`: returns its value, updates the view
  // and synchronizes (acquire) or notes the heads for a later acquire fence.
  // `how` (when given) says what was read, for the trace: "reads 0 from
  // thread 1's store (1 newer store not seen)".
  std::uint64_t read(int thread, Location& location, int index,
                     MemoryOrder order, std::string* how = nullptr);
  // A store of `value` (the memory already holds it).
  void store(int thread, Location& location, std::uint64_t value,
             MemoryOrder order);
  // A read-modify-write read the latest store and, when `wrote`, stored
  // `value` right after it (a failed compare-and-swap only reads).
  void update(int thread, Location& location, bool wrote, std::uint64_t value,
              MemoryOrder order);
  void fence(int thread, MemoryOrder order);

  // Synchronization outside atomics, by the object it goes through: a
  // release (unlock, notify, post, wake, a thread's end) and an acquire
  // (lock, a wait's return, a join).
  void release_on(int thread, const void* object);
  void acquire_on(int thread, const void* object);
  // `child` starts with what `parent` has seen.
  void spawned(int parent, int child);
  // `thread` sees the latest store of every location from now on (it
  // yielded, or the fairness bound let the others run while it spun): as
  // if it read each of them, which the model allows; a poll then ends.
  void catch_up(int thread);

  // Stale reads in this run: loads that read a store older than the latest.
  int stale_reads() const { return stale_reads_; }

 private:
  using View = std::vector<std::uint64_t>;  // by location id: a store number
  // A release (a release store, a release fence): what an acquire that
  // synchronizes with it learns. Its address is TSan's synchronization
  // object for it.
  struct Release {
    int thread = -1;
    std::uint64_t sequence = 0;  // the thread's releases, counted
    View view;
  };
  using Heads = std::vector<std::shared_ptr<const Release>>;
  static void add_head(Heads& heads,
                       const std::shared_ptr<const Release>& head);
  struct Store {
    std::uint64_t number = 0;  // its place in the location's order
    std::uint64_t value = 0;
    int thread = -1;  // -1: before the run, or outside the model
    Heads heads;      // the releases an acquire reading it synchronizes with
  };

 public:
  struct Location {
    std::size_t id = 0;
    int size = 0;
    std::deque<Store> stores;  // the newest kKeptStores, oldest first
  };

 private:
  struct Thread {
    View view;
    std::shared_ptr<const Release> fence;  // the last release fence
    Heads pending;                         // read relaxed, for acquire fences
    std::uint64_t releases = 0;
    std::size_t polled = SIZE_MAX;  // the location of the last loads in a row
    int polls = 0;                  // how many
  };
  Thread& thread(int index);
  std::uint64_t& floor(View& view, std::size_t id);
  static void join(View& into, const View& from);
  std::shared_ptr<const Release> make_release(int thread);
  void acquire(Thread& thread, const Heads& heads);
  void append(int thread, Location& location, std::uint64_t value, Heads heads);

  std::unordered_map<const volatile void*, Location> locations_;
  std::vector<Thread> threads_;
  std::unordered_map<const void*, View> objects_;
  View seq_cst_;
  int stale_reads_ = 0;
};

}  // namespace racelab::sched

#endif  // RACELAB_SCHED_MEMORY_MODEL_H_
