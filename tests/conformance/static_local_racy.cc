// Conformance: as static_local_thread, but the static's initialiser also
// writes a global that a third thread reads without waiting for the static
// (data race).
// EXPECT-PLAIN: data-race
// EXPECT-EXPLORE: data_race
#include <thread>

int initialised_by = 0;

int compute() {
  int result = 0;
  std::thread helper([&result] { result = 42; });
  helper.join();
  initialised_by = 1;
  return result;
}

int config() {
  static const int value = compute();
  return value;
}

int main() {
  int seen = 0;
  std::thread t([] { config(); });
  std::thread reader([&seen] { seen = initialised_by; });
  const int value = config();
  t.join();
  reader.join();
  return value == 42 && seen >= 0 ? 0 : 1;
}
