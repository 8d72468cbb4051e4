// The deadlock report of a controlled run: the cycle of the wait-for graph,
// each blocked thread's wait, and where each lock it waits for was first
// taken.
#include <cstring>

#include "scheduler_core.h"

namespace racelab::sched {

std::string first_user_frame(const std::vector<const void*>& stack) {
  if (&__sanitizer_symbolize_pc == nullptr) return "";
  char buffer[1024];
  for (const void* pc : stack) {
    std::memset(buffer, 0, sizeof buffer);
    __sanitizer_symbolize_pc(
        const_cast<char*>(static_cast<const char*>(pc)) - 1, "%f %L", buffer,
        sizeof buffer - 1);
    // One string per frame inlined at the pc, innermost first, each ended
    // by a NUL; an empty one ends the list.
    for (const char* at = buffer; *at != '\0' && at < buffer + sizeof buffer;
         at += std::strlen(at) + 1) {
      const std::string_view frame = at;
      // A deduced return type comes first in the symbolizer's name
      // ("decltype(auto) racelab::...", "auto std::..."); the function's
      // own name follows it.
      std::string_view name = frame;
      for (std::string_view deduced : {"decltype(auto) ", "auto "}) {
        if (name.starts_with(deduced)) name.remove_prefix(deduced.size());
      }
      if (name.starts_with("std::") || name.starts_with("__gthread") ||
          name.starts_with("racelab::") || name.starts_with("pthread_") ||
          name.starts_with("__interceptor")) {
        continue;
      }
      return "in " + std::string(frame);
    }
  }
  return "";
}

}  // namespace racelab::sched

namespace racelab::sched::internal {

namespace {

const char* mode_name(LockMode mode) {
  return mode == LockMode::kShared ? "shared" : "exclusive";
}

std::string quoted(const std::string& name) { return "'" + name + "'"; }

// "at 0x7b0c00001234, first taken in Store::put(int) store.cc:31".
std::string where(const void* address, const std::vector<const void*>& stack) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "at %p", address);
  const std::string frame = first_user_frame(stack);
  return frame.empty() ? buffer
                       : std::string(buffer) + ", first taken " + frame;
}

}  // namespace

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

}  // namespace racelab::sched::internal
