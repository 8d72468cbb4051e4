// Conformance: two threads run two phases through a std::barrier, each
// reading in phase two what the other wrote in phase one (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPECT-NOTE: unmodelled block
#include <barrier>
#include <thread>

int slots[2];
int seen[2];

int main() {
  std::barrier sync(2);
  auto work = [&sync](int i) {
    slots[i] = i + 1;
    sync.arrive_and_wait();
    seen[i] = slots[1 - i];
    sync.arrive_and_wait();
  };
  std::thread t(work, 1);
  work(0);
  t.join();
  return seen[0] == 2 && seen[1] == 1 ? 0 : 1;
}
