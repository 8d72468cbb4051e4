// Conformance: a writer updates two fields under a std::shared_mutex held
// exclusively; two readers read them under it held shared (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <mutex>
#include <shared_mutex>
#include <thread>

std::shared_mutex mu;
int low = 0;
int high = 0;
bool torn = false;

void read_both() {
  std::shared_lock lock(mu);
  if (high != low) torn = true;
}

int main() {
  std::thread r1(read_both);
  std::thread r2(read_both);
  {
    std::unique_lock lock(mu);
    low = 1;
    high = 1;
  }
  r1.join();
  r2.join();
  return torn ? 1 : 0;
}
