// Conformance: main waits for a flag with std::condition_variable::wait_for
// an hour and takes a timeout for an error (exit 1); a thread sets the flag
// under the mutex and notifies (clean). libstdc++ waits with
// pthread_cond_clockwait on the steady clock.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

int main() {
  std::mutex mu;
  std::condition_variable cv;
  bool ready = false;
  std::thread t([&] {
    std::lock_guard<std::mutex> lock(mu);
    ready = true;
    cv.notify_one();
  });
  bool woke;
  {
    std::unique_lock<std::mutex> lock(mu);
    woke = cv.wait_for(lock, std::chrono::hours(1), [&] { return ready; });
  }
  t.join();
  return woke ? 0 : 1;
}
