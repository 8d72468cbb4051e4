// Conformance: futex waits with timeouts that nobody wakes (relative
// FUTEX_WAIT, absolute FUTEX_WAIT_BITSET on the monotonic and, with
// FUTEX_CLOCK_REALTIME, the real-time clock), and std::future::wait_for on a
// promise kept late: each times out only at its deadline as the program's
// clocks see it.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPLORE-BUDGET: 50
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <future>
#include <thread>

#include "clock_check.h"

using namespace std::chrono_literals;

long futex(std::atomic<int>* word, int op, int expected, const timespec* time) {
  return syscall(SYS_futex, reinterpret_cast<int*>(word), op, expected, time,
                 nullptr, FUTEX_BITSET_MATCH_ANY);
}

int main() {
  std::promise<int> promise;
  std::future<int> value = promise.get_future();
  std::thread keeper([&] {
    std::this_thread::sleep_for(100ms);
    promise.set_value(7);
  });
  std::atomic<int> word{0};
  const timespec relative{0, 20'000'000};
  long long start = now_ns(CLOCK_MONOTONIC);
  expect(futex(&word, FUTEX_WAIT_PRIVATE, 0, &relative) == -1 &&
             errno == ETIMEDOUT,
         "FUTEX_WAIT did not time out");
  expect_took("FUTEX_WAIT", now_ns(CLOCK_MONOTONIC) - start, ms(20));
  timespec at = after(CLOCK_MONOTONIC, ms(20));
  start = now_ns(CLOCK_MONOTONIC);
  expect(futex(&word, FUTEX_WAIT_BITSET_PRIVATE, 0, &at) == -1 &&
             errno == ETIMEDOUT,
         "FUTEX_WAIT_BITSET did not time out");
  expect_took("FUTEX_WAIT_BITSET", now_ns(CLOCK_MONOTONIC) - start, ms(20));
  at = after(CLOCK_REALTIME, ms(20));
  start = now_ns(CLOCK_REALTIME);
  expect(futex(&word, FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, 0,
               &at) == -1 &&
             errno == ETIMEDOUT,
         "FUTEX_WAIT_BITSET|FUTEX_CLOCK_REALTIME did not time out");
  expect_took("FUTEX_WAIT_BITSET|FUTEX_CLOCK_REALTIME",
              now_ns(CLOCK_REALTIME) - start, ms(20));
  auto begun = std::chrono::steady_clock::now();
  if (value.wait_for(10ms) == std::future_status::timeout) {
    expect_took("future::wait_for",
                (std::chrono::steady_clock::now() - begun).count(), ms(10));
  }
  expect(value.get() == 7, "the promise's value was lost");
  keeper.join();
}
