// The progress of a long search or gate on a terminal: one line, written over
// in place ("\r", then the text, then "erase to the end of the line"), at
// most ten times a second, and erased before anything else is printed. On a
// stream that is not a terminal it writes nothing.
#ifndef RACELAB_RUNNER_PROGRESS_LINE_H_
#define RACELAB_RUNNER_PROGRESS_LINE_H_

#include <chrono>
#include <mutex>
#include <string>

namespace racelab {

class ProgressLine {
 public:
  // Shows progress on the file descriptor `fd` (stderr) only when it is a
  // terminal.
  explicit ProgressLine(int fd = 2);
  ~ProgressLine() { clear(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool on() const { return on_; }
  // Shows `text` in place of the line shown before, unless a line was shown
  // less than 100 ms ago (`now`: always). Thread-safe.
  void show(const std::string& text, bool now = false);
  // Erases the line (before other output). Thread-safe.
  void clear();

 private:
  void write_all(const std::string& bytes);

  const int fd_;
  const bool on_;
  std::mutex mu_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

// "12.3 s", "4 min 05 s": a duration for a progress line.
std::string progress_time(std::chrono::steady_clock::duration elapsed);

}  // namespace racelab

#endif  // RACELAB_RUNNER_PROGRESS_LINE_H_
