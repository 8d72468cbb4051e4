// racelab::GoMap: a hash map that fails like Go's runtime does.
//
// A teaching oracle (the `gomap` oracle). It behaves like std::unordered_map
// and adds the checks Go's runtime makes on its maps, so that a C++ subject's
// failure reads like the Go original's:
//   - a write that starts while another write is in progress:
//     "concurrent map writes" (kind concurrent_map_write);
//   - a read during a write: "concurrent map read and map write";
//   - an iterator step while a write is in progress:
//     "concurrent map iteration and map write";
// plus a fail-fast iterator in the manner of Java's
// ConcurrentModificationException: a step of an iterator after the map was
// modified since the iterator was made (kind map_iteration_during_write).
// Go's own check only sees a write that is in progress at the instant of the
// step (on the seed it caught 0 of 20 runs); the fail-fast check sees every
// write in between.
//
// Each mutation has a scheduling point between announcing and performing the
// write, so controlled mode can schedule another thread into that window.
// The bookkeeping uses relaxed atomics: it adds no happens-before edge and so
// hides no race from ThreadSanitizer. A check that fires records a fault (see
// take_go_map_faults) and the operation goes on, as the C++ map would.
#ifndef RACELAB_GO_MAP_H_
#define RACELAB_GO_MAP_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "racelab/sync.h"

namespace racelab {

enum class GoMapFault {
  kConcurrentWrites,         // "concurrent map writes"
  kReadDuringWrite,          // "concurrent map read and map write"
  kIterationDuringWrite,     // "concurrent map iteration and map write"
  kModifiedDuringIteration,  // fail-fast: "map modified during iteration"
};

const char* go_map_message(GoMapFault fault);

// Records a fault (async-signal-safe, lock-free; at most a few dozen are kept
// per run). `where` names the map.
void record_go_map_fault(GoMapFault fault, const char* where);

struct GoMapFaultRecord {
  GoMapFault fault;
  std::string where;
};
// The faults recorded since the last call (call it with no map operation
// running: after a join, between schedules).
std::vector<GoMapFaultRecord> take_go_map_faults();

template <class K, class V>
class GoMap {
  using Map = std::unordered_map<K, V>;

 public:
  explicit GoMap(const char* name = "map") : name_(name) {}

  class iterator {
   public:
    using value_type = typename Map::value_type;
    iterator() = default;
    value_type& operator*() const { return *it_; }
    value_type* operator->() const { return &*it_; }
    iterator& operator++() {
      map_->check_iteration(version_, &reported_);
      ++it_;
      return *this;
    }
    friend bool operator==(const iterator& a, const iterator& b) {
      return a.it_ == b.it_;
    }

   private:
    friend class GoMap;
    iterator(GoMap* map, typename Map::iterator it)
        : map_(map),
          it_(it),
          version_(map->load_version()) {}
    GoMap* map_ = nullptr;
    typename Map::iterator it_;
    std::uint64_t version_ = 0;
    bool reported_ = false;
  };

  iterator begin() { return iterator(this, map_.begin()); }
  iterator end() { return iterator(this, map_.end()); }

  V& operator[](const K& key) {
    // Inserting is a write; Go's m[k] = v is always one.
    WriteScope write(*this);
    return map_[key];
  }
  iterator find(const K& key) {
    check_read();
    return iterator(this, map_.find(key));
  }
  bool contains(const K& key) {
    check_read();
    return map_.contains(key);
  }
  std::size_t erase(const K& key) {
    WriteScope write(*this);
    return map_.erase(key);
  }
  std::size_t size() {
    check_read();
    return map_.size();
  }

 private:
  class WriteScope {
   public:
    explicit WriteScope(GoMap& m) : m_(m) {
      {
        NotSchedulingPoints check;
        if (m_.writing_.exchange(true, std::memory_order_relaxed)) {
          record_go_map_fault(GoMapFault::kConcurrentWrites, m_.name_);
        }
      }
      yield_point("map.write");
      NotSchedulingPoints check;
      m_.version_.fetch_add(1, std::memory_order_relaxed);
    }
    ~WriteScope() {
      NotSchedulingPoints check;
      if (!m_.writing_.exchange(false, std::memory_order_relaxed)) {
        record_go_map_fault(GoMapFault::kConcurrentWrites, m_.name_);
      }
    }
    WriteScope(const WriteScope&) = delete;
    WriteScope& operator=(const WriteScope&) = delete;

   private:
    GoMap& m_;
  };

  // The checks are the runtime's, not the program's: their atomics are no
  // scheduling points.
  std::uint64_t load_version() {
    NotSchedulingPoints check;
    return version_.load(std::memory_order_relaxed);
  }
  void check_read() {
    NotSchedulingPoints check;
    if (writing_.load(std::memory_order_relaxed)) {
      record_go_map_fault(GoMapFault::kReadDuringWrite, name_);
    }
  }
  void check_iteration(std::uint64_t version, bool* reported) {
    NotSchedulingPoints check;
    if (writing_.load(std::memory_order_relaxed)) {
      record_go_map_fault(GoMapFault::kIterationDuringWrite, name_);
    } else if (!*reported &&
               version_.load(std::memory_order_relaxed) != version) {
      *reported = true;  // once per iterator, as Java throws once
      record_go_map_fault(GoMapFault::kModifiedDuringIteration, name_);
    }
  }

  const char* name_;
  Map map_;
  std::atomic<bool> writing_{false};
  std::atomic<std::uint64_t> version_{0};
};

}  // namespace racelab

#endif  // RACELAB_GO_MAP_H_
