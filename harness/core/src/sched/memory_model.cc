// The memory-model mode's stores and views (memory_model.h).
#include "racelab/memory_model.h"

#include <algorithm>
#include <cstring>

#include "racelab/internal/sched/schedule_file.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RACELAB_MEMORY_MODEL_TSAN 1
#include <sanitizer/tsan_interface.h>
#endif
#endif

namespace racelab::sched {

static_assert(MemoryModel::kKeptStores <= ScheduleFile::kMaxStoreChoices,
              "a saved schedule must hold any store a load may read");

namespace {

bool acquires(MemoryOrder order) {
  return order == MemoryOrder::kAcquire || order == MemoryOrder::kConsume ||
         order == MemoryOrder::kAcqRel || order == MemoryOrder::kSeqCst;
}
bool releases(MemoryOrder order) {
  return order == MemoryOrder::kRelease || order == MemoryOrder::kAcqRel ||
         order == MemoryOrder::kSeqCst;
}

std::uint64_t masked(std::uint64_t value, int size) {
  return size >= 8 ? value : value & ((std::uint64_t{1} << (size * 8)) - 1);
}

}  // namespace

// Adds `head` to `heads`, keeping one release per thread: a thread's later
// release carries all its earlier one did (program order).
void MemoryModel::add_head(Heads& heads,
                           const std::shared_ptr<const Release>& head) {
  for (auto& kept : heads) {
    if (kept->thread != head->thread) continue;
    if (kept->sequence < head->sequence) kept = head;
    return;
  }
  heads.push_back(head);
}

MemoryModel::Thread& MemoryModel::thread(int index) {
  const auto i = static_cast<std::size_t>(index);
  if (i >= threads_.size()) threads_.resize(i + 1);
  return threads_[i];
}

std::uint64_t& MemoryModel::floor(View& view, std::size_t id) {
  if (id >= view.size()) view.resize(id + 1, 0);
  return view[id];
}

void MemoryModel::join(View& into, const View& from) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (std::size_t i = 0; i < from.size(); ++i) {
    into[i] = std::max(into[i], from[i]);
  }
}

MemoryModel::Location& MemoryModel::location(const volatile void* address,
                                             int size, std::uint64_t memory) {
  memory = masked(memory, size);
  auto [at, added] = locations_.try_emplace(address);
  Location& location = at->second;
  if (added) location.id = locations_.size() - 1;
  if (added || location.size != size ||
      location.stores.back().value != memory) {
    // New, or written outside the model: one store, seen by everyone.
    const std::uint64_t number =
        location.stores.empty() ? 0 : location.stores.back().number + 1;
    location.size = size;
    location.stores.clear();
    location.stores.push_back(Store{number, memory, -1, {}});
  }
  return location;
}

int MemoryModel::candidates(int thread_index, const Location& location,
                            MemoryOrder order) {
  if (order == MemoryOrder::kSeqCst) return 1;
  Thread& me = thread(thread_index);
  if (me.polled == location.id && me.polls >= kStalePolls) return 1;
  const std::uint64_t from = floor(me.view, location.id);
  int count = 0;
  for (const Store& store : location.stores) {
    if (store.number >= from) ++count;
  }
  return std::max(count, 1);
}

std::uint64_t MemoryModel::read(int thread_index, Location& location, int index,
                                MemoryOrder order, std::string* how) {
  const int count = candidates(thread_index, location, order);
  index = std::clamp(index, 0, count - 1);
  const Store& store = location.stores[location.stores.size() -
                                       static_cast<std::size_t>(count - index)];
  Thread& me = thread(thread_index);
  std::uint64_t& seen = floor(me.view, location.id);
  seen = std::max(seen, store.number);
  me.polls = me.polled == location.id ? me.polls + 1 : 1;
  me.polled = location.id;
  if (acquires(order)) {
    acquire(me, store.heads);
  } else {
    for (const auto& head : store.heads) add_head(me.pending, head);
  }
  const int newer = count - 1 - index;
  if (newer > 0) ++stale_reads_;
  if (how != nullptr && newer > 0) {
    *how = "reads " + std::to_string(store.value) + " from " +
           (store.thread < 0
                ? std::string("before the run")
                : "thread " + std::to_string(store.thread) + "'s store") +
           " (" + std::to_string(newer) + " newer store" +
           (newer == 1 ? "" : "s") + " not seen)";
  }
  return store.value;
}

void MemoryModel::acquire(Thread& me, const Heads& heads) {
  for (const auto& head : heads) {
#ifdef RACELAB_MEMORY_MODEL_TSAN
    __tsan_acquire(const_cast<Release*>(head.get()));
#endif
    join(me.view, head->view);
  }
}

std::shared_ptr<const MemoryModel::Release> MemoryModel::make_release(
    int thread_index) {
  auto release = std::make_shared<Release>();
  Thread& me = thread(thread_index);
  release->thread = thread_index;
  release->sequence = ++me.releases;
  release->view = me.view;
#ifdef RACELAB_MEMORY_MODEL_TSAN
  __tsan_release(release.get());
#endif
  return release;
}

void MemoryModel::append(int thread_index, Location& location,
                         std::uint64_t value, Heads heads) {
  thread(thread_index).polled = SIZE_MAX;
  const std::uint64_t number = location.stores.back().number + 1;
  location.stores.push_back(Store{number, masked(value, location.size),
                                  thread_index, std::move(heads)});
  if (location.stores.size() > kKeptStores) location.stores.pop_front();
  std::uint64_t& own = floor(thread(thread_index).view, location.id);
  own = std::max(own, number);
}

void MemoryModel::store(int thread_index, Location& location,
                        std::uint64_t value, MemoryOrder order) {
  Heads heads;
  if (releases(order)) {
    // The release's view includes the store itself.
    floor(thread(thread_index).view, location.id) =
        location.stores.back().number + 1;
    heads.push_back(make_release(thread_index));
  } else if (const auto& fence = thread(thread_index).fence) {
    heads.push_back(fence);
  }
  append(thread_index, location, value, std::move(heads));
  if (order == MemoryOrder::kSeqCst) {
    std::uint64_t& global = floor(seq_cst_, location.id);
    global = std::max(global, location.stores.back().number);
  }
}

void MemoryModel::update(int thread_index, Location& location, bool wrote,
                         std::uint64_t value, MemoryOrder order) {
  const int count = candidates(thread_index, location, MemoryOrder::kRelaxed);
  read(thread_index, location, count - 1, order);
  if (!wrote) return;
  // A read-modify-write continues the release sequences of the store it
  // read: an acquire that reads it synchronizes with their heads too.
  Heads heads = location.stores.back().heads;
  std::shared_ptr<const Release> own;
  if (releases(order)) {
    floor(thread(thread_index).view, location.id) =
        location.stores.back().number + 1;
    own = make_release(thread_index);
  } else {
    own = thread(thread_index).fence;
  }
  if (own != nullptr) add_head(heads, own);
  append(thread_index, location, value, std::move(heads));
  if (order == MemoryOrder::kSeqCst) {
    std::uint64_t& global = floor(seq_cst_, location.id);
    global = std::max(global, location.stores.back().number);
  }
}

void MemoryModel::fence(int thread_index, MemoryOrder order) {
  Thread& me = thread(thread_index);
  me.polled = SIZE_MAX;
  if (acquires(order)) {
    acquire(me, me.pending);
    me.pending.clear();
  }
  if (order == MemoryOrder::kSeqCst) {
    join(seq_cst_, me.view);
    join(me.view, seq_cst_);
  }
  if (releases(order)) me.fence = make_release(thread_index);
}

void MemoryModel::release_on(int thread_index, const void* object) {
  join(objects_[object], thread(thread_index).view);
}

void MemoryModel::acquire_on(int thread_index, const void* object) {
  const auto at = objects_.find(object);
  if (at != objects_.end()) join(thread(thread_index).view, at->second);
}

void MemoryModel::catch_up(int thread_index) {
  Thread& me = thread(thread_index);
  for (const auto& [address, location] : locations_) {
    std::uint64_t& seen = floor(me.view, location.id);
    seen = std::max(seen, location.stores.back().number);
  }
  me.polled = SIZE_MAX;
}

void MemoryModel::spawned(int parent, int child) {
  const View view = thread(parent).view;
  join(thread(child).view, view);
}

}  // namespace racelab::sched
