// The litmus suite: seven classic tests of a memory model (Alglave, Maranget
// et al.'s names), each a tiny std::atomic program run under four orders,
// with the outcomes the C++ memory model allows under each order written
// beside it. litmus_test.cc explores every outcome with and without the
// memory-model mode; litmus_program.cc runs one as a whole program.
//
// An outcome is the values the test's loads read, comma-separated ("1,0"),
// or for 2+2W the final values of x and y.
#ifndef RACELAB_TESTS_LITMUS_LITMUS_TESTS_H_
#define RACELAB_TESTS_LITMUS_LITMUS_TESTS_H_

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace litmus {

// The orders a test runs with: every load and store relaxed, release and
// acquire, or seq_cst; or relaxed with a seq_cst fence between each
// thread's two accesses.
enum Order { kRelaxed, kAcqRel, kSeqCst, kFenced };
inline constexpr Order kOrders[] = {kRelaxed, kAcqRel, kSeqCst, kFenced};
inline const char* order_name(Order order) {
  switch (order) {
    case kRelaxed:
      return "relaxed";
    case kAcqRel:
      return "acqrel";
    case kSeqCst:
      return "seqcst";
    case kFenced:
      return "fenced";
  }
  return "?";
}

// Which orders, as a bit set.
using Orders = unsigned;
inline constexpr Orders bit(Order order) { return 1u << order; }
inline constexpr Orders kAll =
    bit(kRelaxed) | bit(kAcqRel) | bit(kSeqCst) | bit(kFenced);

struct Outcome {
  const char* value;
  Orders allowed;  // the orders under which the C++ memory model allows it
  // Allowed orders under which racelab's fragment cannot show it (load
  // buffering; a modification order other than the order stores ran in).
  Orders outside_fragment = 0;
};

struct Test {
  const char* name;
  std::string (*run)(Order order);
  std::vector<Outcome> outcomes;
};

namespace internal {
inline std::memory_order load_order(Order o) {
  return o == kAcqRel   ? std::memory_order_acquire
         : o == kSeqCst ? std::memory_order_seq_cst
                        : std::memory_order_relaxed;
}
inline std::memory_order store_order(Order o) {
  return o == kAcqRel   ? std::memory_order_release
         : o == kSeqCst ? std::memory_order_seq_cst
                        : std::memory_order_relaxed;
}
inline void fence(Order o) {
  if (o == kFenced) std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline std::string join(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out += (out.empty() ? "" : ",") + std::to_string(v);
  return out;
}
}  // namespace internal

// Store buffering: each thread stores its flag, then loads the other's.
inline std::string store_buffering(Order o) {
  using namespace internal;
  std::atomic<int> x{0}, y{0};
  int r1 = -1, r2 = -1;
  std::thread a([&] {
    x.store(1, store_order(o));
    fence(o);
    r1 = y.load(load_order(o));
  });
  std::thread b([&] {
    y.store(1, store_order(o));
    fence(o);
    r2 = x.load(load_order(o));
  });
  a.join();
  b.join();
  return join({r1, r2});
}

// Message passing: a payload (always relaxed), then a flag; the reader
// loads the flag, then the payload.
inline std::string message_passing(Order o) {
  using namespace internal;
  std::atomic<int> data{0}, flag{0};
  int r1 = -1, r2 = -1;
  std::thread writer([&] {
    data.store(1, std::memory_order_relaxed);
    fence(o);
    flag.store(1, store_order(o));
  });
  std::thread reader([&] {
    r1 = flag.load(load_order(o));
    fence(o);
    r2 = data.load(std::memory_order_relaxed);
  });
  writer.join();
  reader.join();
  return join({r1, r2});
}

// Load buffering: each thread loads the other's flag, then stores its own.
inline std::string load_buffering(Order o) {
  using namespace internal;
  std::atomic<int> x{0}, y{0};
  int r1 = -1, r2 = -1;
  std::thread a([&] {
    r1 = x.load(load_order(o));
    fence(o);
    y.store(1, store_order(o));
  });
  std::thread b([&] {
    r2 = y.load(load_order(o));
    fence(o);
    x.store(1, store_order(o));
  });
  a.join();
  b.join();
  return join({r1, r2});
}

// Independent reads of independent writes: two readers see the two writes
// in opposite orders.
inline std::string iriw(Order o) {
  using namespace internal;
  std::atomic<int> x{0}, y{0};
  int r1 = -1, r2 = -1, r3 = -1, r4 = -1;
  std::thread wx([&] { x.store(1, store_order(o)); });
  std::thread wy([&] { y.store(1, store_order(o)); });
  std::thread ra([&] {
    r1 = x.load(load_order(o));
    fence(o);
    r2 = y.load(load_order(o));
  });
  std::thread rb([&] {
    r3 = y.load(load_order(o));
    fence(o);
    r4 = x.load(load_order(o));
  });
  wx.join();
  wy.join();
  ra.join();
  rb.join();
  return join({r1, r2, r3, r4});
}

// 2+2W: each thread writes both variables, in opposite orders; the outcome
// is the final values.
inline std::string two_plus_two_writes(Order o) {
  using namespace internal;
  std::atomic<int> x{0}, y{0};
  std::thread a([&] {
    x.store(1, store_order(o));
    fence(o);
    y.store(2, store_order(o));
  });
  std::thread b([&] {
    y.store(1, store_order(o));
    fence(o);
    x.store(2, store_order(o));
  });
  a.join();
  b.join();
  return join({x.load(load_order(o)), y.load(load_order(o))});
}

// Read-read coherence: two loads of one variable never see its stores in
// the reverse of their order.
inline std::string corr(Order o) {
  using namespace internal;
  std::atomic<int> x{0};
  int r1 = -1, r2 = -1;
  std::thread writer([&] {
    x.store(1, store_order(o));
    x.store(2, store_order(o));
  });
  std::thread reader([&] {
    r1 = x.load(load_order(o));
    fence(o);
    r2 = x.load(load_order(o));
  });
  writer.join();
  reader.join();
  return join({r1, r2});
}

// Write-read coherence: a thread's load after its own store never reads a
// store older than it.
inline std::string cowr(Order o) {
  using namespace internal;
  std::atomic<int> x{0};
  int r1 = -1;
  std::thread a([&] {
    x.store(1, store_order(o));
    fence(o);
    r1 = x.load(load_order(o));
  });
  std::thread b([&] { x.store(2, store_order(o)); });
  a.join();
  b.join();
  return join({r1});
}

inline constexpr Orders kWeak = bit(kRelaxed) | bit(kAcqRel);

inline const std::vector<Test>& tests() {
  static const auto* list = new std::vector<Test>{
      {"SB",
       store_buffering,
       {{"0,0", kWeak}, {"0,1", kAll}, {"1,0", kAll}, {"1,1", kAll}}},
      {"MP",
       message_passing,
       {{"1,0", bit(kRelaxed)}, {"0,0", kAll}, {"0,1", kAll}, {"1,1", kAll}}},
      {"LB",
       load_buffering,
       {{"1,1", bit(kRelaxed), bit(kRelaxed)},
        {"0,0", kAll},
        {"0,1", kAll},
        {"1,0", kAll}}},
      {"IRIW",
       iriw,
       {{"1,0,1,0", kWeak},
        {"1,1,1,1", kAll},
        {"0,0,0,0", kAll},
        {"1,0,0,1", kAll}}},
      {"2+2W",
       two_plus_two_writes,
       {{"1,1", kWeak, kWeak}, {"2,2", kAll}, {"1,2", kAll}, {"2,1", kAll}}},
      {"CoRR", corr, {{"2,1", 0}, {"1,0", 0}, {"0,2", kAll}, {"1,2", kAll}}},
      {"CoWR", cowr, {{"0", 0}, {"1", kAll}, {"2", kAll}}},
  };
  return *list;
}

}  // namespace litmus

#endif  // RACELAB_TESTS_LITMUS_LITMUS_TESTS_H_
