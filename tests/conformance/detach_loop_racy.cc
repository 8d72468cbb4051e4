// Conformance: detach_loop where each thread also writes a plain int
// outside the mutex before it counts itself done.
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <condition_variable>
#include <mutex>
#include <thread>

constexpr int kThreads = 256;
std::mutex mutex;
std::condition_variable all_done;
int done = 0;
int last = -1;

int main() {
  for (int i = 0; i < kThreads; ++i) {
    std::thread([i] {
      last = i;
      std::lock_guard<std::mutex> lock(mutex);
      if (++done == kThreads) all_done.notify_one();
    }).detach();
  }
  std::unique_lock<std::mutex> lock(mutex);
  all_done.wait(lock, [] { return done == kThreads; });
  return 0;
}
