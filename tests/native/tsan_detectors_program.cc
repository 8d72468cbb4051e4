// Whole programs for ThreadSanitizer's detectors other than data races, run
// plainly and under `racelab explore -- ./racelab_tsan_detectors_program
// <name>` (tsan_detectors_test.sh): each misuse is one that plain TSan
// reports on every run, and racelab must keep reporting it.
//   lock_order_inversion  two threads, one after the other, take two mutexes
//                         in opposite orders (no deadlock can happen; TSan's
//                         lock-order detector reports the inversion)
//   destroyed_mutex       locks a mutex after pthread_mutex_destroy (glibc:
//                         EINVAL; TSan: use of an invalid mutex)
//   thread_leak           a joinable thread finishes and is never joined
//                         (TSan: thread leak, at exit)
#include <errno.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

namespace {

int lock_order_inversion() {
  std::mutex a, b;
  int shared = 0;
  std::thread first([&] {
    std::lock_guard<std::mutex> hold_a(a);
    std::lock_guard<std::mutex> hold_b(b);
    ++shared;
  });
  first.join();
  std::thread second([&] {
    std::lock_guard<std::mutex> hold_b(b);
    std::lock_guard<std::mutex> hold_a(a);
    ++shared;
  });
  second.join();
  return shared == 2 ? 0 : 1;
}

int destroyed_mutex() {
  pthread_mutex_t mu;
  pthread_mutex_init(&mu, nullptr);
  std::thread user([&] {
    pthread_mutex_lock(&mu);
    pthread_mutex_unlock(&mu);
    pthread_mutex_destroy(&mu);
  });
  user.join();
  const int result = pthread_mutex_lock(&mu);
  std::printf("pthread_mutex_lock of a destroyed mutex: %s\n",
              result == 0 ? "0" : strerrorname_np(result));
  if (result == 0) pthread_mutex_unlock(&mu);
  return result == EINVAL ? 0 : 1;
}

std::atomic<long> g_leaked_tid{0};

void* leaked_body(void*) {
  g_leaked_tid.store(syscall(SYS_gettid));
  return nullptr;
}

int thread_leak() {
  pthread_t thread;
  if (pthread_create(&thread, nullptr, &leaked_body, nullptr) != 0) return 1;
  while (g_leaked_tid.load() == 0) sched_yield();
  // The thread has finished its body; wait (by the kernel's word, not by a
  // join) until it is gone, so that TSan sees it finished at exit.
  const std::string task =
      "/proc/self/task/" + std::to_string(g_leaked_tid.load());
  while (access(task.c_str(), F_OK) == 0) {
    const struct timespec millisecond = {0, 1000000};
    syscall(SYS_nanosleep, &millisecond, nullptr);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string name = argc == 2 ? argv[1] : "";
  if (name == "lock_order_inversion") return lock_order_inversion();
  if (name == "destroyed_mutex") return destroyed_mutex();
  if (name == "thread_leak") return thread_leak();
  std::fprintf(stderr,
               "usage: %s lock_order_inversion|destroyed_mutex|thread_leak\n",
               argv[0]);
  return 2;
}
