// Conformance: a thread fulfils a std::promise, then writes a value main
// reads once future::get returns: the write is after set_value, so nothing
// orders it before the read (data race).
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <future>
#include <thread>

int extra = 0;

int main() {
  std::promise<int> promise;
  std::future<int> result = promise.get_future();
  std::thread t([&promise] {
    promise.set_value(1);
    extra = 41;
  });
  const int sum = result.get() + extra;
  t.join();
  return sum >= 1 ? 0 : 1;
}
