// Conformance: lost_wakeup with the flag set under the lock (the clean
// twin): the notify can no longer fall between check and wait.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

std::mutex mu;
std::condition_variable cv;
std::atomic<bool> done{false};

int main() {
  std::thread notifier([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    {
      std::lock_guard lock(mu);
      done.store(true);
    }
    cv.notify_one();
  });
  {
    std::unique_lock lock(mu);
    while (!done.load()) cv.wait(lock);
  }
  notifier.join();
  return 0;
}
