// Conformance: 256 threads started in a loop and detached at once, each
// counting itself done under a mutex and notifying main, which waits on the
// condition variable until all of them are (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <condition_variable>
#include <mutex>
#include <thread>

constexpr int kThreads = 256;
std::mutex mutex;
std::condition_variable all_done;
int done = 0;

int main() {
  for (int i = 0; i < kThreads; ++i) {
    std::thread([] {
      std::lock_guard<std::mutex> lock(mutex);
      if (++done == kThreads) all_done.notify_one();
    }).detach();
  }
  std::unique_lock<std::mutex> lock(mutex);
  all_done.wait(lock, [] { return done == kThreads; });
  return 0;
}
