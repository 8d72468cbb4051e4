// Conformance: two threads write one field of a heap object without a lock.
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <memory>
#include <thread>

struct Account {
  long balance = 0;
};

int main() {
  auto account = std::make_unique<Account>();
  Account* shared = account.get();
  std::thread t([shared] { shared->balance += 10; });
  shared->balance -= 5;
  t.join();
  return 0;
}
