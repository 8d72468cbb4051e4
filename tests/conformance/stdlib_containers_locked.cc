// Conformance: two threads insert into a shared std::map and move an entry
// of a shared std::list to its front, each under one std::mutex (the fixed
// LRU of docs/libcxx.md). The containers' out-of-line code in libstdc++.so
// is uninstrumented, but every call of it holds the same lock, which
// racelab sees: dfs covers every order of the lock and may say verified.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPECT-DFS: verified
#include <iterator>
#include <list>
#include <map>
#include <mutex>
#include <thread>

std::mutex lock;
std::map<int, int> table;
std::list<int> recent = {1, 2, 3, 4};

void work(int key) {
  std::lock_guard<std::mutex> held(lock);
  table[key] = key;
  recent.splice(recent.begin(), recent, std::prev(recent.end()));
}

int main() {
  std::thread a(work, 1);
  std::thread b(work, 2);
  a.join();
  b.join();
  return table.size() == 2 && recent.size() == 4 ? 0 : 1;
}
