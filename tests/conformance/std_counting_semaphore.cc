// Conformance: a std::counting_semaphore hands two values from a producer to
// main, a std::binary_semaphore answers back (clean).
// EXPECT-PLAIN: clean
// EXPECT-EXPLORE: clean
#include <semaphore>
#include <thread>

std::counting_semaphore<2> items(0);
std::binary_semaphore reply(0);
int values[2];
int answer = 0;

int main() {
  std::thread producer([] {
    values[0] = 40;
    items.release();
    values[1] = 2;
    items.release();
    reply.acquire();
    answer = values[0] + values[1];
  });
  items.acquire();
  items.acquire();
  const int sum = values[0] + values[1];
  reply.release();
  producer.join();
  return sum == 42 && answer == 42 ? 0 : 1;
}
