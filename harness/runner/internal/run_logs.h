// A child's stderr, cut at the runs' markers ("== racelab run N ==", written
// by the child before each run): each run's part, capped. A part that
// reaches its cap ends at its last whole line and says that it was cut, so
// that a report never shows half a line (half a frame's name).
#ifndef RACELAB_HARNESS_RUNNER_RUN_LOGS_H_
#define RACELAB_HARNESS_RUNNER_RUN_LOGS_H_

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"

namespace racelab {

// The size of a run's log that the runner keeps for its report.
inline constexpr std::size_t kMaxLog = 64 * 1024;

class RunLogs {
 public:
  // `first`: the run the child's output begins with; `cap`: bytes kept per
  // run.
  RunLogs(int first, std::size_t cap) : current_(first), cap_(cap) {}

  // The next piece of the child's stderr, cut anywhere.
  void append(std::string_view data) {
    pending_.append(data);
    for (;;) {
      const std::size_t at = pending_.find("== racelab run ");
      if (at == std::string::npos) {
        // Keep a possible marker's beginning for the next piece.
        const std::size_t keep = std::min<std::size_t>(pending_.size(), 32);
        add(std::string_view(pending_).substr(0, pending_.size() - keep));
        pending_.erase(0, pending_.size() - keep);
        return;
      }
      const std::size_t end = pending_.find(" ==\n", at);
      if (end == std::string::npos) {
        add(std::string_view(pending_).substr(0, at));
        pending_.erase(0, at);
        return;
      }
      add(std::string_view(pending_).substr(0, at));
      int run = current_;
      const std::string number = pending_.substr(at + 15, end - at - 15);
      if (!number.empty() &&
          number.find_first_not_of("0123456789") == std::string::npos &&
          number.size() < 9) {
        run = std::stoi(number);
      }
      current_ = run;
      pending_.erase(0, end + 4);
    }
  }

  // Run `run`'s log, handed over (what is still pending belongs to the run
  // in flight).
  std::string take(int run) {
    if (run == current_) {
      add(pending_);
      pending_.clear();
    }
    auto it = logs_.find(run);
    if (it == logs_.end()) return "";
    std::string out = std::move(it->second);
    logs_.erase(it);
    return out;
  }

 private:
  void add(std::string_view text) {
    if (text.empty() || full_.contains(current_)) return;
    std::string& log = logs_[current_];
    if (log.size() + text.size() <= cap_) {
      log.append(text);
      return;
    }
    // Over the cap: keep whole lines only, then say so.
    log.append(text.substr(0, cap_ - log.size()));
    const std::size_t line_end = log.rfind('\n');
    log.resize(line_end == std::string::npos ? 0 : line_end + 1);
    absl::StrAppend(&log, "[racelab: the rest of this run's log is cut; ",
                    cap_ / 1024, " KiB are kept]\n");
    full_.insert(current_);
  }

  int current_;
  std::size_t cap_;
  std::string pending_;
  std::map<int, std::string> logs_;
  std::set<int> full_;  // runs whose log reached the cap
};

}  // namespace racelab

#endif  // RACELAB_HARNESS_RUNNER_RUN_LOGS_H_
