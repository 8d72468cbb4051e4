// Conformance: the LRU bug of docs/libcxx.md as a whole program: two
// threads move an entry to the front of a shared std::list with splice
// while each holds only the shared lock. splice relinks nodes inside
// libstdc++.so, which is not instrumented, so plain TSan sees nothing;
// under explore racelab tells TSan of the links _M_transfer writes
// (interpose_stdlib.cc), and the race is found (more than plain TSan, as
// explore may), and dfs never calls the program verified.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: data_race
// EXPECT-DFS: not verified
#include <iterator>
#include <list>
#include <mutex>
#include <shared_mutex>
#include <thread>

std::shared_mutex lock;
std::list<int> recent = {1, 2, 3, 4};

void touch_last() {
  std::shared_lock<std::shared_mutex> reading(lock);  // BUG: splice writes
  recent.splice(recent.begin(), recent, std::prev(recent.end()));
}

int main() {
  std::thread a(touch_last);
  std::thread b(touch_last);
  a.join();
  b.join();
  return recent.size() == 4 ? 0 : 1;
}
