// Conformance: two workers write their own slot and count a std::latch
// down; main waits on it and reads both slots (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <latch>
#include <thread>

int slots[2];

int main() {
  std::latch done(2);
  std::thread a([&] {
    slots[0] = 1;
    done.count_down();
  });
  std::thread b([&] {
    slots[1] = 2;
    done.count_down();
  });
  done.wait();
  const int sum = slots[0] + slots[1];
  a.join();
  b.join();
  return sum == 3 ? 0 : 1;
}
