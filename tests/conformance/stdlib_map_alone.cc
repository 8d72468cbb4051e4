// Conformance: main fills a std::map before it starts its threads and reads
// it after joining them; the threads only count under a mutex. The map's
// tree code runs in libstdc++.so, uninstrumented, but never while another
// thread of the run is alive, so it cannot race: dfs covers every
// interleaving and may say verified.
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
// EXPECT-DFS: verified
#include <map>
#include <mutex>
#include <thread>

std::mutex lock;
int count = 0;

void bump() {
  std::lock_guard<std::mutex> held(lock);
  ++count;
}

int main() {
  std::map<int, int> squares;
  for (int i = 0; i < 8; ++i) squares[i] = i * i;
  std::thread a(bump);
  std::thread b(bump);
  a.join();
  b.join();
  int sum = 0;
  for (const auto& [key, square] : squares) sum += square;
  return sum == 140 && count == 2 ? 0 : 1;
}
