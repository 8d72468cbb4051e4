// Correct whole programs that are long or use what a library's example
// programs use, for `racelab explore` (long_run_test.sh): each must finish
// clean, never end as a probable livelock or a hang.
//   long_run_program increments   2 threads x 20,000 locked increments
//   long_run_program future_pool  4 workers run 200 std::packaged_tasks
//                                 whose futures main waits on
//   long_run_program static_pool  a worker started by a static constructor
//                                 before main takes the lock main takes
//   long_run_program outside_holder  main and a thread of its own wait for a
//                                 lock a static constructor's worker holds
//                                 until both wait in the kernel
#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

int increments() {
  std::mutex mu;
  long count = 0;
  auto add = [&] {
    for (int i = 0; i < 20000; ++i) {
      std::lock_guard<std::mutex> hold(mu);
      ++count;
    }
  };
  std::thread other(add);
  add();
  other.join();
  return count == 40000 ? 0 : 1;
}

// A fixed-size pool: tasks queued under a lock, workers woken by a
// condition variable, results through std::future.
class Pool {
 public:
  explicit Pool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> hold(mu_);
      stopping_ = true;
    }
    ready_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  std::future<int> submit(std::function<int()> f) {
    std::packaged_task<int()> task(std::move(f));
    std::future<int> result = task.get_future();
    {
      std::lock_guard<std::mutex> hold(mu_);
      tasks_.push_back(std::move(task));
    }
    ready_.notify_one();
    return result;
  }

 private:
  void work() {
    for (;;) {
      std::packaged_task<int()> task;
      {
        std::unique_lock<std::mutex> hold(mu_);
        ready_.wait(hold, [this] { return stopping_ || !tasks_.empty(); });
        if (tasks_.empty()) return;
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
  }
  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<std::packaged_task<int()>> tasks_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

int future_pool() {
  Pool pool(4);
  std::vector<std::future<int>> results;
  for (int i = 0; i < 200; ++i) {
    results.push_back(pool.submit([i] { return i; }));
  }
  long sum = 0;
  for (std::future<int>& r : results) sum += r.get();
  return sum == 199 * 200 / 2 ? 0 : 1;
}

// Started before main by a static constructor, as a library's global pool.
std::mutex g_mu;
int g_served = 0;
struct Background {
  Background()
      : worker([] {
          for (int i = 0; i < 100; ++i) {
            std::lock_guard<std::mutex> hold(g_mu);
            ++g_served;
          }
        }) {}
  ~Background() {
    if (worker.joinable()) worker.join();
  }
  std::thread worker;
};
Background g_background;

int static_pool() {
  for (int i = 0; i < 100; ++i) {
    std::lock_guard<std::mutex> hold(g_mu);
    ++g_served;
  }
  g_background.worker.join();
  return g_served == 200 ? 0 : 1;
}

// A lock held outside the run: a worker a static constructor started takes
// it when main asks (a byte on `go`), says so (`held`), and lets it go only
// once a thread waits for it in the kernel (glibc's lock word 2: contended),
// or after 10 s. Nothing of the run can see that release: the waiters must
// wait for it in the kernel, not as a deadlock of the run.
struct OutsideHolder {
  OutsideHolder() {
    if (pipe(go) != 0 || pipe(held) != 0) std::abort();
    worker = std::thread([this] {
      char byte;
      if (read(go[0], &byte, 1) != 1) return;  // main never asked
      pthread_mutex_lock(&mu);
      if (write(held[1], &byte, 1) != 1) std::abort();
      const auto until =
          std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (__atomic_load_n(&mu.__data.__lock, __ATOMIC_RELAXED) != 2 &&
             std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      pthread_mutex_unlock(&mu);
    });
  }
  ~OutsideHolder() {
    close(go[1]);
    if (worker.joinable()) worker.join();
  }
  pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  int go[2];
  int held[2];
  std::thread worker;
};
OutsideHolder g_outside;

int outside_holder() {
  char byte = 'g';
  if (write(g_outside.go[1], &byte, 1) != 1 ||
      read(g_outside.held[0], &byte, 1) != 1) {
    return 1;
  }
  int taken = 0;
  auto take = [&] {
    pthread_mutex_lock(&g_outside.mu);
    ++taken;
    pthread_mutex_unlock(&g_outside.mu);
  };
  std::thread other(take);
  take();
  other.join();
  return taken == 2 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "increments") return increments();
  if (mode == "future_pool") return future_pool();
  if (mode == "static_pool") return static_pool();
  if (mode == "outside_holder") return outside_holder();
  std::fprintf(stderr,
               "usage: %s increments|future_pool|static_pool|outside_holder\n",
               argv[0]);
  return 2;
}
