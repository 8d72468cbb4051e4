// Conformance: a heap object written by a thread and read after its join
// (the clean twin of race_heap).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <memory>
#include <thread>

struct Account {
  long balance = 0;
};

int main() {
  auto account = std::make_unique<Account>();
  Account* shared = account.get();
  std::thread t([shared] { shared->balance += 10; });
  t.join();
  shared->balance -= 5;
  return shared->balance == 5 ? 0 : 1;
}
