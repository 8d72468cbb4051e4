// Scheduling strategies: random walk, PCT, DFS with partial-order reduction,
// preemption-bounded plain DFS, replay.
#include "racelab/internal/sched/strategy.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

namespace racelab::sched {
namespace {

bool contains(const std::vector<int>& values, int value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

// The stores a pick_value chooses among: 0 .. count-1.
std::vector<int> store_indices(int count) {
  std::vector<int> stores(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) stores[static_cast<std::size_t>(i)] = i;
  return stores;
}

std::string join(const std::vector<int>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(values[i]);
  }
  return out;
}

}  // namespace

std::uint64_t SeededRandom::next() {
  state_ += 0x9E3779B97F4A7C15ULL;
  std::uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

int SeededRandom::below(int bound) {
  if (bound <= 1) return 0;
  const auto range = static_cast<std::uint64_t>(bound);
  // Rejection sampling keeps the choice exactly uniform.
  const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % range);
  std::uint64_t value;
  do {
    value = next();
  } while (value >= limit);
  return static_cast<int>(value % range);
}

bool dependent(const Footprint& a, const Footprint& b) {
  for (const PointAccess& x : a) {
    for (const PointAccess& y : b) {
      if (racelab::dependent(x, y)) return true;
    }
  }
  return false;
}

int fallback_choice(const std::vector<int>& enabled, int current) {
  return contains(enabled, current) ? current : enabled.front();
}

std::uint64_t schedule_seed(std::uint64_t seed, std::uint64_t index) {
  // Two rounds of splitmix64 over the pair: neighbouring seeds and
  // neighbouring indices give unrelated streams.
  SeededRandom mix(seed ^ (index * 0xD1B54A32D192ED03ULL));
  mix.next();
  return mix.next() ^ index;
}

int Strategy::pick_value(int count) {
  const std::vector<int> stores = store_indices(count);
  return pick(stores, count - 1);
}

// --- random ---------------------------------------------------------------

int RandomStrategy::pick(const std::vector<int>& enabled, int /*current*/) {
  ++steps_;
  return enabled[random_.below(static_cast<int>(enabled.size()))];
}

// --- pct ------------------------------------------------------------------

PctStrategy::PctStrategy(std::uint64_t seed, int depth,
                         int initial_step_estimate)
    : seed_(seed),
      random_(seed),
      depth_(depth),
      initial_estimate_(std::max(initial_step_estimate, 1)),
      step_estimate_(initial_estimate_) {
  if (depth < 1) throw std::invalid_argument("pct: depth must be at least 1");
}

void PctStrategy::number_schedule(std::uint64_t index, int calibration) {
  numbered_ = true;
  random_ = SeededRandom(schedule_seed(seed_, index));
  step_estimate_ = calibration > 0 ? calibration : initial_estimate_;
}

void PctStrategy::begin_schedule(int thread_count) {
  step_ = 0;
  changes_done_ = 0;
  // Distinct initial priorities depth .. depth+n-1 in random order.
  priority_.resize(static_cast<std::size_t>(std::max(thread_count, 0)));
  for (std::size_t i = 0; i < priority_.size(); ++i) {
    priority_[i] = depth_ + static_cast<int>(i);
  }
  for (std::size_t i = priority_.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(random_.below(static_cast<int>(i)));
    std::swap(priority_[i - 1], priority_[j]);
  }
  // depth-1 change points in [1, k], distinct when k allows it.
  change_points_.clear();
  const int wanted = depth_ - 1;
  while (static_cast<int>(change_points_.size()) < wanted) {
    const int point = 1 + random_.below(step_estimate_);
    if (step_estimate_ >= wanted && contains(change_points_, point)) continue;
    change_points_.push_back(point);
  }
  std::sort(change_points_.begin(), change_points_.end());
}

// Each new thread takes the next initial priority up and swaps it with a
// random thread's, when that one's is still initial (the inside-out
// Fisher-Yates shuffle: the initial priorities stay in random order).
void PctStrategy::meet(int thread) {
  while (static_cast<int>(priority_.size()) <= thread) {
    const int i = static_cast<int>(priority_.size());
    priority_.push_back(depth_ + i);
    const auto j = static_cast<std::size_t>(random_.below(i + 1));
    if (priority_[j] >= depth_) {
      std::swap(priority_[static_cast<std::size_t>(i)], priority_[j]);
    }
  }
}

int PctStrategy::pick(const std::vector<int>& enabled, int current) {
  ++step_;
  meet(*std::max_element(enabled.begin(), enabled.end()));
  while (changes_done_ < change_points_.size() &&
         change_points_[changes_done_] <= step_) {
    ++changes_done_;
    // The i-th change point lowers the running thread below every initial
    // priority: to depth - i.
    if (current >= 0 && current < static_cast<int>(priority_.size())) {
      priority_[static_cast<std::size_t>(current)] =
          depth_ - static_cast<int>(changes_done_);
    }
  }
  int best = enabled.front();
  for (int thread : enabled) {
    if (priority_[static_cast<std::size_t>(thread)] >
        priority_[static_cast<std::size_t>(best)]) {
      best = thread;
    }
  }
  return best;
}

bool PctStrategy::end_schedule() {
  if (!numbered_) step_estimate_ = std::max(step_estimate_, step_);
  return true;
}

// --- dfs ------------------------------------------------------------------

PlainDfsStrategy::PlainDfsStrategy(int preemption_bound)
    : bound_(preemption_bound) {
  if (preemption_bound < 0) {
    throw std::invalid_argument("dfs: the preemption bound must be >= 0");
  }
}

void PlainDfsStrategy::begin_schedule(int /*thread_count*/) {
  if (exhausted_) {
    exhausted_ = false;
    path_.clear();
  }
  step_ = 0;
  preemptions_ = 0;
}

int PlainDfsStrategy::pick(const std::vector<int>& enabled, int current) {
  const bool current_enabled = contains(enabled, current);
  int choice;
  if (step_ < path_.size()) {
    // Replaying the prefix that leads to the next unexplored choice.
    const Point& point = path_[step_];
    if (point.enabled != enabled || point.current != current) {
      throw ScheduleError(
          "dfs: the program does not behave the same when rerun: at step " +
          std::to_string(step_) + " thread " + std::to_string(current) +
          " is current with threads {" + join(enabled) +
          "} enabled, where the last run had thread " +
          std::to_string(point.current) + " with {" + join(point.enabled) +
          "}");
    }
    choice = point.choices[point.chosen];
  } else {
    Point point{enabled, current, {}, 0};
    if (current_enabled) {
      point.choices.push_back(current);
      if (preemptions_ < bound_) {
        for (int thread : enabled) {
          if (thread != current) point.choices.push_back(thread);
        }
      }
    } else {
      point.choices = enabled;
    }
    choice = point.choices.front();
    path_.push_back(std::move(point));
  }
  if (current_enabled && choice != current) ++preemptions_;
  ++step_;
  return choice;
}

int PlainDfsStrategy::pick_value(int count) {
  const std::vector<int> stores = store_indices(count);
  int choice;
  if (step_ < path_.size()) {
    const Point& point = path_[step_];
    if (point.current != kValuePoint || point.enabled != stores) {
      throw ScheduleError(
          "dfs: the program does not behave the same when rerun: at step " +
          std::to_string(step_) + " a load may read " + std::to_string(count) +
          " stores, where the last run made another decision");
    }
    choice = point.choices[point.chosen];
  } else {
    Point point{stores, kValuePoint, {}, 0};
    for (int i = count; i-- > 0;) point.choices.push_back(i);
    choice = point.choices.front();
    path_.push_back(std::move(point));
  }
  ++step_;
  return choice;
}

bool PlainDfsStrategy::end_schedule() {
  ++explored_;
  path_.resize(std::min(path_.size(), step_));
  while (!path_.empty() &&
         path_.back().chosen + 1 >= path_.back().choices.size()) {
    path_.pop_back();
  }
  if (path_.empty()) {
    exhausted_ = true;
    return false;
  }
  ++path_.back().chosen;
  return true;
}

// --- dpor -----------------------------------------------------------------

DfsStrategy::DfsStrategy(int preemption_bound) : bound_(preemption_bound) {
  if (preemption_bound < kUnbounded) {
    throw std::invalid_argument(
        "dfs: the preemption bound must be >= 0 (or unbounded)");
  }
}

void DfsStrategy::begin_schedule(int /*thread_count*/) {
  ids_.clear();
  next_.clear();
  if (exhausted_) {
    exhausted_ = false;
    path_.clear();
    replay_ = 0;
  }
  fresh_ = replay_ > 0 ? replay_ - 1 : 0;
  step_ = 0;
  preemptions_ = 0;
  blocked_ = false;
  decisions_.clear();
}

DfsStrategy::Steps DfsStrategy::identify(const Footprint& footprint) {
  Steps out;
  out.reserve(footprint.size());
  for (const PointAccess& a : footprint) {
    // A futex word and a static's guard are the atomics they wait on.
    const ObjectKind kind = a.object_kind == ObjectKind::kFutex ||
                                    a.object_kind == ObjectKind::kGuard
                                ? ObjectKind::kAtomic
                                : a.object_kind;
    Touch t{kind, reinterpret_cast<std::uintptr_t>(a.object), a.access, false};
    switch (kind) {
      case ObjectKind::kLock:
      case ObjectKind::kAtomic:
      case ObjectKind::kCondition:
      case ObjectKind::kBarrier:
      case ObjectKind::kSemaphore:
      case ObjectKind::kFutex:
      case ObjectKind::kGuard: {
        const auto [at, added] =
            ids_.try_emplace({kind, a.object}, ids_.size());
        t.object = at->second;
        t.by_first_use = true;
        break;
      }
      case ObjectKind::kNone:
      case ObjectKind::kThread:
      case ObjectKind::kOperations:
      case ObjectKind::kUnknown:
        break;
    }
    out.push_back(t);
  }
  return out;
}

bool DfsStrategy::depends(const Steps& step, std::size_t from,
                          const Steps& other, std::size_t fresh) {
  for (std::size_t i = from; i < step.size(); ++i) {
    const Touch& a = step[i];
    for (const Touch& b : other) {
      if (a.kind == ObjectKind::kNone || b.kind == ObjectKind::kNone) continue;
      if (a.kind == ObjectKind::kUnknown || b.kind == ObjectKind::kUnknown) {
        return true;
      }
      if (a.kind != b.kind || a.by_first_use != b.by_first_use) continue;
      const bool same =
          a.object == b.object ||
          (a.by_first_use && a.object >= fresh && b.object >= fresh);
      if (!same) continue;
      if (a.kind == ObjectKind::kOperations) {
        if (a.access != b.access) return true;
        continue;
      }
      if (a.access == AccessKind::kWrite || b.access == AccessKind::kWrite) {
        return true;
      }
    }
  }
  return false;
}

bool DfsStrategy::wakes(const Asleep& asleep, const Node& parent) const {
  const auto t = static_cast<std::size_t>(asleep.thread);
  if (t >= next_.size() || asleep.footprint.empty()) {
    return depends(asleep.footprint, 0, parent.footprint, asleep.known);
  }
  // The thread has not moved since: its point names the object in this
  // schedule's terms. The rest of its step, as the earlier schedule saw it.
  for (const PointAccess& access : parent.raw) {
    if (racelab::dependent(next_[t], access)) return true;
  }
  return depends(asleep.footprint, 1, parent.footprint, asleep.known);
}

bool DfsStrategy::allowed(const Node& node, int thread) const {
  if (bound_ < 0 || thread == node.current) return true;
  if (!contains(node.enabled, node.current)) return true;
  return node.preemptions < bound_;
}

bool DfsStrategy::asleep(const Node& node, int thread) const {
  for (const Asleep& a : node.sleep) {
    if (a.thread == thread) return true;
  }
  for (const Asleep& a : node.done) {
    if (a.thread == thread) return true;
  }
  return false;
}

int DfsStrategy::pick(const std::vector<int>& enabled, int current) {
  const bool current_enabled = contains(enabled, current);
  int choice;
  if (step_ < replay_) {
    const Node& node = path_[step_];
    if (node.value) {
      throw ScheduleError(
          "dfs: the program does not behave the same when rerun: at step " +
          std::to_string(step_) + " thread " + std::to_string(current) +
          " reached a scheduling point where the last run had a load choose "
          "among " +
          std::to_string(node.enabled.size()) + " stores");
    }
    if (node.enabled != enabled || node.current != current) {
      throw ScheduleError(
          "dfs: the program does not behave the same when rerun: at step " +
          std::to_string(step_) + " thread " + std::to_string(current) +
          " is current with threads {" + join(enabled) +
          "} enabled, where the last run had thread " +
          std::to_string(node.current) + " with {" + join(node.enabled) + "}");
    }
    choice = node.chosen;
  } else {
    path_.resize(step_);
    Node node;
    node.enabled = enabled;
    node.current = current;
    node.preemptions = preemptions_;
    node.known = ids_.size();
    // The parent: the last thread's step (a value node belongs to it: a
    // thread asleep there sleeps through every store the step's load may
    // read, as the load reads the same stores after the sleeper's
    // independent step, where all of them are explored).
    std::size_t at = step_;
    while (at > 0 && path_[at - 1].value) --at;
    if (at > 0 && !blocked_) {
      // A thread asleep at the parent, or explored there before the step
      // just taken, stays asleep while the steps taken since are independent
      // of its own.
      const Node& parent = path_[at - 1];
      auto inherit = [&](const std::vector<Asleep>& from) {
        for (const Asleep& a : from) {
          if (a.thread == parent.chosen) continue;
          if (!wakes(a, parent)) node.sleep.push_back(a);
        }
      };
      inherit(parent.sleep);
      inherit(parent.done);
    }
    std::vector<int> awake;
    for (int thread : enabled) {
      if (!asleep(node, thread) && allowed(node, thread)) {
        awake.push_back(thread);
      }
    }
    if (current_enabled && bound_ >= 0 && preemptions_ >= bound_) {
      // At the bound: the current thread goes on, asleep or not.
      choice = current;
    } else if (awake.empty()) {
      // Every enabled thread sleeps: this schedule repeats an explored class.
      // Run it to its end without sleep sets.
      if (!blocked_) ++sleep_blocked_;
      blocked_ = true;
      node.sleep.clear();
      choice = fallback_choice(enabled, current);
    } else {
      choice = contains(awake, current) ? current : awake.front();
    }
    if (step_ < root_.size()) {
      // The root's decision, whatever this search would choose: the
      // alternatives are the searches rooted at its siblings'.
      choice = root_[step_];
      if (!contains(enabled, choice)) {
        throw ScheduleError(
            "dfs: the program does not behave the same when rerun: at step " +
            std::to_string(step_) + " thread " + std::to_string(choice) +
            " of the search's root is not enabled; enabled threads: {" +
            join(enabled) + "}");
      }
      node.rooted = true;
      node.sleep.clear();
    }
    node.chosen = choice;
    node.backtrack.push_back(choice);
    path_.push_back(std::move(node));
  }
  if (recording_) {
    Decision decision;
    decision.chosen = choice;
    if (current_enabled) decision.choices.push_back(current);
    if (!current_enabled || bound_ < 0 || preemptions_ < bound_) {
      for (int thread : enabled) {
        if (thread != current) decision.choices.push_back(thread);
      }
    }
    decisions_.push_back(std::move(decision));
  }
  if (current_enabled && choice != current) ++preemptions_;
  ++step_;
  return choice;
}

int DfsStrategy::pick_value(int count) {
  const std::vector<int> stores = store_indices(count);
  int choice;
  if (step_ < replay_) {
    const Node& node = path_[step_];
    if (!node.value || node.enabled != stores) {
      throw ScheduleError(
          "dfs: the program does not behave the same when rerun: at step " +
          std::to_string(step_) + " a load may read " + std::to_string(count) +
          " stores, where the last run made another decision");
    }
    choice = node.chosen;
  } else {
    path_.resize(step_);
    Node node;
    node.value = true;
    node.enabled = stores;
    node.current = count - 1;
    node.preemptions = preemptions_;
    node.known = ids_.size();
    for (int i = count; i-- > 0;) node.backtrack.push_back(i);
    choice = count - 1;
    if (step_ < root_.size()) {
      choice = root_[step_];
      if (choice < 0 || choice >= count) {
        throw ScheduleError(
            "dfs: the program does not behave the same when rerun: at step " +
            std::to_string(step_) + " the search's root reads store " +
            std::to_string(choice) + " of " + std::to_string(count));
      }
      node.rooted = true;
    }
    node.chosen = choice;
    path_.push_back(std::move(node));
  }
  if (recording_) {
    Decision decision;
    decision.chosen = choice;
    for (int i = count; i-- > 0;) decision.choices.push_back(i);
    decisions_.push_back(std::move(decision));
  }
  ++step_;
  return choice;
}

std::size_t DfsStrategy::next_step(std::size_t i) const {
  std::size_t k = i + 1;
  while (k < path_.size() && path_[k].value) ++k;
  return k;
}

void DfsStrategy::step_finished(int thread, const Footprint& footprint) {
  if (step_ == 0 || step_ > path_.size()) return;
  std::size_t at = step_;
  while (at > 0 && path_[at - 1].value) --at;  // the step's own node
  if (at == 0) return;
  Steps identified = identify(footprint);
  Node& node = path_[at - 1];
  if (node.chosen == thread) {
    node.footprint = std::move(identified);
    node.raw = footprint;
  }
}

// Happens-before of the schedule's steps as vector clocks (clocks[j][u]: the
// last step of thread u ordered before or at step j), and every race: steps i
// < j of different threads, dependent, with no step between that orders
// them. Only races that end in a step this schedule chose anew are new.
void DfsStrategy::find_races() {
  const std::size_t n = path_.size();
  // Only the threads the schedule ran have clocks (a program's run is told
  // racelab's thread limit, most of which it never creates).
  int count = 1;
  for (const Node& node : path_) {
    if (!node.value) count = std::max(count, node.chosen + 1);
  }
  std::vector<std::vector<int>> clocks(n);
  std::vector<int> last(static_cast<std::size_t>(count), -1);
  std::vector<int> clock;
  for (std::size_t j = 0; j < n; ++j) {
    if (path_[j].value) continue;  // no step of its own
    const auto t = static_cast<std::size_t>(path_[j].chosen);
    if (last[t] >= 0) {
      clock = clocks[static_cast<std::size_t>(last[t])];
    } else {
      clock.assign(static_cast<std::size_t>(count), -1);
    }
    for (std::size_t k = j; k-- > 0;) {
      const Node& earlier = path_[k];
      if (earlier.value || earlier.chosen == path_[j].chosen) continue;
      const auto u = static_cast<std::size_t>(earlier.chosen);
      if (clock[u] >= static_cast<int>(k)) continue;  // already ordered
      if (!depends(earlier.footprint, 0, path_[j].footprint, SIZE_MAX)) {
        continue;
      }
      if (j >= fresh_) reverse_race(k, j, clocks, clock);
      const std::vector<int>& other = clocks[k];
      for (std::size_t w = 0; w < clock.size(); ++w) {
        clock[w] = std::max(clock[w], other[w]);
      }
    }
    clock[t] = static_cast<int>(j);
    clocks[j] = clock;
    last[t] = static_cast<int>(j);
  }
}

// Race (i, j): at step i, make sure some thread that can start the schedule
// "the steps after i that do not depend on step i, then step j" is explored
// (a source set: its initials).
// `clock_j`: what orders step j so far (the steps after i it depends on).
void DfsStrategy::reverse_race(std::size_t i, std::size_t j,
                               const std::vector<std::vector<int>>& clocks,
                               const std::vector<int>& clock_j) {
  Node& at = path_[i];
  if (at.rooted) return;  // the siblings' searches reorder the root
  const auto ti = static_cast<std::size_t>(at.chosen);
  auto after_i = [&](std::size_t k) {
    return clocks[k][ti] >= static_cast<int>(i);
  };
  std::vector<std::size_t> v;
  for (std::size_t k = i + 1; k < j; ++k) {
    if (!path_[k].value && !after_i(k)) v.push_back(k);
  }
  v.push_back(j);
  std::vector<int> initials;
  std::vector<int> seen;
  for (std::size_t a = 0; a < v.size(); ++a) {
    const int u = path_[v[a]].chosen;
    if (contains(seen, u)) continue;
    seen.push_back(u);
    const std::vector<int>& before = v[a] == j ? clock_j : clocks[v[a]];
    bool first = true;
    for (std::size_t b = 0; b < a && first; ++b) {
      const auto w = static_cast<std::size_t>(path_[v[b]].chosen);
      if (before[w] >= static_cast<int>(v[b])) first = false;
    }
    if (first) initials.push_back(u);
  }
  std::vector<int> usable;
  for (int u : initials) {
    if (contains(at.enabled, u) && allowed(at, u)) usable.push_back(u);
  }
  for (int u : usable) {
    if (contains(at.backtrack, u)) return;
  }
  if (!usable.empty()) {
    int pick = usable.front();
    for (int u : usable) {
      if (!asleep(at, u)) {
        pick = u;
        break;
      }
    }
    at.backtrack.push_back(pick);
    return;
  }
  const int tj = path_[j].chosen;
  const std::size_t after = next_step(i);
  if (!contains(at.enabled, tj) && after < path_.size() &&
      contains(path_[after].enabled, tj)) {
    return;  // step i enabled step j's thread (a release, a notify)
  }
  bool any_initial_enabled = false;
  for (int u : initials) {
    if (contains(at.enabled, u)) any_initial_enabled = true;
  }
  if (any_initial_enabled) {
    // Only beyond the preemption bound here: try the reversal's threads at
    // the latest earlier point where choosing them costs no preemption
    // beyond the bound (bounded partial-order reduction, as in Coons,
    // Musuvathi and McKinley, OOPSLA 2013).
    for (std::size_t k = i; k-- > 0;) {
      Node& earlier = path_[k];
      if (earlier.rooted) return;
      if (earlier.value) continue;
      for (int u : initials) {
        if (!contains(earlier.enabled, u) || !allowed(earlier, u)) continue;
        if (!contains(earlier.backtrack, u)) earlier.backtrack.push_back(u);
        return;
      }
    }
    return;
  }
  // No initial is enabled here: every enabled thread (sound, not minimal).
  for (int u : at.enabled) {
    if (allowed(at, u) && !contains(at.backtrack, u)) {
      at.backtrack.push_back(u);
    }
  }
}

bool DfsStrategy::end_schedule() {
  ++explored_;
  path_.resize(std::min(path_.size(), step_));
  find_races();
  while (!path_.empty()) {
    Node& node = path_.back();
    if (node.rooted) {  // below the root, every schedule is explored
      path_.clear();
      break;
    }
    if (node.value) {  // the next store to read here
      const auto tried =
          std::find(node.backtrack.begin(), node.backtrack.end(), node.chosen);
      if (tried != node.backtrack.end() && tried + 1 != node.backtrack.end()) {
        node.chosen = *(tried + 1);
        replay_ = path_.size();
        return true;
      }
      path_.pop_back();
      continue;
    }
    node.done.push_back({node.chosen, node.footprint, node.known});
    int next = -1;
    for (int thread : node.backtrack) {
      if (!asleep(node, thread) && allowed(node, thread)) {
        next = thread;
        break;
      }
    }
    if (next >= 0) {
      node.chosen = next;
      node.footprint.clear();
      node.raw.clear();
      replay_ = path_.size();
      return true;
    }
    path_.pop_back();
  }
  replay_ = 0;
  exhausted_ = true;
  return false;
}

std::vector<std::vector<int>> DfsStrategy::split_roots(
    const std::vector<Decision>& first) {
  std::vector<std::vector<int>> roots;
  std::vector<int> prefix;
  for (const Decision& decision : first) {
    if (decision.choices.size() > 1) {
      for (int choice : decision.choices) {
        roots.push_back(prefix);
        roots.back().push_back(choice);
      }
      return roots;
    }
    prefix.push_back(decision.chosen);
  }
  return roots;
}

// --- replay ---------------------------------------------------------------

ReplayStrategy::ReplayStrategy(std::vector<int> decisions, ReplayMode mode)
    : decisions_(std::move(decisions)), mode_(mode) {}

void ReplayStrategy::begin_schedule(int thread_count) {
  thread_count_ = thread_count;
  step_ = 0;
  followed_ = 0;
  diverged_ = false;
}

int ReplayStrategy::pick(const std::vector<int>& enabled, int current) {
  const std::size_t step = step_++;
  if (step < decisions_.size()) {
    const int decision = decisions_[step];
    if (contains(enabled, decision)) {
      ++followed_;
      return decision;
    }
    if (mode_ == ReplayMode::kStrict) {
      const bool exists = decision >= 0 && decision < thread_count_;
      throw ScheduleError(
          "replay: step " + std::to_string(step) + " decides thread " +
          std::to_string(decision) + ", which " +
          (exists ? std::string("is not enabled")
                  : "does not exist (the program has " +
                        std::to_string(thread_count_) + " threads)") +
          "; enabled threads: {" + join(enabled) + "}");
    }
    diverged_ = true;
  }
  return fallback_choice(enabled, current);
}

// --- factory --------------------------------------------------------------

std::optional<StrategyKind> strategy_kind(std::string_view name) {
  if (name == "random") return StrategyKind::kRandom;
  if (name == "pct") return StrategyKind::kPct;
  if (name == "dfs") return StrategyKind::kDfs;
  if (name == "plain-dfs") return StrategyKind::kPlainDfs;
  if (name == "replay") return StrategyKind::kReplay;
  return std::nullopt;
}

std::unique_ptr<Strategy> make_strategy(std::string_view name,
                                        std::uint64_t seed, int depth,
                                        int preemption_bound,
                                        std::vector<int> decisions) {
  if (const std::optional<StrategyKind> kind = strategy_kind(name)) {
    switch (*kind) {
      case StrategyKind::kRandom:
        return std::make_unique<RandomStrategy>(seed);
      case StrategyKind::kPct:
        return std::make_unique<PctStrategy>(seed, depth);
      case StrategyKind::kDfs:
        return std::make_unique<DfsStrategy>(preemption_bound);
      case StrategyKind::kPlainDfs:
        return std::make_unique<PlainDfsStrategy>(preemption_bound);
      case StrategyKind::kReplay:
        return std::make_unique<ReplayStrategy>(std::move(decisions));
    }
  }
  throw std::invalid_argument(
      "unknown strategy '" + std::string(name) +
      "' (expected random, pct, dfs, plain-dfs or replay)");
}

}  // namespace racelab::sched
