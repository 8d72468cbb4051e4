// Conformance: main takes a std::counting_semaphore with try_acquire_for an
// hour and takes a timeout for an error (exit 1); a thread publishes a
// value and releases it (clean). libstdc++ waits on a futex with a deadline.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <chrono>
#include <semaphore>
#include <thread>

int main() {
  std::counting_semaphore<1> posted(0);
  int value = 0;
  std::thread t([&] {
    value = 42;
    posted.release();
  });
  const bool taken = posted.try_acquire_for(std::chrono::hours(1));
  const int seen = taken ? value : 0;
  t.join();
  return taken && seen == 42 ? 0 : 1;
}
