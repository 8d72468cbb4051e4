// Benchmark of what each store variant's synchronization costs (Google
// Benchmark, built only without a sanitizer: the release preset). For every
// variant of both families (subject_catalog.h):
//   - each operation, single-threaded and with 2 threads on one shared store
//     (aggregate items per second); each thread uses its own session (or its
//     own keys), so the figure is the cost of the locking, not of contention
//     on one entry;
//   - all() and retrieve_index() over 10, 100 and 10,000 entries, alone and
//     with a concurrent writer thread (all(): a writer setting the same keys,
//     so the size stays put; retrieve_index(): a committer to another session
//     of the same store, so the index read keeps its size).
// The deliberately unsafe variants run single-threaded only where concurrent
// use would corrupt them and may crash the benchmark: checkpoint/unsynchronized
// (every multi-threaded benchmark) and state/unlock_during_iteration (all()
// with a concurrent writer). bench/stores_table.py turns the JSON output into
// the ratio table of docs/performance.md.
//
// Run: build/release/bench/stores_bench --benchmark_format=json
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "subject_catalog.h"

namespace racelab {
namespace {

using checkpoint::CheckpointStore;
using state::StateStore;

constexpr int kSizes[] = {10, 100, 10000};
constexpr int kKeysPerThread = 64;  // set/get/erase cycle over these

bool is(const char* variant, const char* name) {
  return std::string(variant) == name;
}

// One store shared by the benchmark's threads: thread 0 makes it before the
// timed loop (Google Benchmark starts every thread's loop together, after
// that) and destroys it after.
template <class Store>
struct Shared {
  std::unique_ptr<Store> store;
};

std::string session_of(const benchmark::State& state) {
  return "session-" + std::to_string(state.thread_index());
}

// A background thread running `step` until stopped, with a count of steps.
class Writer {
 public:
  template <class Step>
  explicit Writer(Step step)
      : thread_([this, step] {
          while (!stop_.load(std::memory_order_relaxed)) {
            step(steps_);
            ++steps_;
          }
        }) {}
  ~Writer() { stop(); }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  // Stops and joins the thread; returns how many steps it made.
  std::uint64_t stop() {
    stop_.store(true, std::memory_order_relaxed);
    if (thread_.joinable()) thread_.join();
    return steps_;
  }

 private:
  std::atomic<bool> stop_{false};
  std::uint64_t steps_ = 0;  // written by the thread, read after join
  std::thread thread_;
};

// ---- checkpoint -----------------------------------------------------------

void register_checkpoint(const SubjectEntry<CheckpointStore>& subject) {
  const std::string prefix = std::string("checkpoint/") + subject.variant;
  auto make = subject.make;
  const bool unsafe = is(subject.variant, "unsynchronized");
  auto threads = [unsafe](benchmark::internal::Benchmark* b) {
    b->Threads(1);
    if (!unsafe) b->Threads(2);
    b->UseRealTime();
  };  // applied by hand: Apply() takes only a plain function
  auto shared = std::make_shared<Shared<CheckpointStore>>();

  auto* commit = benchmark::RegisterBenchmark(
      (prefix + "/commit").c_str(), [make, shared](benchmark::State& state) {
        if (state.thread_index() == 0) shared->store = make();
        const std::string session = session_of(state);
        for (auto _ : state) {
          benchmark::DoNotOptimize(shared->store->commit(session, "payload"));
        }
        state.SetItemsProcessed(state.iterations());
        if (state.thread_index() == 0) shared->store.reset();
      });
  threads(commit);

  auto* lookup = benchmark::RegisterBenchmark(
      (prefix + "/lookup").c_str(), [make, shared](benchmark::State& state) {
        if (state.thread_index() == 0) {
          shared->store = make();
          for (int t = 0; t < state.threads(); ++t) {
            for (int i = 0; i < 100; ++i) {
              shared->store->commit("session-" + std::to_string(t), "payload");
            }
          }
        }
        const std::string session = session_of(state);
        std::uint64_t id = 0;
        for (auto _ : state) {
          benchmark::DoNotOptimize(shared->store->lookup(session, id));
          id = id == 99 ? 0 : id + 1;
        }
        state.SetItemsProcessed(state.iterations());
        if (state.thread_index() == 0) shared->store.reset();
      });
  threads(lookup);

  // retrieve_index() over N entries; arg 1 = with a concurrent committer.
  for (bool with_writer : {false, true}) {
    if (with_writer && unsafe) continue;
    auto* b = benchmark::RegisterBenchmark(
        (prefix +
         (with_writer ? "/retrieve_index+committer" : "/retrieve_index"))
            .c_str(),
        [make, with_writer](benchmark::State& state) {
          std::unique_ptr<CheckpointStore> store = make();
          const int n = static_cast<int>(state.range(0));
          for (int i = 0; i < n; ++i) store->commit("reader", "payload");
          store->commit("writer", "payload");
          std::unique_ptr<Writer> writer;
          if (with_writer) {
            writer = std::make_unique<Writer>([&store](std::uint64_t) {
              store->commit("writer", "payload");
            });
          }
          for (auto _ : state) {
            checkpoint::IndexView view = store->retrieve_index("reader");
            std::uint64_t sum = 0;
            for (checkpoint::CheckpointId id : view.ids()) sum += id;
            benchmark::DoNotOptimize(sum);
          }
          state.SetItemsProcessed(state.iterations());
          if (writer) {
            state.counters["writer_per_s"] =
                benchmark::Counter(static_cast<double>(writer->stop()),
                                   benchmark::Counter::kIsRate);
          }
        });
    for (int n : kSizes) b->Arg(n);
    b->UseRealTime();
  }
}

// ---- state ----------------------------------------------------------------

std::vector<std::string> keys_of(int thread, int count) {
  std::vector<std::string> keys;
  for (int i = 0; i < count; ++i) {
    keys.push_back("t" + std::to_string(thread) + "k" + std::to_string(i));
  }
  return keys;
}

void register_state(const SubjectEntry<StateStore>& subject) {
  const std::string prefix = std::string("state/") + subject.variant;
  auto make = subject.make;
  const bool unsafe = is(subject.variant, "unlock_during_iteration");
  auto threads = +[](benchmark::internal::Benchmark* b) {
    b->Threads(1)->Threads(2)->UseRealTime();
  };
  auto shared = std::make_shared<Shared<StateStore>>();
  // Thread 0 makes a store holding every thread's keys.
  auto setup = [make, shared](benchmark::State& state) {
    if (state.thread_index() != 0) return;
    shared->store = make();
    for (int t = 0; t < state.threads(); ++t) {
      for (const std::string& k : keys_of(t, kKeysPerThread)) {
        shared->store->set(k, "value");
      }
    }
  };
  auto teardown = [shared](benchmark::State& state) {
    if (state.thread_index() == 0) shared->store.reset();
  };

  benchmark::RegisterBenchmark(
      (prefix + "/set").c_str(),
      [setup, teardown, shared](benchmark::State& state) {
        setup(state);
        const auto keys = keys_of(state.thread_index(), kKeysPerThread);
        size_t i = 0;
        for (auto _ : state) {
          shared->store->set(keys[i], "value");
          i = i + 1 == keys.size() ? 0 : i + 1;
        }
        state.SetItemsProcessed(state.iterations());
        teardown(state);
      })
      ->Apply(threads);

  benchmark::RegisterBenchmark(
      (prefix + "/get").c_str(),
      [setup, teardown, shared](benchmark::State& state) {
        setup(state);
        const auto keys = keys_of(state.thread_index(), kKeysPerThread);
        size_t i = 0;
        for (auto _ : state) {
          benchmark::DoNotOptimize(shared->store->get(keys[i]));
          i = i + 1 == keys.size() ? 0 : i + 1;
        }
        state.SetItemsProcessed(state.iterations());
        teardown(state);
      })
      ->Apply(threads);

  // erase() of a present key: each iteration sets the key back first.
  benchmark::RegisterBenchmark(
      (prefix + "/set+erase").c_str(),
      [setup, teardown, shared](benchmark::State& state) {
        setup(state);
        const auto keys = keys_of(state.thread_index(), kKeysPerThread);
        size_t i = 0;
        for (auto _ : state) {
          shared->store->set(keys[i], "value");
          benchmark::DoNotOptimize(shared->store->erase(keys[i]));
          i = i + 1 == keys.size() ? 0 : i + 1;
        }
        state.SetItemsProcessed(state.iterations());
        teardown(state);
      })
      ->Apply(threads);

  // all() over the 64 keys per thread, by every thread at once.
  benchmark::RegisterBenchmark(
      (prefix + "/all").c_str(),
      [setup, teardown, shared](benchmark::State& state) {
        setup(state);
        for (auto _ : state) {
          std::size_t bytes = 0;
          shared->store->all([&](const std::string& k, const std::string& v) {
            bytes += k.size() + v.size();
            return true;
          });
          benchmark::DoNotOptimize(bytes);
        }
        state.SetItemsProcessed(state.iterations());
        teardown(state);
      })
      ->Apply(threads);

  // all() over N entries; with a writer setting those same keys.
  for (bool with_writer : {false, true}) {
    if (with_writer && unsafe) continue;
    auto* b = benchmark::RegisterBenchmark(
        (prefix + (with_writer ? "/all_n+writer" : "/all_n")).c_str(),
        [make, with_writer](benchmark::State& state) {
          std::unique_ptr<StateStore> store = make();
          const auto keys = keys_of(0, static_cast<int>(state.range(0)));
          for (const std::string& k : keys) store->set(k, "value");
          std::unique_ptr<Writer> writer;
          if (with_writer) {
            writer = std::make_unique<Writer>([&](std::uint64_t step) {
              store->set(keys[step % keys.size()], "other");
            });
          }
          for (auto _ : state) {
            std::size_t bytes = 0;
            store->all([&](const std::string& k, const std::string& v) {
              bytes += k.size() + v.size();
              return true;
            });
            benchmark::DoNotOptimize(bytes);
          }
          state.SetItemsProcessed(state.iterations());
          if (writer) {
            state.counters["writer_per_s"] =
                benchmark::Counter(static_cast<double>(writer->stop()),
                                   benchmark::Counter::kIsRate);
          }
        });
    for (int n : kSizes) b->Arg(n);
    b->UseRealTime();
  }
}

}  // namespace
}  // namespace racelab

int main(int argc, char** argv) {
  for (const auto& subject : racelab::checkpoint_subjects()) {
    racelab::register_checkpoint(subject);
  }
  for (const auto& subject : racelab::state_subjects()) {
    racelab::register_state(subject);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
