// Conformance: the waiter checks an atomic flag under the lock and waits;
// the notifier sets the flag and notifies without taking the lock, so the
// notify can fall between the waiter's check and its wait: the waiter then
// waits forever. A plain run almost never hits that window (the notifier
// first sleeps 20 ms); every interleaving is possible under explore.
// pct (seed 1) reaches it at schedule 3: the notifier must be past its sleep
// before the waiter's check, and a sleep gives way to the waiter first.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: deadlock
// EXPLORE-BUDGET: 200
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
    done.store(true);
    cv.notify_one();
  });
  {
    std::unique_lock lock(mu);
    while (!done.load()) cv.wait(lock);
  }
  notifier.join();
  return 0;
}
